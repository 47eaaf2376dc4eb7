// pairs.cpp — scene-wide pair reports.
//
// Outline: the bodies go into a World (dynamic tree broad phase); each pair its update() finds
// touching is reported from the world's manifolds alone (contact_manifolds(), one per touching
// child pair): its contacts are their points, its depth the deepest point's -separation and its
// normal that point's manifold normal, so the three never disagree; the status is overlap when
// that depth exceeds the contact tolerance, else touching. Impacts put a
// box holding each body's whole motion into a dynamic tree and run time_of_impact on each pair
// of overlapping boxes.
#include "collide2d/io/pairs.hpp"

#include <algorithm>
#include <limits>
#include <span>

#include "collide2d/distance.hpp"
#include "collide2d/shape_cast.hpp"
#include "collide2d/tolerance.hpp"
#include "collide2d/world.hpp"

namespace collide2d::io {
namespace {

/// Pairs (a < b, sorted) of boxes that overlap or touch, from a dynamic tree.
std::vector<std::pair<int, int>> overlapping_boxes(const std::vector<Aabb>& boxes) {
  const std::unique_ptr<BroadPhase> tree = make_broad_phase(BroadPhaseKind::dynamic_tree);
  for (const Aabb& box : boxes) tree->insert(box);  // proxy ids are 0, 1, 2, ... in insertion order
  std::vector<std::pair<int, int>> pairs;
  tree->find_pairs(pairs);
  return pairs;
}

/// The report of a pair from its contact manifolds (one per touching child pair; none when the
/// bodies are apart), so contacts, depth and normal always come from one computation: the depth
/// is the largest -separation of the points, the normal that point's manifold normal. The pair
/// touches when that depth is within the contact tolerance of the points' coordinates in a's frame.
PairReport report_from_manifolds(const Scene& scene, int a, int b, std::span<const Manifold> manifolds) {
  PairReport report{a, b, PairStatus::separate, 0, {}, {}};
  const Transform& transform_a = scene.bodies[static_cast<std::size_t>(a)].transform;
  Real deepest = -std::numeric_limits<Real>::infinity(), magnitude = 0;
  for (const Manifold& manifold : manifolds) {
    for (const ManifoldPoint& point : std::span(manifold.points).first(static_cast<std::size_t>(manifold.point_count))) {
      report.contacts.push_back(point);
      magnitude = std::max(magnitude, coordinate_magnitude(inverse_transform_point(transform_a, point.point)));
      if (-point.separation > deepest) {
        deepest = -point.separation;
        report.normal = manifold.normal;
      }
    }
  }
  if (report.contacts.empty()) return report;
  report.status = deepest > contact_tolerance(magnitude) ? PairStatus::overlap : PairStatus::touching;
  report.depth = report.status == PairStatus::overlap ? deepest : 0;
  return report;
}

/// The report of a pair, with its manifolds from contact_manifolds().
PairReport classify(const Scene& scene, int a, int b) {
  const Body& first = scene.bodies[static_cast<std::size_t>(a)];
  const Body& second = scene.bodies[static_cast<std::size_t>(b)];
  std::vector<ChildManifold> children;
  contact_manifolds(first.shape, first.transform, second.shape, second.transform, children);
  std::vector<Manifold> manifolds;
  for (const ChildManifold& child : children) manifolds.push_back(child.manifold);
  return report_from_manifolds(scene, a, b, manifolds);
}

}  // namespace

std::vector<PairReport> find_pairs(const Scene& scene, bool all) {
  const int count = static_cast<int>(scene.bodies.size());
  std::vector<PairReport> reports;
  if (all) {
    for (int a = 0; a < count; ++a) {
      for (int b = a + 1; b < count; ++b) reports.push_back(classify(scene, a, b));
    }
    return reports;
  }
  World world;
  for (const Body& body : scene.bodies) world.add({body.shape, body.transform, body.velocity, body.angular_velocity, 0, {}});
  world.update();  // slots are the body indices: nothing was removed
  const std::vector<ContactPair>& contacts = world.contacts();
  std::vector<Manifold> manifolds;
  for (std::size_t i = 0; i < contacts.size(); ++i) {  // a compound's pair comes as several contacts in a row
    manifolds.push_back(contacts[i].manifold);
    if (i + 1 < contacts.size() && contacts[i + 1].a == contacts[i].a && contacts[i + 1].b == contacts[i].b) continue;
    PairReport report = report_from_manifolds(scene, static_cast<int>(contacts[i].a.index), static_cast<int>(contacts[i].b.index), manifolds);
    if (report.status != PairStatus::separate) reports.push_back(std::move(report));
    manifolds.clear();
  }
  return reports;
}

MoveResult move_body(const Scene& scene, int mover, Vec2 motion, MoveOptions options) {
  World world;
  std::vector<BodyHandle> handles;  // slots are the body indices: nothing is removed
  for (const Body& body : scene.bodies) handles.push_back(world.add({body.shape, body.transform, {}, 0, 0, {}}));
  const Body& moving = scene.bodies[static_cast<std::size_t>(mover)];
  options.filter.ignore = handles[static_cast<std::size_t>(mover)];
  world.update();
  return move_and_slide(world, moving.shape, moving.transform, motion, options);
}

std::vector<DistanceReport> all_distances(const Scene& scene) {
  std::vector<DistanceReport> reports;
  const int count = static_cast<int>(scene.bodies.size());
  for (int a = 0; a < count; ++a) {
    for (int b = a + 1; b < count; ++b) {
      const Body& first = scene.bodies[static_cast<std::size_t>(a)];
      const Body& second = scene.bodies[static_cast<std::size_t>(b)];
      const DistanceResult result = distance(first.shape, first.transform, second.shape, second.transform);
      reports.push_back({a, b, result.distance, result.normal, result.point_a, result.point_b});
    }
  }
  return reports;
}

std::vector<RayReport> cast_ray(const Scene& scene, const Ray& ray, bool all) {
  std::vector<RayReport> hits;
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    const Body& body = scene.bodies[i];
    if (const std::optional<RayHit> hit = raycast(body.shape, body.transform, ray)) hits.push_back({static_cast<int>(i), *hit});
  }
  std::stable_sort(hits.begin(), hits.end(), [](const RayReport& left, const RayReport& right) { return left.hit.fraction < right.hit.fraction; });
  if (!all && hits.size() > 1) hits.resize(1);
  return hits;
}

std::vector<ImpactReport> find_impacts(const Scene& scene, Real duration) {
  // Each body stays within its reach of its origin's straight path: a box around that path,
  // grown by the reach, holds the whole sweep.
  std::vector<Sweep> sweeps;
  std::vector<Aabb> boxes;
  for (const Body& body : scene.bodies) {
    sweeps.push_back(Sweep::from_motion(body.transform, body.velocity, body.angular_velocity, duration));
    const Real reach = size_scale(body.shape);
    const Vec2 start = sweeps.back().center_start, end = sweeps.back().center_end;
    boxes.push_back({min(start, end) - Vec2{reach, reach}, max(start, end) + Vec2{reach, reach}});
  }
  std::vector<ImpactReport> impacts;
  for (const auto& [first, second] : overlapping_boxes(boxes)) {
    const int a = first, b = second;
    const std::optional<CastHit> hit =
        time_of_impact(scene.bodies[static_cast<std::size_t>(a)].shape, sweeps[a], scene.bodies[static_cast<std::size_t>(b)].shape, sweeps[b]);
    if (hit) impacts.push_back({a, b, hit->time * duration, *hit});
  }
  return impacts;
}

const char* status_name(PairStatus status) {
  switch (status) {
    case PairStatus::overlap: return "overlap";
    case PairStatus::touching: return "touching";
    case PairStatus::separate: return "separate";
  }
  return "separate";
}

}  // namespace collide2d::io

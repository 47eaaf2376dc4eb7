// minkowski.cpp — the Minkowski difference by brute force, and the exit vector along a motion.
//
// Difference outline: subtract every core vertex of A from every core vertex of B (B placed in
// A's frame), take the convex hull, and sweep it by the sum of the radii. The origin's signed
// distance to that rounded hull says whether the shapes overlap and by how much; the nearest
// boundary point is the minimum translation.
// Exit outline (the "cast the velocity into the Minkowski difference" method of swept AABB and
// slope-sliding tutorials): B moved back by s * motion touches A when s * motion lies on the
// boundary of the difference at B's final pose. Seen from B's pose before the motion, that is
// the first contact of B moving forward by the motion, time 1 - s: shape_cast finds it from
// support points (exact for rounded shapes, no difference built). A contact at time 0 means B
// touched or overlapped A before it moved; penetration() there tells the two apart.
#include <algorithm>
#include <cmath>

#include "collide2d/algorithms.hpp"
#include "collide2d/hull.hpp"
#include "collide2d/overlap.hpp"
#include "collide2d/penetration.hpp"
#include "collide2d/shape_cast.hpp"
#include "collide2d/tolerance.hpp"

namespace collide2d {
namespace {

std::vector<Vec2> core_vertices(const ConvexShape& shape) {
  struct Visitor {
    std::vector<Vec2> operator()(const Circle& circle) const { return {circle.center}; }
    std::vector<Vec2> operator()(const Capsule& capsule) const { return {capsule.a, capsule.b}; }
    std::vector<Vec2> operator()(const Segment& segment) const { return {segment.a, segment.b}; }
    std::vector<Vec2> operator()(const Polygon& polygon) const { return {polygon.vertices().begin(), polygon.vertices().end()}; }
  };
  return std::visit(Visitor{}, shape);
}

/// The closest point to the origin on the segment from p to q.
Vec2 closest_on_segment(Vec2 p, Vec2 q) { return lerp(p, q, closest_parameter_on_segment(p, q, Vec2{})); }

/// Edges of a hull as (start, end, outward normal); a two-point hull has two opposite edges.
struct HullEdge {
  Vec2 start, end, outward;
};
std::vector<HullEdge> hull_edges(const std::vector<Vec2>& hull) {
  std::vector<HullEdge> edges;
  if (hull.size() < 2) return edges;
  for (std::size_t i = 0; i < hull.size(); ++i) {
    const Vec2 start = hull[i], end = hull[(i + 1) % hull.size()];
    edges.push_back({start, end, normalize(right_perpendicular(end - start))});
  }
  return edges;
}

}  // namespace

MinkowskiDifference minkowski_difference(const ConvexShape& a, const ConvexShape& b, const Transform& b_to_a) {
  MinkowskiDifference result;
  const std::vector<Vec2> points_a = core_vertices(a), points_b = core_vertices(b);
  Real scale = 0;
  for (Vec2 point_b : points_b) {
    const Vec2 placed = transform_point(b_to_a, point_b);
    for (Vec2 point_a : points_a) {
      result.all_points.push_back(placed - point_a);
      scale = std::max({scale, std::abs(placed.x), std::abs(placed.y), std::abs(point_a.x), std::abs(point_a.y)});
    }
  }
  result.hull = convex_hull(result.all_points);
  result.radius = std::visit([](const auto& shape) { return shape.rounding_radius(); }, a) +
                  std::visit([](const auto& shape) { return shape.rounding_radius(); }, b);

  const std::vector<HullEdge> edges = hull_edges(result.hull);
  bool inside_core = result.hull.size() >= 3;
  Real nearest = std::numeric_limits<Real>::max();
  Vec2 nearest_point = result.hull.empty() ? Vec2{} : result.hull[0];
  Vec2 nearest_outward{-1, 0};
  for (const HullEdge& edge : edges) {
    if (dot(edge.outward, edge.start) < 0) inside_core = false;  // the origin is beyond this edge
    const Vec2 candidate = closest_on_segment(edge.start, edge.end);
    if (length(candidate) < nearest) {
      nearest = length(candidate);
      nearest_point = candidate;
      nearest_outward = edge.outward;
    }
  }
  if (edges.empty()) nearest = length(nearest_point);

  if (inside_core) {  // depth = distance to the nearest edge, plus the radius
    result.signed_distance = -(nearest + result.radius);
    result.closest_point = nearest_point + result.radius * nearest_outward;
    result.normal = -nearest_outward;
  } else {
    result.signed_distance = nearest - result.radius;
    result.normal = nearest > 0 ? (Real(1) / nearest) * nearest_point : -nearest_outward;
    result.closest_point = nearest_point - result.radius * result.normal;
  }
  result.contains_origin = result.signed_distance <= contact_tolerance(scale);
  return result;
}

Result<MinkowskiExit, ExitRefusal> minkowski_exit(const Shape& a, const Transform& transform_a, const Shape& b, const Transform& transform_b,
                                                  Vec2 motion_b) {
  if (length_squared(motion_b) == 0) return ExitRefusal{ExitRefusalKind::zero_motion, "the motion is zero: there is no line to back out along"};
  const ExitRefusal apart{ExitRefusalKind::apart, "B does not overlap A after the motion (it touches it at most): there is nothing to undo"};
  if (!overlap(a, transform_a, b, transform_b)) return apart;  // also when B passed through A
  // Contact within the touching band of the features (the cast's own): B backed out is left that
  // close to A, never inside it. For a compound, the cast's first contact is with the first piece
  // the motion meets.
  const Transform before{transform_b.position - motion_b, transform_b.rotation};
  const std::optional<CastHit> hit = shape_cast(a, transform_a, b, before, motion_b);
  if (!hit) return apart;  // touching at the end within overlap()'s band, beyond the cast's
  if (hit->initially_touching) {
    const std::optional<Penetration> start = penetration(a, transform_a, b, before);
    if (start && start->depth > start->tolerance) {
      return ExitRefusal{ExitRefusalKind::overlapping_before,
                         "B moved back by the whole motion still overlaps A by " + std::to_string(start->depth) +
                             ": it overlapped before the motion, which does not explain the overlap"};
    }
  }
  MinkowskiExit exit;
  exit.fraction = 1 - hit->time;
  exit.translation_b = -exit.fraction * motion_b;
  exit.normal = hit->normal;
  const Vec2 blocked = exit.fraction * motion_b;
  exit.slide = blocked - dot(blocked, exit.normal) * exit.normal;
  exit.status = hit->status;
  return exit;
}

Result<MinkowskiExit, ExitRefusal> minkowski_exit(const ConvexShape& a, const Transform& transform_a, const ConvexShape& b,
                                                  const Transform& transform_b, Vec2 motion_b) {
  auto as_shape = [](const ConvexShape& convex) { return std::visit([](const auto& concrete) { return Shape(concrete); }, convex); };
  return minkowski_exit(as_shape(a), transform_a, as_shape(b), transform_b, motion_b);
}

}  // namespace collide2d

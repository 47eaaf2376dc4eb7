// queries.cpp — the Shape-variant front doors of overlap, penetration, distance, contact
// manifolds and the casts, and every query on compounds.
//
// Two convex shapes go straight to the typed query. A compound is the union of its children:
// each query walks the pairs of convex parts (a convex shape is its own single part) whose boxes
// can matter, using the compound's child tree, and combines the answers: any overlap; the
// smallest distance (pairs whose boxes are farther apart than the best so far are skipped); the
// earliest cast hit; one manifold per touching child pair.
//
// Seams (after the idea of Bullet's internal-edge utility and Jolt's internal-edge removal, done
// here with the compound's own geometry): a manifold point lies on the child's surface at q with
// outward normal n. The compound's outline allows n at q only if every other child that q lies
// on allows it too: a child with q inside allows nothing, a child with q inside one of its faces
// allows only that face's normal, and a child with q at a corner allows the normals between its
// two edges' normals. So at a seam, or where pieces meet in a flat or concave join, a normal that
// would push along the join is refused, and the manifold is recomputed against the child's face
// that separates most among its faces on the compound's outside (clipping the other shape's
// incident edge to it, or projecting a circle onto it). A child with no outside face gives none.
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "collide2d/distance.hpp"
#include "collide2d/manifold.hpp"
#include "collide2d/overlap.hpp"
#include "collide2d/penetration.hpp"
#include "collide2d/point_query.hpp"
#include "collide2d/raycast.hpp"
#include "collide2d/shape_cast.hpp"
#include "compound_internal.hpp"
#include "polygon_view.hpp"

namespace collide2d {
namespace {

bool is_compound(const Shape& shape) { return std::holds_alternative<Compound>(shape); }

Aabb expanded(const Aabb& box, Real margin) { return {box.lower - Vec2{margin, margin}, box.upper + Vec2{margin, margin}}; }

/// The box, in the frame `transform` places, holding a world box.
Aabb to_local_box(const Aabb& world_box, const Transform& transform) {
  const Vec2 corners[4] = {world_box.lower, {world_box.upper.x, world_box.lower.y}, world_box.upper, {world_box.lower.x, world_box.upper.y}};
  Aabb local{inverse_transform_point(transform, corners[0]), inverse_transform_point(transform, corners[0])};
  for (const Vec2 corner : corners) {
    const Vec2 point = inverse_transform_point(transform, corner);
    local = local.merged({point, point});
  }
  return local;
}

/// Gap between two boxes (0 when they overlap).
Real box_gap(const Aabb& a, const Aabb& b) {
  const Vec2 gap = max(Vec2{}, max(a.lower - b.upper, b.lower - a.upper));
  return length(gap);
}

/// The margin by which boxes are widened so that touching within tolerance is never culled.
Real culling_margin(const Shape& a, const Transform& transform_a, const Shape& b, const Transform& transform_b) {
  return 4 * relative_tolerance * (size_scale(a) + size_scale(b) + length(transform_a.position) + length(transform_b.position));
}

/// Calls visit(convex part, its world transform, child index or -1) for a convex shape, or for
/// each child of a compound whose box meets the world box `region` (every child when null),
/// until visit returns false.
template <class Visit>
void for_each_part(const Shape& shape, const Transform& transform, const Aabb* region, Visit&& visit) {
  std::visit(
      [&](const auto& concrete) {
        if constexpr (std::is_same_v<std::decay_t<decltype(concrete)>, Compound>) {
          auto visit_child = [&](int child) {
            const CompoundChild& part = concrete.children()[child];
            const Transform placed = compose(transform, part.transform);
            return std::visit([&](const auto& convex) { return visit(convex, placed, child); }, part.shape);
          };
          if (region == nullptr) {
            for (int child = 0; child < static_cast<int>(concrete.children().size()); ++child) {
              if (!visit_child(child)) return;
            }
          } else {
            detail::for_each_child_overlapping(concrete, to_local_box(*region, transform), visit_child);
          }
        } else {
          visit(concrete, transform, -1);
        }
      },
      shape);
}

// --- seams ---------------------------------------------------------------------------------

constexpr Real seam_slack_sine = Real(0.005);              // about 0.29 degrees
constexpr Real seam_slack_cosine = Real(1) - Real(1.25e-5);  // cos of the same angle

/// True when `normal` (unit) lies in the cone from `first` counter-clockwise to `last` (unit
/// normals less than half a turn apart), widened by the slack.
bool in_normal_cone(Vec2 normal, Vec2 first, Vec2 last) {
  if (dot(first, last) >= seam_slack_cosine) return dot(normal, first) >= seam_slack_cosine;
  return cross(first, normal) >= -seam_slack_sine && cross(normal, last) >= -seam_slack_sine && dot(normal, first + last) >= 0;
}

/// Does `child` (compound frame) allow an outward surface normal at q (compound frame)?
bool child_allows(const CompoundChild& child, Vec2 q, Vec2 normal, Real tolerance) {
  const PointProjection nearest = detail::closest_point_on_child(child, q);
  if (nearest.signed_distance < -tolerance) return false;  // q is inside this child: not the outline
  if (nearest.signed_distance > tolerance) return true;    // q is not on this child
  if (const Polygon* polygon = std::get_if<Polygon>(&child.shape); polygon != nullptr && polygon->radius() == 0) {
    const int count = polygon->count();
    for (int i = 0; i < count; ++i) {
      if (length(transform_point(child.transform, polygon->vertices()[i]) - q) <= tolerance) {
        const Vec2 before = rotate(child.transform.rotation, polygon->normals()[(i + count - 1) % count]);
        const Vec2 after = rotate(child.transform.rotation, polygon->normals()[i]);
        return in_normal_cone(normal, before, after);
      }
    }
  }
  return dot(normal, nearest.normal) >= seam_slack_cosine;
}

/// Does the compound's outline allow every point of a manifold between its child `child` and
/// another shape? `compound_is_a` tells which side of the manifold the compound is on.
bool outline_allows(const Compound& compound, const Transform& transform, int child, const Manifold& manifold, bool compound_is_a) {
  const Real tolerance = 32 * relative_tolerance * (compound.reach() + length(transform.position));
  const Vec2 outward = inverse_rotate(transform.rotation, compound_is_a ? manifold.normal : -manifold.normal);
  for (int i = 0; i < manifold.point_count; ++i) {
    const ManifoldPoint& point = manifold.points[i];
    const Real half_gap = Real(0.5) * point.separation;
    const Vec2 surface = compound_is_a ? point.point - half_gap * manifold.normal : point.point + half_gap * manifold.normal;
    const Vec2 q = inverse_transform_point(transform, surface);
    bool allowed = true;
    detail::for_each_child_overlapping(compound, expanded(Aabb{q, q}, tolerance), [&](int other) {
      if (other != child) allowed = child_allows(compound.children()[other], q, outward, tolerance);
      return allowed;
    });
    if (!allowed) return false;
  }
  return true;
}

/// The manifold between polygon child `child` (placed at `placed`) and another convex shape,
/// using as reference the child's face on the compound's outside that separates most. World
/// frame, normal from the child to the other shape; empty when the child has no outside face or
/// the other shape lies beside that face.
template <class Other>
Manifold collide_on_outside_face(const Compound& compound, int child, const Polygon& piece, const Transform& placed, const Other& other,
                                 const Transform& placed_other, const CollideOptions& options) {
  const Transform other_to_piece = inverse_compose(placed, placed_other);
  int best_face = -1;
  Real best_separation = -std::numeric_limits<Real>::max();
  for (int face = 0; face < piece.count(); ++face) {
    if (compound.is_internal_edge(child, face)) continue;
    const Vec2 normal = piece.normals()[face];
    const Vec2 deepest = transform_point(other_to_piece, other.support(inverse_rotate(other_to_piece.rotation, -normal)));
    const Real separation = dot(normal, deepest - piece.vertices()[face]);
    if (separation > best_separation) {
      best_separation = separation;
      best_face = face;
    }
  }
  if (best_face < 0) return {};
  const Real radii = piece.radius() + other.rounding_radius();
  const Real tolerance = relative_tolerance * (size_scale(piece) + size_scale(other) + length(other_to_piece.position));
  if (best_separation - radii > options.speculative_distance + tolerance) return {};

  const detail::PolygonView reference = detail::view_of(piece);
  Manifold manifold;
  auto clip_against = [&](const detail::PolygonView& incident) {
    manifold = detail::clip_incident_edge(reference, best_face, incident, other_to_piece, tolerance, options, false);
  };
  auto point_against = [&](Vec2 center_in_other, Real radius) {  // a point core: project it onto the face
    const Vec2 center = transform_point(other_to_piece, center_in_other);
    const Vec2 normal = piece.normals()[best_face], v1 = piece.vertices()[best_face];
    const Real core_separation = dot(normal, center - v1);
    if (core_separation - piece.radius() - radius > options.speculative_distance + tolerance) return;
    manifold.normal = normal;
    manifold.points[0] = {center - Real(0.5) * (radius + core_separation - piece.radius()) * normal,
                          core_separation - piece.radius() - radius, static_cast<std::uint32_t>(best_face)};
    manifold.point_count = 1;
  };
  if constexpr (std::is_same_v<Other, Circle>) {
    point_against(other.center, other.radius);
  } else if constexpr (std::is_same_v<Other, Polygon>) {
    clip_against(detail::view_of(other));
  } else {  // capsule or segment: a two-vertex core, or a point when its ends coincide
    if (other.a == other.b) {
      point_against(other.a, other.rounding_radius());
    } else {
      clip_against(detail::SegmentCore(other.a, other.b).view(other.rounding_radius()));
    }
  }
  if (manifold.point_count == 0) {  // the incident edge lies beside the face (a shape sunk deep): its deepest point
    const Vec2 normal = piece.normals()[best_face];
    point_against(other.support(inverse_rotate(other_to_piece.rotation, -normal)), other.rounding_radius());
  }
  manifold.normal = rotate(placed.rotation, manifold.normal);
  for (int i = 0; i < manifold.point_count; ++i) manifold.points[i].point = transform_point(placed, manifold.points[i].point);
  return manifold;
}

/// A child manifold seen from one compound side: which child, and the outward normal (compound frame).
struct SeamView {
  int child;
  Vec2 outward;
};

SeamView seam_view(const ChildManifold& entry, const Transform& transform, bool compound_is_a) {
  return {compound_is_a ? entry.child_a : entry.child_b,
          inverse_rotate(transform.rotation, compound_is_a ? entry.manifold.normal : -entry.manifold.normal)};
}

/// The outside face (not a seam) of polygon child `child` whose normal matches `outward`
/// (compound frame) within the slack, or -1.
int matching_outside_face(const Compound& compound, int child, Vec2 outward) {
  const Polygon* polygon = std::get_if<Polygon>(&compound.children()[child].shape);
  if (polygon == nullptr) return -1;
  const Vec2 local = inverse_rotate(compound.children()[child].transform.rotation, outward);
  for (int face = 0; face < polygon->count(); ++face) {
    if (!compound.is_internal_edge(child, face) && dot(polygon->normals()[face], local) >= seam_slack_cosine) return face;
  }
  return -1;
}

/// Is the feature of polygon child `child` that faces `outward` (the edge whose normal matches,
/// else the farthest vertex) touched by one of the `voided` points (compound frame)?
bool feature_is_voided(const Compound& compound, int child, Vec2 outward, const std::vector<Vec2>& voided, Real tolerance) {
  const Polygon* polygon = std::get_if<Polygon>(&compound.children()[child].shape);
  if (polygon == nullptr || voided.empty()) return false;
  const Transform& placement = compound.children()[child].transform;
  const Vec2 local = inverse_rotate(placement.rotation, outward);
  const int count = polygon->count();
  const int vertex = polygon->support_index(local);
  Vec2 from = polygon->vertices()[vertex], to = from;
  for (const int edge : {(vertex + count - 1) % count, vertex}) {
    if (dot(polygon->normals()[edge], local) >= seam_slack_cosine) {
      from = polygon->vertices()[edge];
      to = polygon->vertices()[(edge + 1) % count];
    }
  }
  from = transform_point(placement, from);
  to = transform_point(placement, to);
  const Vec2 along = to - from;
  for (const Vec2 point : voided) {
    const Real t = length_squared(along) > 0 ? std::clamp(dot(point - from, along) / length_squared(along), Real(0), Real(1)) : Real(0);
    if (length(from + t * along - point) <= tolerance) return true;
  }
  return false;
}

/// Keeps the child manifolds of one compound side off its seams (after Jolt's internal-edge
/// removal, with the compound's own seam flags):
///   1. A manifold whose normal is an outside face's normal of its child is a face contact: kept,
///      and the face's two end points become "voided".
///   2. Any other manifold whose child feature facing the normal (a seam, or a corner) touches a
///      voided point is dropped: a face contact already holds the shape there.
///   3. Otherwise it is kept if the outline allows its normal at every point (outline_allows),
///      else recomputed against the child's best outside face (a shape pressed into a join
///      between pieces that no face contact holds).
/// Dropped manifolds are left with no points. `other` and `other_transform` are the shape on the
/// far side (a compound there is reached through each manifold's child index).
void resolve_seams(const Compound& compound, const Transform& transform, bool compound_is_a, const Shape& other,
                   const Transform& other_transform, std::vector<ChildManifold>& manifolds, std::size_t first,
                   const CollideOptions& options) {
  const Real tolerance = 32 * relative_tolerance * (compound.reach() + length(transform.position));
  std::vector<Vec2> voided;
  std::vector<bool> face_contact(manifolds.size() - first, false);
  for (std::size_t i = first; i < manifolds.size(); ++i) {
    const SeamView view = seam_view(manifolds[i], transform, compound_is_a);
    const int face = matching_outside_face(compound, view.child, view.outward);
    if (face < 0) continue;
    face_contact[i - first] = true;
    const CompoundChild& child = compound.children()[view.child];
    const Polygon& polygon = std::get<Polygon>(child.shape);
    voided.push_back(transform_point(child.transform, polygon.vertices()[face]));
    voided.push_back(transform_point(child.transform, polygon.vertices()[(face + 1) % polygon.count()]));
  }
  for (std::size_t i = first; i < manifolds.size(); ++i) {
    if (face_contact[i - first]) continue;
    ChildManifold& entry = manifolds[i];
    const SeamView view = seam_view(entry, transform, compound_is_a);
    if (feature_is_voided(compound, view.child, view.outward, voided, tolerance)) {
      entry.manifold.point_count = 0;
      continue;
    }
    if (outline_allows(compound, transform, view.child, entry.manifold, compound_is_a)) continue;
    const CompoundChild& child = compound.children()[view.child];
    const Polygon* piece = std::get_if<Polygon>(&child.shape);
    if (piece == nullptr) {  // only polygon children have faces to fall back on
      entry.manifold.point_count = 0;
      continue;
    }
    const int other_child = compound_is_a ? entry.child_b : entry.child_a;
    const Transform placed = compose(transform, child.transform);
    Manifold corrected;
    auto against = [&](const auto& other_part, const Transform& placed_other) {
      if constexpr (!std::is_same_v<std::decay_t<decltype(other_part)>, Compound>) {
        corrected = collide_on_outside_face(compound, view.child, *piece, placed, other_part, placed_other, options);
      }
    };
    if (const Compound* far_compound = std::get_if<Compound>(&other); far_compound != nullptr && other_child >= 0) {
      const CompoundChild& far_child = far_compound->children()[other_child];
      std::visit([&](const auto& part) { against(part, compose(other_transform, far_child.transform)); }, far_child.shape);
    } else {
      std::visit([&](const auto& part) { against(part, other_transform); }, other);
    }
    if (!compound_is_a) corrected.normal = -corrected.normal;
    entry.manifold = corrected;
  }
}

}  // namespace

// --- front doors ---------------------------------------------------------------------------

bool overlap(const Shape& a, const Transform& transform_a, const Shape& b, const Transform& transform_b) {
  const bool both_convex = !is_compound(a) && !is_compound(b);  // no boxes needed
  const Real margin = both_convex ? 0 : culling_margin(a, transform_a, b, transform_b);
  const Aabb region_b = both_convex ? Aabb{} : expanded(compute_aabb(b, transform_b), margin);
  bool found = false;
  for_each_part(a, transform_a, both_convex ? nullptr : &region_b, [&](const auto& part_a, const Transform& placed_a, int) {
    const Aabb region_a = both_convex ? Aabb{} : expanded(compute_aabb(part_a, placed_a), margin);
    for_each_part(b, transform_b, both_convex ? nullptr : &region_a, [&](const auto& part_b, const Transform& placed_b, int) {
      found = overlap(part_a, placed_a, part_b, placed_b);
      return !found;
    });
    return !found;
  });
  return found;
}

void contact_manifolds(const Shape& a, const Transform& transform_a, const Shape& b, const Transform& transform_b,
                       std::vector<ChildManifold>& manifolds, const CollideOptions& options) {
  const std::size_t first = manifolds.size();
  const Compound* compound_a = std::get_if<Compound>(&a);
  const Compound* compound_b = std::get_if<Compound>(&b);
  const bool both_convex = compound_a == nullptr && compound_b == nullptr;  // no boxes needed
  const Real margin = both_convex ? 0 : culling_margin(a, transform_a, b, transform_b) + options.speculative_distance;
  const Aabb region_b = both_convex ? Aabb{} : expanded(compute_aabb(b, transform_b), margin);
  for_each_part(a, transform_a, both_convex ? nullptr : &region_b, [&](const auto& part_a, const Transform& placed_a, int child_a) {
    const Aabb region_a = both_convex ? Aabb{} : expanded(compute_aabb(part_a, placed_a), margin);
    for_each_part(b, transform_b, both_convex ? nullptr : &region_a, [&](const auto& part_b, const Transform& placed_b, int child_b) {
      const Manifold manifold = collide(part_a, placed_a, part_b, placed_b, options);
      if (manifold.point_count > 0) manifolds.push_back({child_a, child_b, manifold});
      return true;
    });
    return true;
  });
  if (both_convex) return;
  if (compound_a != nullptr) resolve_seams(*compound_a, transform_a, true, b, transform_b, manifolds, first, options);
  if (compound_b != nullptr) resolve_seams(*compound_b, transform_b, false, a, transform_a, manifolds, first, options);
  manifolds.erase(std::remove_if(manifolds.begin() + static_cast<std::ptrdiff_t>(first), manifolds.end(),
                                 [](const ChildManifold& entry) { return entry.manifold.point_count == 0; }),
                  manifolds.end());
  std::sort(manifolds.begin() + static_cast<std::ptrdiff_t>(first), manifolds.end(), [](const ChildManifold& p, const ChildManifold& q) {
    return p.child_a != q.child_a ? p.child_a < q.child_a : p.child_b < q.child_b;
  });
}

std::optional<Penetration> penetration(const Shape& a, const Transform& transform_a, const Shape& b, const Transform& transform_b) {
  if (!is_compound(a) && !is_compound(b)) {
    std::optional<Penetration> result;
    for_each_part(a, transform_a, nullptr, [&](const auto& shape_a, const Transform&, int) {
      for_each_part(b, transform_b, nullptr, [&](const auto& shape_b, const Transform&, int) {
        result = penetration(shape_a, transform_a, shape_b, transform_b);
        return true;
      });
      return true;
    });
    return result;
  }
  std::vector<ChildManifold> manifolds;
  contact_manifolds(a, transform_a, b, transform_b, manifolds);
  std::optional<Penetration> deepest;
  for (const ChildManifold& child : manifolds) {
    for (int i = 0; i < child.manifold.point_count; ++i) {
      const ManifoldPoint& point = child.manifold.points[i];
      const Real depth = std::max(-point.separation, Real(0));
      if (deepest && depth <= deepest->depth) continue;
      const Vec2 normal = child.manifold.normal;
      deepest = Penetration{depth, normal, point.point - Real(0.5) * point.separation * normal,
                            point.point + Real(0.5) * point.separation * normal, IterationStatus::converged};
    }
  }
  return deepest;
}

DistanceResult distance(const Shape& a, const Transform& transform_a, const Shape& b, const Transform& transform_b,
                        const DistanceOptions& options) {
  const bool both_convex = !is_compound(a) && !is_compound(b);
  const DistanceOptions child_options{.cache = both_convex ? options.cache : nullptr, .max_iterations = options.max_iterations};
  DistanceResult best;
  bool found = false;
  int iterations = 0;
  IterationStatus status = IterationStatus::converged;
  for_each_part(a, transform_a, nullptr, [&](const auto& part_a, const Transform& placed_a, int) {
    const Aabb box_a = compute_aabb(part_a, placed_a);
    const Aabb region = expanded(box_a, found ? best.distance : Real(0));
    for_each_part(b, transform_b, found && !both_convex ? &region : nullptr, [&](const auto& part_b, const Transform& placed_b, int) {
      if (found && box_gap(box_a, compute_aabb(part_b, placed_b)) >= best.distance) return true;
      const DistanceResult result = distance(part_a, placed_a, part_b, placed_b, child_options);
      iterations += result.iterations;
      if (result.status == IterationStatus::iteration_cap) status = IterationStatus::iteration_cap;
      if (!found || result.overlapping || result.distance < best.distance) best = result;
      found = true;
      return !best.overlapping;
    });
    return !best.overlapping;
  });
  best.iterations = iterations;
  best.status = status;
  return best;
}

std::optional<CastHit> shape_cast(const Shape& a, const Transform& transform_a, const Shape& b, const Transform& transform_b,
                                  Vec2 translation_b, const CastOptions& options) {
  const Real margin = culling_margin(a, transform_a, b, transform_b);
  const Aabb box_b = compute_aabb(b, transform_b);
  const Aabb swept_b = expanded(box_b.merged({box_b.lower + translation_b, box_b.upper + translation_b}), margin);
  std::optional<CastHit> earliest;
  for_each_part(a, transform_a, &swept_b, [&](const auto& part_a, const Transform& placed_a, int) {
    // B's parts whose path can reach A's part start in A's part's box pushed back along the motion.
    const Aabb box_a = expanded(compute_aabb(part_a, placed_a), margin);
    const Aabb region = box_a.merged({box_a.lower - translation_b, box_a.upper - translation_b});
    for_each_part(b, transform_b, &region, [&](const auto& part_b, const Transform& placed_b, int) {
      const std::optional<CastHit> hit = shape_cast(part_a, placed_a, part_b, placed_b, translation_b, options);
      if (hit && (!earliest || hit->time < earliest->time)) earliest = hit;
      return true;
    });
    return true;
  });
  return earliest;
}

namespace {

/// The sweep of a child placed at `placement` in a body following `sweep`.
Sweep child_sweep(const Sweep& sweep, const Transform& placement, int child) {
  if (child < 0) return sweep;
  const Real turn = placement.rotation.angle();
  return {inverse_transform_point(placement, sweep.local_center), sweep.center_start, sweep.center_end, sweep.angle_start + turn,
          sweep.angle_end + turn};
}

/// A box holding a part throughout a sweep: its boxes at both ends, widened by how far rotation
/// can carry a point off the straight path (reach x turn, at most twice the reach).
template <class Part>
Aabb swept_box(const Part& part, const Sweep& sweep) {
  const Aabb start = compute_aabb(part, sweep.at(0)), end = compute_aabb(part, sweep.at(1));
  const Real reach = detail::reach_about(part, sweep.local_center);
  return expanded(start.merged(end), reach * std::min(std::abs(sweep.angle_end - sweep.angle_start), Real(2)));
}

}  // namespace

std::optional<CastHit> time_of_impact(const Shape& a, const Sweep& sweep_a, const Shape& b, const Sweep& sweep_b, const CastOptions& options) {
  const Real margin = culling_margin(a, sweep_a.at(0), b, sweep_b.at(0));
  std::optional<CastHit> earliest;
  // Parts are enumerated in the body frame (identity transform) to get each child's placement.
  for_each_part(a, Transform{}, nullptr, [&](const auto& part_a, const Transform& placement_a, int child_a) {
    const Sweep part_sweep_a = child_sweep(sweep_a, placement_a, child_a);
    const Aabb box_a = expanded(swept_box(part_a, part_sweep_a), margin);
    for_each_part(b, Transform{}, nullptr, [&](const auto& part_b, const Transform& placement_b, int child_b) {
      const Sweep part_sweep_b = child_sweep(sweep_b, placement_b, child_b);
      if (!box_a.overlaps(swept_box(part_b, part_sweep_b))) return true;
      const std::optional<CastHit> hit = time_of_impact(part_a, part_sweep_a, part_b, part_sweep_b, options);
      if (hit && (!earliest || hit->time < earliest->time)) earliest = hit;
      return true;
    });
    return true;
  });
  return earliest;
}

std::optional<RayHit> raycast(const Compound& shape, const Transform& transform, const Ray& ray) {
  const Vec2 origin = inverse_transform_point(transform, ray.origin);
  const Vec2 translation = inverse_rotate(transform.rotation, ray.translation);
  const Real tolerance = 4 * relative_tolerance * (shape.reach() + length(origin) + length(translation) * ray.max_fraction);
  std::optional<RayHit> first;
  detail::for_each_child_where(
      shape,
      [&](const Aabb& box) { return segment_meets_box(origin, translation, first ? first->fraction : ray.max_fraction, expanded(box, tolerance)); },
      [&](int child) {
        const CompoundChild& part = shape.children()[child];
        const Transform placed = compose(transform, part.transform);
        const std::optional<RayHit> hit = std::visit([&](const auto& convex) { return raycast(convex, placed, ray); }, part.shape);
        if (hit && (!first || hit->fraction < first->fraction || (hit->fraction == first->fraction && hit->inside))) first = hit;
        return !(first && first->inside);
      });
  if (first && first->fraction == 0 && !first->inside && closest_point(shape, transform, ray.origin).signed_distance < -tolerance) {
    first->inside = true;  // started on a seam, inside the compound
    first->normal = {};
  }
  return first;
}

PointProjection closest_point(const Compound& shape, const Transform& transform, Vec2 point) {
  const Vec2 local = inverse_transform_point(transform, point);
  const Real tolerance = 4 * relative_tolerance * (shape.reach() + length(local));
  const auto children = shape.children();
  auto project = [&](int child, Vec2 query) { return detail::closest_point_on_child(children[child], query); };
  // Nearest child surface. In or on any child, the answer is the nearest point of the outline
  // instead (for a point on the outline itself that is about 0 away).
  PointProjection nearest;
  nearest.signed_distance = std::numeric_limits<Real>::max();
  for (int child = 0; child < static_cast<int>(children.size()); ++child) {
    if (box_gap(shape.child_boxes()[child], {local, local}) > nearest.signed_distance) continue;
    const PointProjection projection = project(child, local);
    if (projection.signed_distance < nearest.signed_distance) nearest = projection;
  }
  if (nearest.signed_distance <= 0) {
    // The nearest point of the outline: faces that are not seams, and the surfaces of children
    // that are not polygons, where no other child covers them (a probe a little onward lies well
    // inside another child).
    nearest.signed_distance = -std::numeric_limits<Real>::max();
    auto covered = [&](Vec2 surface, Vec2 outward, int owner) {
      const Vec2 probe = surface + 2 * tolerance * outward;
      bool inside_another = false;
      detail::for_each_child_overlapping(shape, Aabb{probe, probe}, [&](int other) {
        inside_another = other != owner && project(other, probe).signed_distance < -tolerance;
        return !inside_another;
      });
      return inside_another;
    };
    // A corner is on the outline when some point close around it is outside every child (probes
    // at 32 angles: a notch narrower than about 11 degrees can be missed).
    auto corner_on_outline = [&](Vec2 corner) {
      constexpr int probes = 32;
      for (int k = 0; k < probes; ++k) {
        const Real angle = Real(2 * 3.14159265358979323846) * Real(k) / Real(probes);
        const Vec2 probe = corner + 2 * tolerance * Vec2{std::cos(angle), std::sin(angle)};
        bool outside = true;
        detail::for_each_child_overlapping(shape, Aabb{probe, probe}, [&](int other) {
          outside = project(other, probe).signed_distance > 0;
          return outside;
        });
        if (outside) return true;
      }
      return false;
    };
    // A face point is on the outline unless a probe out along the face normal is in another child.
    auto consider = [&](Vec2 surface, Vec2 outward, int owner, bool at_corner) {
      const Real depth = -length(surface - local);
      if (depth <= nearest.signed_distance) return;
      if (at_corner ? corner_on_outline(surface) : !covered(surface, outward, owner)) {
        nearest = {surface, depth, at_corner && depth < 0 ? normalize(surface - local) : outward};
      }
    };
    for (int child = 0; child < static_cast<int>(children.size()); ++child) {
      const Polygon* polygon = std::get_if<Polygon>(&children[child].shape);
      if (polygon == nullptr || polygon->radius() > 0) {
        const PointProjection projection = project(child, local);
        consider(projection.point, projection.normal, child, false);
        continue;
      }
      const Transform& placement = children[child].transform;
      for (int face = 0; face < polygon->count(); ++face) {
        if (shape.is_internal_edge(child, face)) continue;
        const Vec2 v1 = transform_point(placement, polygon->vertices()[face]);
        const Vec2 v2 = transform_point(placement, polygon->vertices()[(face + 1) % polygon->count()]);
        const Vec2 edge = v2 - v1;
        const Real along = dot(local - v1, edge) / length_squared(edge);
        const Vec2 surface = v1 + std::clamp(along, Real(0), Real(1)) * edge;
        const bool at_corner = (along <= 0 || along >= 1) && surface != local;
        consider(surface, rotate(placement.rotation, polygon->normals()[face]), child, at_corner);
      }
    }
    if (nearest.signed_distance == -std::numeric_limits<Real>::max()) nearest = {local, 0, {1, 0}};  // no uncovered outline found
  }
  return {transform_point(transform, nearest.point), nearest.signed_distance, rotate(transform.rotation, nearest.normal)};
}

}  // namespace collide2d

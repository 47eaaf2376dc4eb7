// seams.cpp — keeping a compound's contacts off its seams.
//
// The rule (after the idea of Bullet's internal-edge utility and Jolt's internal-edge removal,
// done here with the compound's own geometry and seam flags). A seam is an edge of a piece that
// another piece covers (Compound::is_internal_edge); the solid's surface does not run there, so
// no contact may push along a seam's normal. For one compound side, with the shape on the far
// side taken one convex part at a time:
//   1. A manifold whose normal is the normal of one of its child's outside faces (not a seam) is
//      a face contact: it is kept, and the face's two ends are "voided" for that far part.
//   2. Any other manifold with the same far part whose child feature facing the normal (a seam or
//      a corner) touches a voided point is dropped: a face contact already holds the part there.
//   3. Otherwise it is kept if the compound's outline allows its normal at every contact point: a
//      point q on the child's surface with outward normal n is allowed when every other child
//      that q lies on allows n too (a child with q inside allows nothing, a child with q inside
//      one of its faces allows only that face's normal, a child with q at a corner allows the
//      normals between its two edges' normals).
//   4. Else it is recomputed against the child's outside face that separates most (clipping the
//      far part's incident edge to it, or projecting a point core onto it); a child with no
//      outside face gives none.
// Voiding is per far part: with a compound on both sides, a face contact on one far piece says
// nothing about another far piece.
//
// Tolerances (docs/conventions.md): a contact point is on a child, or at its corner, within the
// contact tolerance of the point's coordinates and the child's in the compound's frame; two unit
// normals are the same direction within direction_tolerance, and a normal is inside a corner's
// cone within the sine of that same angle.
#include "seams.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "collide2d/point_query.hpp"
#include "collide2d/tolerance.hpp"
#include "compound_internal.hpp"
#include "culling.hpp"
#include "polygon_view.hpp"

namespace collide2d::detail {
namespace {

/// Two unit normals whose dot product is at least this are the same direction.
constexpr Real same_direction_cosine = Real(1) - direction_tolerance;

/// The sine of the angle same_direction_cosine allows: the slack of the corner cones.
inline Real cone_slack_sine() { return std::sqrt(2 * direction_tolerance); }

/// The band within which a point of magnitude `magnitude` (compound frame) is on a surface.
Real on_surface_tolerance(Vec2 point) { return contact_tolerance(coordinate_magnitude(point)); }

/// True when `normal` (unit) lies in the cone from `first` counter-clockwise to `last` (unit
/// normals less than half a turn apart), widened by the slack.
bool in_normal_cone(Vec2 normal, Vec2 first, Vec2 last) {
  if (dot(first, last) >= same_direction_cosine) return dot(normal, first) >= same_direction_cosine;
  const Real slack = cone_slack_sine();
  return cross(first, normal) >= -slack && cross(normal, last) >= -slack && dot(normal, first + last) >= 0;
}

/// Does `child` (compound frame) allow an outward surface normal at q (compound frame)? A vertex
/// within `vertex_reach` of q (at least `tolerance`) counts as at q, whether or not q lies on the
/// child: its corner's normals are allowed and no other (so every piece at a seam's end has its say).
bool child_allows(const CompoundChild& child, Vec2 q, Vec2 normal, Real tolerance, Real vertex_reach) {
  const PointProjection nearest = closest_point_on_child(child, q);
  if (nearest.signed_distance < -tolerance) return false;  // q is inside this child: not the outline
  if (const Polygon* polygon = std::get_if<Polygon>(&child.shape); polygon != nullptr && polygon->radius() == 0) {
    const int count = polygon->count();
    for (int i = 0; i < count; ++i) {
      if (length(transform_point(child.transform, polygon->vertices()[i]) - q) <= std::max(tolerance, vertex_reach)) {
        const Vec2 before = rotate(child.transform.rotation, polygon->normals()[(i + count - 1) % count]);
        const Vec2 after = rotate(child.transform.rotation, polygon->normals()[i]);
        return in_normal_cone(normal, before, after);
      }
    }
  }
  if (nearest.signed_distance > tolerance) return true;  // q is not on this child
  return dot(normal, nearest.normal) >= same_direction_cosine;
}

/// Does every child that q lies on (or in), `except` aside, allow `normal` as the outline's
/// outward normal at q (compound frame)? `vertex_reach` as for child_allows.
bool outline_allows_at(const Compound& compound, Vec2 q, Vec2 normal, Real tolerance, int except = -1, Real vertex_reach = 0) {
  bool allowed = true;
  for_each_child_overlapping(compound, Aabb{q, q}.expanded(std::max(tolerance, vertex_reach)), [&](int other) {
    if (other == except) return true;
    // q's distance from a child's face carries the round-off of the face's vertices too: a contact
    // point 5,700 deep against a cut whose ends are 3.4e7 out lay 4 off the cut in float, beyond
    // the band of its own coordinates, and the cut's normal passed as the outline's. The band is
    // also that of the child's coordinates (its box's farthest corner).
    const Aabb& box = compound.child_boxes()[static_cast<std::size_t>(other)];
    const Real child_band = contact_tolerance(coordinate_magnitude(q) + box_magnitude(box));
    allowed = child_allows(compound.children()[other], q, normal, std::max(tolerance, child_band), vertex_reach);
    return allowed;
  });
  return allowed;
}

/// The point of the compound side's surface at a manifold point, in the compound's frame.
Vec2 compound_surface_point(const Manifold& manifold, const ManifoldPoint& point, const Transform& transform, bool compound_is_a) {
  return inverse_transform_point(transform, surface_point(manifold, point, compound_is_a));
}

/// Does the compound's outline allow every point of a manifold between its child `child` and
/// another shape? `compound_is_a` tells which side of the manifold the compound is on.
bool outline_allows(const Compound& compound, const Transform& transform, int child, const Manifold& manifold, bool compound_is_a) {
  const Vec2 outward = inverse_rotate(transform.rotation, compound_is_a ? manifold.normal : -manifold.normal);
  for (int i = 0; i < manifold.point_count; ++i) {
    const Vec2 q = compound_surface_point(manifold, manifold.points[i], transform, compound_is_a);
    if (!outline_allows_at(compound, q, outward, on_surface_tolerance(q), child)) return false;
  }
  return true;
}

/// The manifold between polygon child `child` (placed at `placed`) and another convex shape,
/// using as reference the child's face on the compound's outside that separates most. Normal
/// from the child to the other shape, in the frame `placed` maps into; empty when the child has
/// no outside face or the other shape lies beside that face.
template <class Other>
Manifold collide_on_outside_face(const Compound& compound, int child, const Polygon& piece, const Transform& placed, const Other& other,
                                 const Transform& placed_other, const CollideOptions& options) {
  const Transform other_to_piece = inverse_compose(placed, placed_other);
  int best_face = -1;
  Real best_separation = -std::numeric_limits<Real>::max();
  Vec2 best_deepest;
  for (int face = 0; face < piece.count(); ++face) {
    if (compound.is_internal_edge(child, face)) continue;
    const Vec2 normal = piece.normals()[face];
    const Vec2 deepest = transform_point(other_to_piece, other.support(inverse_rotate(other_to_piece.rotation, -normal)));
    const Real separation = dot(normal, deepest - piece.vertices()[face]);
    if (separation > best_separation) {
      best_separation = separation;
      best_face = face;
      best_deepest = deepest;
    }
  }
  if (best_face < 0) return {};
  const Real radii = piece.radius() + other.rounding_radius();
  const Vec2 v1 = piece.vertices()[best_face], v2 = piece.vertices()[(best_face + 1) % piece.count()];
  const Real tolerance =
      contact_tolerance(std::max({coordinate_magnitude(v1), coordinate_magnitude(v2), coordinate_magnitude(best_deepest)}));
  if (best_separation - radii > options.speculative_distance + tolerance) return {};

  const PolygonView reference = view_of(piece);
  Manifold manifold;
  auto clip_against = [&](const PolygonView& incident) {
    clip_incident_edge(reference, best_face, incident, other_to_piece, options, false, std::numeric_limits<Real>::max(), manifold);
  };
  auto point_against = [&](Vec2 center_in_other, Real radius) {  // a point core: project it onto the face
    const Vec2 center = transform_point(other_to_piece, center_in_other);
    const Vec2 normal = piece.normals()[best_face];
    const Real core_separation = dot(normal, center - v1);
    if (core_separation - piece.radius() - radius > options.speculative_distance + tolerance) return;
    manifold.normal = normal;
    manifold.points[0] = {center - Real(0.5) * (radius + core_separation - piece.radius()) * normal,
                          core_separation - piece.radius() - radius, static_cast<FeatureId>(best_face)};
    manifold.point_count = 1;
  };
  if constexpr (std::is_same_v<Other, Circle>) {
    point_against(other.center, other.radius);
  } else if constexpr (std::is_same_v<Other, Polygon>) {
    clip_against(view_of(other));
  } else {  // capsule or segment: a two-vertex core, or a point when its ends coincide
    if (other.a == other.b) {
      point_against(other.a, other.rounding_radius());
    } else {
      clip_against(SegmentCore(other.a, other.b).view(other.rounding_radius()));
    }
  }
  if (manifold.point_count == 0) {  // the incident edge lies beside the face (a shape sunk deep): its deepest point
    const Vec2 normal = piece.normals()[best_face];
    point_against(other.support(inverse_rotate(other_to_piece.rotation, -normal)), other.rounding_radius());
  }
  place_manifold(manifold, placed);
  return manifold;
}

/// A child manifold seen from one compound side: which child, which part of the far side, and
/// the outward normal (compound frame).
struct SeamView {
  int child;
  int far_part;
  Vec2 outward;
};

SeamView seam_view(const ChildManifold& entry, const Transform& transform, bool compound_is_a) {
  return {compound_is_a ? entry.child_a : entry.child_b, compound_is_a ? entry.child_b : entry.child_a,
          inverse_rotate(transform.rotation, compound_is_a ? entry.manifold.normal : -entry.manifold.normal)};
}

/// The outside face (not a seam) of polygon child `child` whose normal is `outward` (compound
/// frame) within direction_tolerance, or -1.
int matching_outside_face(const Compound& compound, int child, Vec2 outward) {
  const Polygon* polygon = std::get_if<Polygon>(&compound.children()[child].shape);
  if (polygon == nullptr) return -1;
  const Vec2 local = inverse_rotate(compound.children()[child].transform.rotation, outward);
  for (int face = 0; face < polygon->count(); ++face) {
    if (!compound.is_internal_edge(child, face) && dot(polygon->normals()[face], local) >= same_direction_cosine) return face;
  }
  return -1;
}

/// A face end voided by a face contact with one part of the far side (compound frame).
struct VoidedPoint {
  int far_part;
  Vec2 point;
};

/// Is the feature of polygon child `child` that faces `outward` (the edge whose normal matches,
/// else the farthest vertex) touched by a point voided for the same far part?
bool feature_is_voided(const Compound& compound, const SeamView& view, const std::vector<VoidedPoint>& voided) {
  const Polygon* polygon = std::get_if<Polygon>(&compound.children()[view.child].shape);
  if (polygon == nullptr || voided.empty()) return false;
  const Transform& placement = compound.children()[view.child].transform;
  const Vec2 local = inverse_rotate(placement.rotation, view.outward);
  const int count = polygon->count();
  const int vertex = polygon->support_index(local);
  Vec2 from = polygon->vertices()[vertex], to = from;
  for (const int edge : {(vertex + count - 1) % count, vertex}) {
    if (dot(polygon->normals()[edge], local) >= same_direction_cosine) {
      from = polygon->vertices()[edge];
      to = polygon->vertices()[(edge + 1) % count];
    }
  }
  from = transform_point(placement, from);
  to = transform_point(placement, to);
  for (const VoidedPoint& entry : voided) {
    if (entry.far_part != view.far_part) continue;
    if (distance_to_segment(entry.point, from, to) <= on_surface_tolerance(entry.point)) return true;
  }
  return false;
}

}  // namespace

OutlineContact outline_contact(const Compound& compound, Vec2 q, Vec2 wanted, Vec2 direction, Real vertex_reach) {
  // The pieces through q, each seen from q: its faces through q (one inside a face, two at a
  // corner), split into seams and outside faces. Moving along `direction` enters a piece when it
  // goes into the piece across every face through q (along a seam counts: the piece beyond the
  // seam covers it), or at once when q lies inside the piece.
  // The band of the compound's coordinates (its pieces' vertices lie within its reach) and q's:
  // a point on a seam 2e6 from the compound's origin is a quarter unit off it in float.
  const Real tolerance = contact_tolerance(coordinate_magnitude(q) + compound.reach());
  const Real along_slack = direction_tolerance;
  // The outline is asked whenever a pair's cast may have taken a seam for the contact, though no
  // seam passes within the tolerance of q: the cast's normal cone at a touching start holds the
  // normal of every face of the piece whose line lies within the pair's band (`vertex_reach`) of
  // the other shape, q within that band of the piece, so a motion running along a seam's line
  // slides to it. A point on a notch's tip face, 0.0032 from the corner where a seam meets that
  // face and 0.0023 inside the seam's line (a pair band of 0.0028, float), moved 0.14 degrees off
  // the seam's direction, into the piece across the tip face, and no cast stopped it.
  const Real cone_band = std::max(tolerance, vertex_reach);
  OutlineContact result{false, wanted, false, -direction};
  std::vector<Vec2> faces;  // outward normals of the outside faces through q
  bool enters = false;
  for_each_child_overlapping(compound, Aabb{q, q}.expanded(cone_band), [&](int index) {
    const CompoundChild& child = compound.children()[index];
    const Polygon* polygon = std::get_if<Polygon>(&child.shape);
    if (polygon == nullptr || polygon->radius() > 0) {
      const PointProjection nearest = closest_point_on_child(child, q);
      if (nearest.signed_distance < -tolerance) enters = true;
      if (std::abs(nearest.signed_distance) > tolerance) return true;
      faces.push_back(nearest.normal);
      enters = enters || dot(direction, nearest.normal) < -along_slack;
      return true;
    }
    const int count = polygon->count();
    bool on_piece = false, into_piece = true, inside_piece = true;
    // q's offset outside the piece (its largest outside a face's line), and whether a seam's line
    // lies within the pair's band of it.
    Real separation = -std::numeric_limits<Real>::max();
    bool seam_in_cone = false;
    for (int edge = 0; edge < count; ++edge) {
      const Vec2 from = transform_point(child.transform, polygon->vertices()[edge]);
      const Vec2 to = transform_point(child.transform, polygon->vertices()[(edge + 1) % count]);
      const Vec2 normal = rotate(child.transform.rotation, polygon->normals()[edge]);
      const Real offset = dot(normal, q - from);
      const bool seam = compound.is_internal_edge(index, edge);
      separation = std::max(separation, offset);
      if (offset > -tolerance) inside_piece = false;
      if (seam && offset >= -cone_band) seam_in_cone = true;
      if (distance_to_segment(q, from, to) > tolerance) continue;
      on_piece = true;
      if (seam) {
        result.on_seam = true;
      } else {
        faces.push_back(normal);
      }
      into_piece = into_piece && dot(direction, normal) < (seam ? along_slack : -along_slack);
    }
    if (seam_in_cone && separation <= cone_band) result.on_seam = true;
    enters = enters || inside_piece || (on_piece && into_piece);
    return true;
  });
  if (!result.on_seam) return result;
  result.enters = direction != Vec2{} && enters;
  // The normal asked for when allowed; else the face normal nearest it, an allowed one first (at
  // a reflex corner no face's normal is allowed by both pieces).
  if (!outline_allows_at(compound, q, wanted, tolerance, -1, vertex_reach)) {
    int best = -1;
    bool best_allowed = false;
    for (int i = 0; i < static_cast<int>(faces.size()); ++i) {
      const bool allowed = outline_allows_at(compound, q, faces[i], tolerance, -1, vertex_reach);
      if (best < 0 || (allowed && !best_allowed) || (allowed == best_allowed && dot(faces[i], wanted) > dot(faces[best], wanted))) {
        best = i;
        best_allowed = allowed;
      }
    }
    if (best >= 0) result.normal = faces[best];
  }
  bool blocking_found = false;
  for (const Vec2 face : faces) {
    if (dot(face, direction) < -along_slack && (!blocking_found || dot(face, direction) > dot(result.blocking_normal, direction))) {
      result.blocking_normal = face;
      blocking_found = true;
    }
  }
  return result;
}

namespace {

/// True when a face of the polygon `child` faces back along `outward` (compound frame) and rises
/// more than `margin` off the line through `surface` (normal `outward`) somewhere over the stretch
/// of the owner's face [face_from, face_to] that both faces span (its whole length when the
/// owner's face is a point): the two faces diverge (a notch's sides) rather than lie flush (a
/// seam's crack), whatever their gap at `surface`.
bool face_diverges(const CompoundChild& child, Vec2 surface, Vec2 outward, Vec2 face_from, Vec2 face_to, Real margin) {
  const Polygon* polygon = std::get_if<Polygon>(&child.shape);
  if (polygon == nullptr) return false;
  const Vec2 along = face_to - face_from;
  const Real face_length_squared = length_squared(along);
  const int count = polygon->count();
  for (int edge = 0; edge < count; ++edge) {
    if (dot(rotate(child.transform.rotation, polygon->normals()[edge]), outward) > -same_direction_cosine) continue;
    const Vec2 start = transform_point(child.transform, polygon->vertices()[edge]);
    const Vec2 end = transform_point(child.transform, polygon->vertices()[(edge + 1) % count]);
    // The edge's stretch over the owner's face, as parameters of the edge.
    Real first = 0, last = 1;
    if (face_length_squared > 0) {
      const Real at_start = dot(start - face_from, along) / face_length_squared, at_end = dot(end - face_from, along) / face_length_squared;
      if (at_start == at_end) continue;
      first = std::clamp((0 - at_start) / (at_end - at_start), Real(0), Real(1));
      last = std::clamp((1 - at_start) / (at_end - at_start), Real(0), Real(1));
      if (first > last) std::swap(first, last);
    }
    for (const Real t : {first, last}) {
      if (dot(lerp(start, end, t) - surface, outward) - polygon->radius() > margin) return true;
    }
  }
  return false;
}

}  // namespace

bool covered_by_another_child(const Compound& compound, Vec2 surface, Vec2 outward, Vec2 face_from, Vec2 face_to, int owner, Real step,
                              Real depth) {
  const Vec2 probe = surface + step * outward;
  bool inside_another = false;
  for_each_child_overlapping(compound, Aabb{probe, probe}, [&](int other) {
    if (other == owner) return true;
    const CompoundChild& child = compound.children()[other];
    if (!(closest_point_on_child(child, probe).signed_distance < -depth)) return true;  // the probe is not inside this one
    const PointProjection at_surface = closest_point_on_child(child, surface);
    inside_another = at_surface.signed_distance <= depth && dot(at_surface.normal, outward) <= -same_direction_cosine &&
                     !face_diverges(child, surface, outward, face_from, face_to, step - depth);
    return !inside_another;
  });
  return inside_another;
}

void resolve_seams(const Compound& compound, const Transform& transform, bool compound_is_a, const Shape& other,
                   const Transform& other_transform, std::vector<ChildManifold>& manifolds, std::size_t first,
                   const CollideOptions& options) {
  std::vector<VoidedPoint> voided;
  std::vector<bool> face_contact(manifolds.size() - first, false);
  for (std::size_t i = first; i < manifolds.size(); ++i) {
    if (manifolds[i].manifold.point_count == 0) continue;  // dropped by the other side's pass
    const SeamView view = seam_view(manifolds[i], transform, compound_is_a);
    const int face = matching_outside_face(compound, view.child, view.outward);
    if (face < 0) continue;
    const CompoundChild& child = compound.children()[view.child];
    const Polygon& polygon = std::get<Polygon>(child.shape);
    // The manifold's points must lie on that face too: a seam nearly in line with an outside face
    // of the same piece (a shallow notch) has nearly its normal, and a contact 5,700 deep against
    // the seam, 9e5 from the face, was taken for a face contact.
    const Vec2 v1 = transform_point(child.transform, polygon.vertices()[face]);
    const Vec2 v2 = transform_point(child.transform, polygon.vertices()[(face + 1) % polygon.count()]);
    bool on_face = true;
    for (int k = 0; k < manifolds[i].manifold.point_count && on_face; ++k) {
      const Vec2 q = compound_surface_point(manifolds[i].manifold, manifolds[i].manifold.points[k], transform, compound_is_a);
      on_face = distance_to_segment(q, v1, v2) <= contact_tolerance(coordinate_magnitude(q) + std::max(coordinate_magnitude(v1), coordinate_magnitude(v2)));
    }
    if (!on_face) continue;
    face_contact[i - first] = true;
    voided.push_back({view.far_part, v1});
    voided.push_back({view.far_part, v2});
  }
  for (std::size_t i = first; i < manifolds.size(); ++i) {
    ChildManifold& entry = manifolds[i];
    if (face_contact[i - first] || entry.manifold.point_count == 0) continue;
    const SeamView view = seam_view(entry, transform, compound_is_a);
    if (feature_is_voided(compound, view, voided)) {
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
    const Transform placed = compose(transform, child.transform);
    Manifold corrected;
    auto against = [&](const auto& other_part, const Transform& placed_other) {
      if constexpr (!std::is_same_v<std::decay_t<decltype(other_part)>, Compound>) {
        corrected = collide_on_outside_face(compound, view.child, *piece, placed, other_part, placed_other, options);
      }
    };
    if (const Compound* far_compound = std::get_if<Compound>(&other); far_compound != nullptr && view.far_part >= 0) {
      const CompoundChild& far_child = far_compound->children()[view.far_part];
      std::visit([&](const auto& part) { against(part, compose(other_transform, far_child.transform)); }, far_child.shape);
    } else {
      std::visit([&](const auto& part) { against(part, other_transform); }, other);
    }
    if (!compound_is_a) corrected.normal = -corrected.normal;
    entry.manifold = corrected;
  }
}

}  // namespace collide2d::detail

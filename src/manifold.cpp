// manifold.cpp — contact manifolds for every pair of shapes.
//
// Polygon-like pairs (clipping after Catto, "Contact Manifolds", GDC 2007, as in Box2D's
// b2CollidePolygons), all in A's frame:
//   1. SAT gives the best axis of A and of B; beyond the radii plus the speculative distance, no contact.
//   2. The reference face is A's best edge unless B's separates more by a small hysteresis, so
//      the choice does not flicker between frames.
//   3. Rounded shapes whose cores are apart touch through their radii: GJK on the cores gives the
//      true normal; unless it matches the reference face normal, the manifold is the single
//      closest-point pair (this is where rounded corners meet).
//   4. Otherwise the incident edge is the edge of the other shape most opposed to the reference
//      normal; it is clipped to the reference face's side planes, and each clipped end closer
//      than the speculative distance becomes a point midway between the surfaces.
// Circles against polygon-like shapes: the face of largest separation and its Voronoi regions
// (face, either end vertex) give the closest core feature; circle against circle is analytic.
#include "collide2d/manifold.hpp"

#include <cmath>

#include <algorithm>
#include <limits>

#include "collide2d/algorithms.hpp"
#include "collide2d/tolerance.hpp"
#include "polygon_view.hpp"
#include "separating_axes.hpp"

namespace collide2d {
namespace {

using detail::PolygonView;
using detail::SegmentCore;

using detail::ContactKind;
using detail::feature_id;

/// The magnitude behind a candidate reference face's separation (A's frame): the face's extent,
/// and what placing it by `transform` rounded (nothing for A's own faces: pass no transform).
Real face_magnitude(const PolygonView& view, int edge) {
  return coordinate_magnitude(view.vertices[view.next(edge)] - view.vertices[edge]);
}
Real face_magnitude(const PolygonView& view, int edge, const Transform& transform) {
  const Vec2 v1 = transform_point(transform, view.vertices[edge]), v2 = transform_point(transform, view.vertices[view.next(edge)]);
  return coordinate_magnitude(v2 - v1) + std::max(placement_magnitude(transform, v1), placement_magnitude(transform, v2));
}

/// Fills `manifold` with the single contact between two closest core points, radii applied (A's frame).
void closest_point_contact(Vec2 core_a, Vec2 core_b, Vec2 normal, Real core_distance, Real radius_a, Real radius_b, FeatureId id,
                           Manifold& manifold) {
  manifold.normal = normal;
  const Vec2 surface_a = core_a + radius_a * normal, surface_b = core_b - radius_b * normal;
  manifold.points[0] = {Real(0.5) * (surface_a + surface_b), core_distance - radius_a - radius_b, id};
  manifold.point_count = 1;
}

/// Steps 3 and 4 with the given reference face, into `manifold` (left empty when the incident
/// edge lies beside the face or every clipped point is farther than the speculative distance).
/// `tolerance()` gives the candidate faces' touching band, which only rounded cores whose cores
/// are apart (step 3) need; `band_bound` bounds the clip's band (detail::clip_band_bound).
template <class FacesTolerance>
void clip_against_reference(const PolygonView& a, const PolygonView& b, const Transform& b_to_a, const detail::SatAxes& axes,
                            bool b_is_reference, const FacesTolerance& tolerance, Real band_bound, const CollideOptions& options,
                            Manifold& manifold) {
  const Real radii = a.radius + b.radius;
  const SatAxis& reference_axis = b_is_reference ? axes.of_b : axes.of_a;
  const Vec2 reference_normal_in_a = b_is_reference ? -reference_axis.normal : reference_axis.normal;  // A to B

  if (radii > 0 && reference_axis.separation > 0 && reference_axis.separation > tolerance()) {
    const GjkResult cores = gjk(a, b, b_to_a);
    if (cores.distance > radii + options.speculative_distance + tolerance()) return;
    if (!cores.overlapping && dot(cores.normal, reference_normal_in_a) < Real(0.9995)) {
      closest_point_contact(cores.point_a, cores.point_b, cores.normal, cores.distance, a.radius, b.radius,
                            feature_id(ContactKind::closest_points, axes.of_a.edge, axes.of_b.edge, 0, false), manifold);
      return;
    }
  }

  if (!b_is_reference) {
    detail::clip_incident_edge(a, reference_axis.edge, b, b_to_a, options, false, band_bound, manifold);
    return;
  }
  // B's face is the reference: clip in B's frame, then bring the manifold to A's and turn the
  // normal to run from A to B.
  detail::clip_incident_edge(b, reference_axis.edge, a, inverse_compose(b_to_a, Transform{}), options, true, band_bound, manifold);
  detail::place_manifold(manifold, b_to_a);
  manifold.normal = -manifold.normal;
}

}  // namespace

namespace detail {

void clip_incident_edge(const PolygonView& reference, int reference_edge, const PolygonView& incident, const Transform& incident_to_reference,
                        const CollideOptions& options, bool flipped_roles, Real band_bound, Manifold& manifold) {
  const Real radii = reference.radius + incident.radius;
  const Vec2 normal = reference.normals[reference_edge];
  const Vec2 v1 = reference.vertices[reference_edge];
  const Vec2 v2 = reference.vertices[reference.next(reference_edge)];

  // The incident edge: the one whose normal is most opposed to the reference normal.
  const int incident_edge = incident.most_opposed_edge(inverse_rotate(incident_to_reference.rotation, normal));
  std::array<Vec2, 2> ends = {transform_point(incident_to_reference, incident.vertices[incident_edge]),
                              transform_point(incident_to_reference, incident.vertices[incident.next(incident_edge)])};
  // The touching band of the features involved: the face's extent, the incident ends' offsets
  // from it, and what placing the incident shape in the reference frame rounded. It only widens
  // the two tests below, so it is computed (once) where a test without it would reject.
  Real band = -1;
  auto tolerance = [&] {
    if (band < 0) {
      band = contact_tolerance(
          std::max({coordinate_magnitude(v2 - v1), coordinate_magnitude(ends[0] - v1), coordinate_magnitude(ends[1] - v1)}) +
          std::max(placement_magnitude(incident_to_reference, ends[0]), placement_magnitude(incident_to_reference, ends[1])) + radii);
    }
    return band;
  };

  const Vec2 tangent = left_perpendicular(normal);  // the face's direction: its normal is the direction's right perpendicular
  const Real lower = dot(tangent, v1), upper = dot(tangent, v2);
  std::array<Real, 2> along = {dot(tangent, ends[0]), dot(tangent, ends[1])};
  // Beside the face by more than round-off (ends that meet the face's end exactly stay in).
  const bool short_of_face = along[0] < lower && along[1] < lower, past_face = along[0] > upper && along[1] > upper;
  if ((short_of_face && along[0] < lower - tolerance() && along[1] < lower - tolerance()) ||
      (past_face && along[0] > upper + tolerance() && along[1] > upper + tolerance())) {
    return;
  }
  const std::array<Vec2, 2> original = ends;
  for (int end = 0; end < 2; ++end) {
    const int other = 1 - end;
    // Ends at the same place along the face (an edge across it, or one rounded to a point far
    // from the origin) lie within the tolerance of the side: they stay as they are.
    if (along[other] == along[end]) continue;
    if (along[end] < lower) ends[end] = lerp(original[end], original[other], (lower - along[end]) / (along[other] - along[end]));
    if (along[end] > upper) ends[end] = lerp(original[end], original[other], (along[end] - upper) / (along[end] - along[other]));
  }

  manifold.normal = normal;
  for (int end = 0; end < 2; ++end) {
    const Real core_separation = dot(normal, ends[end] - v1);
    const Real separation = core_separation - radii;
    if (separation > options.speculative_distance &&
        (separation > options.speculative_distance + band_bound || separation > options.speculative_distance + tolerance())) {
      continue;
    }
    // Midway between the incident surface (pulled back by its radius) and the reference surface.
    const Vec2 midpoint = ends[end] - Real(0.5) * (incident.radius + core_separation - reference.radius) * normal;
    ManifoldPoint& point = manifold.points[manifold.point_count++];
    point.point = midpoint;
    point.separation = separation;
    point.id = feature_id(ContactKind::clipped, reference_edge, incident_edge, end, flipped_roles);
  }
}

}  // namespace detail

namespace {

/// Two polygon-like cores in A's frame, into `manifold` (empty when apart).
void collide_views(const PolygonView& a, const PolygonView& b, const Transform& b_to_a, const CollideOptions& options, Manifold& manifold) {
  const Real radii = a.radius + b.radius;
  // reaches + offset_magnitude bounds every coordinate_magnitude the two shapes reach in A's frame
  // (B placed by b_to_a): it only widens the cheap early rejection, never a touching decision.
  const Real reaches = a.reach() + b.reach(), offset_magnitude = coordinate_magnitude(b_to_a.position);
  const Real cull_within = radii + options.speculative_distance + contact_tolerance(reaches + offset_magnitude + radii);
  detail::SatAxes axes;
  detail::find_separating_axes(a, b, b_to_a, nullptr, cull_within, axes);
  if (axes.of_a.separation > cull_within || axes.of_b.separation > cull_within) return;

  // The two candidate reference faces are the features involved: their round-off decides, for
  // rounded cores that are apart and for the closest points below (clipping takes its own band).
  // Computed once, where first needed.
  Real faces_band = -1;
  auto face_tolerance = [&] {
    if (faces_band < 0) {
      faces_band = contact_tolerance(std::max(face_magnitude(a, axes.of_a.edge), face_magnitude(b, axes.of_b.edge, b_to_a)) + radii);
    }
    return faces_band;
  };
  // The reference face: the one that separates more, by more than a hysteresis band (so the
  // choice does not flicker between frames); within the band, the larger shape's face, so that
  // swapping A and B gives the mirrored manifold. The band is built from quantities that do not
  // change when A and B swap (the faces' lengths, the distance between the shapes' origins, the
  // radii), so both orders make the same choice. A caller may widen it (reference_face_hysteresis).
  // Its lengths take square roots, so a difference beyond the band's bound from coordinate
  // magnitudes (each at least the length it stands for) is told first, without them.
  const Vec2 face_a = a.vertices[a.next(axes.of_a.edge)] - a.vertices[axes.of_a.edge];
  const Vec2 face_b = b.vertices[b.next(axes.of_b.edge)] - b.vertices[axes.of_b.edge];
  auto hysteresis = [&](auto measure) {
    return std::max(options.reference_face_hysteresis,
                    16 * contact_tolerance(std::max(measure(face_a), measure(face_b)) + measure(b_to_a.position) + radii));
  };
  const Real separation_difference = std::abs(axes.of_b.separation - axes.of_a.separation);
  const bool tied = separation_difference <= hysteresis([](Vec2 v) { return coordinate_magnitude(v); }) &&
                    separation_difference <= hysteresis([](Vec2 v) { return length(v); });
  const bool b_preferred = tied ? b.reach() > a.reach() : axes.of_b.separation > axes.of_a.separation;
  const Real band_bound = detail::clip_band_bound(reaches, offset_magnitude, radii);
  clip_against_reference(a, b, b_to_a, axes, b_preferred, face_tolerance, band_bound, options, manifold);
  // Within the band, when nothing of the other shape lies in front of the chosen face, that face
  // is not the one in contact, and the other is.
  if (manifold.point_count == 0 && tied) clip_against_reference(a, b, b_to_a, axes, !b_preferred, face_tolerance, band_bound, options, manifold);
  if (manifold.point_count == 0) {
    // Clipping found nothing within reach: the incident edge lies beside the reference face
    // (collinear capsules end to end, corners apart), or its clipped ends are pulled away from a
    // corner the cores meet at. The contact, if any, is between the closest points of the cores;
    // cores that touch within their band there (a segment's end 50 from a capsule's end core, far
    // out in float where the band is 64) still meet through the radii, parted along EPA's normal
    // as penetration() parts them.
    const FeatureId id = feature_id(ContactKind::closest_points, axes.of_a.edge, axes.of_b.edge, 0, false);
    const GjkResult cores = gjk(a, b, b_to_a);
    if (cores.overlapping) {
      const EpaResult expansion = epa(a, b, b_to_a, cores.simplex);
      closest_point_contact(expansion.point_a, expansion.point_b, expansion.normal, -expansion.depth, a.radius, b.radius, id, manifold);
      return;
    }
    if (cores.distance > radii + options.speculative_distance + face_tolerance()) return;
    closest_point_contact(cores.point_a, cores.point_b, cores.normal, cores.distance, a.radius, b.radius, id, manifold);
  }
}

/// A circle (centre given in the view's frame; `placement` is what placing it there rounded, as a
/// magnitude) against a polygon-like shape, into `manifold`; normal from the view to the circle.
[[gnu::always_inline]] inline void collide_view_circle(const PolygonView& shape, Vec2 center, Real placement, Real circle_radius,
                                                       const CollideOptions& options, Manifold& manifold) {
  const Real radii = shape.radius + circle_radius;
  // A polygon's search may stop at a face farther than any touching band could reach: the band's
  // magnitude (below) is at most the core's extent and the centre's offsets, so bound it by them.
  // (|x| + |y| is at most sqrt(2) times a length: a face's extent is within 2.9 reach and the
  // centre's offset from a vertex within |centre| + 1.5 reach.)
  // A segment core has two faces, too few to save anything, and its reach would take two roots.
  Real apart_beyond = std::numeric_limits<Real>::max();
  if (shape.polygon != nullptr) {
    const Real magnitude_bound = 4 * shape.reach() + coordinate_magnitude(center) + placement;
    apart_beyond = radii + options.speculative_distance + contact_tolerance(magnitude_bound + radii);
  }
  const detail::CoreFeature nearest = detail::nearest_core_feature(shape, center, apart_beyond);
  if (nearest.signed_distance > apart_beyond) return;
  // Apart by more than the touching band of the nearest feature; the band only widens the test,
  // so it is computed where the distance passes the radii and the speculative distance.
  const Real reach = radii + options.speculative_distance;
  if (nearest.signed_distance > reach &&
      nearest.signed_distance > reach + detail::circle_feature_tolerance(shape, nearest, center, placement, radii)) {
    return;
  }
  const Vec2 core_point = nearest.core_point, normal = nearest.normal;
  const Real core_distance = nearest.signed_distance;
  manifold.normal = normal;
  const Vec2 surface_shape = core_point + shape.radius * normal;
  const Vec2 surface_circle = center - circle_radius * normal;
  manifold.points[0] = {Real(0.5) * (surface_shape + surface_circle), core_distance - radii,
                        feature_id(ContactKind::circle, nearest.feature, 0, nearest.at_vertex ? 1 : 0, false)};
  manifold.point_count = 1;
}

/// Circle A against a polygon-like B, into `manifold`: world frame, normal from A to B, or from B
/// to A when `normal_from_b`. The circle's centre is placed in B's frame by place_circle_center.
[[gnu::always_inline]] inline void collide_circle_with(const Circle& a, const Transform& transform_a, const PolygonView& b,
                                                       const Transform& transform_b, const CollideOptions& options, bool normal_from_b,
                                                       Manifold& manifold) {
  Vec2 center;
  Real placement;
  detail::place_circle_center(a.center, transform_a, transform_b, center, placement);
  collide_view_circle(b, center, placement, a.radius, options, manifold);
  if (manifold.point_count == 0) return;  // apart: nothing to turn or place
  if (!normal_from_b) manifold.normal = -manifold.normal;  // the view-to-circle normal runs from B
  detail::place_manifold(manifold, transform_b);
}

/// Two circles, into `manifold`: normal from A to B, world frame.
void collide_circles(const Circle& a, const Transform& transform_a, const Circle& b, const Transform& transform_b,
                     const CollideOptions& options, Manifold& manifold) {
  // From A's position in the world's orientation (circle_pair): apart when the centres are farther
  // than the radii, the speculative distance and the touching band together, compared squared;
  // else one point on the line of centres, midway between the surfaces, placed at A's position
  // last. Concentric circles take +x of A's frame as the normal. Centres within the radii and the
  // speculative distance are told first, without the band: that branch goes either way from one
  // pair to the next, and it then waits on the offset alone, not on the band's magnitudes too.
  const CirclePair pair = circle_pair(a.center, transform_a, b.center, transform_b, a.radius + b.radius);
  const Real within = a.radius + b.radius + options.speculative_distance, squared_distance = length_squared(pair.offset);
  if (!(within >= 0 && squared_distance <= within * within)) {
    const Real reach = within + pair.tolerance;
    if (reach < 0 || squared_distance > reach * reach) return;
  }
  const Real center_distance = length_in_real(pair.offset);
  const Vec2 normal = pair.normal(center_distance, transform_a);
  closest_point_contact(pair.turned_a, pair.turned_a + pair.offset, normal, center_distance, a.radius, b.radius,
                        feature_id(ContactKind::circle, 0, 0, 0, false), manifold);
  manifold.points[0].point += transform_a.position;
}

/// Two polygon-like shapes of which one or both cores are a point (a zero-length capsule or
/// segment), into `manifold`: such a core has no face to clip against, so it is a circle (radius 0
/// for a segment) and takes the circle path. Out of line: rare, and the inlined circle path would
/// otherwise weigh on the register use of every polygon pair (box manifold 616 -> 639 instructions).
[[gnu::noinline]] void collide_point_core(const PolygonView& a, const Transform& transform_a, const PolygonView& b,
                                          const Transform& transform_b, const CollideOptions& options, bool a_is_point, bool b_is_point,
                                          Manifold& manifold) {
  if (a_is_point && b_is_point) {
    collide_circles(Circle{a.vertices[0], a.radius}, transform_a, Circle{b.vertices[0], b.radius}, transform_b, options, manifold);
  } else if (a_is_point) {
    collide_circle_with(Circle{a.vertices[0], a.radius}, transform_a, b, transform_b, options, false, manifold);
  } else {
    collide_circle_with(Circle{b.vertices[0], b.radius}, transform_b, a, transform_a, options, true, manifold);
  }
}

/// Two polygon-like shapes: normal from A to B, world frame.
Manifold collide_polygon_views(const PolygonView& a, const Transform& transform_a, const PolygonView& b,
                               const Transform& transform_b, const CollideOptions& options) {
  Manifold manifold;
  auto is_point = [](const PolygonView& view) { return view.count() == 2 && view.vertices[0] == view.vertices[1]; };
  const bool a_is_point = is_point(a), b_is_point = is_point(b);
  if (a_is_point || b_is_point) {
    collide_point_core(a, transform_a, b, transform_b, options, a_is_point, b_is_point, manifold);
  } else {
    collide_views(a, b, inverse_compose(transform_a, transform_b), options, manifold);
    detail::place_manifold(manifold, transform_a);
  }
  return manifold;
}

/// Circle A against a polygon-like B: normal from A to B, or from B to A when `normal_from_b`
/// (B is then the pair's first shape), world frame. Inlined, with the two functions above, into
/// each public overload: the view is then never built in memory and the pair makes no call
/// (polygon8-circle 330 -> 285 instructions a query).
[[gnu::always_inline]] inline Manifold collide_circle_polygon_view(const Circle& a, const Transform& transform_a, const PolygonView& b,
                                                                   const Transform& transform_b, const CollideOptions& options,
                                                                   bool normal_from_b = false) {
  Manifold manifold;
  collide_circle_with(a, transform_a, b, transform_b, options, normal_from_b, manifold);
  return manifold;
}

}  // namespace

Manifold collide(const Circle& a, const Transform& transform_a, const Circle& b, const Transform& transform_b, const CollideOptions& options) {
  Manifold manifold;
  collide_circles(a, transform_a, b, transform_b, options, manifold);
  return manifold;
}
Manifold collide(const Circle& a, const Transform& transform_a, const Capsule& b, const Transform& transform_b, const CollideOptions& options) {
  return collide_circle_polygon_view(a, transform_a, SegmentCore(b.a, b.b).view(b.radius), transform_b, options);
}
Manifold collide(const Circle& a, const Transform& transform_a, const Segment& b, const Transform& transform_b, const CollideOptions& options) {
  return collide_circle_polygon_view(a, transform_a, SegmentCore(b.a, b.b).view(0), transform_b, options);
}
Manifold collide(const Circle& a, const Transform& transform_a, const Polygon& b, const Transform& transform_b, const CollideOptions& options) {
  return collide_circle_polygon_view(a, transform_a, detail::view_of(b), transform_b, options);
}
Manifold collide(const Capsule& a, const Transform& transform_a, const Circle& b, const Transform& transform_b, const CollideOptions& options) {
  return collide_circle_polygon_view(b, transform_b, SegmentCore(a.a, a.b).view(a.radius), transform_a, options, true);
}
Manifold collide(const Segment& a, const Transform& transform_a, const Circle& b, const Transform& transform_b, const CollideOptions& options) {
  return collide_circle_polygon_view(b, transform_b, SegmentCore(a.a, a.b).view(0), transform_a, options, true);
}
Manifold collide(const Polygon& a, const Transform& transform_a, const Circle& b, const Transform& transform_b, const CollideOptions& options) {
  return collide_circle_polygon_view(b, transform_b, detail::view_of(a), transform_a, options, true);
}
Manifold collide(const Capsule& a, const Transform& transform_a, const Capsule& b, const Transform& transform_b, const CollideOptions& options) {
  return collide_polygon_views(SegmentCore(a.a, a.b).view(a.radius), transform_a, SegmentCore(b.a, b.b).view(b.radius), transform_b, options);
}
Manifold collide(const Capsule& a, const Transform& transform_a, const Segment& b, const Transform& transform_b, const CollideOptions& options) {
  return collide_polygon_views(SegmentCore(a.a, a.b).view(a.radius), transform_a, SegmentCore(b.a, b.b).view(0), transform_b, options);
}
Manifold collide(const Capsule& a, const Transform& transform_a, const Polygon& b, const Transform& transform_b, const CollideOptions& options) {
  return collide_polygon_views(SegmentCore(a.a, a.b).view(a.radius), transform_a, detail::view_of(b), transform_b, options);
}
Manifold collide(const Segment& a, const Transform& transform_a, const Segment& b, const Transform& transform_b, const CollideOptions& options) {
  return collide_polygon_views(SegmentCore(a.a, a.b).view(0), transform_a, SegmentCore(b.a, b.b).view(0), transform_b, options);
}
Manifold collide(const Segment& a, const Transform& transform_a, const Polygon& b, const Transform& transform_b, const CollideOptions& options) {
  return collide_polygon_views(SegmentCore(a.a, a.b).view(0), transform_a, detail::view_of(b), transform_b, options);
}
Manifold collide(const Polygon& a, const Transform& transform_a, const Polygon& b, const Transform& transform_b, const CollideOptions& options) {
  return collide_polygon_views(detail::view_of(a), transform_a, detail::view_of(b), transform_b, options);
}

Manifold collide(const ConvexShape& a, const Transform& transform_a, const ConvexShape& b, const Transform& transform_b,
                 const CollideOptions& options) {
  return std::visit([&](const auto& shape_a, const auto& shape_b) { return collide(shape_a, transform_a, shape_b, transform_b, options); },
                    a, b);
}

}  // namespace collide2d

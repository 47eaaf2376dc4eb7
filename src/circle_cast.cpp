// circle_cast.cpp — shape_cast() with a circle on either side, in closed form.
//
// Outline: seen from the other shape's core (a polygon's, a capsule's or segment's segment, or
// the other circle's centre as a segment of length 0), the moving circle's centre travels along
// a ray, and the pair's gap is the centre's distance from the core less the radii (the
// Minkowski sum of a convex core and a disc is the core swept by the disc). In the core's frame:
//   1. the circle's centre placed as collide() places it (place_circle_center), and the relative
//      motion;
//   2. the touching band from the core's reach, the centre's two ends, what placing it rounded
//      and the radii;
//   3. within the band at time 0 (nearest_core_feature): the generic start, where advance() decides
//      whether the motion closes the gap (detail::cast_from_touching);
//   4. otherwise the ray against the core swept by the radii, target_separation and half a band
//      (first_hit_on_rounded_core, as capsule and rounded-polygon ray casts), over t in [0, 1]:
//      its fraction is the time and its normal the contact normal. Aiming half a band out leaves
//      the pose at that time apart by a gap the round-off of the ray cannot close.
// Where GJK's ray cast (shape_cast.hpp) steps towards the contact with a support search per
// step, this takes one pass over the core's edges.
#include <optional>

#include "collide2d/shape_cast.hpp"
#include "collide2d/tolerance.hpp"
#include "polygon_view.hpp"

namespace collide2d {
namespace {

using detail::PolygonView;
using detail::SegmentCore;

/// Where a circle meets a core, in the core's frame.
struct CircleMeeting {
  enum class Kind { apart, touching_at_start, hit } kind = Kind::apart;
  Real time = 0;
  Vec2 normal;       ///< the core's outward unit normal toward the circle's centre at `time`
  Vec2 core_point;   ///< the core's point nearest the centre at `time`
  Vec2 center;       ///< the circle's centre at `time`
};

/// Steps 1 to 4 for `circle` (placed by `circle_transform`) moving by `circle_motion` (world)
/// relative to `core` (placed by `core_transform`), in the core's frame.
CircleMeeting meet_core(const PolygonView& core, const Transform& core_transform, const Circle& circle, const Transform& circle_transform,
                        Vec2 circle_motion, const CastOptions& options) {
  Vec2 center;
  Real placement;
  detail::place_circle_center(circle.center, circle_transform, core_transform, center, placement);
  const Vec2 motion = inverse_rotate(core_transform.rotation, circle_motion);
  const Real circle_radius = circle.radius;
  const Real stop_distance = core.radius + circle_radius + options.target_separation;
  const Vec2 center_at_end = center + motion;
  const Real band = contact_tolerance(core.reach() + coordinate_magnitude(center) + coordinate_magnitude(center_at_end) + placement +
                                      core.radius + circle_radius);
  CircleMeeting meeting;
  const detail::CoreFeature start = detail::nearest_core_feature(core, center, std::numeric_limits<Real>::max());
  if (start.signed_distance - stop_distance <= band) {
    meeting.kind = CircleMeeting::Kind::touching_at_start;
    return meeting;
  }
  PolygonView swept = core;
  swept.radius = stop_distance + Real(0.5) * band;
  const detail::RoundedCoreHit hit = detail::first_hit_on_rounded_core(swept, center, motion, band);
  if (!(hit.fraction <= 1)) return meeting;
  meeting.kind = CircleMeeting::Kind::hit;
  meeting.time = hit.fraction;
  meeting.normal = hit.normal;
  meeting.center = center + hit.fraction * motion;
  meeting.core_point = meeting.center - swept.radius * hit.normal;
  return meeting;
}

/// Core A (the view of `shape_a`) still, circle B moving by translation_b (world).
template <class CoreShape>
std::optional<CastHit> cast_circle_toward_core(const CoreShape& shape_a, const PolygonView& core, const Transform& transform_a, const Circle& b,
                                               const Transform& transform_b, Vec2 translation_b, const CastOptions& options) {
  const CircleMeeting meeting = meet_core(core, transform_a, b, transform_b, translation_b, options);
  if (meeting.kind == CircleMeeting::Kind::touching_at_start) {
    return detail::cast_from_touching(shape_a, transform_a, b, transform_b, translation_b, options);
  }
  if (meeting.kind == CircleMeeting::Kind::apart) return std::nullopt;
  CastHit hit;
  return detail::place_contact(hit, meeting.time, transform_a, meeting.normal, meeting.core_point, meeting.center, core.radius, b.radius);
}

/// Circle A still, core B (the view of `shape_b`) moving by translation_b: the circle moves by
/// -translation_b relative to B; the contact is placed where B is at that time.
template <class CoreShape>
std::optional<CastHit> cast_core_toward_circle(const Circle& a, const Transform& transform_a, const CoreShape& shape_b, const PolygonView& core,
                                               const Transform& transform_b, Vec2 translation_b, const CastOptions& options) {
  const CircleMeeting meeting = meet_core(core, transform_b, a, transform_a, -translation_b, options);
  if (meeting.kind == CircleMeeting::Kind::touching_at_start) {
    return detail::cast_from_touching(a, transform_a, shape_b, transform_b, translation_b, options);
  }
  if (meeting.kind == CircleMeeting::Kind::apart) return std::nullopt;
  const Transform b_at_hit{transform_b.position + meeting.time * translation_b, transform_b.rotation};
  CastHit hit;
  return detail::place_contact(hit, meeting.time, b_at_hit, -meeting.normal, meeting.center, meeting.core_point, a.radius, core.radius);
}

}  // namespace

std::optional<CastHit> shape_cast(const Circle& a, const Transform& transform_a, const Circle& b, const Transform& transform_b, Vec2 translation_b,
                                  const CastOptions& options) {
  const SegmentCore point(a.center, a.center);
  return cast_circle_toward_core(a, point.view(a.radius), transform_a, b, transform_b, translation_b, options);
}
std::optional<CastHit> shape_cast(const Circle& a, const Transform& transform_a, const Capsule& b, const Transform& transform_b,
                                  Vec2 translation_b, const CastOptions& options) {
  const SegmentCore segment(b.a, b.b);
  return cast_core_toward_circle(a, transform_a, b, segment.view(b.radius), transform_b, translation_b, options);
}
std::optional<CastHit> shape_cast(const Circle& a, const Transform& transform_a, const Segment& b, const Transform& transform_b,
                                  Vec2 translation_b, const CastOptions& options) {
  const SegmentCore segment(b.a, b.b);
  return cast_core_toward_circle(a, transform_a, b, segment.view(0), transform_b, translation_b, options);
}
std::optional<CastHit> shape_cast(const Circle& a, const Transform& transform_a, const Polygon& b, const Transform& transform_b,
                                  Vec2 translation_b, const CastOptions& options) {
  return cast_core_toward_circle(a, transform_a, b, detail::view_of(b), transform_b, translation_b, options);
}
std::optional<CastHit> shape_cast(const Capsule& a, const Transform& transform_a, const Circle& b, const Transform& transform_b,
                                  Vec2 translation_b, const CastOptions& options) {
  const SegmentCore segment(a.a, a.b);
  return cast_circle_toward_core(a, segment.view(a.radius), transform_a, b, transform_b, translation_b, options);
}
std::optional<CastHit> shape_cast(const Segment& a, const Transform& transform_a, const Circle& b, const Transform& transform_b,
                                  Vec2 translation_b, const CastOptions& options) {
  const SegmentCore segment(a.a, a.b);
  return cast_circle_toward_core(a, segment.view(0), transform_a, b, transform_b, translation_b, options);
}
std::optional<CastHit> shape_cast(const Polygon& a, const Transform& transform_a, const Circle& b, const Transform& transform_b,
                                  Vec2 translation_b, const CastOptions& options) {
  return cast_circle_toward_core(a, detail::view_of(a), transform_a, b, transform_b, translation_b, options);
}

}  // namespace collide2d

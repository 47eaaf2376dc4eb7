// collide2d/point_query.hpp — is a point inside a shape, and where is the shape's surface nearest it.
#pragma once

#include "collide2d/shapes.hpp"
#include "collide2d/tolerance.hpp"

namespace collide2d {

/// The surface point of a shape nearest a query point.
struct PointProjection {
  Vec2 point;                ///< world point on the shape's surface nearest the query point
  Real signed_distance = 0;  ///< distance to the surface: > 0 outside, < 0 inside, length units
  Vec2 normal;               ///< world unit outward normal of the surface at `point` (for a point at a circle's centre: A's +x)
};

/// The nearest surface point and the signed distance, for a shape placed by `transform`.
/// Rounded shapes are exact. A segment (or zero-radius capsule) has no inside: its distance is >= 0.
[[nodiscard]] PointProjection closest_point(const Circle& shape, const Transform& transform, Vec2 point);
[[nodiscard]] PointProjection closest_point(const Capsule& shape, const Transform& transform, Vec2 point);
[[nodiscard]] PointProjection closest_point(const Segment& shape, const Transform& transform, Vec2 point);
[[nodiscard]] PointProjection closest_point(const Polygon& shape, const Transform& transform, Vec2 point);
/// For a compound: outside, the nearest child surface; inside, the nearest point of the compound's
/// outline (seams are not surface), with a negative distance.
[[nodiscard]] PointProjection closest_point(const Compound& shape, const Transform& transform, Vec2 point);
[[nodiscard]] PointProjection closest_point(const Shape& shape, const Transform& transform, Vec2 point);

/// True when the world point is inside the shape or on its surface (within the contact tolerance
/// of the shape's and the point's coordinates in the shape's frame, docs/conventions.md). For any
/// shape with a closest_point overload.
template <class S>
[[nodiscard]] bool contains(const S& shape, const Transform& transform, Vec2 point) {
  const Real tolerance = contact_tolerance(size_scale(shape) + coordinate_magnitude(inverse_transform_point(transform, point)));
  return closest_point(shape, transform, point).signed_distance <= tolerance;
}

}  // namespace collide2d

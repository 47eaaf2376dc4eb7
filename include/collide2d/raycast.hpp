// collide2d/raycast.hpp — what a ray hits first.
#pragma once

#include <optional>

#include "collide2d/shapes.hpp"

namespace collide2d {

/// A ray: the points origin + t * translation for t in [0, max_fraction], world frame.
struct Ray {
  Vec2 origin;            ///< start point, world
  Vec2 translation;       ///< end point minus start point at t = 1 (not necessarily unit length)
  Real max_fraction = 1;  ///< the largest t tested, >= 0
};

/// Where a ray first meets a shape's surface.
struct RayHit {
  Real fraction = 0;    ///< t of the hit: the point is origin + fraction * translation
  Vec2 point;           ///< world point of the hit
  Vec2 normal;          ///< world unit outward surface normal at the hit; zero when `inside`
  bool inside = false;  ///< the ray starts inside the shape: reported as a hit at fraction 0
};

/// The first point where the ray meets the shape (placed by `transform`), or empty when it
/// misses within [0, max_fraction].
/// - A ray starting inside (deeper than the size-scaled tolerance) hits at fraction 0 with
///   `inside` set and a zero normal.
/// - A ray starting on the surface (within the tolerance) hits at fraction 0 with the surface
///   normal when it heads inward or along the surface; heading outward it misses (nothing of a
///   convex shape lies ahead).
/// - A zero-length ray (or max_fraction 0) hits only when its origin is inside or on the surface.
/// - Touching within the size-scaled tolerance counts: a ray passing a vertex within it (however
///   sharp or blunt the vertex) grazes it and hits it where it lies along the ray, with the normal
///   of the edge it enters through; a ray running along an edge from outside hits where it
///   first touches the polygon, with the normal of the edge it enters through there (as Box2D
///   does); a ray running along a segment's line hits its nearer end with the normal pointing back
///   along the ray.
/// Every shape is analytic, exact to round-off: circles, segments, polygons by Cyrus–Beck
/// clipping, and capsules and rounded polygons as their core's edges moved out by the radius and
/// circles at the core's vertices.
[[nodiscard]] std::optional<RayHit> raycast(const Circle& shape, const Transform& transform, const Ray& ray);
[[nodiscard]] std::optional<RayHit> raycast(const Capsule& shape, const Transform& transform, const Ray& ray);
[[nodiscard]] std::optional<RayHit> raycast(const Segment& shape, const Transform& transform, const Ray& ray);
[[nodiscard]] std::optional<RayHit> raycast(const Polygon& shape, const Transform& transform, const Ray& ray);
/// A compound is hit where the ray first meets a child (the child tree skips the rest); a ray
/// starting inside any child is `inside`.
[[nodiscard]] std::optional<RayHit> raycast(const Compound& shape, const Transform& transform, const Ray& ray);
[[nodiscard]] std::optional<RayHit> raycast(const Shape& shape, const Transform& transform, const Ray& ray);

}  // namespace collide2d

// raycast.cpp — ray casts against every shape.
//
// Outline: first classify the ray's origin with closest_point (inside: a hit at 0 flagged
// `inside`; on the surface: a hit at 0 unless heading outward). From outside, in the shape's
// local frame: a circle solves |o + t d - c| = r; a segment intersects two lines (cross
// products); an unrounded polygon clips the ray against every edge's half-plane (Cyrus & Beck,
// "Generalized two- and three-dimensional clipping", 1978): entering edges raise the lower
// bound, leaving edges lower the upper bound, and the hit is where the last entering edge was
// crossed. Capsules and rounded polygons cast a point with shape_cast.
#include "collide2d/raycast.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "collide2d/point_query.hpp"
#include "collide2d/shape_cast.hpp"

namespace collide2d {
namespace {

/// A hit in the shape's local frame, turned into the world by `transform`.
RayHit to_world(const Ray& ray, const Transform& transform, Real fraction, Vec2 local_normal) {
  return {fraction, ray.origin + fraction * ray.translation, rotate(transform.rotation, local_normal), false};
}

/// The answer when the origin is inside or on the surface; empty when the origin is outside and
/// the shape-specific cast must run. `decided` tells the two apart.
struct StartResult {
  bool decided = false;
  std::optional<RayHit> hit;
};

template <class S>
StartResult classify_start(const S& shape, const Transform& transform, const Ray& ray) {
  const PointProjection start = closest_point(shape, transform, ray.origin);
  const Real tolerance =
      relative_tolerance * (size_scale(shape) + length(ray.origin - transform.position) + length(ray.translation) * ray.max_fraction);
  if (start.signed_distance < -tolerance) return {true, RayHit{0, ray.origin, {}, true}};
  if (start.signed_distance <= tolerance) {
    if (dot(ray.translation, start.normal) <= 0) return {true, RayHit{0, ray.origin, start.normal, false}};
    return {true, std::nullopt};  // leaving a convex shape from its surface: nothing ahead
  }
  if (!(ray.max_fraction > 0) || length_squared(ray.translation) == 0) return {true, std::nullopt};
  return {};
}

/// Capsules and rounded polygons: cast a point at the shape.
template <class S>
std::optional<RayHit> cast_point(const S& shape, const Transform& transform, const Ray& ray) {
  const std::optional<CastHit> cast =
      shape_cast(shape, transform, Circle{{0, 0}, 0}, Transform{ray.origin, {}}, ray.max_fraction * ray.translation);
  if (!cast) return std::nullopt;
  const Real fraction = cast->time * ray.max_fraction;
  return RayHit{fraction, ray.origin + fraction * ray.translation, cast->normal, false};
}

}  // namespace

std::optional<RayHit> raycast(const Circle& shape, const Transform& transform, const Ray& ray) {
  if (StartResult start = classify_start(shape, transform, ray); start.decided) return start.hit;
  const Vec2 origin = inverse_transform_point(transform, ray.origin) - shape.center;
  const Vec2 direction = inverse_rotate(transform.rotation, ray.translation);
  // |origin + t direction|^2 = r^2, the nearer root.
  const Real a = length_squared(direction), half_b = dot(origin, direction), c = length_squared(origin) - shape.radius * shape.radius;
  const Real discriminant = half_b * half_b - a * c;
  if (discriminant < 0) return std::nullopt;
  const Real fraction = (-half_b - std::sqrt(discriminant)) / a;
  if (fraction < 0 || fraction > ray.max_fraction) return std::nullopt;
  return to_world(ray, transform, fraction, normalize(origin + fraction * direction));
}

std::optional<RayHit> raycast(const Capsule& shape, const Transform& transform, const Ray& ray) {
  if (StartResult start = classify_start(shape, transform, ray); start.decided) return start.hit;
  return cast_point(shape, transform, ray);
}

std::optional<RayHit> raycast(const Segment& shape, const Transform& transform, const Ray& ray) {
  if (StartResult start = classify_start(shape, transform, ray); start.decided) return start.hit;
  const Vec2 origin = inverse_transform_point(transform, ray.origin);
  const Vec2 direction = inverse_rotate(transform.rotation, ray.translation);
  const Vec2 along = shape.b - shape.a, to_start = shape.a - origin;
  const Real denominator = cross(direction, along);
  const Real tolerance = relative_tolerance * (size_scale(shape) + length(origin)) * length(direction);
  if (std::abs(denominator) <= tolerance * length(along)) {  // parallel
    if (std::abs(cross(to_start, direction)) > tolerance * length(to_start + direction)) return std::nullopt;
    // Along the segment's line: the nearer end ahead, normal pointing back along the ray.
    const Real direction_squared = length_squared(direction);
    const Real fraction = std::min(dot(shape.a - origin, direction), dot(shape.b - origin, direction)) / direction_squared;
    if (fraction < 0 || fraction > ray.max_fraction) return std::nullopt;
    return to_world(ray, transform, fraction, -normalize(direction));
  }
  const Real fraction = cross(to_start, along) / denominator;
  const Real position = cross(to_start, direction) / denominator;  // where on the segment, 0 at a, 1 at b
  // An end within the tolerance of the ray's line counts as touched (a ray grazing a vertex hits
  // it): (position - 1) |denominator| / |direction| is that end's distance from the line.
  const Real end_slack = tolerance / std::abs(denominator);
  if (fraction < 0 || fraction > ray.max_fraction || position < -end_slack || position > 1 + end_slack) return std::nullopt;
  Vec2 normal = normalize(left_perpendicular(along));
  if (dot(normal, direction) > 0) normal = -normal;
  return to_world(ray, transform, fraction, normal);
}

std::optional<RayHit> raycast(const Polygon& shape, const Transform& transform, const Ray& ray) {
  if (StartResult start = classify_start(shape, transform, ray); start.decided) return start.hit;
  if (shape.radius() > 0) return cast_point(shape, transform, ray);
  const Vec2 origin = inverse_transform_point(transform, ray.origin);
  const Vec2 direction = inverse_rotate(transform.rotation, ray.translation);
  // Touching within the size-scaled tolerance counts: clip against the edges pushed out by it, so
  // a ray grazing a vertex or running along an edge hits even when round-off puts it a hair
  // outside. The fraction reported is the entering edge's own (unwidened) crossing. Near a sharp
  // vertex the widened edges reach well past it (tolerance / sin(half the angle)); a hit there
  // farther than the tolerance from the polygon is a false one, and the ray is clipped again
  // against the edges themselves.
  const Real tolerance = relative_tolerance * (size_scale(shape) + length(origin) + length(direction) * ray.max_fraction);
  const auto vertices = shape.vertices();
  const auto normals = shape.normals();
  auto clip = [&](Real widening) -> std::optional<RayHit> {
    Real lower = 0, upper = ray.max_fraction, entering_crossing = 0, outermost_offset = std::numeric_limits<Real>::max();
    int entering_edge = -1, outermost_edge = 0;
    for (int i = 0; i < shape.count(); ++i) {
      // The ray is inside edge i's (widened) half-plane while dot(n, v - o) + widening - t dot(n, d) >= 0.
      const Real offset = dot(normals[i], vertices[i] - origin), approach = dot(normals[i], direction);
      if (offset < outermost_offset) {
        outermost_offset = offset;
        outermost_edge = i;
      }
      if (approach == 0) {
        if (offset + widening < 0) return std::nullopt;  // parallel and outside this edge
        continue;
      }
      const Real crossing = (offset + widening) / approach;
      if (approach < 0 && crossing > lower) {  // entering through edge i
        lower = crossing;
        entering_edge = i;
        entering_crossing = offset / approach;
      } else if (approach > 0 && crossing < upper) {  // leaving through edge i
        upper = crossing;
      }
      if (upper < lower) return std::nullopt;
    }
    // No edge entered: the origin is outside (classify_start) but within the widening of every
    // edge's line, which happens near a sharp vertex: it touches there.
    if (entering_edge < 0) return to_world(ray, transform, 0, normals[outermost_edge]);
    return to_world(ray, transform, std::clamp(entering_crossing, Real(0), ray.max_fraction), normals[entering_edge]);
  };
  std::optional<RayHit> hit = clip(tolerance);
  if (hit && closest_point(shape, Transform{}, origin + hit->fraction * direction).signed_distance > tolerance) hit = clip(0);
  return hit;
}

std::optional<RayHit> raycast(const Shape& shape, const Transform& transform, const Ray& ray) {
  return std::visit([&](const auto& concrete) { return raycast(concrete, transform, ray); }, shape);
}

}  // namespace collide2d

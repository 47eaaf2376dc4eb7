// collide2d/support.hpp — the ConvexSupport concept that GJK, EPA and the generic queries use.
#pragma once

#include <concepts>

#include "collide2d/math.hpp"

namespace collide2d {

/// A convex shape described by its support function: `support(direction)` returns the point of
/// the shape's core farthest along `direction` (local frame; direction need not be unit length),
/// and `rounding_radius()` the radius the core is swept by. Circle, Capsule, Segment and Polygon
/// model it, and so can a user's own shape (an ellipse core, a convex point cloud, ...).
template <class T>
concept ConvexSupport = requires(const T& shape, Vec2 direction) {
  { shape.support(direction) } -> std::convertible_to<Vec2>;
  { shape.rounding_radius() } -> std::convertible_to<Real>;
};

/// The support point of `shape` placed by `transform`, with direction and result in the parent frame.
/// Always inlined: GCC kept it a call in the shape cast's loop, which then spilled every
/// floating-point value it holds at each support point (shape_cast polygon4 226 -> 192 ns).
template <ConvexSupport S>
[[gnu::always_inline]] constexpr Vec2 transformed_support(const S& shape, const Transform& transform, Vec2 direction) {
  return transform_point(transform, shape.support(inverse_rotate(transform.rotation, direction)));
}

/// The bounding box of `shape` placed by `transform` (parent frame): four support points along
/// the parent's axes, widened by the rounding radius. compute_aabb and the casts' reach use it.
template <ConvexSupport S>
constexpr Aabb support_bounds(const S& shape, const Transform& transform) {
  const Real r = shape.rounding_radius();
  return {{transformed_support(shape, transform, {-1, 0}).x - r, transformed_support(shape, transform, {0, -1}).y - r},
          {transformed_support(shape, transform, {1, 0}).x + r, transformed_support(shape, transform, {0, 1}).y + r}};
}

}  // namespace collide2d

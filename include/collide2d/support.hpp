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
template <ConvexSupport S>
constexpr Vec2 transformed_support(const S& shape, const Transform& transform, Vec2 direction) {
  return transform_point(transform, shape.support(inverse_rotate(transform.rotation, direction)));
}

}  // namespace collide2d

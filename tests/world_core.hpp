// world_core.hpp — a convex shape's core placed in world coordinates, in double or long double,
// for the brute-force oracles of test_casts and test_differential (computed apart from the
// library's Vec2 arithmetic).
#pragma once

#include <type_traits>
#include <vector>

#include "point2.hpp"
#include "random_shapes.hpp"

namespace test_points {

/// A shape's core in world coordinates with its rounding radius: 1 vertex (circle), 2 (segment,
/// capsule) or at least 3 in counter-clockwise order (polygon).
template <class T>
struct WorldCore {
  std::vector<Point2<T>> vertices;
  T radius = 0;
};

/// The image of a local point under the transform, evaluated in T from the transform's own
/// (Real) rotation and position.
template <class T>
Point2<T> world_point(const collide2d::Transform& transform, collide2d::Vec2 local) {
  const T cosine = transform.rotation.cosine, sine = transform.rotation.sine, x = local.x, y = local.y;
  return {cosine * x - sine * y + T(transform.position.x), sine * x + cosine * y + T(transform.position.y)};
}

/// The core of a convex `shape` placed by `transform`, into `core` (its storage reused).
template <class T>
void place_core(const collide2d::Shape& shape, const collide2d::Transform& transform, WorldCore<T>& core) {
  core.vertices.clear();
  random_shapes::visit_convex(
      [&](const auto& concrete) {
        using S = std::decay_t<decltype(concrete)>;
        if constexpr (std::is_same_v<S, collide2d::Circle>) {
          core.vertices.push_back(world_point<T>(transform, concrete.center));
          core.radius = concrete.radius;
        } else if constexpr (std::is_same_v<S, collide2d::Capsule>) {
          core.vertices = {world_point<T>(transform, concrete.a), world_point<T>(transform, concrete.b)};
          core.radius = concrete.radius;
        } else if constexpr (std::is_same_v<S, collide2d::Segment>) {
          core.vertices = {world_point<T>(transform, concrete.a), world_point<T>(transform, concrete.b)};
          core.radius = 0;
        } else {
          for (collide2d::Vec2 vertex : concrete.vertices()) core.vertices.push_back(world_point<T>(transform, vertex));
          core.radius = concrete.radius();
        }
      },
      shape);
}

/// place_core into a new core.
template <class T>
WorldCore<T> world_core(const collide2d::Shape& shape, const collide2d::Transform& transform) {
  WorldCore<T> core;
  place_core(shape, transform, core);
  return core;
}

}  // namespace test_points

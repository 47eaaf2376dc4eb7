// collide2d/distance.hpp — how far apart two shapes are, and their closest points.
#pragma once

#include "collide2d/algorithms.hpp"

namespace collide2d {

/// Distance between two shapes and where it is measured.
struct DistanceResult {
  Real distance = 0;         ///< gap between the surfaces (>= 0; 0 when they overlap or touch), length units
  Vec2 point_a;              ///< world point on A's surface closest to B
  Vec2 point_b;              ///< world point on B's surface closest to A
  Vec2 normal;               ///< world unit vector from point_a to point_b; zero when overlapping
  bool overlapping = false;  ///< the shapes overlap or touch (then the points are a shared estimate, see penetration())
  int iterations = 0;        ///< GJK support evaluations
  IterationStatus status = IterationStatus::converged;  ///< iteration_cap when GJK stopped at its cap
};

/// Options for distance().
struct DistanceOptions {
  SimplexCache* cache = nullptr;  ///< warm start for repeated queries on the same pair; read and written back
  int max_iterations = 64;        ///< GJK's cap
};

/// Distance and closest points by GJK on the cores, radii subtracted. Works for any
/// ConvexSupport shape; a warm cache usually halves the iterations when shapes move a little.
template <ConvexSupport A, ConvexSupport B>
[[nodiscard]] DistanceResult distance(const A& a, const Transform& transform_a, const B& b, const Transform& transform_b,
                                      const DistanceOptions& options = {}) {
  const Transform b_to_a = inverse_compose(transform_a, transform_b);
  const Real radius_a = a.rounding_radius(), radius_b = b.rounding_radius();
  const GjkResult cores = gjk(a, b, b_to_a, {.max_iterations = options.max_iterations, .cache = options.cache});
  DistanceResult result;
  result.iterations = cores.iterations;
  result.status = cores.status;
  if (cores.overlapping || cores.distance <= radius_a + radius_b + cores.tolerance) {
    result.overlapping = true;
    const Vec2 shared = Real(0.5) * (cores.point_a + cores.point_b);
    result.point_a = result.point_b = transform_point(transform_a, shared);
    return result;
  }
  result.distance = cores.distance - radius_a - radius_b;
  result.normal = rotate(transform_a.rotation, cores.normal);
  result.point_a = transform_point(transform_a, cores.point_a + radius_a * cores.normal);
  result.point_b = transform_point(transform_a, cores.point_b - radius_b * cores.normal);
  return result;
}

/// distance() for any pair of shapes held in the Shape variant. With a compound, the smallest
/// distance over its children (pairs whose boxes are farther apart than the best so far are
/// skipped); the warm-start cache is used only when both shapes are convex.
[[nodiscard]] DistanceResult distance(const Shape& a, const Transform& transform_a, const Shape& b, const Transform& transform_b,
                                      const DistanceOptions& options = {});

}  // namespace collide2d

// collide2d/distance.hpp — how far apart two shapes are, and their closest points.
#pragma once

#include <type_traits>

#include "collide2d/algorithms.hpp"
#include "collide2d/detail/circle_core.hpp"
#include "collide2d/tolerance.hpp"

namespace collide2d {

/// Distance between two shapes and where it is measured.
struct DistanceResult {
  Real distance = 0;         ///< gap between the surfaces (>= 0; 0 when they overlap or touch), length units
  Vec2 point_a;              ///< world point on A's surface closest to B
  Vec2 point_b;              ///< world point on B's surface closest to A
  Vec2 normal;               ///< world unit vector from point_a to point_b; zero when overlapping
  bool overlapping = false;  ///< the shapes overlap or touch (then the points are a shared estimate, see penetration())
  int iterations = 0;        ///< GJK support evaluations (0 for two circles and for a circle with a polygon, a capsule or a segment: analytic)
  IterationStatus status = IterationStatus::converged;  ///< iteration_cap when GJK stopped at its cap
};

/// Options for distance().
struct DistanceOptions {
  SimplexCache* cache = nullptr;  ///< warm start for repeated queries on the same pair; read and written back
  int max_iterations = 64;        ///< GJK's cap
};

/// Distance and closest points by GJK on the cores, radii subtracted. Works for any
/// ConvexSupport shape; a warm cache usually halves the iterations when shapes move a little. Two
/// circles are analytic, along the line of centres (circle_pair, as overlap() and collide()); their
/// cache is written as GJK would leave it, one vertex at the centres. A circle and a polygon, a
/// capsule or a segment are analytic too, from the other shape's core feature nearest the
/// circle's centre (as overlap(), penetration() and collide()); their cache is written as GJK
/// would leave it, the feature's one or two vertices each with the circle's centre. An analytic
/// pair reports 0 iterations.
template <ConvexSupport A, ConvexSupport B>
[[nodiscard]] DistanceResult distance(const A& a, const Transform& transform_a, const B& b, const Transform& transform_b,
                                      const DistanceOptions& options = {}) {
  const Real radius_a = a.rounding_radius(), radius_b = b.rounding_radius();
  DistanceResult result;
  if constexpr (std::is_same_v<A, Circle> && std::is_same_v<B, Circle>) {
    const CirclePair pair = circle_pair(a.center, transform_a, b.center, transform_b, radius_a + radius_b);
    if (options.cache != nullptr) *options.cache = {{a.center}, {b.center}, 1};
    const Real between = length_in_real(pair.offset);
    if (between <= radius_a + radius_b + pair.tolerance) {
      result.overlapping = true;
      result.point_a = result.point_b = transform_a.position + (pair.turned_a + Real(0.5) * pair.offset);
      return result;
    }
    result.distance = between - radius_a - radius_b;
    result.normal = pair.normal(between, transform_a);
    result.point_a = pair.surface_a(transform_a, radius_a, result.normal);
    result.point_b = pair.surface_b(transform_a, radius_b, result.normal);
    return result;
  } else if constexpr (detail::is_circle_core_pair<A, B>) {
    const detail::CircleCoreGap pair = detail::circle_core_gap_of(a, transform_a, b, transform_b);
    constexpr bool core_first = std::is_same_v<B, Circle>;
    if (options.cache != nullptr) {  // both slots written, the second read only for an edge (no loop: GCC made one a memcpy call)
      const Vec2 center = [&] {
        if constexpr (core_first) {
          return b.center;
        } else {
          return a.center;
        }
      }();
      SimplexCache& cache = *options.cache;
      cache.count = pair.feature_count;
      std::array<Vec2, 3>& core_side = core_first ? cache.local_a : cache.local_b;
      std::array<Vec2, 3>& circle_side = core_first ? cache.local_b : cache.local_a;
      core_side[0] = pair.feature[0];
      core_side[1] = pair.feature[1];
      circle_side[0] = circle_side[1] = center;
    }
    if (pair.gap <= pair.tolerance) {
      result.overlapping = true;
      result.point_a = result.point_b = Real(0.5) * (pair.core_point + pair.circle_point);
      return result;
    }
    result.distance = pair.gap;
    result.normal = core_first ? pair.normal : -pair.normal;
    result.point_a = core_first ? pair.core_point : pair.circle_point;
    result.point_b = core_first ? pair.circle_point : pair.core_point;
    return result;
  }
  const Transform b_to_a = inverse_compose(transform_a, transform_b);
  const GjkResult cores = gjk(a, b, b_to_a, {.max_iterations = options.max_iterations, .cache = options.cache});
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
/// skipped); the warm-start cache is used only when both shapes are convex. A compound and a
/// convex shape are measured with the compound first whichever side it is on, and two compounds
/// with the one reaching farther from its origin first (docs/conventions.md), so swapping A and B
/// gives the same distance, the witness points swapped and the normal negated.
[[nodiscard]] DistanceResult distance(const Shape& a, const Transform& transform_a, const Shape& b, const Transform& transform_b,
                                      const DistanceOptions& options = {});

}  // namespace collide2d

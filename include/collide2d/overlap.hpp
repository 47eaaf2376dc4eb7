// collide2d/overlap.hpp — do two shapes share a point?
#pragma once

#include <type_traits>

#include "collide2d/algorithms.hpp"
#include "collide2d/detail/circle_core.hpp"
#include "collide2d/tolerance.hpp"

namespace collide2d {

/// True when A and B (world placements transform_a, transform_b) overlap or touch. Touching
/// within the contact tolerance of the features involved (docs/conventions.md) counts. Two circles
/// are analytic, and so are a circle and a polygon, a capsule or a segment (the other shape's core
/// feature nearest the centre, as collide() decides); every other pair runs GJK on the cores and
/// stops as soon as a separating direction beyond the radii is found. Works for any ConvexSupport
/// shape.
template <ConvexSupport A, ConvexSupport B>
[[nodiscard]] bool overlap(const A& a, const Transform& transform_a, const B& b, const Transform& transform_b) {
  const Real radii = a.rounding_radius() + b.rounding_radius();
  if constexpr (std::is_same_v<A, Circle> && std::is_same_v<B, Circle>) {
    const CirclePair pair = circle_pair(a.center, transform_a, b.center, transform_b, radii);
    return length_in_real(pair.offset) <= radii + pair.tolerance;
  } else if constexpr (detail::is_circle_core_pair<A, B>) {
    const detail::CircleCoreGap pair = detail::circle_core_gap_of(a, transform_a, b, transform_b);
    return pair.gap <= pair.tolerance;
  } else {
    const GjkResult cores = gjk(a, b, inverse_compose(transform_a, transform_b), {.separation_limit = radii});
    return !cores.stopped_early && cores.distance <= radii + cores.tolerance;
  }
}

/// overlap() for any pair of shapes held in the Shape variant; a compound overlaps when any of its
/// children does (its child tree finds the candidates). A compound and a convex shape are judged
/// with the compound first whichever side it is on, and two compounds with the one reaching
/// farther from its origin first (docs/conventions.md), so swapping A and B gives the same answer.
[[nodiscard]] bool overlap(const Shape& a, const Transform& transform_a, const Shape& b, const Transform& transform_b);

}  // namespace collide2d

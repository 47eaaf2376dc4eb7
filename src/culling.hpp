// culling.hpp (private) — how far boxes are widened before culling pairs against them, so that
// no pair touching by its own band is culled: a compound's children against the other shape's
// part (queries.cpp), and bodies against each other in the World's broad phase (world.cpp).
// docs/conventions.md ("Tolerances") lists the rule with the others.
#pragma once

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <variant>

#include "collide2d/shapes.hpp"
#include "collide2d/tolerance.hpp"

namespace collide2d::detail {

/// The largest coordinate_magnitude of a box's points (that of its farthest corner).
inline Real box_magnitude(const Aabb& box) {
  return std::max(std::abs(box.lower.x), std::abs(box.upper.x)) + std::max(std::abs(box.lower.y), std::abs(box.upper.y));
}

/// How many times the largest magnitude among a pair of parts' coordinates a pair's touching band
/// can count: its terms (coordinates, coordinates placed in the other part's frame and turned
/// there, a face's extent, an offset between centres, the radii) are each at most twice that
/// magnitude, and no band adds more than four of them (docs/conventions.md, "Tolerances").
constexpr Real pair_band_magnitudes = 8;

/// How far a box is widened before what it might touch is culled against it: the touching band of
/// pair_band_magnitudes times `magnitude`, the box's magnitude plus that of the coordinates the
/// parts it holds have in their own frames. Both sides of a cull are widened (a compound's tree
/// nodes by their own magnitudes in queries.cpp's for_each_part; both bodies' boxes in the World's
/// broad phase), so no pair that touches by its own band is culled: a compound whose pieces lay
/// 1e6 from its origin (float) lost pieces touching a segment by their band of 5.3, culled with
/// the segment's band of 1e-5, and two boxes resting on each other 1 ulp apart (within a band of
/// 7.6e-6) were no candidate pair of the World.
inline Real culling_margin(Real magnitude) { return contact_tolerance(pair_band_magnitudes * magnitude); }

/// The magnitude of a shape's coordinates in the frames of its parts, or more: a convex shape's
/// reach (coordinate_magnitude is at most twice it); a compound's reach in its frame and that of
/// its children placed by a transform in theirs.
template <class S>
Real own_frame_magnitude(const S& shape) {
  if constexpr (std::is_same_v<S, Shape>) {
    return std::visit([](const auto& concrete) { return own_frame_magnitude(concrete); }, shape);
  } else if constexpr (std::is_same_v<S, Compound>) {
    return 2 * (shape.reach() + shape.child_frame_reach());
  } else {
    return 2 * size_scale(shape);
  }
}

/// The box of `shape` placed by `placement`, widened by culling_margin (of the box and the shape's
/// own frames) and by `reach` more (a speculative distance, a cast's stopping gap, a way out found).
template <class S>
Aabb culling_region(const S& shape, const Transform& placement, Real reach = 0) {
  const Aabb box = compute_aabb(shape, placement);
  return box.expanded(culling_margin(box_magnitude(box) + own_frame_magnitude(shape)) + reach);
}

}  // namespace collide2d::detail

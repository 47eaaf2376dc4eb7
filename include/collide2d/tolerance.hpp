// collide2d/tolerance.hpp — the one tolerance model. Every tolerance the library uses comes from
// the functions here; docs/conventions.md ("Tolerances") explains the model and lists each use.
//
// A computed length is wrong by a few roundings of the coordinates it was computed from, so a
// band of "too close to tell" is a fixed number of machine epsilons of those coordinates'
// magnitude. The magnitude is that of the features involved (the vertices of the faces in
// contact, the support points of the final GJK simplex, the points of an outline), measured in
// the frame where the computation happens (shape A's frame for a pair), never the size of an
// unrelated part of a large shape or the distance from the world origin.
#pragma once

#include <cmath>
#include <limits>

#include "collide2d/math.hpp"

namespace collide2d {

/// Machine epsilons in one round-off band: a transform, a support point and a dot product round
/// a dozen times at most, each by half an epsilon of the magnitude in use.
inline constexpr Real round_off_epsilons = 16;

/// A cheap bound on a point's distance from its frame's origin: |x| + |y| (no square root).
constexpr Real coordinate_magnitude(Vec2 point) {
  return (point.x < 0 ? -point.x : point.x) + (point.y < 0 ? -point.y : point.y);
}

/// The round-off band (length units) of a length computed from coordinates whose magnitude is at
/// most `magnitude`: round_off_epsilons machine epsilons of it, never below the smallest normal
/// number (so a band is never zero).
constexpr Real round_off(Real magnitude) {
  return round_off_epsilons * real_epsilon * magnitude + std::numeric_limits<Real>::min();
}

/// The touching band of every pair query (overlap, penetration, collide, distance, the casts, the
/// world): two shapes whose gap is at most this count as touching. `feature_magnitude` is the
/// largest coordinate_magnitude of the features involved, in A's frame.
constexpr Real contact_tolerance(Real feature_magnitude) { return round_off(feature_magnitude); }

/// The touching band of two circles (or points swept by radii) with centres `center_a` and
/// `center_b` in one frame: the contact tolerance of the centres and the radii added.
constexpr Real circles_contact_tolerance(Vec2 center_a, Vec2 center_b, Real radii) {
  const Real magnitude_a = coordinate_magnitude(center_a), magnitude_b = coordinate_magnitude(center_b);
  return contact_tolerance((magnitude_a > magnitude_b ? magnitude_a : magnitude_b) + radii);
}

/// Points of an outline closer than this are one point, and a vertex this close to the line
/// through its neighbours is collinear; `outline_magnitude` is the largest coordinate_magnitude of
/// the outline's points, in the frame they are given in.
constexpr Real weld_tolerance(Real outline_magnitude) { return round_off(outline_magnitude); }

/// The band for comparing unit vectors (normals, directions): two unit normals whose dot product
/// is within this of 1 are the same direction; a dot product within this of 0 is perpendicular.
inline constexpr Real direction_tolerance = round_off_epsilons * real_epsilon;

}  // namespace collide2d

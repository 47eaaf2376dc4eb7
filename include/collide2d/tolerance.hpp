// collide2d/tolerance.hpp — the one tolerance model. Every tolerance the library uses comes from
// the functions here; docs/conventions.md ("Tolerances") explains the model and lists each use.
//
// A computed length is wrong by a few roundings of the coordinates it was computed from, so a
// band of "too close to tell" is a fixed number of machine epsilons of those coordinates'
// magnitude. The magnitude is that of the features involved (the extent of the faces in contact
// and the offsets measured across them, the points of GJK's final simplex on B - A, the points
// of an outline) in the frame where the computation happens (shape A's frame for a pair), plus
// the magnitude of any point a transform had to round to get there: never the size of an
// unrelated part of a large shape or the distance from the world origin.
#pragma once

#include <cmath>
#include <limits>
#include <type_traits>

#include "collide2d/math.hpp"

namespace collide2d {

/// Machine epsilons in one round-off band: a transform, a support point and a dot product round
/// a dozen times at most, each by half an epsilon of the magnitude in use.
inline constexpr Real round_off_epsilons = 16;

/// A cheap bound on a point's distance from its frame's origin: |x| + |y| (no square root). At
/// run time std::abs, one instruction (a comparison and negation must keep -0's sign and cost
/// five); std::abs is not constexpr before C++23.
constexpr Real coordinate_magnitude(Vec2 point) {
  if (std::is_constant_evaluated()) return (point.x < 0 ? -point.x : point.x) + (point.y < 0 ? -point.y : point.y);
  return std::abs(point.x) + std::abs(point.y);
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

/// What a transform adds to the magnitude behind a point's round-off: nothing for the identity
/// (the point is not rounded at all); for a translation, the placed point's magnitude (one rounded
/// addition); for a rotation also that of the local point it turned (each component of R p rounds
/// by about an epsilon of |p|), recovered from the placed point as |placed - position|. The
/// transform's kind is worked out once, for loops that place many points with one transform.
class PlacementRoundOff {
 public:
  [[gnu::always_inline]] constexpr explicit PlacementRoundOff(const Transform& placement)
      : position_(placement.position), moves_(placement != Transform{}), turns_(placement.rotation != Rot{}) {}
  /// The magnitude placing a point at `placed_point` (the transform's parent frame) added.
  constexpr Real magnitude(Vec2 placed_point) const {
    const Real placed = moves_ ? coordinate_magnitude(placed_point) : Real(0);
    return turns_ ? placed + coordinate_magnitude(placed_point - position_) : placed;
  }

 private:
  Vec2 position_;  // the transform's translation
  bool moves_;     // not the identity
  bool turns_;     // turns (then it also moves)
};
/// The same for one point.
constexpr Real placement_magnitude(const Transform& placement, Vec2 placed_point) { return PlacementRoundOff(placement).magnitude(placed_point); }

/// Two placed circles (or points swept by radii) as circle pairs compute them: from A's position,
/// in the world's orientation. Each centre is turned by its shape's rotation, and the positions'
/// difference is taken before the turned centres are added, so nothing the size of the positions
/// is rounded and nothing is turned twice (no frame change to A's and back).
struct CirclePair {
  Vec2 offset;      ///< B's centre minus A's (world orientation, length units)
  Vec2 turned_a;    ///< A's centre minus A's position: A's local centre turned by A's rotation
  Real tolerance;   ///< the touching band: contact_tolerance of the offset, both turned centres and the radii

  /// The unit normal from A's centre to B's, `between` being the offset's length; +x of A's frame
  /// (placed by `transform_a`) for concentric circles.
  Vec2 normal(Real between, const Transform& transform_a) const {
    return between > 0 ? (Real(1) / between) * offset : rotate(transform_a.rotation, {1, 0});
  }
  /// World points of A's surface along `normal` and of B's against it (radii `radius_a`, `radius_b`),
  /// placed at A's position last.
  Vec2 surface_a(const Transform& transform_a, Real radius_a, Vec2 normal) const {
    return transform_a.position + (turned_a + radius_a * normal);
  }
  Vec2 surface_b(const Transform& transform_a, Real radius_b, Vec2 normal) const {
    return transform_a.position + (turned_a + offset - radius_b * normal);
  }
};

/// The CirclePair of circles centred at `center_a` (A's local frame, placed by `transform_a`) and
/// `center_b` (B's, placed by `transform_b`) with radii summing to `radii`. The band's magnitude
/// is the offset's and the turned centres' (what turning rounded) plus the radii.
constexpr CirclePair circle_pair(Vec2 center_a, const Transform& transform_a, Vec2 center_b, const Transform& transform_b, Real radii) {
  const Vec2 turned_a = rotate(transform_a.rotation, center_a), turned_b = rotate(transform_b.rotation, center_b);
  const Vec2 offset = (transform_b.position - transform_a.position) + (turned_b - turned_a);
  return {offset, turned_a, contact_tolerance(coordinate_magnitude(offset) + coordinate_magnitude(turned_a) + coordinate_magnitude(turned_b) + radii)};
}

/// Points of an outline closer than this are one point, and a vertex this close to the line
/// through its neighbours is collinear; `outline_magnitude` is the largest coordinate_magnitude of
/// the outline's points, in the frame they are given in.
constexpr Real weld_tolerance(Real outline_magnitude) { return round_off(outline_magnitude); }

/// The band for comparing unit vectors (normals, directions): two unit normals whose dot product
/// is within this of 1 are the same direction; a dot product within this of 0 is perpendicular.
inline constexpr Real direction_tolerance = round_off_epsilons * real_epsilon;

}  // namespace collide2d

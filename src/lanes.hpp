// lanes.hpp (private) — small fixed groups of Reals computed on together in vector registers, and
// the searches over them that the separating axis test, the incident edge, the ray, the bounding
// box and the sweep share: loading points as x and y lanes, turning and placing them, the first
// of the greatest lanes, the range of all lanes.
#pragma once

#include <array>
#include <bit>
#include <cstring>
#include <limits>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "collide2d/math.hpp"

namespace collide2d::detail {

// How many Reals a lane group holds.
inline constexpr int lane_count = 4;

// lane_count Reals held and computed on together in the target's vector registers (the GCC and
// Clang vector extension: arithmetic and comparisons act lane by lane, a scalar operand stands for
// every lane, `b < a ? b : a` is the lane-by-lane minimum); scalar code where there are none. Kept
// inside the functions that use them, never passed between functions that are not inlined: how
// wider lanes pass depends on the target's options.
typedef Real RealLanes __attribute__((vector_size(lane_count * sizeof(Real))));
static_assert(lane_count == 4);  // the shuffles name four lanes

// The x and y lanes of `groups` groups of lane_count points (a small polygon's vertices or
// normals, or those placed or turned into another frame).
template <int groups>
struct PointLanes {
  std::array<RealLanes, groups> x, y;
};
// The lanes of the points stored from `points` on, as stored (padding included): per group, two
// vector loads of two points each and two shuffles.
template <int groups>
[[gnu::always_inline]] inline PointLanes<groups> stored_lanes(const Vec2* points) {
  PointLanes<groups> lanes;
  for (int group = 0; group < groups; ++group) {
    RealLanes first_two, last_two;  // two Vec2 each, as stored
    std::memcpy(&first_two, &points[group * lane_count].x, sizeof(RealLanes));
    std::memcpy(&last_two, &points[group * lane_count + 2].x, sizeof(RealLanes));
    lanes.x[group] = __builtin_shufflevector(first_two, last_two, 0, 2, 4, 6);
    lanes.y[group] = __builtin_shufflevector(first_two, last_two, 1, 3, 5, 7);
  }
  return lanes;
}

// The lanes turned by `rotation`, lane by lane as rotate().
template <int groups>
[[gnu::always_inline]] inline PointLanes<groups> turned_lanes(const PointLanes<groups>& lanes, Rot rotation) {
  PointLanes<groups> turned;
  for (int group = 0; group < groups; ++group) {
    turned.x[group] = rotation.cosine * lanes.x[group] - rotation.sine * lanes.y[group];
    turned.y[group] = rotation.sine * lanes.x[group] + rotation.cosine * lanes.y[group];
  }
  return turned;
}
// The lanes placed by `placement`, lane by lane as transform_point: turned, then moved.
template <int groups>
[[gnu::always_inline]] inline PointLanes<groups> placed_lanes(const PointLanes<groups>& lanes, const Transform& placement) {
  PointLanes<groups> placed = turned_lanes<groups>(lanes, placement.rotation);
  for (int group = 0; group < groups; ++group) {
    placed.x[group] += placement.position.x;
    placed.y[group] += placement.position.y;
  }
  return placed;
}

// The least and the greatest of every lane of `values` (for stored points, the padding repeats a
// point, so these are the points' own).
template <int groups>
[[gnu::always_inline]] inline void lane_range(const std::array<RealLanes, groups>& values, Real& least, Real& greatest) {
  RealLanes low = values[0], high = values[0];
  for (int group = 1; group < groups; ++group) {
    low = values[group] < low ? values[group] : low;
    high = values[group] > high ? values[group] : high;
  }
  RealLanes swapped_low = __builtin_shufflevector(low, low, 2, 3, 0, 1), swapped_high = __builtin_shufflevector(high, high, 2, 3, 0, 1);
  low = swapped_low < low ? swapped_low : low;
  high = swapped_high > high ? swapped_high : high;
  swapped_low = __builtin_shufflevector(low, low, 1, 0, 3, 2);
  swapped_high = __builtin_shufflevector(high, high, 1, 0, 3, 2);
  least = std::min(swapped_low[0], low[0]);
  greatest = std::max(swapped_high[0], high[0]);
}

// Loads into `lanes` the lane_count Reals stored from `values` on (no alignment needed). Not a
// return value: an ordinary function returning lanes wider than the target's vector registers
// (double without AVX) draws GCC's ABI warning.
[[gnu::always_inline]] inline void load_lanes(RealLanes& lanes, const Real* values) { std::memcpy(&lanes, values, sizeof(RealLanes)); }

// The mask type a lane-by-lane comparison of RealLanes gives (integer lanes, all ones where it
// holds), and each lane's index in it.
typedef decltype(RealLanes{} < RealLanes{}) LaneMask;
inline constexpr LaneMask lane_indices = {0, 1, 2, 3};

// Bit i set where lane i of a lane-by-lane comparison holds.
// (A template, so that the float-only intrinsic is discarded where Real is double.)
template <class Mask = LaneMask>
[[gnu::always_inline]] inline unsigned lane_bits(Mask mask) {
#if defined(__SSE2__)
  if constexpr (sizeof(Real) == 4) return unsigned(_mm_movemask_ps(reinterpret_cast<__m128>(mask)));
#endif
  unsigned bits = 0;
  for (int lane = 0; lane < lane_count; ++lane) bits |= (mask[lane] != 0 ? 1u : 0u) << lane;
  return bits;
}

// The first of the greatest of the first `count` lanes of `values`, into `value` and `index`
// (index 0 when no lane compares, as with NaN); `count` is more than (groups - 1) lanes' worth.
template <int groups>
[[gnu::always_inline]] inline void greatest_lane(std::array<RealLanes, groups> values, int count, Real& value, int& index) {
  if (count < groups * lane_count) {  // only the last group can be partial
    const LaneMask in_count = lane_indices + (groups - 1) * lane_count < count;
    values[groups - 1] = in_count ? values[groups - 1] : RealLanes{} - std::numeric_limits<Real>::max();
  }
  RealLanes greatest = values[0];
  if constexpr (groups == 2) greatest = values[1] > greatest ? values[1] : greatest;
  RealLanes swapped = __builtin_shufflevector(greatest, greatest, 2, 3, 0, 1);
  greatest = swapped > greatest ? swapped : greatest;
  swapped = __builtin_shufflevector(greatest, greatest, 1, 0, 3, 2);
  greatest = swapped > greatest ? swapped : greatest;
  unsigned at_greatest = 0;
  for (int group = 0; group < groups; ++group) at_greatest |= lane_bits(values[group] == greatest) << (group * lane_count);
  value = greatest[0];
  index = at_greatest == 0 ? 0 : std::countr_zero(at_greatest);
}

}  // namespace collide2d::detail

// aabb.cpp — the segment-versus-box test that the broad phases' ray queries and the compounds'
// child trees share.
//
// Outline of segment_meets_box: the slab test (Kay & Kajiya, "Ray tracing complex scenes",
// SIGGRAPH 1986). The segment is origin + t * translation for t between 0 and max_fraction; on
// each axis the box's slab [lower, upper] cuts that parameter range to the values whose point
// lies inside the slab, and the segment meets the box when the two cuts leave a non-empty range
// (touching counts). An axis the segment does not move along is a containment test of the
// origin. Because the cut values are monotone in the slab's bounds even after rounding, a box
// that encloses another is met whenever the inner one is, which lets a tree prune with its
// enlarged boxes without changing an answer.
#include <algorithm>

#include "collide2d/math.hpp"

namespace collide2d {

namespace {

/// Narrows [low, high] to the parameters t at which origin + t * direction lies in
/// [slab_lower, slab_upper]; false when nothing is left.
bool clip_to_slab(Real origin, Real direction, Real slab_lower, Real slab_upper, Real& low, Real& high) {
  if (direction == 0) return slab_lower <= origin && origin <= slab_upper;
  Real enter = (slab_lower - origin) / direction;
  Real leave = (slab_upper - origin) / direction;
  if (enter > leave) std::swap(enter, leave);
  low = std::max(low, enter);
  high = std::min(high, leave);
  return low <= high;
}

}  // namespace

bool segment_meets_box(Vec2 origin, Vec2 translation, Real max_fraction, const Aabb& box) {
  Real low = std::min(Real(0), max_fraction);
  Real high = std::max(Real(0), max_fraction);
  return clip_to_slab(origin.x, translation.x, box.lower.x, box.upper.x, low, high) &&
         clip_to_slab(origin.y, translation.y, box.lower.y, box.upper.y, low, high);
}

}  // namespace collide2d

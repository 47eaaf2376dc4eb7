// collide2d/detail/monotone_chain.hpp — Andrew's monotone chain convex hull (A. M. Andrew,
// "Another efficient algorithm for convex hulls in two dimensions", 1979), written once for any
// element type that carries a position, so convex_hull() and EPA's start share it.
//
// Outline: sort by (x, y); sweep left to right keeping a lower chain that only turns left, then
// right to left for the upper chain; drop duplicates and collinear points (turns of exactly 0).
#pragma once

#include <algorithm>

#include "collide2d/math.hpp"

namespace collide2d::detail {

/// Sorts points[0, count) in place and writes their convex hull, counter-clockwise, to hull
/// (capacity at least count + 1). Returns the hull's size: 0 for no points, 1 for a single
/// distinct point, 2 for collinear input. `position(element)` gives an element's Vec2.
template <class Element, class Position>
int monotone_chain(Element* points, int count, Element* hull, Position position) {
  std::sort(points, points + count, [&](const Element& left, const Element& right) {
    Vec2 p = position(left), q = position(right);
    return p.x < q.x || (p.x == q.x && p.y < q.y);
  });
  auto turns_left = [&](const Element& first, const Element& middle, const Element& last) {
    Vec2 m = position(middle);
    return cross(m - position(first), position(last) - m) > 0;
  };
  int size = 0;
  for (int i = 0; i < count; ++i) {  // lower chain
    if (i > 0 && position(points[i]) == position(points[i - 1])) continue;
    while (size >= 2 && !turns_left(hull[size - 2], hull[size - 1], points[i])) --size;
    hull[size++] = points[i];
  }
  if (size <= 1) return size;
  const int lower_size = size;
  for (int i = count - 2; i >= 0; --i) {  // upper chain
    if (position(points[i]) == position(points[i + 1])) continue;
    while (size > lower_size && !turns_left(hull[size - 2], hull[size - 1], points[i])) --size;
    hull[size++] = points[i];
  }
  return size - 1;  // the last point repeats the first
}

}  // namespace collide2d::detail

// minkowski_union.hpp (private) — the least translation out of a union of Minkowski differences:
// a compound pair's shortest way out (queries.cpp), with minkowski_difference()'s brute force.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "collide2d/shapes.hpp"

namespace collide2d::detail {

/// A convex shape's core vertices in its own frame: a circle's centre, a segment's or capsule's
/// two ends, a polygon's vertices.
inline std::vector<Vec2> core_vertices(const Circle& circle) { return {circle.center}; }
inline std::vector<Vec2> core_vertices(const Capsule& capsule) { return {capsule.a, capsule.b}; }
inline std::vector<Vec2> core_vertices(const Segment& segment) { return {segment.a, segment.b}; }
inline std::vector<Vec2> core_vertices(const Polygon& polygon) { return {polygon.vertices().begin(), polygon.vertices().end()}; }

/// Every difference b - a of a point of `points_b` and a point of `points_a` (one frame).
std::vector<Vec2> difference_points(std::span<const Vec2> points_a, std::span<const Vec2> points_b);

/// The translations of B that make one part of B overlap one part of A, in A's frame: the convex
/// hull `core` swept by `radius`. It is A's part minus B's part, the reflection through the origin
/// of minkowski_difference()'s B - A.
struct TranslationObstacle {
  std::vector<Vec2> core;     ///< counter-clockwise hull; one or two points when degenerate
  std::vector<Vec2> normals;  ///< outward unit normal of the edge from core[i] to core[i + 1]
  Real radius = 0;            ///< the sum of the parts' rounding radii
  /// The touching band of each edge (of the one point or segment when degenerate): the round-off of
  /// its two vertices and the radii. This deep inside, B only touches.
  std::vector<Real> tolerances;
};

/// The obstacle of two parts, given by their core vertices placed in A's frame and the sum of
/// their radii.
TranslationObstacle translation_obstacle(std::span<const Vec2> core_a, std::span<const Vec2> core_b, Real radius);

/// Translations of B shorter than `bound`, shortest first, that are inside no obstacle by more
/// than the band of the edge they lie behind or nearest, taken from the points where the least
/// such translation lies: on one obstacle's boundary the point nearest the origin, or a point
/// where two obstacles' boundaries cross. At most `limit` are returned. The work is capped
/// (minkowski.cpp: crossings among the 512 boundary pieces nearest the origin, 4,096 candidates
/// tested); past the caps the first clear candidates may not include the least.
std::vector<Vec2> union_exits(std::span<const TranslationObstacle> obstacles, Real bound, std::size_t limit);

}  // namespace collide2d::detail

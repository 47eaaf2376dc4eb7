// collide2d/decompose.hpp — concave outlines cut into convex pieces, and shapes built from
// outlines of either kind.
#pragma once

#include <span>
#include <vector>

#include "collide2d/result.hpp"
#include "collide2d/shapes.hpp"

namespace collide2d {

/// A simple outline cut into convex pieces.
struct Decomposition {
  /// Convex pieces, counter-clockwise, in the outline's frame; with the slivers below they tile
  /// the outline exactly.
  std::vector<Polygon> pieces;
  int reflex_vertices = 0;  ///< reflex vertices of the cleaned outline (every cut must end at one)
  int parts = 1;            ///< separate parts: an outline touching itself at a vertex splits into several
  /// Pieces of the triangulation thinner than the welding tolerance (make_polygon finds them
  /// collinear): left out, as welding leaves out points closer than it. Their count and their
  /// total area (square length units), so a caller can see what the pieces do not cover.
  int slivers = 0;
  Real sliver_area = 0;  ///< total area of the slivers left out, square length units
};

/// The most points an outline given to decompose() may have: 4,096. Its crossing checks and ear
/// clipping take time quadratic in the points or worse (a comb of 4,096 points: about 1.3 s and
/// 17 MB; of 10,000: 7.5 s; of 100,003 it ran 74 s and out of memory at 4 GiB), so a longer outline
/// is refused up front (ShapeErrorKind::too_many_points), before any work. Convex outlines, which
/// shape_from_outline hands to make_polygon, have no such limit.
inline constexpr int decompose_point_limit = 4096;

/// Cuts a simple polygon outline, given in either winding, into convex pieces: ear clipping
/// followed by Hertel–Mehlhorn merging (a cut is removed whenever the two pieces it separates
/// stay convex without it), which gives at most 2r + 1 pieces for r reflex vertices and usually
/// close to r + 1. Duplicate and collinear points are dropped first (within weld_tolerance), and
/// a piece thinner than that tolerance is left out and reported (Decomposition::slivers). An outline that touches
/// itself at a vertex (a "bow tie" pinched at a point, or a vertex resting on another edge) is
/// split there into parts, each decomposed. Refuses, naming the offending input points or edges:
/// more than decompose_point_limit points, non-finite points, points beyond coordinate_limit, fewer than 3 distinct points, zero area, edges that cross or run along
/// each other (self_intersecting), and a part enclosed by another (has_hole: holes are not supported).
Result<Decomposition> decompose(std::span<const Vec2> outline);

/// The shape an outline describes: a Polygon when the outline is convex (rounded by `radius`),
/// otherwise a Compound of the pieces decompose() finds, with the cuts between them as seams.
/// A concave outline must have radius 0 (rounding a concave outline is refused).
Result<Shape> shape_from_outline(std::span<const Vec2> outline, Real radius = 0);

}  // namespace collide2d

// fuzz_outline.cpp — make_polygon, convex_hull and decompose on arbitrary points (a grid of
// power-of-two steps, so exact coincidences and collinear runs are common).
// Invariants: make_polygon's polygon is convex and counter-clockwise and its vertices are input
// points; the hull's points are input points and make_polygon accepts the hull unless it is too
// thin; decompose's pieces are convex polygons whose corners are exact copies of outline points,
// and a refusal names a reason (message not empty, index within the outline). The pieces tile the
// outline: no two overlap (an exact separating edge for every pair), a point inside each lies
// inside the outline (exact winding number), there are at most 2r + 1 per part for r reflex
// vertices, and for an outline in one part the pieces' area plus the slivers' is the outline's,
// to what dropping near-collinear points may change (weld_tolerance x the perimeter). Grid points
// make the oracle exact: a cross product of two of them, and a sum of 64, fit long double's
// 64-bit significand.
#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <vector>

#include "collide2d/collide2d.hpp"
#include "fuzz_check.hpp"
#include "fuzz_input.hpp"

namespace {

using namespace collide2d;

bool is_input_point(const std::vector<Vec2>& input, Vec2 point) { return std::find(input.begin(), input.end(), point) != input.end(); }

void check_convex(const Polygon& polygon, const std::vector<Vec2>& input) {
  const auto vertices = polygon.vertices();
  for (int i = 0; i < polygon.count(); ++i) {
    const Vec2 a = vertices[i], b = vertices[(i + 1) % polygon.count()], c = vertices[(i + 2) % polygon.count()];
    fuzz::check(cross(b - a, c - b) > 0, "a polygon turns left at every vertex");
    fuzz::check(is_input_point(input, a), "a polygon's vertices are input points");
    fuzz::check(std::abs(length(polygon.normals()[i]) - 1) <= 4 * direction_tolerance, "edge normals are unit");
  }
}

using Exact = long double;

/// cross(b - a, c - a), exact for grid points and for the quarter-grid points tested below.
Exact orientation(Vec2 a, Vec2 b, Vec2 c) {
  return (Exact(b.x) - a.x) * (Exact(c.y) - a.y) - (Exact(b.y) - a.y) * (Exact(c.x) - a.x);
}

/// Twice the signed area of a closed loop (counter-clockwise positive), exact for grid points.
Exact twice_signed_area(std::span<const Vec2> loop) {
  Exact sum = 0;
  for (std::size_t i = 0; i < loop.size(); ++i) {
    const Vec2 p = loop[i], q = loop[(i + 1) % loop.size()];
    sum += Exact(p.x) * q.y - Exact(p.y) * q.x;
  }
  return sum;
}

/// The winding number of the closed loop around `point` (not on the loop), by signed crossings
/// of the horizontal ray to the right of it.
int winding_number(std::span<const Vec2> loop, Vec2 point) {
  int winding = 0;
  for (std::size_t i = 0; i < loop.size(); ++i) {
    const Vec2 a = loop[i], b = loop[(i + 1) % loop.size()];
    if (a.y <= point.y && b.y > point.y && orientation(a, b, point) > 0) ++winding;
    if (a.y > point.y && b.y <= point.y && orientation(a, b, point) < 0) --winding;
  }
  return winding;
}

/// True when an edge line of `first` has every vertex of `second` on or outside it (the pieces
/// are counter-clockwise, so outside is the right of the edge).
bool separated_by_an_edge_of(const Polygon& first, const Polygon& second) {
  const auto vertices = first.vertices();
  for (int i = 0; i < first.count(); ++i) {
    const Vec2 a = vertices[i], b = vertices[(i + 1) % first.count()];
    if (std::all_of(second.vertices().begin(), second.vertices().end(), [&](Vec2 v) { return orientation(a, b, v) <= 0; })) return true;
  }
  return false;
}

void check_tiling(const Decomposition& decomposition, const std::vector<Vec2>& outline) {
  const std::vector<Polygon>& pieces = decomposition.pieces;
  fuzz::check(decomposition.reflex_vertices >= 0 && decomposition.parts >= 1, "reflex vertices and parts are counted");
  fuzz::check(pieces.size() <= static_cast<std::size_t>(2 * decomposition.reflex_vertices + decomposition.parts),
              "at most 2r + 1 pieces a part for r reflex vertices");
  Exact pieces_area = 0;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const auto corners = pieces[i].vertices();
    pieces_area += twice_signed_area(corners) / 2;
    // A point strictly inside the piece: a convex combination of three corners, on a quarter grid.
    const Vec2 inside = Real(0.25) * corners[0] + Real(0.25) * corners[1] + Real(0.5) * corners[2];
    fuzz::check(winding_number(outline, inside) != 0, "a piece lies inside the outline");
    for (std::size_t j = 0; j < i; ++j) {
      fuzz::check(separated_by_an_edge_of(pieces[i], pieces[j]) || separated_by_an_edge_of(pieces[j], pieces[i]), "no two pieces overlap");
    }
  }
  if (decomposition.parts != 1) return;  // parts may wind either way: the loop's signed area is not the region's
  Exact perimeter = 0, magnitude = 0;
  for (std::size_t i = 0; i < outline.size(); ++i) {
    perimeter += std::hypot(Exact(outline[(i + 1) % outline.size()].x) - outline[i].x, Exact(outline[(i + 1) % outline.size()].y) - outline[i].y);
    magnitude = std::max(magnitude, Exact(coordinate_magnitude(outline[i])));
  }
  const Exact outline_area = std::abs(twice_signed_area(outline)) / 2;
  const Exact covered = pieces_area + decomposition.sliver_area;
  // Dropping a point within the tolerance of its neighbours' chord changes the area by at most
  // half the chord times the tolerance; the slivers' area is summed in Real.
  const Exact band = 4 * Exact(weld_tolerance(Real(magnitude))) * perimeter + 8 * Exact(std::numeric_limits<Real>::epsilon()) * outline_area;
  fuzz::check(std::abs(covered - outline_area) <= band, "the pieces and slivers cover the outline's area");
}

void check_refusal(const ShapeError& error, std::size_t count) {
  fuzz::check(!error.message.empty(), "a refusal says why");
  fuzz::check(error.index >= -1 && error.index < static_cast<int>(count), "a refusal's index is an input point");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider input(data, size);
  const Real unit = fuzz::scale(input);
  const std::vector<Vec2> points = fuzz::points(input, unit, 64);

  const Result<Polygon> polygon = make_polygon(points);
  if (polygon) {
    check_convex(polygon.value(), points);
  } else {
    check_refusal(polygon.error(), points.size());
  }

  const std::vector<Vec2> hull = convex_hull(points);
  for (Vec2 point : hull) fuzz::check(is_input_point(points, point), "hull points are input points");
  const Result<Polygon> hull_polygon = make_polygon(hull);
  if (hull_polygon) {
    check_convex(hull_polygon.value(), points);
  } else {
    const ShapeErrorKind kind = hull_polygon.error().kind;
    fuzz::check(kind == ShapeErrorKind::too_few_points || kind == ShapeErrorKind::zero_area, "a hull is refused only for being too thin");
  }

  const Result<Decomposition> pieces = decompose(points);
  if (pieces) {
    for (const Polygon& piece : pieces.value().pieces) check_convex(piece, points);
    fuzz::check(pieces.value().slivers >= 0 && pieces.value().sliver_area >= 0, "slivers are counted");
    check_tiling(pieces.value(), points);
  } else {
    check_refusal(pieces.error(), points.size());
  }
  return 0;
}

// fuzz_outline.cpp — make_polygon, convex_hull and decompose on arbitrary points (a grid of
// power-of-two steps, so exact coincidences and collinear runs are common).
// Invariants: make_polygon's polygon is convex and counter-clockwise and its vertices are input
// points; the hull's points are input points and make_polygon accepts the hull unless it is too
// thin; decompose's pieces are convex polygons whose corners are exact copies of outline points,
// and a refusal names a reason (message not empty, index within the outline).
#include <algorithm>
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
  } else {
    check_refusal(pieces.error(), points.size());
  }
  return 0;
}

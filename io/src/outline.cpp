// outline.cpp — the shape a polygon outline read from a file describes.
//
// Non-finite points are refused first (the convex hull would skip them silently); then either
// the convex hull of the points (--hull, what SteerSuite's own collision code used) or the
// outline itself through shape_from_outline: a convex polygon, or the convex pieces of a concave
// one, with crossing outlines refused by name.
#include "collide2d/decompose.hpp"
#include "collide2d/hull.hpp"
#include "collide2d/io/scene.hpp"

namespace collide2d::io {

Result<Shape> shape_from_file_outline(std::span<const Vec2> points, Real radius, const LoadOptions& options) {
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!is_finite(points[i])) {
      return ShapeError{ShapeErrorKind::non_finite, static_cast<int>(i), "vertex " + std::to_string(i) + " is not finite"};
    }
  }
  if (!options.hull) return shape_from_outline(points, radius);
  Result<Polygon> hull = make_polygon(convex_hull(points), radius);
  if (!hull) return hull.error();
  return Shape(std::move(hull).value());
}

}  // namespace collide2d::io

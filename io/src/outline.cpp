// outline.cpp — turning a polygon outline read from a file into a convex Polygon.
//
// Outline: weld repeated consecutive points; test every pair of non-adjacent edges for contact
// with exact orientation signs (computed in double, where products of float inputs are exact);
// a crossing or touching pair is a self-intersection, named by its two edges. These checks run
// only when make_polygon found the outline not convex, to tell a crossing outline from a concave one,
// or of zero area, where only a proper crossing counts (a collinear outline stays "no area").
#include <sstream>

#include "collide2d/hull.hpp"
#include "collide2d/io/scene.hpp"

namespace collide2d::io {
namespace {

struct OutlineVertex {
  Vec2 point;
  int input_index;
};

int orientation(Vec2 a, Vec2 b, Vec2 c) {
  const double value = (double(b.x) - double(a.x)) * (double(c.y) - double(a.y)) -
                       (double(b.y) - double(a.y)) * (double(c.x) - double(a.x));
  return (value > 0) - (value < 0);
}

bool on_segment(Vec2 a, Vec2 b, Vec2 p) {  // p collinear with a-b: is it within the segment's box?
  return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y && p.y <= std::max(a.y, b.y);
}

bool segments_touch(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  const int o1 = orientation(a, b, c), o2 = orientation(a, b, d), o3 = orientation(c, d, a), o4 = orientation(c, d, b);
  if (o1 != o2 && o3 != o4 && o1 * o2 <= 0 && o3 * o4 <= 0) return true;
  return (o1 == 0 && on_segment(a, b, c)) || (o2 == 0 && on_segment(a, b, d)) || (o3 == 0 && on_segment(c, d, a)) ||
         (o4 == 0 && on_segment(c, d, b));
}

std::string edge_name(const std::vector<OutlineVertex>& outline, std::size_t edge) {
  std::ostringstream text;
  text << "edge " << outline[edge].input_index << " (vertex " << outline[edge].input_index << " to "
       << outline[(edge + 1) % outline.size()].input_index << ")";
  return text.str();
}

}  // namespace

Result<Polygon> polygon_from_outline(std::span<const Vec2> points, Real radius, const LoadOptions& options) {
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!is_finite(points[i])) {
      return ShapeError{ShapeErrorKind::non_finite, static_cast<int>(i), "vertex " + std::to_string(i) + " is not finite"};
    }
  }
  if (options.hull) return make_polygon(convex_hull(points), radius);

  Result<Polygon> polygon = make_polygon(points, radius);
  // A crossing outline can also have zero signed area (a symmetric bow tie): look for a proper
  // crossing there too, so it is named rather than called collinear.
  const bool zero_area = !polygon && polygon.error().kind == ShapeErrorKind::zero_area;
  if (polygon || (polygon.error().kind != ShapeErrorKind::not_convex && !zero_area)) return polygon;

  std::vector<OutlineVertex> outline;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (outline.empty() || !(outline.back().point == points[i])) outline.push_back({points[i], static_cast<int>(i)});
  }
  while (outline.size() > 1 && outline.back().point == outline.front().point) outline.pop_back();
  const std::size_t n = outline.size();
  for (std::size_t i = 0; !zero_area && n >= 3 && i < n; ++i) {  // an edge running straight back along the previous one
    const Vec2 a = outline[i].point, b = outline[(i + 1) % n].point, c = outline[(i + 2) % n].point;
    if (orientation(a, b, c) == 0 && dot(b - a, c - b) < 0) {
      return ShapeError{ShapeErrorKind::not_convex, outline[(i + 1) % n].input_index,
                        "the outline crosses itself: " + edge_name(outline, i) + " folds back onto " + edge_name(outline, (i + 1) % n)};
    }
  }
  if (n >= 4) {
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = i + 2; j < n; ++j) {
        if (i == 0 && j == n - 1) continue;  // adjacent through the closing edge
        const Vec2 a = outline[i].point, b = outline[(i + 1) % n].point, c = outline[j].point, d = outline[(j + 1) % n].point;
        const bool crossing = zero_area ? orientation(a, b, c) * orientation(a, b, d) < 0 && orientation(c, d, a) * orientation(c, d, b) < 0
                                        : segments_touch(a, b, c, d);
        if (crossing) {
          return ShapeError{ShapeErrorKind::not_convex, outline[i].input_index,
                            "the outline crosses itself: " + edge_name(outline, i) + " meets " + edge_name(outline, j)};
        }
      }
    }
  }
  if (polygon.error().index >= 0) {
    const int vertex = polygon.error().index;
    return ShapeError{ShapeErrorKind::not_convex, vertex,
                      "the outline is concave at vertex " + std::to_string(vertex) +
                          "; concave outlines are refused until convex decomposition is supported (--hull uses the convex hull instead)"};
  }
  return polygon;
}

}  // namespace collide2d::io

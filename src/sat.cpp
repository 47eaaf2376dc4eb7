// sat.cpp — the separating axis test for convex polygon cores.
//
// Outline (Gottschalk's separating axis theorem in 2D; the form Box2D's b2FindMaxSeparation uses):
// two convex polygons are disjoint exactly when some edge normal of one of them separates them.
// For each edge normal n of A, B's support point along -n gives B's nearest extent along n; the
// separation along n is that extent minus the edge's offset. The largest separation over both
// polygons' normals is the distance along the best axis when positive and minus the overlap
// (the minimum-overlap axis) when negative. For polygons of up to polygon_inline_capacity
// vertices B's nearest extent is a plain minimum over its vertices, placed once (n x m dot products
// with no data-dependent branches, as b2FindMaxSeparation); for larger ones B's support point
// comes from its support function, found once and then followed round by rotating calipers, so
// a 64-gon against a 64-gon costs O(n + m).
// Rectangles take a fast path: four axes, each with projected half extents.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "polygon_view.hpp"

namespace collide2d {
namespace detail {
namespace {

// The edge normal of `reference` with the largest separation from `other` (placed by other_to_reference).
// Rotating calipers: the normals of a counter-clockwise polygon turn counter-clockwise, and so does
// the vertex of `other` deepest against them (the minimiser of dot(normal, vertex)). It is found
// once, by the support function, for the first normal; for each next normal it only walks forward
// while the next vertex lies deeper (or, across a face parallel to the normal's, the one after it).
// O(n + m) dot products instead of b2FindMaxSeparation's n x m.
SatAxis walk_edge_axes(const PolygonView& reference, const PolygonView& other, const Transform& other_to_reference, int shape,
                       std::vector<SatAxis>* trace) {
  auto placed = [&](int j) { return transform_point(other_to_reference, other.vertices[j]); };
  SatAxis best{-std::numeric_limits<Real>::max(), {}, shape, 0};
  const int count = other.count();
  int deepest = other.support_index(inverse_rotate(other_to_reference.rotation, -reference.normals[0]));
  Vec2 deepest_point = placed(deepest);
  int steps = 0;  // the walk goes round at most once; round-off cannot make it loop
  for (int i = 0; i < reference.count(); ++i) {
    const Vec2 normal = reference.normals[i];
    Real here = dot(normal, deepest_point);
    while (steps < 2 * count) {
      const int next = other.next(deepest);
      const Vec2 next_point = placed(next);
      const Real there = dot(normal, next_point);
      if (there < here) {
        deepest = next;
        deepest_point = next_point;
        here = there;
        ++steps;
      } else if (there == here && dot(normal, placed(other.next(next))) < here) {  // across a face of `other` parallel to this one
        deepest = other.next(next);
        deepest_point = placed(deepest);
        here = dot(normal, deepest_point);
        steps += 2;
      } else {
        break;
      }
    }
    const Real separation = here - dot(normal, reference.vertices[i]);
    if (trace != nullptr) trace->push_back({separation, normal, shape, i});
    if (separation > best.separation) best = {separation, normal, shape, i};
  }
  return best;
}

// Writes the axis field by field into `best`: the caller reads the fields, and a whole-struct
// copy of a result just written field by field would wait for those stores to reach memory.
void best_edge_axis(const PolygonView& reference, const PolygonView& other, const Transform& other_to_reference, int shape,
                    std::vector<SatAxis>* trace, SatAxis& best) {
  if (reference.count() > polygon_inline_capacity || other.count() > polygon_inline_capacity) {
    best = walk_edge_axes(reference, other, other_to_reference, shape, trace);
    return;
  }
  // Small: `other`'s vertices moved into the reference frame once, as a row of x and a row of y
  // padded to a multiple of 4 with copies of vertex 0 (a repeated vertex changes no minimum); then
  // each normal against 4 vertices at a time, keeping 4 running minima (independent, so their
  // comparisons overlap instead of waiting on one another), and the least of the 4.
  constexpr int lanes = 4;
  static_assert(polygon_inline_capacity % lanes == 0);
  std::array<Real, polygon_inline_capacity> placed_x, placed_y;
  const int count = other.count(), padded = (count + lanes - 1) / lanes * lanes;
  for (int j = 0; j < count; ++j) {
    const Vec2 placed = transform_point(other_to_reference, other.vertices[j]);
    placed_x[j] = placed.x;
    placed_y[j] = placed.y;
  }
  for (int j = count; j < padded; ++j) {
    placed_x[j] = placed_x[0];
    placed_y[j] = placed_y[0];
  }
  Real best_separation = -std::numeric_limits<Real>::max();
  int best_edge = 0;
  for (int i = 0; i < reference.count(); ++i) {
    const Vec2 normal = reference.normals[i];
    std::array<Real, lanes> nearest;
    for (int k = 0; k < lanes; ++k) nearest[k] = normal.x * placed_x[k] + normal.y * placed_y[k];
    for (int block = lanes; block < padded; block += lanes) {
      for (int k = 0; k < lanes; ++k) nearest[k] = std::min(nearest[k], normal.x * placed_x[block + k] + normal.y * placed_y[block + k]);
    }
    const Real nearest_extent = std::min(std::min(nearest[0], nearest[1]), std::min(nearest[2], nearest[3]));
    const Real separation = nearest_extent - dot(normal, reference.vertices[i]);
    if (trace != nullptr) trace->push_back({separation, normal, shape, i});
    if (separation > best_separation) {
      best_separation = separation;
      best_edge = i;
    }
  }
  best.separation = best_separation;
  best.normal = reference.normals[best_edge];
  best.shape = shape;
  best.edge = best_edge;
}

struct RectangleFrame {
  Vec2 center;
  std::array<Vec2, 2> axes;           // normals of edges 0 and 1
  std::array<Real, 2> half_extents;   // along those normals
};

RectangleFrame rectangle_frame(const Polygon& rectangle) {
  const auto vertices = rectangle.vertices();
  const auto normals = rectangle.normals();
  const Vec2 center = Real(0.5) * (vertices[0] + vertices[2]);
  return {center, {normals[0], normals[1]}, {dot(normals[0], vertices[0] - center), dot(normals[1], vertices[1] - center)}};
}

// Both rectangles: A's axes and B's axes with projected half extents, no vertex visits.
void rectangle_axes(const Polygon& a, const Polygon& b, const Transform& b_to_a, std::vector<SatAxis>* trace, SatAxes& axes) {
  const RectangleFrame frame_a = rectangle_frame(a);
  RectangleFrame frame_b = rectangle_frame(b);
  frame_b.center = transform_point(b_to_a, frame_b.center);
  frame_b.axes = {rotate(b_to_a.rotation, frame_b.axes[0]), rotate(b_to_a.rotation, frame_b.axes[1])};
  const Vec2 offset = frame_b.center - frame_a.center;
  auto projected = [](const RectangleFrame& frame, Vec2 axis) {
    return frame.half_extents[0] * std::abs(dot(axis, frame.axes[0])) + frame.half_extents[1] * std::abs(dot(axis, frame.axes[1]));
  };
  auto axis_of = [&](const RectangleFrame& own, const RectangleFrame& other, Vec2 toward_other, int shape, SatAxis& best) {
    best = {-std::numeric_limits<Real>::max(), {}, shape, 0};
    for (int k = 0; k < 2; ++k) {
      const Real along = dot(own.axes[k], toward_other);
      const SatAxis axis{std::abs(along) - own.half_extents[k] - projected(other, own.axes[k]),
                         along >= 0 ? own.axes[k] : -own.axes[k], shape, along >= 0 ? k : k + 2};
      if (trace != nullptr) trace->push_back(axis);
      if (axis.separation > best.separation) best = axis;
    }
  };
  axis_of(frame_a, frame_b, offset, 0, axes.of_a);
  axis_of(frame_b, frame_a, -offset, 1, axes.of_b);
}

}  // namespace

void find_separating_axes(const PolygonView& a, const PolygonView& b, const Transform& b_to_a, std::vector<SatAxis>* trace, Real enough,
                          SatAxes& axes) {
  if (a.polygon != nullptr && b.polygon != nullptr && a.polygon->is_rectangle() && b.polygon->is_rectangle()) {
    rectangle_axes(*a.polygon, *b.polygon, b_to_a, trace, axes);
    return;
  }
  const Transform a_to_b = inverse_compose(b_to_a, Transform{});
  best_edge_axis(a, b, b_to_a, 0, trace, axes.of_a);
  if (axes.of_a.separation > enough) {  // separated by more than the caller needs: B's axes cannot change that
    axes.of_b = {-std::numeric_limits<Real>::max(), {}, 1, 0};
    return;
  }
  const std::size_t first_of_b = trace != nullptr ? trace->size() : 0;
  best_edge_axis(b, a, a_to_b, 1, trace, axes.of_b);
  if (trace != nullptr) {  // B's normals were recorded in B's frame; turn them into A's
    for (std::size_t i = first_of_b; i < trace->size(); ++i) (*trace)[i].normal = rotate(b_to_a.rotation, (*trace)[i].normal);
  }
  axes.of_b.normal = rotate(b_to_a.rotation, axes.of_b.normal);
}

}  // namespace detail

SatAxis sat(const Polygon& a, const Polygon& b, const Transform& b_to_a, std::vector<SatAxis>* trace) {
  detail::SatAxes axes;
  detail::find_separating_axes(detail::view_of(a), detail::view_of(b), b_to_a, trace, std::numeric_limits<Real>::max(), axes);
  return axes.of_b.separation > axes.of_a.separation ? axes.of_b : axes.of_a;
}

}  // namespace collide2d

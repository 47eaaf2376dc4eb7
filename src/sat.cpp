// sat.cpp — the separating axis test for convex polygon cores.
//
// Outline (Gottschalk's separating axis theorem in 2D; the form Box2D's b2FindMaxSeparation uses):
// two convex polygons are disjoint exactly when some edge normal of one of them separates them.
// For each edge normal n of A, B's support point along -n gives B's nearest extent along n; the
// separation along n is that extent minus the edge's offset. The largest separation over both
// polygons' normals is the distance along the best axis when positive and minus the overlap
// (the minimum-overlap axis) when negative. For polygons of up to polygon_inline_capacity
// vertices B's nearest extent is a plain minimum over its vertices, placed once (n x m dot products
// with no data-dependent branches, as b2FindMaxSeparation), four normals at a time in vector
// lanes; for larger ones B's support point comes from its support function, found once and then
// followed round by rotating calipers, so a 64-gon against a 64-gon costs O(n + m). (A rectangle
// path with projected half extents was slower than the lanes: 46 against 37 ns a box pair.)
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
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

// The x and y lanes of a small view's vertices, `groups` groups of polygon_view_lanes from its
// padded storage; lanes past the last vertex repeat vertex 0, so a minimum over every lane is the
// minimum over the vertices (only the last group can be partial: a view of more than
// polygon_view_lanes vertices has two).
template <int groups>
struct VertexLanes {
  std::array<RealLanes, groups> x, y;
};
template <int groups>
[[gnu::always_inline]] inline VertexLanes<groups> vertex_lanes(const PolygonView& view) {
  VertexLanes<groups> lanes;
  for (int group = 0; group < groups; ++group) {
    const CoordinateLanes stored = coordinate_lanes(&view.vertices.data()[group * polygon_view_lanes]);
    lanes.x[group] = stored.x;
    lanes.y[group] = stored.y;
  }
  if (view.count() < groups * polygon_view_lanes) {
    const LaneMask in_view = lane_indices + (groups - 1) * polygon_view_lanes < view.count();
    lanes.x[groups - 1] = in_view ? lanes.x[groups - 1] : __builtin_shufflevector(lanes.x[0], lanes.x[0], 0, 0, 0, 0);
    lanes.y[groups - 1] = in_view ? lanes.y[groups - 1] : __builtin_shufflevector(lanes.y[0], lanes.y[0], 0, 0, 0, 0);
  }
  return lanes;
}
// The lanes placed by `placement`, lane by lane as transform_point: the rotation, then the position.
template <int groups>
[[gnu::always_inline]] inline VertexLanes<groups> placed_lanes(const VertexLanes<groups>& lanes, const Transform& placement) {
  const Real cosine = placement.rotation.cosine, sine = placement.rotation.sine;
  VertexLanes<groups> placed;
  for (int group = 0; group < groups; ++group) {
    placed.x[group] = (cosine * lanes.x[group] - sine * lanes.y[group]) + placement.position.x;
    placed.y[group] = (sine * lanes.x[group] + cosine * lanes.y[group]) + placement.position.y;
  }
  return placed;
}

// For each lane of `normal_x`, `normal_y` (a shape's edge normals, lanes past its count ignored),
// the least extent of the points in `points` along it: every point against every normal, with no
// data-dependent branch (b2FindMaxSeparation's n x m dot products, four normals at a time).
template <int normal_groups, int point_groups>
[[gnu::always_inline]] inline std::array<RealLanes, normal_groups> least_extents(const std::array<RealLanes, normal_groups>& normal_x,
                                                                                const std::array<RealLanes, normal_groups>& normal_y,
                                                                                const VertexLanes<point_groups>& points) {
  std::array<RealLanes, normal_groups> least;
  for (int group = 0; group < normal_groups; ++group) least[group] = normal_x[group] * points.x[0][0] + normal_y[group] * points.y[0][0];
  for (int point = 1; point < point_groups * polygon_view_lanes; ++point) {
    const Real x = points.x[point / polygon_view_lanes][point % polygon_view_lanes];
    const Real y = points.y[point / polygon_view_lanes][point % polygon_view_lanes];
    for (int group = 0; group < normal_groups; ++group) {
      const RealLanes extent = normal_x[group] * x + normal_y[group] * y;
      least[group] = extent < least[group] ? extent : least[group];
    }
  }
  return least;
}

// Both shapes' best axes for views of up to polygon_inline_capacity vertices, in A's frame: B's
// vertices placed and its normals turned into A's frame once, in lanes, then each shape's normals
// against the other's vertices. `groups_a` and `groups_b` are the views' lane groups.
template <int groups_a, int groups_b>
void find_small_separating_axes(const PolygonView& a, const PolygonView& b, const Transform& b_to_a, std::vector<SatAxis>* trace, Real enough,
                                SatAxes& axes) {
  std::array<RealLanes, groups_a> normal_x_a, normal_y_a, offset_a;
  for (int group = 0; group < groups_a; ++group) {
    const CoordinateLanes normals = coordinate_lanes(&a.normals.data()[group * polygon_view_lanes]);
    const CoordinateLanes vertices = coordinate_lanes(&a.vertices.data()[group * polygon_view_lanes]);
    normal_x_a[group] = normals.x;
    normal_y_a[group] = normals.y;
    offset_a[group] = normals.x * vertices.x + normals.y * vertices.y;
  }
  const VertexLanes<groups_b> vertices_b = placed_lanes<groups_b>(vertex_lanes<groups_b>(b), b_to_a);
  std::array<RealLanes, groups_a> separation_a = least_extents<groups_a, groups_b>(normal_x_a, normal_y_a, vertices_b);
  for (int group = 0; group < groups_a; ++group) separation_a[group] -= offset_a[group];
  // Written field by field: the caller reads the fields, and a whole-struct copy of a result just
  // written field by field would wait for those stores to reach memory.
  greatest_lane<groups_a>(separation_a, a.count(), axes.of_a.separation, axes.of_a.edge);
  axes.of_a.normal = a.normals[axes.of_a.edge];
  axes.of_a.shape = 0;
  if (trace != nullptr) {
    for (int i = 0; i < a.count(); ++i) trace->push_back({separation_a[i / polygon_view_lanes][i % polygon_view_lanes], a.normals[i], 0, i});
  }
  if (axes.of_a.separation > enough) {  // separated by more than the caller needs: B's axes cannot change that
    axes.of_b = {-std::numeric_limits<Real>::max(), {}, 1, 0};
    return;
  }

  const Real cosine = b_to_a.rotation.cosine, sine = b_to_a.rotation.sine;
  std::array<RealLanes, groups_b> normal_x_b, normal_y_b;
  for (int group = 0; group < groups_b; ++group) {  // as rotate()
    const CoordinateLanes normals = coordinate_lanes(&b.normals.data()[group * polygon_view_lanes]);
    normal_x_b[group] = cosine * normals.x - sine * normals.y;
    normal_y_b[group] = sine * normals.x + cosine * normals.y;
  }
  std::array<RealLanes, groups_b> separation_b = least_extents<groups_b, groups_a>(normal_x_b, normal_y_b, vertex_lanes<groups_a>(a));
  for (int group = 0; group < groups_b; ++group) {
    separation_b[group] -= normal_x_b[group] * vertices_b.x[group] + normal_y_b[group] * vertices_b.y[group];
  }
  greatest_lane<groups_b>(separation_b, b.count(), axes.of_b.separation, axes.of_b.edge);
  axes.of_b.normal = rotate(b_to_a.rotation, b.normals[axes.of_b.edge]);
  axes.of_b.shape = 1;
  if (trace != nullptr) {
    for (int i = 0; i < b.count(); ++i) {
      trace->push_back({separation_b[i / polygon_view_lanes][i % polygon_view_lanes], rotate(b_to_a.rotation, b.normals[i]), 1, i});
    }
  }
}

}  // namespace

void find_separating_axes(const PolygonView& a, const PolygonView& b, const Transform& b_to_a, std::vector<SatAxis>* trace, Real enough,
                          SatAxes& axes) {
  static_assert(polygon_inline_capacity == 2 * polygon_view_lanes);
  if (a.count() <= polygon_inline_capacity && b.count() <= polygon_inline_capacity) {
    const bool wide_a = a.count() > polygon_view_lanes, wide_b = b.count() > polygon_view_lanes;
    if (!wide_a && !wide_b) {
      find_small_separating_axes<1, 1>(a, b, b_to_a, trace, enough, axes);
    } else if (!wide_a) {
      find_small_separating_axes<1, 2>(a, b, b_to_a, trace, enough, axes);
    } else if (!wide_b) {
      find_small_separating_axes<2, 1>(a, b, b_to_a, trace, enough, axes);
    } else {
      find_small_separating_axes<2, 2>(a, b, b_to_a, trace, enough, axes);
    }
    return;
  }
  axes.of_a = walk_edge_axes(a, b, b_to_a, 0, trace);
  if (axes.of_a.separation > enough) {  // separated by more than the caller needs: B's axes cannot change that
    axes.of_b = {-std::numeric_limits<Real>::max(), {}, 1, 0};
    return;
  }
  const std::size_t first_of_b = trace != nullptr ? trace->size() : 0;
  axes.of_b = walk_edge_axes(b, a, inverse_compose(b_to_a, Transform{}), 1, trace);
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

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

// For polygons of up to polygon_inline_capacity vertices, every normal against every vertex (n x m
// dot products with no data-dependent branch, as b2FindMaxSeparation), with the reference's
// normals in vector lanes: `groups` of four normals, their x and their y, and their edges'
// offsets dot(n_i, v_i), taken from the views' padded storage four at a time. Each vertex of
// `other`, moved into the reference frame, lowers every lane's running minimum at once; the axis
// is the first of the greatest separations among the `count` real lanes.
template <int groups>
void best_edge_axis_of_small(const PolygonView& reference, const PolygonView& other, const Transform& other_to_reference, int shape,
                             std::vector<SatAxis>* trace, SatAxis& best) {
  std::array<RealLanes, groups> normal_x, normal_y, offset, nearest;
  for (int group = 0; group < groups; ++group) {
    const CoordinateLanes normals = coordinate_lanes(&reference.normals.data()[group * polygon_view_lanes]);
    const CoordinateLanes vertices = coordinate_lanes(&reference.vertices.data()[group * polygon_view_lanes]);
    normal_x[group] = normals.x;
    normal_y[group] = normals.y;
    offset[group] = normals.x * vertices.x + normals.y * vertices.y;
  }
  const Vec2 first = transform_point(other_to_reference, other.vertices[0]);
  for (int group = 0; group < groups; ++group) nearest[group] = normal_x[group] * first.x + normal_y[group] * first.y;
  for (int j = 1; j < other.count(); ++j) {
    const Vec2 placed = transform_point(other_to_reference, other.vertices[j]);
    for (int group = 0; group < groups; ++group) {
      const RealLanes extent = normal_x[group] * placed.x + normal_y[group] * placed.y;
      nearest[group] = extent < nearest[group] ? extent : nearest[group];
    }
  }
  std::array<Real, groups * polygon_view_lanes> separations;
  for (int group = 0; group < groups; ++group) {
    const RealLanes separation = nearest[group] - offset[group];
    std::memcpy(&separations[group * polygon_view_lanes], &separation, sizeof(RealLanes));
  }
  int best_edge = 0;
  for (int i = 1; i < reference.count(); ++i) best_edge = separations[i] > separations[best_edge] ? i : best_edge;
  if (trace != nullptr) {
    for (int i = 0; i < reference.count(); ++i) trace->push_back({separations[i], reference.normals[i], shape, i});
  }
  // Written field by field: the caller reads the fields, and a whole-struct copy of a result just
  // written field by field would wait for those stores to reach memory.
  best.separation = separations[best_edge];
  best.normal = reference.normals[best_edge];
  best.shape = shape;
  best.edge = best_edge;
}

void best_edge_axis(const PolygonView& reference, const PolygonView& other, const Transform& other_to_reference, int shape,
                    std::vector<SatAxis>* trace, SatAxis& best) {
  static_assert(polygon_inline_capacity == 2 * polygon_view_lanes);
  if (reference.count() > polygon_inline_capacity || other.count() > polygon_inline_capacity) {
    best = walk_edge_axes(reference, other, other_to_reference, shape, trace);
  } else if (reference.count() <= polygon_view_lanes) {
    best_edge_axis_of_small<1>(reference, other, other_to_reference, shape, trace, best);
  } else {
    best_edge_axis_of_small<2>(reference, other, other_to_reference, shape, trace, best);
  }
}

}  // namespace

void find_separating_axes(const PolygonView& a, const PolygonView& b, const Transform& b_to_a, std::vector<SatAxis>* trace, Real enough,
                          SatAxes& axes) {
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

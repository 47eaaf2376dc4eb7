// sat.cpp — the separating axis test for convex polygon cores.
//
// Outline (Gottschalk's separating axis theorem in 2D; the form Box2D's b2FindMaxSeparation uses):
// two convex polygons are disjoint exactly when some edge normal of one of them separates them.
// For each edge normal n of A, B's support point along -n gives B's nearest extent along n; the
// separation along n is that extent minus the edge's offset. The largest separation over both
// polygons' normals is the distance along the best axis when positive and minus the overlap
// (the minimum-overlap axis) when negative. For polygons of up to polygon_inline_capacity
// vertices (separating_axes.hpp, inline in the manifold code) both shapes' axes are found in A's
// frame in one pass: B's vertices placed and its normals turned once, four to a vector register,
// then each shape's normals against every vertex of the other (n x m dot products with no
// data-dependent branches, as b2FindMaxSeparation, which places one shape's vertices for each
// normal and runs the pass once per shape). Larger polygons (this file) take B's support point
// from its support function, found once and then followed round by rotating calipers, so a
// 64-gon against a 64-gon costs O(n + m). (A rectangle path with projected half extents was
// slower than the lanes: 46 against 37 ns a box pair.)
#include <cstddef>
#include <limits>
#include <vector>

#include "separating_axes.hpp"

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

}  // namespace

void find_separating_axes_by_walking(const PolygonView& a, const PolygonView& b, const Transform& b_to_a, std::vector<SatAxis>* trace,
                                     Real enough, SatAxes& axes) {
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

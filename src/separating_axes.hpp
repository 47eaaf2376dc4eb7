// separating_axes.hpp (private) — the separating axis test for polygon-like cores, both shapes'
// best edge normals (sat.cpp opens with the outline). Views of up to polygon_inline_capacity
// vertices are tested here, inline in the manifold code that calls it; larger ones in sat.cpp.
#pragma once

#include <array>
#include <limits>
#include <vector>

#include "polygon_view.hpp"

namespace collide2d::detail {

// The best separating axis of each shape (edge normals of A, edge normals of B).
struct SatAxes {
  SatAxis of_a;  // A's edge normal with the largest separation, A's frame
  SatAxis of_b;  // B's edge normal with the largest separation, normal in A's frame (pointing from B to A)
};

// find_separating_axes for views of any size, by rotating calipers (sat.cpp).
void find_separating_axes_by_walking(const PolygonView& a, const PolygonView& b, const Transform& b_to_a, std::vector<SatAxis>* trace,
                                     Real enough, SatAxes& axes);

// For each lane of `normals` (a shape's edge normals, lanes past its count ignored), the least
// extent of the points in `points` along it: every point against every normal, with no
// data-dependent branch (b2FindMaxSeparation's n x m dot products, four normals at a time).
template <int normal_groups, int point_groups>
[[gnu::always_inline]] inline std::array<RealLanes, normal_groups> least_extents(const PointLanes<normal_groups>& normals,
                                                                                const PointLanes<point_groups>& points) {
  std::array<RealLanes, normal_groups> least;
  for (int group = 0; group < normal_groups; ++group) least[group] = normals.x[group] * points.x[0][0] + normals.y[group] * points.y[0][0];
  for (int point = 1; point < point_groups * lane_count; ++point) {
    const Real x = points.x[point / lane_count][point % lane_count];
    const Real y = points.y[point / lane_count][point % lane_count];
    for (int group = 0; group < normal_groups; ++group) {
      const RealLanes extent = normals.x[group] * x + normals.y[group] * y;
      least[group] = extent < least[group] ? extent : least[group];
    }
  }
  return least;
}

// Both shapes' best axes for views of up to polygon_inline_capacity vertices, in A's frame: B's
// vertices placed and its normals turned into A's frame once, in lanes, then each shape's normals
// against the other's vertices. `groups_a` and `groups_b` are the views' lane groups.
template <int groups_a, int groups_b>
[[gnu::always_inline]] inline void find_small_separating_axes(const PolygonView& a, const PolygonView& b, const Transform& b_to_a,
                                                              std::vector<SatAxis>* trace, Real enough, SatAxes& axes) {
  const PointLanes<groups_a> vertices_a = stored_lanes<groups_a>(a.vertices.data()), normals_a = stored_lanes<groups_a>(a.normals.data());
  const PointLanes<groups_b> vertices_b = placed_lanes<groups_b>(stored_lanes<groups_b>(b.vertices.data()), b_to_a);
  std::array<RealLanes, groups_a> separation_a = least_extents<groups_a, groups_b>(normals_a, vertices_b);
  for (int group = 0; group < groups_a; ++group) {
    separation_a[group] -= normals_a.x[group] * vertices_a.x[group] + normals_a.y[group] * vertices_a.y[group];
  }
  greatest_lane<groups_a>(separation_a, a.count(), axes.of_a.separation, axes.of_a.edge);
  axes.of_a.normal = a.normals[axes.of_a.edge];
  axes.of_a.shape = 0;
  if (trace != nullptr) {
    for (int i = 0; i < a.count(); ++i) trace->push_back({separation_a[i / lane_count][i % lane_count], a.normals[i], 0, i});
  }
  if (axes.of_a.separation > enough) {  // separated by more than the caller needs: B's axes cannot change that
    axes.of_b = {-std::numeric_limits<Real>::max(), {}, 1, 0};
    return;
  }

  const PointLanes<groups_b> normals_b = turned_lanes<groups_b>(stored_lanes<groups_b>(b.normals.data()), b_to_a.rotation);
  std::array<RealLanes, groups_b> separation_b = least_extents<groups_b, groups_a>(normals_b, vertices_a);
  for (int group = 0; group < groups_b; ++group) {
    separation_b[group] -= normals_b.x[group] * vertices_b.x[group] + normals_b.y[group] * vertices_b.y[group];
  }
  greatest_lane<groups_b>(separation_b, b.count(), axes.of_b.separation, axes.of_b.edge);
  axes.of_b.normal = rotate(b_to_a.rotation, b.normals[axes.of_b.edge]);
  axes.of_b.shape = 1;
  if (trace != nullptr) {
    for (int i = 0; i < b.count(); ++i) {
      trace->push_back({separation_b[i / lane_count][i % lane_count], rotate(b_to_a.rotation, b.normals[i]), 1, i});
    }
  }
}

// When A's best axis already separates by more than `enough`, B's axes are skipped (of_b is then
// the lowest possible separation). Written into `axes` field by field, so the caller reads the
// fields straight from those stores rather than through a copied whole. Views of up to
// polygon_inline_capacity vertices take the lanes below, inline in the caller; larger ones the
// rotating calipers of sat.cpp.
inline void find_separating_axes(const PolygonView& a, const PolygonView& b, const Transform& b_to_a, std::vector<SatAxis>* trace, Real enough,
                                 SatAxes& axes) {
  static_assert(polygon_inline_capacity == 2 * lane_count);
  if (a.count() > polygon_inline_capacity || b.count() > polygon_inline_capacity) {
    find_separating_axes_by_walking(a, b, b_to_a, trace, enough, axes);
    return;
  }
  const bool wide_a = a.count() > lane_count, wide_b = b.count() > lane_count;
  if (!wide_a && !wide_b) {
    find_small_separating_axes<1, 1>(a, b, b_to_a, trace, enough, axes);
  } else if (!wide_a) {
    find_small_separating_axes<1, 2>(a, b, b_to_a, trace, enough, axes);
  } else if (!wide_b) {
    find_small_separating_axes<2, 1>(a, b, b_to_a, trace, enough, axes);
  } else {
    find_small_separating_axes<2, 2>(a, b, b_to_a, trace, enough, axes);
  }
}

}  // namespace collide2d::detail

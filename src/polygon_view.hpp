// polygon_view.hpp (private) — polygons, capsules and segments seen alike as convex vertex
// lists with outward normals and a rounding radius, so SAT and clipping are written once. A
// capsule or segment is a two-vertex polygon whose two "edges" run there and back.
#pragma once

#include <algorithm>
#include <array>
#include <limits>
#include <span>

#include "collide2d/algorithms.hpp"
#include "collide2d/manifold.hpp"
#include "collide2d/shapes.hpp"
#include "collide2d/tolerance.hpp"
#include "lanes.hpp"

namespace collide2d::detail {

// For a view of at most polygon_inline_capacity vertices, the storage behind `vertices` and
// `normals` runs on to the next multiple of lane_count, so the SAT can read them that many at a
// time: the vertices there repeat vertex 0 (a minimum or maximum over every lane is one over the
// vertices), the normals are unspecified.
static_assert(polygon_inline_capacity % lane_count == 0);

struct PolygonView {
  std::span<const Vec2> vertices;     // counter-clockwise core vertices, local frame
  std::span<const Vec2> normals;      // outward unit normal of edge i (vertex i to i+1)
  Real radius = 0;                    // rounding radius
  const Polygon* polygon = nullptr;   // the polygon viewed, for its fast support; null for segments

  int count() const { return static_cast<int>(vertices.size()); }
  // The vertex after and before vertex i, cyclic (a comparison, not a division).
  int next(int i) const { return i + 1 == count() ? 0 : i + 1; }
  int previous(int i) const { return i == 0 ? count() - 1 : i - 1; }
  int support_index(Vec2 direction) const {
    if (polygon != nullptr) return polygon->support_index(direction);
    return dot(vertices[1] - vertices[0], direction) > 0 ? 1 : 0;
  }
  Vec2 support(Vec2 direction) const { return vertices[support_index(direction)]; }
  // The edge whose outward normal is most opposed to `direction` (the least dot product): one of
  // the two edges at the vertex farthest along -direction. Up to polygon_inline_capacity vertices,
  // every normal in lanes and the first of equals; above, the support vertex and its two edges.
  int most_opposed_edge(Vec2 direction) const {
    if (count() <= lane_count) return most_opposed_edge_of_small<1>(direction);
    if (count() <= polygon_inline_capacity) return most_opposed_edge_of_small<2>(direction);
    const int deepest = support_index(-direction), before = previous(deepest);
    return dot(normals[before], direction) < dot(normals[deepest], direction) ? before : deepest;
  }
  // The edge whose line `point` lies farthest outside (the largest separation, the first of equals),
  // and that separation: every edge at once in lanes up to polygon_inline_capacity vertices, else
  // one edge after another; no branch on which edge wins, which changes unpredictably from one
  // query to the next.
  int most_separating_edge(Vec2 point, Real& separation) const {
    if (count() <= lane_count) return most_separating_edge_of_small<1>(point, separation);
    if (count() <= polygon_inline_capacity) return most_separating_edge_of_small<2>(point, separation);
    int edge = 0;
    separation = dot(normals[0], point - vertices[0]);
    for (int i = 1; i < count(); ++i) keep_larger(dot(normals[i], point - vertices[i]), i, separation, edge);
    return edge;
  }
  Real rounding_radius() const { return radius; }
  // Largest distance of a vertex from the local origin plus the radius.
  Real reach() const {
    if (polygon != nullptr) return size_scale(*polygon);
    return std::max(length(vertices[0]), length(vertices[1])) + radius;
  }

 private:
  template <int groups>
  int most_opposed_edge_of_small(Vec2 direction) const {
    const PointLanes<groups> lanes = stored_lanes<groups>(normals.data());
    std::array<RealLanes, groups> opposition;
    for (int group = 0; group < groups; ++group) opposition[group] = -(lanes.x[group] * direction.x + lanes.y[group] * direction.y);
    Real most;
    int edge;
    greatest_lane<groups>(opposition, count(), most, edge);
    return edge;
  }
  template <int groups>
  int most_separating_edge_of_small(Vec2 point, Real& separation) const {
    const PointLanes<groups> normal_lanes = stored_lanes<groups>(normals.data()), vertex_lanes = stored_lanes<groups>(vertices.data());
    std::array<RealLanes, groups> separations;
    for (int group = 0; group < groups; ++group) {
      separations[group] = normal_lanes.x[group] * (point.x - vertex_lanes.x[group]) + normal_lanes.y[group] * (point.y - vertex_lanes.y[group]);
    }
    int edge;
    greatest_lane<groups>(separations, count(), separation, edge);
    return edge;
  }
};

// Storage for the two vertices and normals of a segment core, padded to lane_count (the
// padding vertices repeat vertex 0, as a polygon's do); views point into it.
struct SegmentCore {
  std::array<Vec2, lane_count> vertices{};
  std::array<Vec2, lane_count> normals{};
  SegmentCore(Vec2 a, Vec2 b) {
    vertices = {a, b, a, a};
    Vec2 direction = normalize(b - a);
    if (length_squared(direction) == 0) direction = {1, 0};
    normals[0] = right_perpendicular(direction);
    normals[1] = left_perpendicular(direction);
  }
  PolygonView view(Real radius) const { return {{vertices.data(), 2}, {normals.data(), 2}, radius, nullptr}; }
};

inline PolygonView view_of(const Polygon& polygon) {
  return {polygon.vertices(), polygon.normals(), polygon.radius(), &polygon};
}

// A circle's centre (`local_center`, placed by `circle_transform`) in the frame `frame` places, as
// the circle pairs place it: turned by the circle's own rotation, added to the positions'
// difference (nothing the size of the positions is rounded), turned into the frame. `placement`
// gets the magnitude of what placing it rounded: the centre's and the turned local centre's.
// (Written to references: a returned pair made GCC pack it into one vector register on the
// collide path, 13.5 -> 14.3 ns a polygon8-circle pair.)
inline void place_circle_center(Vec2 local_center, const Transform& circle_transform, const Transform& frame, Vec2& center, Real& placement) {
  const Vec2 turned = rotate(circle_transform.rotation, local_center);
  center = inverse_rotate(frame.rotation, (circle_transform.position - frame.position) + turned);
  placement = coordinate_magnitude(center) + coordinate_magnitude(turned);
}

// The point of a core (polygon, or two-vertex segment core) nearest a point, all in the core's frame.
struct CoreFeature {
  Vec2 core_point;         // nearest point of the core's boundary (the point itself projected when inside)
  Vec2 normal;             // outward unit normal there: from core_point toward the point when outside
  Real signed_distance;    // distance from the core's boundary: > 0 outside, <= 0 inside (a segment core has no inside)
  int feature;             // the nearest edge's index, or the nearest vertex's index when at_vertex
  bool at_vertex;          // true when a vertex, not the inside of an edge, is nearest
  int face;                // the edge whose Voronoi regions hold the answer: largest separation, or its neighbour at a flat vertex
};
// The touching band of a circle against a core (docs/conventions.md), from nearest_core_feature's
// answer for the circle's centre `point`, `placement` (what placing that centre in the core's
// frame rounded) and the two radii: the contact tolerance of the face searched's extent, the
// centre's offset from its start, the placement and the radii. A neighbouring face whose
// separation from the centre lies within its own band of the face searched's could as well have
// been ranked first (at an almost flat vertex the two differ by round-off), so its extent counts
// too: the band must not flip with that ranking (a circle across a 0.07-degree vertex between
// faces 2.8e7 and 4.8e7 long, float, got 78 or 133 by the pose's last bit, and was 84 deep
// against the one and touching against the other). collide() and circle_core_gap (overlap,
// distance, penetration) decide with it, so they agree.
inline Real circle_feature_tolerance(const PolygonView& core, const CoreFeature& nearest, Vec2 point, Real placement, Real radii) {
  auto face_magnitude = [&](int face) {
    const Vec2 v1 = core.vertices[face], v2 = core.vertices[core.next(face)];
    return std::max(coordinate_magnitude(v2 - v1), coordinate_magnitude(point - v1));
  };
  Real magnitude = face_magnitude(nearest.face);
  if (core.count() > 2) {  // a segment core's two faces are one line: their separations are opposite
    const Real separation = dot(core.normals[nearest.face], point - core.vertices[nearest.face]);
    for (const int neighbour : {core.previous(nearest.face), core.next(nearest.face)}) {
      const Real neighbour_magnitude = face_magnitude(neighbour);
      if (separation - dot(core.normals[neighbour], point - core.vertices[neighbour]) <= contact_tolerance(neighbour_magnitude + placement + radii)) {
        magnitude = std::max(magnitude, neighbour_magnitude);
      }
    }
  }
  return contact_tolerance(magnitude + placement + radii);
}
// The face of largest separation and its Voronoi regions (face, either end vertex) give the
// nearest feature (a point outside the face, by however little, may be nearer one of its ends).
// A caller that only needs to know whether the point is within `apart_beyond` of the core gets,
// when the largest separation is more, that face and its separation (a lower bound of the
// distance) without the Voronoi tests. A circle's touching band against the answer is
// circle_feature_tolerance, taken only by a caller that needs it.
inline CoreFeature nearest_core_feature(const PolygonView& core, Vec2 point, Real apart_beyond) {
  // Every face's separation, without a branch on which is largest: a branch per face (or a stop at
  // the first face beyond apart_beyond) cost polygon8-circle manifolds 49 ns against Box2D's 36
  // with the cases in random order.
  Real face_separation;
  const int face = core.most_separating_edge(point, face_separation);
  const Vec2 normal = core.normals[face];
  CoreFeature nearest{point - face_separation * normal, normal, face_separation, face, false, face};
  if (face_separation > apart_beyond) return nearest;
  const Vec2 v1 = core.vertices[face], v2 = core.vertices[core.next(face)];
  if (face_separation > 0 || core.count() == 2) {  // outside, even by less than the tolerance: a vertex may be nearer
    const Real past_v1 = dot(point - v1, v2 - v1), past_v2 = dot(point - v2, v1 - v2);
    if ((past_v1 <= 0 || past_v2 <= 0) && point != (past_v1 <= 0 ? v1 : v2)) {
      // At an almost flat vertex the two faces' separations differ by less than the round-off of
      // their normals, so the face ranked first may be the one whose end the point lies past,
      // while the point lies over the other face (a point 0.0005 off a 0.07-degree vertex was put
      // at the vertex, 0.0025 away): the neighbour across that vertex is then the nearest face.
      // One dot product tells the usual case (past both faces' ends) apart before any more work.
      const Vec2 corner = past_v1 <= 0 ? v1 : v2;
      const int neighbour = past_v1 <= 0 ? core.previous(face) : core.next(face);
      const Vec2 other_end = core.vertices[past_v1 <= 0 ? neighbour : core.next(neighbour)];
      if (dot(point - corner, other_end - corner) > 0) {
        const Real neighbour_separation = dot(core.normals[neighbour], point - corner);
        if (neighbour_separation > 0 && dot(point - other_end, corner - other_end) > 0) {
          return {point - neighbour_separation * core.normals[neighbour], core.normals[neighbour], neighbour_separation, neighbour, false, neighbour};
        }
      }
      nearest.core_point = corner;
      nearest.feature = past_v1 <= 0 ? face : core.next(face);
      nearest.at_vertex = true;
      nearest.signed_distance = length_in_real(point - nearest.core_point);
      nearest.normal = (Real(1) / nearest.signed_distance) * (point - nearest.core_point);
    }
  }
  return nearest;
}

// Where origin + t direction (t >= 0, the core's frame) first meets the core swept by its radius,
// from an origin outside that sweep: the ray clipped against the edges' lines moved out by the
// radius, then the entering edge itself when the entry lies within its extent (widened by
// `tolerance` x its length so the junctions are covered), else the circle of the vertex past
// whose end it lies; an origin between the moved lines takes every edge and vertex circle.
// Ray casts against capsules and rounded polygons and shape casts of circles use it
// (raycast.cpp).
struct RoundedCoreHit {
  Real fraction;  // the t of the first meeting; the largest Real when there is none
  Vec2 normal;    // the swept core's outward unit normal there
};
RoundedCoreHit first_hit_on_rounded_core(const PolygonView& core, Vec2 origin, Vec2 direction, Real tolerance);

// Clipping against a chosen reference face (edge `reference_edge` of `reference`): the incident
// edge of `incident` most opposed to the face normal is clipped to the face's side planes; ends
// within the speculative distance become points midway between the surfaces. All in the
// reference frame, normal from reference to incident; empty when the incident edge lies beside
// the face. The touching band is the contact tolerance of the face's and the incident edge's
// vertices. `flipped_roles` is recorded in the feature ids (true when the reference is shape B).
// `band_bound` is at least that band (clip_band_bound), or the largest Real when no bound is
// known: an end farther than the speculative distance plus it is dropped without working out
// the band. The points are appended to `manifold`, which the caller passes empty.
void clip_incident_edge(const PolygonView& reference, int reference_edge, const PolygonView& incident, const Transform& incident_to_reference,
                        const CollideOptions& options, bool flipped_roles, Real band_bound, Manifold& manifold);
// A bound on the touching band clip_incident_edge works out for two views whose reach() sum to
// `reaches` and whose frames' origins lie `offset_magnitude` (a coordinate_magnitude, in either
// frame) apart, `radii` their radii: every magnitude in that band (a face's extent, an end's
// offset from it, what placing the end rounded) is at most 3 sqrt(2) (reaches + offset), so five
// of them bound it with room for the bound's own rounding.
inline Real clip_band_bound(Real reaches, Real offset_magnitude, Real radii) {
  return contact_tolerance(5 * (reaches + offset_magnitude) + radii);
}

// Moves a manifold computed in a shape's frame into the frame `placement` maps that one to (the
// world, for a manifold in A's frame placed by A's transform), in place. An empty one (apart, its
// normal zero) is left as it is.
inline void place_manifold(Manifold& manifold, const Transform& placement) {
  if (manifold.point_count == 0) return;
  manifold.normal = rotate(placement.rotation, manifold.normal);
  // Written out for the two points a manifold can hold: a loop over point_count is vectorised for
  // counts no manifold has, at some twenty instructions a call.
  static_assert(std::tuple_size_v<decltype(manifold.points)> == 2);
  manifold.points[0].point = transform_point(placement, manifold.points[0].point);
  if (manifold.point_count == 2) manifold.points[1].point = transform_point(placement, manifold.points[1].point);
}

// The feature id of a contact point (see FeatureId in manifold.hpp).
enum class ContactKind : std::uint64_t { clipped = 0, closest_points = 1, circle = 2 };
constexpr FeatureId feature_id(ContactKind kind, int reference_feature, int incident_feature, int end, bool b_is_reference) {
  constexpr FeatureId index_mask = (FeatureId(1) << 28) - 1;
  return (static_cast<FeatureId>(reference_feature) & index_mask) | (static_cast<FeatureId>(incident_feature) & index_mask) << 28 |
         static_cast<FeatureId>(end & 1) << 56 | static_cast<FeatureId>(b_is_reference) << 57 | static_cast<FeatureId>(kind) << 58;
}

}  // namespace collide2d::detail

// collide2d/detail/gjk_epa.hpp — template bodies of gjk() and epa(); include algorithms.hpp instead.
//
// GJK outline (Gilbert, Johnson & Keerthi 1988; Ericson, "Real-Time Collision Detection" §9.5):
//   0. a polygon B of up to 8 vertices (and a rectangle) is placed in A's frame once, so that each
//      support search of D below is a scan of placed points (PlacedPolygonSupport);
//   1. start from the cached simplex, or one support point of D = B - A toward the origin;
//   2. reduce the simplex to the sub-simplex nearest the origin (barycentric Voronoi tests) and
//      take its closest point v;
//   3. stop if the simplex is a triangle (origin enclosed) or v is within tolerance of the origin,
//      or if the reduction dropped the point the last step added (round-off: see reduce_simplex);
//   4. take w = support_D(-v); stop if w brings no progress (the lower bound v·w/|v| meets |v|),
//      repeats a simplex vertex, or proves the separation limit; else add w and go to 2.
// EPA outline (van den Bergen, "Proximity queries and penetration depth computation on 3D game
// objects", GDC 2001; Box2D-lite and dyn4j use the 2D form):
//   1. grow GJK's simplex into a convex polygon around the origin with extra support points;
//   2. find the polygon edge nearest the origin (each edge's normal and distance are computed
//      once, when the edge is made); take the support point along its outward normal;
//   3. stop when it lies within tolerance of the edge and is one of its ends (or not beyond it);
//      else insert it, drop vertices that became reflex, and go to 2. A point within tolerance
//      but new still goes in (at most epa_refinements times): the edge is then a chord across a
//      hull vertex, not an edge of D, and its normal is off by up to the angle the tolerance
//      hides (3.7e-5 rad for a 0.012-wide 58-gon inside a 4.5-wide 43-gon in float).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>

#include "collide2d/detail/monotone_chain.hpp"
#include "collide2d/shapes.hpp"
#include "collide2d/tolerance.hpp"

namespace collide2d {
namespace detail {

/// Room for `capacity` elements, left uninitialised: EPA's polytope has room for epa_max_vertices
/// (6 KB) but holds a handful, and zeroing the room cost more than the search. Elements are
/// written before they are read.
template <class T, int capacity>
class UninitializedArray {
 public:
  UninitializedArray() {}  // deliberately leaves the elements unset
  T& operator[](int index) { return items_[index]; }
  const T& operator[](int index) const { return items_[index]; }
  T* data() { return items_; }
  const T* data() const { return items_; }

 private:
  union {
    T items_[capacity];
  };
};

/// True when `shape`'s support search runs out of line: a polygon (or a view of one) with more
/// vertices than it stores inline, whose support is a binary search.
template <ConvexSupport S>
bool support_searches_out_of_line(const S& shape) {
  if constexpr (requires { shape.count(); }) {
    return shape.count() > polygon_inline_capacity;
  } else {
    return false;
  }
}

/// A rectangle seen through its support function: the farthest vertex along a direction is the
/// one both of whose edges face it, and as normals 2 and 3 are the opposites of normals 0 and 1
/// (within direction_tolerance, so the vertex named is the farthest up to round-off), the sides of
/// normals 0 and 1 the direction lies on name it: two dot products where the polygon's own search
/// takes four and three selects. gjk() runs on two of these when both polygons are rectangles,
/// so that other polygons' support pays no test for the case: A's in its own frame, B's placed in
/// A's (as PlacedPolygonSupport places a polygon, and for the same reason).
class RectangleSupport {
 public:
  /// support() answers in the frame the rectangle was placed in: minkowski_support places nothing.
  static constexpr bool placed = true;
  /// The rectangle in its own frame.
  explicit RectangleSupport(const Polygon& rectangle)
      : vertices_{rectangle.vertices()[0], rectangle.vertices()[1], rectangle.vertices()[2], rectangle.vertices()[3]},
        first_normal_(rectangle.normals()[0]), second_normal_(rectangle.normals()[1]), radius_(rectangle.radius()) {}
  /// The rectangle placed by `placement` (its vertices by transform_point, as transformed_support
  /// places the one it finds).
  RectangleSupport(const Polygon& rectangle, const Transform& placement)
      : vertices_{transform_point(placement, rectangle.vertices()[0]), transform_point(placement, rectangle.vertices()[1]),
                  transform_point(placement, rectangle.vertices()[2]), transform_point(placement, rectangle.vertices()[3])},
        first_normal_(rotate(placement.rotation, rectangle.normals()[0])), second_normal_(rotate(placement.rotation, rectangle.normals()[1])),
        radius_(rectangle.radius()) {}
  Vec2 support(Vec2 direction) const {
    // (against the first, against the second) names vertex (no, no) 1, (no, yes) 0, (yes, no) 2,
    // (yes, yes) 3: 2 f + 1 - (f xor s), in integers, with no branch on sides that change
    // unpredictably from one query to the next (cold distance of boxes 126 -> 107 ns).
    const int against_first = dot(first_normal_, direction) < 0, against_second = dot(second_normal_, direction) < 0;
    return vertices_[2 * against_first + 1 - (against_first ^ against_second)];
  }
  Real rounding_radius() const { return radius_; }

 private:
  std::array<Vec2, 4> vertices_;       // the rectangle's four vertices, counter-clockwise, placed
  Vec2 first_normal_, second_normal_;  // outward normals of edges 0 and 1, placed
  Real radius_;
};

/// A polygon B with inline vertices seen through its support function, its vertices placed in
/// A's frame (by b_to_a) before a loop of searches: each search then neither turns the direction
/// into B's frame nor places the vertex found back, two steps on the loop's chain of dependent
/// operations (distance_cold polygon8 about 150 -> 139 ns). A vertex is placed by the operations
/// transformed_support applies to it, so a support point is the one the search in B's frame
/// places, except where two vertices tie along the direction to within round-off (either is
/// then farthest). gjk() places B once; the shape cast again at each move.
class PlacedPolygonSupport {
 public:
  /// support() answers in the frame B is placed in: minkowski_support places nothing.
  static constexpr bool placed = true;
  PlacedPolygonSupport(const Polygon& polygon, const Transform& placement)
      : vertices_(polygon.vertices().data()), count_(polygon.count()), radius_(polygon.radius()) {
    place(placement);
  }
  /// Places the polygon's vertices by `placement` (b_to_a).
  void place(const Transform& placement) {
    for (int i = 0; i < count_; ++i) placed_[i] = transform_point(placement, vertices_[i]);
  }
  Vec2 support(Vec2 direction) const { return placed_[farthest_point_index(placed_.data(), count_, direction)]; }
  Real rounding_radius() const { return radius_; }

 private:
  const Vec2* vertices_;  // the polygon's own, in its frame
  int count_;
  Real radius_;
  UninitializedArray<Vec2, polygon_inline_capacity> placed_;  // the first count_ are set
};

/// minkowski_support's body: each shape's support point, B's placed in A's frame, and their difference.
template <ConvexSupport A, ConvexSupport B>
[[gnu::always_inline]] inline void write_minkowski_support(const A& a, const B& b, const Transform& b_to_a, Vec2 direction, MinkowskiVertex& vertex) {
  vertex.point_a = a.support(-direction);
  if constexpr (requires { B::placed; }) {
    vertex.point_b = b.support(direction);
  } else {
    vertex.point_b = transformed_support(b, b_to_a, direction);
  }
  vertex.point = vertex.point_b - vertex.point_a;
}
/// The same, out of line, for shapes whose support search is a call: the caller's own path then
/// makes no call, and saves and restores no registers for one.
template <ConvexSupport A, ConvexSupport B>
[[gnu::noinline]] void write_minkowski_support_by_search(const A& a, const B& b, const Transform& b_to_a, Vec2 direction, MinkowskiVertex& vertex) {
  write_minkowski_support(a, b, b_to_a, direction, vertex);
}

/// A support point of D = B - A along `direction` (A's frame), written into `vertex` field by
/// field: GJK writes it straight into its simplex's next slot, where a copy of a returned
/// vertex would wait for the stores that made it. Inlined: a call would make the caller spill
/// every floating-point value it keeps (the SysV ABI saves none of them across calls).
template <ConvexSupport A, ConvexSupport B>
[[gnu::always_inline]] inline void minkowski_support(const A& a, const B& b, const Transform& b_to_a, Vec2 direction, MinkowskiVertex& vertex) {
  if (support_searches_out_of_line(a) || support_searches_out_of_line(b)) [[unlikely]] {
    return write_minkowski_support_by_search(a, b, b_to_a, direction, vertex);
  }
  write_minkowski_support(a, b, b_to_a, direction, vertex);
}
/// The same, returned.
template <ConvexSupport A, ConvexSupport B>
MinkowskiVertex minkowski_support(const A& a, const B& b, const Transform& b_to_a, Vec2 direction) {
  MinkowskiVertex vertex;
  minkowski_support(a, b, b_to_a, direction, vertex);
  return vertex;
}

/// The magnitude behind a Minkowski vertex's round-off: its point on B - A (what GJK and EPA
/// compute with), and B's support point where placing B in A's frame rounded it.
/// `placement` is that of b_to_a.
[[gnu::always_inline]] inline Real difference_magnitude(const MinkowskiVertex& vertex, const PlacementRoundOff& placement) {
  return std::max(coordinate_magnitude(vertex.point), placement.magnitude(vertex.point_b));
}

/// A simplex vertex with its difference_magnitude, worked out once when the vertex is made: GJK
/// asks for its simplex's touching band after every reduction, and a vertex stays in the simplex
/// for several.
struct MeasuredVertex : MinkowskiVertex {
  Real magnitude;  ///< difference_magnitude(*this, placement of b_to_a)
};

/// The simplex GJK's loops work on: as Simplex, with each vertex's magnitude. Vertices move with
/// their magnitudes when a reduction drops some.
struct MeasuredSimplex {
  std::array<MeasuredVertex, 3> vertices;  ///< the first `count` are in use
  int count;                               ///< 1 to 3

  /// Sets vertex `index`'s magnitude from its points; `placement` is that of b_to_a.
  [[gnu::always_inline]] void measure(int index, const PlacementRoundOff& placement) {
    vertices[index].magnitude = difference_magnitude(vertices[index], placement);
  }
  /// The plain simplex (slots not in use read as zero).
  Simplex plain() const {
    Simplex simplex;
    for (int i = 0; i < count; ++i) simplex.vertices[i] = vertices[i];
    simplex.count = count;
    return simplex;
  }
};

/// The contact tolerance of a simplex's features (A's frame), with the rounding radii the
/// caller will add to the core distance.
inline Real simplex_tolerance(const MeasuredSimplex& simplex, Real radii) {
  Real magnitude = simplex.vertices[0].magnitude;
  for (int i = 1; i < simplex.count; ++i) magnitude = std::max(magnitude, simplex.vertices[i].magnitude);
  return contact_tolerance(magnitude + radii);
}

/// Barycentric weights of a reduced simplex's vertices, kept as numerators over one total: GJK's
/// loops need only the sub-simplex, so the divisions wait until a weight is read, at the end.
struct BarycentricWeights {
  std::array<Real, 3> numerators{1, 0, 0};  ///< vertex i's weight times `total`
  Real total = 1;                           ///< > 0

  /// Vertex `index`'s weight.
  Real operator[](int index) const { return numerators[index] / total; }
};

/// Reduces a two-vertex `simplex` (Simplex or MeasuredSimplex) to the sub-simplex whose Voronoi
/// region holds the origin (an end, or the whole segment), with the barycentric weight of each
/// remaining vertex. True when the second vertex is kept.
template <class AnySimplex>
[[gnu::always_inline]] inline bool reduce_segment(AnySimplex& simplex, BarycentricWeights& weights) {
  const Vec2 w1 = simplex.vertices[0].point, w2 = simplex.vertices[1].point;
  // The weight of w1 is the origin's projection measured from w2, and vice versa.
  const Vec2 e12 = w2 - w1;
  const Real d12_1 = dot(w2, e12), d12_2 = -dot(w1, e12);
  if (d12_2 <= 0) {
    simplex.count = 1;
    weights = {};
    return false;
  }
  if (d12_1 <= 0) {
    simplex.vertices[0] = simplex.vertices[1];
    simplex.count = 1;
    weights = {};
    return true;
  }
  weights = {{d12_1, d12_2, 0}, d12_1 + d12_2};
  return true;
}

/// The point of `simplex` its barycentric `weights` give: the closest point to the origin, after
/// reduce_simplex.
template <class AnySimplex>
Vec2 weighted_point(const AnySimplex& simplex, const BarycentricWeights& weights) {
  Vec2 point;
  for (int i = 0; i < simplex.count; ++i) point += weights[i] * simplex.vertices[i].point;
  return point;
}

/// True when `point` is one of `simplex`'s vertices. GJK's loops ask it of a new support point:
/// repeated, it brings no progress.
template <class AnySimplex>
bool holds_point(const AnySimplex& simplex, Vec2 point) {
  for (int i = 0; i < simplex.count; ++i) {
    if (simplex.vertices[i].point == point) return true;
  }
  return false;
}

/// A collinear triangle (zero area): reduced to the nearest of its three edges' closest points;
/// true when the third vertex is kept. Out of line: it is rare, and it would keep reduce_simplex
/// from being inlined.
template <class AnySimplex>
[[gnu::noinline]] bool reduce_collinear_triangle(AnySimplex& simplex, BarycentricWeights& weights) {
  Real best_distance = -1;
  const AnySimplex triangle = simplex;
  const int edges[3][2] = {{0, 1}, {0, 2}, {1, 2}};
  for (const auto& edge : edges) {
    AnySimplex candidate = triangle;
    candidate.vertices[0] = triangle.vertices[edge[0]];
    candidate.vertices[1] = triangle.vertices[edge[1]];
    candidate.count = 2;
    BarycentricWeights candidate_weights;
    (void)reduce_segment(candidate, candidate_weights);
    const Real candidate_distance = length_squared(weighted_point(candidate, candidate_weights));
    if (best_distance < 0 || candidate_distance < best_distance) {
      best_distance = candidate_distance;
      simplex = candidate;
      weights = candidate_weights;
    }
  }
  return holds_point(simplex, triangle.vertices[2].point);
}

/// Reduces `simplex` to the sub-simplex whose Voronoi region holds the origin, with the
/// barycentric weight of each remaining vertex (weighted_point gives the closest point to the
/// origin; GJK's loop needs only the sub-simplex, and asks for the point at the end). True when
/// the last vertex (the one a GJK step added) is kept: in exact arithmetic a support point that
/// passed the progress test brings the simplex nearer the origin, so the reduction keeps it.
/// Dropped, round-off decided the step (an edge so long that its direction is lost against the
/// distance, at 1e5 in float), and the same point would come back at every step until the
/// iteration cap: the loop has converged. Inlined in each GJK loop, whatever the number of loops
/// a file instantiates (a call made the loop spill what it keeps in registers).
template <class AnySimplex>
[[gnu::always_inline]] inline bool reduce_simplex(AnySimplex& simplex, BarycentricWeights& weights) {
  // The kept vertices move to the front, only those not already there (a vertex just added by the
  // support search is still being written, and copying it whole waits for those stores).
  const int last = simplex.count - 1;
  auto keep_vertex = [&](int index) {
    if (index != 0) simplex.vertices[0] = simplex.vertices[index];
    simplex.count = 1;
    weights = {};
    return index == last;
  };
  auto keep_edge = [&](int first, int second, Real weight_first, Real weight_second) {  // first < second
    if (first != 0) simplex.vertices[0] = simplex.vertices[first];
    if (second != 1) simplex.vertices[1] = simplex.vertices[second];
    simplex.count = 2;
    weights = {{weight_first, weight_second, 0}, weight_first + weight_second};
    return second == last;
  };
  if (simplex.count == 1) {
    weights = {};
    return true;
  }
  if (simplex.count == 2) return reduce_segment(simplex, weights);
  const Vec2 w1 = simplex.vertices[0].point, w2 = simplex.vertices[1].point, w3 = simplex.vertices[2].point;
  // Each edge's weights: that of its first end is the origin's projection measured from its
  // second, and vice versa.
  const Vec2 e12 = w2 - w1, e13 = w3 - w1, e23 = w3 - w2;
  const Real d12_1 = dot(w2, e12), d12_2 = -dot(w1, e12);
  const Real d13_1 = dot(w3, e13), d13_2 = -dot(w1, e13);
  const Real d23_1 = dot(w3, e23), d23_2 = -dot(w2, e23);
  const Real signed_area = cross(e12, e13);
  // Each barycentric weight times the triangle's orientation (only its sign: the product with the
  // area itself would be a fourth power of lengths, out of range in float near coordinate_limit).
  const Real orientation = signed_area > 0 ? Real(1) : (signed_area < 0 ? Real(-1) : Real(0));
  const Real d123_1 = orientation * cross(w2, w3);
  const Real d123_2 = orientation * cross(w3, w1);
  const Real d123_3 = orientation * cross(w1, w2);
  if (d12_2 <= 0 && d13_2 <= 0) return keep_vertex(0);
  if (d12_1 > 0 && d12_2 > 0 && d123_3 <= 0) return keep_edge(0, 1, d12_1, d12_2);
  if (d13_1 > 0 && d13_2 > 0 && d123_2 <= 0) return keep_edge(0, 2, d13_1, d13_2);
  if (d12_1 <= 0 && d23_2 <= 0) return keep_vertex(1);
  if (d13_1 <= 0 && d23_1 <= 0) return keep_vertex(2);
  if (d23_1 > 0 && d23_2 > 0 && d123_1 <= 0) return keep_edge(1, 2, d23_1, d23_2);
  if (signed_area == 0) return reduce_collinear_triangle(simplex, weights);
  weights = {{d123_1, d123_2, d123_3}, d123_1 + d123_2 + d123_3};  // the origin is inside the triangle
  return true;
}

/// The direction from the origin toward a reduced simplex of one or two vertices (GJK's next
/// search is along -search), and the simplex's distance along it scaled by the direction's length:
/// what GJK's loop compares needs neither a root nor a division, which would sit on its chain of
/// dependent steps; unit_and_distance() takes them once, for the answer. Taken from the vertices
/// themselves, not from the closest point (whose weights take divisions). For a segment the
/// direction is the edge's perpendicular: the closest point comes out of a cancellation with
/// error ~ eps * |vertices|, which turns its direction by that error over its length when the
/// segment passes near the origin, and a turned search direction can return a simplex vertex
/// again and stop GJK far from the true distance.
struct SearchDirection {
  Vec2 search;             ///< toward the simplex, any length (zero: the origin lies on the segment)
  Real scaled_distance;    ///< the simplex's distance from the origin times |search|
  bool along_edge_normal;  ///< `search` is the simplex edge's perpendicular (else the vertex itself)

  /// |search|. The edge's perpendicular, an edge of B - A: its square neither overflows nor,
  /// guarded, underflows.
  Real length() const { return along_edge_normal ? length_in_real(search) : std::sqrt(scaled_distance); }
  /// True when `scaled`, a length times |search|, is at most `band` (a length) times |search|.
  /// Decided without a root where |x| + |y| of `search` (between |search| and sqrt(2) |search|)
  /// tells, which is every comparison farther from the band's edge than that factor: the root
  /// is taken between those bounds only.
  bool scaled_at_most(Real scaled, Real band) const {
    const Real magnitude = coordinate_magnitude(search);
    if (scaled <= band * (Real(0.7071) * magnitude)) return true;  // 0.7071 < 1 / sqrt(2)
    if (scaled > band * magnitude) return false;
    return scaled <= band * length();
  }
  /// True when the simplex passes within `band` of the origin: its distance is at most the band.
  bool within(Real band) const { return scaled_at_most(scaled_distance, band); }
  /// The same, for a caller that has taken length() already (the shape cast's loop needs it for
  /// its step): compared with it, with no bounds.
  bool within(Real band, Real search_length) const { return scaled_distance <= band * search_length; }
  /// The unit direction toward the simplex and the simplex's distance along it, given length()
  /// and a point of the simplex.
  void unit_and_distance(Vec2 simplex_point, Real search_length, Vec2& unit, Real& distance) const {
    unit = (Real(1) / search_length) * search;
    distance = along_edge_normal ? dot(unit, simplex_point) : search_length;
  }
};

/// The search direction toward a reduced simplex of one or two vertices.
template <class AnySimplex>
[[gnu::always_inline]] inline SearchDirection direction_to_simplex(const AnySimplex& simplex) {
  const Vec2 first = simplex.vertices[0].point;
  if (simplex.count == 1) return {first, length_squared(first), false};
  const Vec2 edge = simplex.vertices[1].point - first;
  const Real side = cross(edge, first);
  if (side == 0) return {{}, 0, true};  // the origin lies on the segment
  const Vec2 search = side > 0 ? left_perpendicular(edge) : right_perpendicular(edge);
  return {search, dot(search, first), true};
}

/// gjk()'s loop, on B's support as given (a PlacedPolygonSupport's is placed in A's frame once;
/// any other shape's is placed by b_to_a at each search).
template <ConvexSupport A, ConvexSupport B>
[[gnu::always_inline]] inline GjkResult gjk_loop(const A& a, const B& b, const Transform& b_to_a, const GjkOptions& options) {
  // The loop works on locals and the result is written once, at the end, field by field: a
  // GjkResult default-constructed up front is 120 bytes cleared with a string store, which cost
  // more than a cold query's reduction steps.
  detail::UninitializedArray<detail::MeasuredSimplex, 1> simplex_storage;  // every vertex below `count` is written before it is read
  detail::MeasuredSimplex& simplex = simplex_storage[0];
  const Real radii = a.rounding_radius() + b.rounding_radius();
  const PlacementRoundOff placement(b_to_a);
  int iterations = 0;
  if (options.cache != nullptr && options.cache->count > 0) {
    for (int i = 0; i < options.cache->count; ++i) {
      MinkowskiVertex& vertex = simplex.vertices[i];
      vertex.point_a = options.cache->local_a[i];
      vertex.point_b = transform_point(b_to_a, options.cache->local_b[i]);
      vertex.point = vertex.point_b - vertex.point_a;
      simplex.measure(i, placement);
    }
    simplex.count = options.cache->count;
  } else {
    Vec2 toward_origin = -b_to_a.position;
    if (length_squared(toward_origin) == 0) toward_origin = {1, 0};
    detail::minkowski_support(a, b, b_to_a, toward_origin, simplex.vertices[0]);
    simplex.measure(0, placement);
    simplex.count = 1;
    iterations = 1;
  }

  detail::BarycentricWeights weights;
  detail::SearchDirection toward{};  // toward the simplex the loop ended with
  Real tolerance = 0;        // the touching band of the simplex's features
  bool overlapping = false, stopped_early = false;
  IterationStatus status = IterationStatus::converged;
  Vec2 direction;            // unit vector from the origin toward the simplex, for the answer
  Real closest_length = 0;   // distance from the origin to the simplex, for the answer
  bool added = false;        // a step added a support point (the last vertex before a reduction)
  for (;;) {
    const bool kept_newest = detail::reduce_simplex(simplex, weights);
    if (options.trace != nullptr) options.trace->push_back(simplex.plain());
    tolerance = detail::simplex_tolerance(simplex, radii);  // the features the answer comes from
    if (simplex.count == 3) {
      overlapping = true;
      break;
    }
    toward = detail::direction_to_simplex(simplex);
    if (toward.within(tolerance)) {
      overlapping = true;
      break;
    }
    if (added && !kept_newest) break;
    if (iterations >= options.max_iterations) {
      status = IterationStatus::iteration_cap;
      break;
    }
    // Into the slot after the simplex (it holds at most two vertices here); kept only when it
    // brings progress.
    detail::MeasuredVertex& next = simplex.vertices[simplex.count];
    detail::minkowski_support(a, b, b_to_a, -toward.search, next);
    ++iterations;
    // Every point of D is at least scaled_lower / |search| far; compared scaled by |search|.
    const Real scaled_lower = dot(next.point, toward.search);
    if (options.separation_limit >= 0 && !toward.scaled_at_most(scaled_lower, options.separation_limit + tolerance)) {
      stopped_early = true;
      toward.unit_and_distance(simplex.vertices[0].point, toward.length(), direction, closest_length);
      closest_length = dot(next.point, direction);  // report the proven lower bound, as GjkResult documents
      break;
    }
    const Real scaled_progress = toward.scaled_distance - scaled_lower;
    if (scaled_progress <= round_off(toward.scaled_distance) || toward.scaled_at_most(scaled_progress, tolerance)) break;
    if (detail::holds_point(simplex, next.point)) break;  // repeated
    simplex.measure(simplex.count, placement);
    ++simplex.count;
    added = true;
  }

  Vec2 point_a, point_b;
  for (int i = 0; i < simplex.count; ++i) {
    point_a += weights[i] * simplex.vertices[i].point_a;
    point_b += weights[i] * simplex.vertices[i].point_b;
  }
  if (!overlapping && !stopped_early) toward.unit_and_distance(simplex.vertices[0].point, toward.length(), direction, closest_length);
  if (options.cache != nullptr) {
    options.cache->count = simplex.count;
    for (int i = 0; i < simplex.count; ++i) {
      options.cache->local_a[i] = simplex.vertices[i].point_a;
      options.cache->local_b[i] = inverse_transform_point(b_to_a, simplex.vertices[i].point_b);
    }
  }
  return GjkResult{.distance = overlapping ? Real(0) : closest_length,
                   .point_a = point_a,
                   .point_b = point_b,
                   .normal = overlapping ? Vec2{} : direction,
                   .overlapping = overlapping,
                   .stopped_early = stopped_early,
                   .simplex = simplex.plain(),
                   .tolerance = tolerance,
                   .iterations = iterations,
                   .status = status};
}

/// gjk() on two rectangles, out of line so that the general polygon path keeps its own code.
[[gnu::noinline]] inline GjkResult gjk_of_rectangles(const Polygon& a, const Polygon& b, const Transform& b_to_a, const GjkOptions& options) {
  return gjk_loop(RectangleSupport(a), RectangleSupport(b, b_to_a), b_to_a, options);
}

}  // namespace detail

template <ConvexSupport A, ConvexSupport B>
GjkResult gjk(const A& a, const B& b, const Transform& b_to_a, const GjkOptions& options) {
  if constexpr (std::is_same_v<A, Polygon> && std::is_same_v<B, Polygon>) {
    if (a.is_rectangle() && b.is_rectangle()) return detail::gjk_of_rectangles(a, b, b_to_a, options);
  }
  if constexpr (std::is_same_v<B, Polygon>) {
    if (b.count() <= polygon_inline_capacity) return detail::gjk_loop(a, detail::PlacedPolygonSupport(b, b_to_a), b_to_a, options);
  }
  return detail::gjk_loop(a, b, b_to_a, options);
}

template <ConvexSupport A, ConvexSupport B>
EpaResult epa(const A& a, const B& b, const Transform& b_to_a, const Simplex& start, const EpaOptions& options) {
  EpaResult result;
  const PlacementRoundOff placement(b_to_a);
  detail::UninitializedArray<MinkowskiVertex, epa_max_vertices> polytope;
  auto support = [&](Vec2 direction) { return detail::minkowski_support(a, b, b_to_a, direction); };

  // Step 1: the simplex, plus support points around it when it encloses no area.
  detail::UninitializedArray<MinkowskiVertex, 12> candidates;
  int candidate_count = 0;
  for (int i = 0; i < start.count; ++i) candidates[candidate_count++] = start.vertices[i];
  auto add_surrounding_supports = [&]() {
    for (Vec2 direction : {Vec2{1, 0}, Vec2{-1, 0}, Vec2{0, 1}, Vec2{0, -1}}) candidates[candidate_count++] = support(direction);
    if (start.count >= 2) {
      Vec2 across = left_perpendicular(start.vertices[1].point - start.vertices[0].point);
      if (length_squared(across) > 0) {
        candidates[candidate_count++] = support(across);
        candidates[candidate_count++] = support(-across);
      }
    }
    result.iterations = 1;
  };
  // Flatness: each point is off by up to round_off(scale) (scale: the magnitudes that rounded it,
  // B's placement included), which moves twice an area by about that times the points' extent
  // (not times the scale: B far out in its own frame rounds its points, it does not enlarge them).
  Real scale = 0, extent = 0;
  for (int i = 0; i < candidate_count; ++i) {
    scale = std::max(scale, detail::difference_magnitude(candidates[i], placement));
    extent = std::max(extent, coordinate_magnitude(candidates[i].point));
  }
  bool surrounded = start.count < 3 || std::abs(cross(start.vertices[1].point - start.vertices[0].point,
                                                      start.vertices[2].point - start.vertices[0].point)) <= 4 * round_off(scale) * extent;
  if (surrounded) add_surrounding_supports();
  Real tolerance = 0;
  int count = 0;
  Real twice_area = 0;
  auto build_polytope = [&]() {
    for (int i = 0; i < candidate_count; ++i) {
      scale = std::max(scale, detail::difference_magnitude(candidates[i], placement));
      extent = std::max(extent, coordinate_magnitude(candidates[i].point));
    }
    tolerance = contact_tolerance(scale);
    count = detail::monotone_chain(candidates.data(), candidate_count, polytope.data(),
                                   [](const MinkowskiVertex& vertex) { return vertex.point; });
    twice_area = 0;
    for (int i = 0; i < count; ++i) twice_area += cross(polytope[i].point, polytope[(i + 1) % count].point);
  };
  build_polytope();
  auto encloses_no_area = [&]() { return count < 3 || std::abs(twice_area) <= 4 * round_off(scale) * extent; };
  if (!surrounded && encloses_no_area()) {
    // The hull dropped a simplex point as collinear: the simplex was a sliver after all.
    add_surrounding_supports();
    build_polytope();
  }

  auto record = [&]() {
    if (options.trace == nullptr) return;
    std::vector<Vec2> snapshot;
    for (int i = 0; i < count; ++i) snapshot.push_back(polytope[i].point);
    options.trace->push_back(std::move(snapshot));
  };

  // No area, or only round-off's (points along a line that rounding bent into a sliver), even
  // with the supports all around: the cores touch along a line or at a point. The line runs
  // between the two farthest points.
  if (encloses_no_area()) {
    record();
    int first_index = 0, last_index = count - 1;
    for (int i = 0; i < count; ++i) {
      for (int j = i + 1; j < count; ++j) {
        if (length_squared(polytope[j].point - polytope[i].point) > length_squared(polytope[last_index].point - polytope[first_index].point)) {
          first_index = i;
          last_index = j;
        }
      }
    }
    const MinkowskiVertex& first = polytope[first_index];
    const MinkowskiVertex& last = polytope[last_index];
    const Vec2 along = last.point - first.point;
    const Real t = closest_parameter_on_segment(first.point, last.point, Vec2{});
    if (length_squared(along) > 0) result.normal = normalize(left_perpendicular(along));
    result.point_a = lerp(first.point_a, last.point_a, t);
    result.point_b = lerp(first.point_b, last.point_b, t);
    result.feature_magnitude = std::max(detail::difference_magnitude(first, placement), detail::difference_magnitude(last, placement));
    return result;
  }

  // Steps 2 and 3. Edge i runs from vertex i to i + 1; its outward unit normal and the origin's
  // distance from its line are kept beside it (shifted with the vertices), and only the two edges
  // at an inserted vertex are measured again. A zero-length edge (a repeated point) has no normal:
  // its distance is the largest Real, so it is never the nearest.
  detail::UninitializedArray<Vec2, epa_max_vertices> edge_normals;
  detail::UninitializedArray<Real, epa_max_vertices> edge_distances;
  auto measure_edge = [&](int i) {
    const Vec2 edge = polytope[i + 1 == count ? 0 : i + 1].point - polytope[i].point;
    if (length_squared(edge) == 0) {
      edge_distances[i] = std::numeric_limits<Real>::max();
      return;
    }
    edge_normals[i] = normalize(right_perpendicular(edge));
    edge_distances[i] = dot(edge_normals[i], polytope[i].point);
  };
  for (int i = 0; i < count; ++i) measure_edge(i);
  int nearest = 0;
  Vec2 nearest_normal;
  Real nearest_distance = 0;
  int refinements = 0;  // points within tolerance inserted to turn a chord into an edge of D
  for (;;) {
    record();
    nearest_distance = std::numeric_limits<Real>::max();
    for (int i = 0; i < count; ++i) {
      if (edge_distances[i] < nearest_distance) {
        nearest_distance = edge_distances[i];
        nearest = i;
        nearest_normal = edge_normals[i];
      }
    }
    if (result.iterations >= options.max_iterations || count == epa_max_vertices) {
      result.status = IterationStatus::iteration_cap;
      break;
    }
    const MinkowskiVertex next = support(nearest_normal);
    ++result.iterations;
    const Real gain = dot(next.point, nearest_normal) - nearest_distance;
    const bool an_end = next.point == polytope[nearest].point || next.point == polytope[(nearest + 1) % count].point;
    if (gain <= tolerance && (an_end || gain <= 0 || ++refinements > epa_refinements)) break;
    // Insert after `nearest`, then drop neighbours the new point made reflex or collinear.
    int inserted = nearest + 1;
    std::copy_backward(polytope.data() + inserted, polytope.data() + count, polytope.data() + count + 1);
    std::copy_backward(edge_normals.data() + inserted, edge_normals.data() + count, edge_normals.data() + count + 1);
    std::copy_backward(edge_distances.data() + inserted, edge_distances.data() + count, edge_distances.data() + count + 1);
    polytope[inserted] = next;
    ++count;
    auto erase = [&](int index) {
      std::copy(polytope.data() + index + 1, polytope.data() + count, polytope.data() + index);
      std::copy(edge_normals.data() + index + 1, edge_normals.data() + count, edge_normals.data() + index);
      std::copy(edge_distances.data() + index + 1, edge_distances.data() + count, edge_distances.data() + index);
      --count;
    };
    while (count > 3) {
      const int before = (inserted + count - 1) % count, before_that = (inserted + count - 2) % count;
      if (cross(polytope[before].point - polytope[before_that].point, next.point - polytope[before].point) > 0) break;
      erase(before);
      if (before < inserted) --inserted;
    }
    while (count > 3) {
      const int after = (inserted + 1) % count, after_that = (inserted + 2) % count;
      if (cross(polytope[after].point - next.point, polytope[after_that].point - polytope[after].point) > 0) break;
      erase(after);
      if (after < inserted) --inserted;
    }
    measure_edge(inserted == 0 ? count - 1 : inserted - 1);
    measure_edge(inserted);
  }

  // Of two nearly collinear edges, round-off can pick the one the origin does not project onto
  // (its witness would be clamped to a vertex, far from depth x normal); the neighbour on that
  // side is then the nearest edge.
  for (int moves = 0; moves < count; ++moves) {
    const Vec2 edge_start = polytope[nearest].point, edge = polytope[(nearest + 1) % count].point - edge_start;
    const Real along = -dot(edge_start, edge), edge_squared = length_squared(edge);
    if (along >= 0 && along <= edge_squared) break;
    const int neighbour = along < 0 ? (nearest + count - 1) % count : (nearest + 1) % count;
    const Vec2 next_edge = polytope[(neighbour + 1) % count].point - polytope[neighbour].point;
    if (length_squared(next_edge) == 0) break;
    nearest = neighbour;
    nearest_normal = normalize(right_perpendicular(next_edge));
    nearest_distance = dot(nearest_normal, polytope[nearest].point);
  }
  const MinkowskiVertex& first = polytope[nearest];
  const MinkowskiVertex& second = polytope[(nearest + 1) % count];
  const Real t = closest_parameter_on_segment(first.point, second.point, Vec2{});
  // Signed: GJK hands over cores within its band, which may be apart; the origin then lies outside
  // the polytope, the nearest edge is the one separating it most, and the depth is minus the
  // cores' distance (so a rounded pair's depth, the radii less that distance, has no step there).
  result.depth = nearest_distance;
  result.normal = -nearest_normal;
  result.point_a = lerp(first.point_a, second.point_a, t);
  result.point_b = lerp(first.point_b, second.point_b, t);
  // The features in contact: the nearest edge's two ends, and the far end of each neighbouring
  // edge whose distance from the origin lies within its band of the nearest's, which could as well
  // have been the nearest (at a vertex of B - A on which the origin lies, the two edges there tie,
  // and round-off picks one: a capsule's core on a face 3.3e7 long, float, got the band of the
  // face, 101, or of the face's near end alone, 2.5, at poses 2.7 apart).
  Real magnitude = std::max(detail::difference_magnitude(first, placement), detail::difference_magnitude(second, placement));
  if (count >= 3) {
    const int previous = (nearest + count - 1) % count, beyond = (nearest + 2) % count;
    for (const auto& [edge, far_end] : {std::pair{previous, previous}, std::pair{(nearest + 1) % count, beyond}}) {
      const Real far_magnitude = detail::difference_magnitude(polytope[far_end], placement);
      if (edge_distances[edge] - nearest_distance <= contact_tolerance(std::max(magnitude, far_magnitude))) {
        magnitude = std::max(magnitude, far_magnitude);
      }
    }
  }
  result.feature_magnitude = magnitude;
  return result;
}

}  // namespace collide2d

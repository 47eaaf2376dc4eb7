#include <gtest/gtest.h>

// Ray casts, shape casts, time of impact and point queries (issue 4).
//
// - Analytic oracles: every expected value below was worked out by hand in the shape's local
//   ("canonical") frame; the comments show the reasoning. Each case then runs under several rigid
//   poses, which carry the expected points and normals along.
// - Brute-force oracles, all in double precision and independent of the library's algorithms:
//   the signed distance of a point to a shape (exact point-to-edge distances and edge-normal
//   separations of the core, minus the radius), and the signed distance between two shapes
//   (separating axes over every edge normal of both cores for the depth, exact vertex-to-edge
//   distances for the gap). Along a ray the signed distance is a convex function of the fraction,
//   so its minimum (golden section) and its first root (bisection) are found reliably.
// - The sampling oracle for time of impact: 200 steps over the motion plus bisection refinement.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <optional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "collide2d/collide2d.hpp"
#include "point2.hpp"
#include "random_shapes.hpp"
#include "world_core.hpp"

using namespace collide2d;

namespace {

constexpr bool kFloat = sizeof(Real) == sizeof(float);
// Absolute tolerance for the analytic scenes (sizes ~1..5, placed up to ~45 from the origin). The
// casts that go through shape_cast stop within the cast tolerance (about 6e-5 of the sizes in
// float), so positions and travelled distances are compared at this scale, never tighter.
const double kTol = kFloat ? 3e-4 : 1e-9;
const double kEps = static_cast<double>(real_epsilon);
const double kRel = random_shapes::relative_band;

Real R(double v) { return static_cast<Real>(v); }
Shape circle(Real r, Vec2 c = {}) { return Circle{c, r}; }
Shape capsule(Vec2 a, Vec2 b, Real r) { return Capsule{a, b, r}; }
Shape segment(Vec2 a, Vec2 b) { return Segment{a, b}; }
Shape box(Real hw, Real hh, Real r = 0) { return make_box(hw, hh, {}, r).value(); }
Shape polygon(std::vector<Vec2> points, Real r = 0) { return make_polygon(points, r).value(); }
Transform at(double x, double y, double angle = 0) { return Transform::from({R(x), R(y)}, R(angle)); }

// The rigid poses every analytic case runs under (the first is the identity).
std::vector<Transform> poses() {
  return {at(0, 0), at(3, -2, 0.7), at(-12, 7, -2.4), at(20, 20, std::numbers::pi / 2), at(-0.5, 40, 3.0)};
}

std::string str(Vec2 v) {
  char buffer[96];
  std::snprintf(buffer, sizeof buffer, "(%.9g, %.9g)", static_cast<double>(v.x), static_cast<double>(v.y));
  return buffer;
}
double dist(Vec2 a, Vec2 b) { return std::hypot(static_cast<double>(a.x) - b.x, static_cast<double>(a.y) - b.y); }

// ------------------------------------------------------------------------------------------------
// Brute-force geometry: in double (P), and in long double (LP) for the oracles far from the origin
// in double (1e8), where double's own round-off would be as large as the code's.

using P = test_points::Point2<double>;
P dp(Vec2 v) { return {static_cast<double>(v.x), static_cast<double>(v.y)}; }

using L = long double;
using LP = test_points::Point2<L>;
LP lp(Vec2 v) { return {static_cast<L>(v.x), static_cast<L>(v.y)}; }
// The map a (Real) transform's rotation stands for, and its transpose, exactly in long double.
LP turn(const Transform& t, LP v) {
  const L c = t.rotation.cosine, s = t.rotation.sine;
  return {c * v.x - s * v.y, s * v.x + c * v.y};
}
LP turn_back(const Transform& t, LP v) {
  const L c = t.rotation.cosine, s = t.rotation.sine;
  return {c * v.x + s * v.y, -s * v.x + c * v.y};
}
// World to local with the transform's own rotation (the offset from the position first), and a
// local point or direction (rounded to Real) placed in the world.
LP to_local(const Transform& pose, Vec2 world) { return turn_back(pose, lp(world) - lp(pose.position)); }
Vec2 world_of(const Transform& pose, LP local) { return transform_point(pose, Vec2{static_cast<Real>(local.x), static_cast<Real>(local.y)}); }
Vec2 world_direction(const Transform& pose, LP local) { return rotate(pose.rotation, Vec2{static_cast<Real>(local.x), static_cast<Real>(local.y)}); }

using Core = test_points::WorldCore<double>;
using test_points::WorldCore;
using test_points::Point2;
using test_points::place_core;
using test_points::world_core;

// Distance from p to the segment ab (a == b allowed), and the nearest point.
template <class T>
T segment_distance(Point2<T> p, Point2<T> a, Point2<T> b, Point2<T>* nearest = nullptr) {
  const Point2<T> e = b - a;
  const T ee = dot(e, e);
  T s = ee > 0 ? dot(p - a, e) / ee : 0;
  s = std::clamp(s, T(0), T(1));
  const Point2<T> q = a + s * e;
  if (nearest != nullptr) *nearest = q;
  return norm(p - q);
}

// Signed distance from a point to the shape: > 0 outside, < 0 inside; `nearest` gets the
// nearest core point when outside the core.
template <class T>
T point_sd(const WorldCore<T>& c, Point2<T> p, Point2<T>* nearest_core = nullptr) {
  const std::size_t n = c.vertices.size();
  if (n == 1) {
    if (nearest_core != nullptr) *nearest_core = c.vertices[0];
    return norm(p - c.vertices[0]) - c.radius;
  }
  if (n == 2) return segment_distance(p, c.vertices[0], c.vertices[1], nearest_core) - c.radius;
  T max_separation = -std::numeric_limits<T>::infinity();
  for (std::size_t i = 0; i < n; ++i) {
    const Point2<T> a = c.vertices[i], b = c.vertices[(i + 1) % n];
    const Point2<T> normal = unit(Point2<T>{b.y - a.y, a.x - b.x});  // outward for counter-clockwise
    max_separation = std::max(max_separation, dot(normal, p - a));
  }
  if (max_separation <= 0) return max_separation - c.radius;
  T best = std::numeric_limits<T>::infinity();
  for (std::size_t i = 0; i < n; ++i) {
    Point2<T> q;
    const T d = segment_distance(p, c.vertices[i], c.vertices[(i + 1) % n], &q);
    if (d < best) {
      best = d;
      if (nearest_core != nullptr) *nearest_core = q;
    }
  }
  return best - c.radius;
}

// Support value of the shape along a unit direction: max over the core of dot(u, v), plus r.
template <class T>
T support_value(const WorldCore<T>& c, Point2<T> u) {
  T best = -std::numeric_limits<T>::infinity();
  for (Point2<T> v : c.vertices) best = std::max(best, dot(u, v));
  return best + c.radius;
}

// Every edge normal times `sign` (both signs and the edge direction for a two-point core), the
// axes SAT needs: A's outward normals and B's inward ones point from A to B.
template <class T>
void add_axes(const WorldCore<T>& c, std::type_identity_t<T> sign, std::vector<Point2<T>>& axes) {
  const std::size_t n = c.vertices.size();
  if (n == 2) {
    const Point2<T> e = unit(c.vertices[1] - c.vertices[0]);
    if (norm(e) == 0) return;
    axes.push_back(Point2<T>{e.y, -e.x});
    axes.push_back(Point2<T>{-e.y, e.x});
    axes.push_back(e);
    axes.push_back(-1 * e);
  } else if (n >= 3) {
    for (std::size_t i = 0; i < n; ++i) {
      const Point2<T> a = c.vertices[i], b = c.vertices[(i + 1) % n];
      axes.push_back(sign * unit(Point2<T>{b.y - a.y, a.x - b.x}));
    }
  }
}

// Separation of the cores along unit u: min over B of u.b minus max over A of u.a.
template <class T>
T separation_along(Point2<T> u, const WorldCore<T>& a, const WorldCore<T>& b) {
  T max_a = -std::numeric_limits<T>::infinity(), min_b = std::numeric_limits<T>::infinity();
  for (Point2<T> p : a.vertices) max_a = std::max(max_a, dot(u, p));
  for (Point2<T> p : b.vertices) min_b = std::min(min_b, dot(u, p));
  return min_b - max_a;
}

// Signed distance between the shapes: the gap when apart, minus the penetration depth when
// overlapping. Penetration: the largest separation over all edge normals of both cores (the face
// normals of the Minkowski difference), which is exactly -depth for intersecting convex cores.
// Gap: the smallest vertex-to-edge distance. When `limit` is given and the cores are proven
// farther apart than it, returns a lower bound (> limit) without the exact distance.
template <class T>
T shape_sd(const WorldCore<T>& a, const WorldCore<T>& b, std::type_identity_t<T> limit = std::numeric_limits<T>::infinity()) {
  thread_local std::vector<Point2<T>> axes;
  axes.clear();
  add_axes(a, 1, axes);
  add_axes(b, -1, axes);
  if (a.vertices.size() == 1 && b.vertices.size() == 1) {
    const Point2<T> d = b.vertices[0] - a.vertices[0];
    if (norm(d) == 0) return -a.radius - b.radius;
    axes.push_back(unit(d));
  }
  T max_separation = -std::numeric_limits<T>::infinity();
  for (Point2<T> u : axes) {
    max_separation = std::max(max_separation, separation_along(u, a, b));
    if (max_separation - a.radius - b.radius > limit) return max_separation - a.radius - b.radius;
  }
  if (max_separation <= 0) return max_separation - a.radius - b.radius;
  auto edges_distance = [](const WorldCore<T>& points, const WorldCore<T>& edges) {
    T best = std::numeric_limits<T>::infinity();
    const std::size_t n = edges.vertices.size();
    for (Point2<T> p : points.vertices) {
      if (n == 1) best = std::min(best, norm(p - edges.vertices[0]));
      else if (n == 2) best = std::min(best, segment_distance(p, edges.vertices[0], edges.vertices[1]));
      else
        for (std::size_t i = 0; i < n; ++i) best = std::min(best, segment_distance(p, edges.vertices[i], edges.vertices[(i + 1) % n]));
    }
    return best;
  };
  return std::min(edges_distance(a, b), edges_distance(b, a)) - a.radius - b.radius;
}

std::optional<CastHit> toi(const Shape& a, const Sweep& sa, const Shape& b, const Sweep& sb, const CastOptions& options = {}) {
  return time_of_impact(a, sa, b, sb, options);
}
std::optional<CastHit> cast(const Shape& a, const Transform& ta, const Shape& b, const Transform& tb, Vec2 translation,
                            const CastOptions& options = {}) {
  return shape_cast(a, ta, b, tb, translation, options);
}

// ------------------------------------------------------------------------------------------------
// Raycast: analytic cases.

struct RayCase {
  std::string name;
  Shape shape;
  Vec2 origin, translation;
  Real max_fraction = 1;
  bool hit = false;
  Real fraction = 0;
  Vec2 point{}, normal{};
  bool inside = false;
  std::vector<Vec2> other_normals{};  // also accepted (a vertex hit: the normal of either edge there)
};

std::vector<RayCase> ray_cases() {
  std::vector<RayCase> cases;
  const Vec2 up{0, 1}, down{0, -1}, left{-1, 0}, right{1, 0};
  const Real s2 = std::sqrt(Real(2)), h2 = 1 / std::sqrt(Real(2));

  // ---- Circle: centre (1, 2) in its local frame, radius 1.
  const Shape c = circle(1, {1, 2});
  // Along y = 2.6 from x = -4: (x - 1)^2 = 1 - 0.36 -> x = 0.2; fraction 4.2 / 10; normal (-0.8, 0.6).
  cases.push_back({"circle oblique", c, {-4, R(2.6)}, {10, 0}, 1, true, R(0.42), {R(0.2), R(2.6)}, {R(-0.8), R(0.6)}});
  // Straight down from (1, 6): top of the circle at y = 3, fraction 3 / 8.
  cases.push_back({"circle head-on", c, {1, 6}, {0, -8}, 1, true, R(0.375), {1, 3}, up});
  cases.push_back({"circle miss", c, {-4, R(3.2)}, {10, 0}, 1, false});
  cases.push_back({"circle beyond max_fraction", c, {-4, R(2.6)}, {10, 0}, R(0.4), false});
  cases.push_back({"circle max_fraction just enough", c, {-4, R(2.6)}, {10, 0}, R(0.45), true, R(0.42), {R(0.2), R(2.6)}, {R(-0.8), R(0.6)}});
  // max_fraction above 1: translation (2.5, 0), the hit 4.2 away is at fraction 1.68.
  cases.push_back({"circle max_fraction above 1", c, {-4, R(2.6)}, {R(2.5), 0}, 3, true, R(1.68), {R(0.2), R(2.6)}, {R(-0.8), R(0.6)}});
  cases.push_back({"circle ray pointing away", c, {-4, R(2.6)}, {-10, 0}, 1, false});
  cases.push_back({"circle starts inside", c, {R(1.2), R(2.1)}, {5, 0}, 1, true, 0, {R(1.2), R(2.1)}, {}, true});
  cases.push_back({"circle starts at the centre", c, {1, 2}, {0, 3}, 1, true, 0, {1, 2}, {}, true});
  // On the surface at (0, 2) (normal (-1, 0)): heading in hits at 0 with the normal; heading out misses.
  cases.push_back({"circle on surface inward", c, {0, 2}, {3, R(0.5)}, 1, true, 0, {0, 2}, left});
  cases.push_back({"circle on surface outward", c, {0, 2}, {-3, R(0.5)}, 1, false});
  cases.push_back({"circle zero-length outside", c, {-4, R(2.6)}, {0, 0}, 1, false});
  cases.push_back({"circle zero-length inside", c, {R(1.3), R(1.8)}, {0, 0}, 1, true, 0, {R(1.3), R(1.8)}, {}, true});
  cases.push_back({"circle zero-length on surface", c, {0, 2}, {0, 0}, 1, true, 0, {0, 2}, left});
  cases.push_back({"circle max_fraction 0 outside", c, {-4, R(2.6)}, {10, 0}, 0, false});
  cases.push_back({"circle max_fraction 0 inside", c, {R(1.3), R(1.8)}, {10, 0}, 0, true, 0, {R(1.3), R(1.8)}, {}, true});

  // ---- Box: half extents 2 x 1 (every pose turns it).
  const Shape b = box(2, 1);
  cases.push_back({"box face", b, {-5, R(0.5)}, {10, 0}, 1, true, R(0.3), {-2, R(0.5)}, left});
  // From (0, 4) along (3, -6): y = 1 at fraction 0.5, x = 1.5.
  cases.push_back({"box top oblique", b, {0, 4}, {3, -6}, 1, true, R(0.5), {R(1.5), 1}, up});
  // The line x + y = 3 touches the box only at its corner (2, 1), at fraction 0.5.
  cases.push_back({"box grazing a vertex", b, {1, 2}, {2, -2}, 1, true, R(0.5), {2, 1}, up, false, std::vector<Vec2>{right}});
  // Along the top edge's line y = 1: the first touch is the corner (-2, 1) at fraction 0.3.
  cases.push_back({"box along an edge", b, {-5, 1}, {10, 0}, 1, true, R(0.3), {-2, 1}, left, false, std::vector<Vec2>{up}});
  cases.push_back({"box miss above", b, {-5, R(1.5)}, {10, 0}, 1, false});
  cases.push_back({"box miss short", b, {-5, R(0.5)}, {10, 0}, R(0.29), false});
  cases.push_back({"box starts inside", b, {R(0.5), R(0.2)}, {10, 3}, 1, true, 0, {R(0.5), R(0.2)}, {}, true});
  cases.push_back({"box on surface inward", b, {2, 0}, {-1, R(0.3)}, 1, true, 0, {2, 0}, right});
  cases.push_back({"box on surface outward", b, {2, 0}, {1, R(0.3)}, 1, false});
  cases.push_back({"box zero-length on surface", b, {R(0.5), 1}, {0, 0}, 1, true, 0, {R(0.5), 1}, up});
  cases.push_back({"box zero-length outside", b, {R(0.5), R(1.2)}, {0, 0}, 1, false});

  // ---- Triangle (0,0) (4,0) (0,3): hypotenuse 3x + 4y = 12, outward normal (0.6, 0.8).
  const Shape tri = polygon({{0, 0}, {4, 0}, {0, 3}});
  // From (4, 3) along (-4, -3): 3(4 - 4f) + 4(3 - 3f) = 12 -> f = 0.5 at (2, 1.5).
  cases.push_back({"triangle hypotenuse", tri, {4, 3}, {-4, -3}, 1, true, R(0.5), {2, R(1.5)}, {R(0.6), R(0.8)}});
  // The line x + y = 4 touches the triangle only at the vertex (4, 0) (x + y <= 4 there, 3 at (0, 3)).
  cases.push_back({"triangle grazing a vertex", tri, {5, -1}, {-2, 2}, 1, true, R(0.5), {4, 0}, down, false, std::vector<Vec2>{{R(0.6), R(0.8)}}});
  cases.push_back({"triangle miss past the vertex", tri, {R(5.1), -1}, {-2, 2}, 1, false});
  // Along the bottom edge's line y = 0 from the left: first touch at (0, 0), fraction 0.2.
  cases.push_back({"triangle along an edge", tri, {-2, 0}, {10, 0}, 1, true, R(0.2), {0, 0}, left, false, std::vector<Vec2>{down}});

  // ---- Segment from (-1, 0) to (1, 0).
  const Shape seg = segment({-1, 0}, {1, 0});
  cases.push_back({"segment from above", seg, {R(0.5), 2}, {0, -4}, 1, true, R(0.5), {R(0.5), 0}, up});
  // From (0, -2) along (1, 4): y = 0 at fraction 0.5, x = 0.5; the normal faces the ray: (0, -1).
  cases.push_back({"segment from below oblique", seg, {0, -2}, {1, 4}, 1, true, R(0.5), {R(0.5), 0}, down});
  // Along the segment's line: the nearer end, normal back along the ray.
  cases.push_back({"segment along its line from the left", seg, {-3, 0}, {10, 0}, 1, true, R(0.2), {-1, 0}, left});
  cases.push_back({"segment along its line from the right", seg, {4, 0}, {-10, 0}, 1, true, R(0.3), {1, 0}, right});
  cases.push_back({"segment along its line pointing away", seg, {4, 0}, {10, 0}, 1, false});
  cases.push_back({"segment along its line too short", seg, {-3, 0}, {10, 0}, R(0.15), false});
  // Straight down through the end (1, 0): touches it at fraction 0.5.
  cases.push_back({"segment through its end", seg, {1, 1}, {0, -2}, 1, true, R(0.5), {1, 0}, up});
  cases.push_back({"segment miss past the end", seg, {R(1.5), 1}, {0, -2}, 1, false});
  cases.push_back({"segment miss short", seg, {R(0.5), 2}, {0, -4}, R(0.4), false});

  // ---- Capsule: core (-1, 0) to (1, 0), radius 0.5.
  const Shape cap = capsule({-1, 0}, {1, 0}, R(0.5));
  cases.push_back({"capsule side", cap, {0, 3}, {0, -4}, 1, true, R(0.625), {0, R(0.5)}, up});
  cases.push_back({"capsule along its axis", cap, {-5, 0}, {10, 0}, 1, true, R(0.35), {R(-1.5), 0}, left});
  // y = 0.3 against the cap around (1, 0): x = 1 + sqrt(0.25 - 0.09) = 1.4, fraction (3 - 1.4) / 4.
  cases.push_back({"capsule cap oblique", cap, {3, R(0.3)}, {-4, 0}, 1, true, R(0.4), {R(1.4), R(0.3)}, {R(0.8), R(0.6)}});
  cases.push_back({"capsule miss", cap, {3, R(0.6)}, {-4, 0}, 1, false});
  cases.push_back({"capsule beyond max_fraction", cap, {0, 3}, {0, -4}, R(0.6), false});
  cases.push_back({"capsule starts inside", cap, {R(0.5), R(0.1)}, {0, 4}, 1, true, 0, {R(0.5), R(0.1)}, {}, true});
  cases.push_back({"capsule on surface inward", cap, {0, R(-0.5)}, {R(0.2), 1}, 1, true, 0, {0, R(-0.5)}, down});
  cases.push_back({"capsule on surface outward", cap, {0, R(-0.5)}, {R(0.2), -1}, 1, false});

  // ---- Rounded box: core half extents 1 x 1, radius 0.5.
  const Shape rb = box(1, 1, R(0.5));
  cases.push_back({"rounded box face", rb, {-3, R(0.3)}, {4, 0}, 1, true, R(0.375), {R(-1.5), R(0.3)}, left});
  // Along the diagonal into the corner arc (centre (1, 1), radius 0.5): hit at (1 + 0.5/sqrt2, ...).
  const Real corner = 1 + R(0.5) * h2;
  cases.push_back({"rounded box corner diagonal", rb, {3, 3}, {-2, -2}, 1, true, (3 - corner) / 2, {corner, corner}, {h2, h2}});
  // y = 1.3 against the corner arc: x = 1 + sqrt(0.25 - 0.09) = 1.4, fraction 0.4, normal (0.8, 0.6).
  cases.push_back({"rounded box corner oblique", rb, {3, R(1.3)}, {-4, 0}, 1, true, R(0.4), {R(1.4), R(1.3)}, {R(0.8), R(0.6)}});
  // (1.45, 1.45) lies in the core's 1.5 bounding square but 0.136 outside the arc: passing there misses.
  cases.push_back({"rounded box corner miss", rb, {R(1.45) + 2, R(1.45) - 2}, {-4, 4}, 1, false});
  cases.push_back({"rounded box starts inside the arc", rb, {R(1.3), R(1.3)}, {4, 0}, 1, true, 0, {R(1.3), R(1.3)}, {}, true});
  cases.push_back({"rounded box on the arc inward", rb, {corner, corner}, {-1, R(-0.5)}, 1, true, 0, {corner, corner}, {h2, h2}});
  cases.push_back({"rounded box on the arc outward", rb, {corner, corner}, {1, R(0.2)}, 1, false});
  // From (1.4, 1.4): inside the moved edges' lines (|x|, |y| <= 1.5) but 0.066 outside the arc,
  // where the clip enters no edge. Left along y = 1.4: x = 1 + sqrt(0.25 - 0.16) = 1.3, fraction
  // 0.05, normal (0.6, 0.8); at the corner: the arc 0.0657 away along the diagonal; away: nothing.
  const Real diagonal_gap = R(0.4 * std::numbers::sqrt2 - 0.5);
  cases.push_back({"rounded box from between the moved lines, left", rb, {R(1.4), R(1.4)}, {-2, 0}, 1, true, R(0.05), {R(1.3), R(1.4)}, {R(0.6), R(0.8)}});
  cases.push_back({"rounded box from between the moved lines, at the corner", rb, {R(1.4), R(1.4)}, {-2, -2}, 1, true,
                   diagonal_gap / R(2 * std::numbers::sqrt2), {corner, corner}, {h2, h2}});
  cases.push_back({"rounded box from between the moved lines, away", rb, {R(1.4), R(1.4)}, {2, R(-0.5)}, 1, false});
  // Entering the moved top line y = 1.5 past the face's end x = 1: the arc decides. Down from
  // (1.3, 3): the arc at y = 1 + sqrt(0.25 - 0.09) = 1.4, fraction 0.8, normal (0.6, 0.8); down
  // from (1.45, 3) the moved line is crossed at x = 1.45 but the arc (x <= 1.5 only at y = 1) is
  // met at y = 1 + sqrt(0.25 - 0.2025) = 1.218, fraction 0.891; down from (1.55, 3): nothing.
  cases.push_back({"rounded box past the top face's end", rb, {R(1.3), 3}, {0, -2}, 1, true, R(0.8), {R(1.3), R(1.4)}, {R(0.6), R(0.8)}});
  cases.push_back({"rounded box past the top face's other end", rb, {R(-1.3), 3}, {0, -2}, 1, true, R(0.8), {R(-1.3), R(1.4)}, {R(-0.6), R(0.8)}});
  const Real low_arc = 1 + R(std::sqrt(0.25 - 0.45 * 0.45));
  cases.push_back({"rounded box far past the top face's end", rb, {R(1.45), 3}, {0, -2}, 1, true, (3 - low_arc) / 2, {R(1.45), low_arc},
                   {R(0.9), (low_arc - 1) / R(0.5)}});
  cases.push_back({"rounded box beside the arc", rb, {R(1.55), 3}, {0, -2}, 1, false});
  (void)s2;
  (void)right;
  return cases;
}

TEST(Raycast, AnalyticOracles) {
  int checked = 0;
  for (const RayCase& rc : ray_cases()) {
    for (const Transform& pose : poses()) {
      const Ray ray{transform_point(pose, rc.origin), rotate(pose.rotation, rc.translation), rc.max_fraction};
      const std::optional<RayHit> hit = raycast(rc.shape, pose, ray);
      SCOPED_TRACE(rc.name + " at pose " + str(pose.position));
      ++checked;
      ASSERT_EQ(hit.has_value(), rc.hit);
      if (!hit) continue;
      const double travel = std::hypot(static_cast<double>(ray.translation.x), static_cast<double>(ray.translation.y));
      EXPECT_LE(std::abs(static_cast<double>(hit->fraction - rc.fraction)) * std::max(travel, 1.0), kTol)
          << "fraction " << hit->fraction << " expected " << rc.fraction;
      EXPECT_LE(dist(hit->point, transform_point(pose, rc.point)), kTol) << str(hit->point);
      EXPECT_EQ(hit->inside, rc.inside);
      if (rc.inside) {
        EXPECT_EQ(hit->fraction, 0);
        EXPECT_EQ(hit->normal, (Vec2{})) << str(hit->normal);
        EXPECT_EQ(hit->point, ray.origin);
        continue;
      }
      bool normal_ok = dist(hit->normal, rotate(pose.rotation, rc.normal)) <= kTol;
      for (Vec2 other : rc.other_normals) normal_ok = normal_ok || dist(hit->normal, rotate(pose.rotation, other)) <= kTol;
      EXPECT_TRUE(normal_ok) << "normal " << str(hit->normal) << " expected " << str(rotate(pose.rotation, rc.normal));
      EXPECT_NEAR(static_cast<double>(length_squared(hit->normal)), 1.0, kFloat ? 1e-5 : 1e-12);
    }
  }
  std::printf("checked %d analytic rays\n", checked);
}

// Rays at a polygon's vertex and along its edge, at many random poses (where round-off puts the
// ray a hair to either side): exact grazing and edge-running rays hit at the vertex with the normal
// of an edge there; rays passing 0.01 outside the vertex miss, 0.01 inside hit the top face.
TEST(Raycast, GrazingAndAlongEdgesAtManyPoses) {
  random_shapes::Generator gen(401);
  const Shape b = box(2, 1);
  int checked = 0, failures = 0;
  auto expect = [&](const char* what, int i, const Transform& pose, const Ray& ray, std::optional<Real> fraction, Vec2 normal,
                    std::optional<Vec2> other_normal) {
    const std::optional<RayHit> hit = raycast(b, pose, ray);
    ++checked;
    bool ok = hit.has_value() == fraction.has_value();
    if (ok && hit) {
      ok = std::abs(static_cast<double>(hit->fraction - *fraction)) <= kTol && !hit->inside &&
           (dist(hit->normal, rotate(pose.rotation, normal)) <= kTol ||
            (other_normal && dist(hit->normal, rotate(pose.rotation, *other_normal)) <= kTol));
    }
    if (!ok && ++failures <= 10)
      ADD_FAILURE() << what << " at pose " << i << " " << str(pose.position) << " angle " << pose.rotation.angle() << ": "
                    << (hit ? "hit at " + std::to_string(hit->fraction) + " normal " + str(hit->normal) : std::string("miss"));
  };
  const Shape seg = segment({-1, 0}, {1, 0});
  auto expect_segment = [&](int i, const Transform& pose, const Ray& ray, std::optional<Real> fraction, Vec2 normal) {
    const std::optional<RayHit> hit = raycast(seg, pose, ray);
    ++checked;
    bool ok = hit.has_value() == fraction.has_value();
    if (ok && hit) ok = std::abs(static_cast<double>(hit->fraction - *fraction)) <= kTol && dist(hit->normal, rotate(pose.rotation, normal)) <= kTol;
    if (!ok && ++failures <= 10)
      ADD_FAILURE() << "segment end at pose " << i << " " << str(pose.position) << " angle " << pose.rotation.angle() << ": "
                    << (hit ? "hit at " + std::to_string(hit->fraction) + " normal " + str(hit->normal) : std::string("miss"));
  };
  const Vec2 up{0, 1}, right{1, 0}, left{-1, 0};
  for (int i = 0; i < 2000; ++i) {
    const Transform pose{gen.position(50), Rot::from_angle(gen.angle())};
    auto ray = [&](Vec2 origin, Vec2 translation) { return Ray{transform_point(pose, origin), rotate(pose.rotation, translation), 1}; };
    // The line x + y = 3 touches the box only at its corner (2, 1), at fraction 0.5.
    expect("grazing the vertex", i, pose, ray({1, 2}, {2, -2}), R(0.5), up, right);
    // x + y = 3.01 misses; x + y = 2.99 enters through the top face at 1.99 - 2f = 1.
    expect("just outside the vertex", i, pose, ray({1, R(2.01)}, {2, -2}), std::nullopt, up, std::nullopt);
    expect("just inside the vertex", i, pose, ray({1, R(1.99)}, {2, -2}), R(0.495), up, std::nullopt);
    // Along the top edge's line: the first touch is the corner (-2, 1) at fraction 0.3.
    expect("along the top edge", i, pose, ray({-5, 1}, {10, 0}), R(0.3), left, up);
    // A segment's end is a vertex too: straight down through (1, 0) hits it at 0.5; 0.01 beyond misses.
    expect_segment(i, pose, ray({1, 1}, {0, -2}), R(0.5), up);
    expect_segment(i, pose, ray({R(1.01), 1}, {0, -2}), std::nullopt, up);
  }
  EXPECT_EQ(failures, 0);
  std::printf("checked %d rays at a vertex or along an edge (%d failures)\n", checked, failures);
}

// ------------------------------------------------------------------------------------------------
// Raycast: random rays against random shapes, checked against the convex signed distance along
// the ray.

TEST(Raycast, ACapsuleWhoseEndsCoincideIsACircle) {
  // From the pair-query fuzzer: a capsule with both ends at (48058, 48058), radius 28398.5, placed
  // at (48058, -54272) turned by 3.02, hit by a ray 46,576 units off its surface (the zero-length
  // core edge's arbitrary normal made a line to hit). Its rays must be the circle's.
  const Real angle = R(3.02127123);
  const Transform pose{{48058, -54272}, Rot::from_angle(angle)};
  const Shape capsule = Capsule{{48058, 48058}, {48058, 48058}, R(28398.5)};
  const Shape circle = Circle{{48058, 48058}, R(28398.5)};
  const Ray fuzzed{{-65432, -54228}, {-54272, -54242}, R(0.5)};
  const std::optional<RayHit> from_fuzzer = raycast(capsule, pose, fuzzed);
  EXPECT_EQ(from_fuzzer.has_value(), raycast(circle, pose, fuzzed).has_value());
  std::mt19937 random(11);
  std::uniform_real_distribution<double> coordinate(-3, 3);
  int hits = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const Vec2 end{R(coordinate(random)), R(coordinate(random))};
    const Shape small_capsule = Capsule{end, end, R(0.5)};
    const Shape small_circle = Circle{end, R(0.5)};
    const Transform placed = at(coordinate(random), coordinate(random), coordinate(random));
    const Vec2 origin{R(4 * coordinate(random)), R(4 * coordinate(random))};
    const Vec2 aim = transform_point(placed, end) + Vec2{R(0.3 * coordinate(random)), R(0.3 * coordinate(random))};  // near the circle, often on it
    const Ray ray{origin, R(2) * (aim - origin), 1};
    const std::optional<RayHit> from_capsule = raycast(small_capsule, placed, ray), from_circle = raycast(small_circle, placed, ray);
    ASSERT_EQ(from_capsule.has_value(), from_circle.has_value()) << "trial " << trial;
    if (!from_capsule) continue;
    ++hits;
    EXPECT_NEAR(from_capsule->fraction, from_circle->fraction, 1e-5) << "trial " << trial;
    EXPECT_NEAR(dist(from_capsule->point, from_circle->point), 0, kTol) << "trial " << trial;
    if (!from_capsule->inside) {
      EXPECT_NEAR(dist(from_capsule->normal, from_circle->normal), 0, 1e-4) << "trial " << trial;
    }
  }
  EXPECT_GT(hits, 500);
}

// An origin exactly on a circle (representable: the pose only translates, by whole numbers):
// heading inward or along the tangent it hits at 0 with the normal there, heading outward it
// misses; near the origin of coordinates and 1e5 away (float's spacing there is 0.0078).
TEST(Raycast, CircleOriginOnTheSurfaceAndFarAway) {
  const Shape unit_circle = circle(1, {1, 2});
  for (const double offset : {0.0, 1e5}) {
    SCOPED_TRACE("offset " + std::to_string(offset));
    const Transform pose = at(offset, -offset);
    auto cast = [&](Vec2 origin, Vec2 translation) {
      return raycast(unit_circle, pose, Ray{transform_point(pose, origin), translation, 1});
    };
    const Vec2 on_surface{0, 2}, left{-1, 0};
    for (const Vec2 translation : {Vec2{3, R(0.5)}, Vec2{0, 3}, Vec2{0, -3}, Vec2{0, 0}}) {
      const std::optional<RayHit> hit = cast(on_surface, translation);
      ASSERT_TRUE(hit.has_value()) << str(translation);
      EXPECT_EQ(hit->fraction, 0);
      EXPECT_FALSE(hit->inside);
      EXPECT_EQ(hit->point, transform_point(pose, on_surface));
      EXPECT_LE(dist(hit->normal, left), 1e-6) << str(hit->normal);
    }
    EXPECT_FALSE(cast(on_surface, {-3, R(0.5)}).has_value());
    // From outside, obliquely (as "circle oblique": 0.42 along, at (0.2, 2.6), normal (-0.8, 0.6)),
    // and at a turned pose 1e5 away.
    for (const Transform& placed : {pose, Transform::from(pose.position, R(0.7))}) {
      const std::optional<RayHit> hit =
          raycast(unit_circle, placed, Ray{transform_point(placed, {-4, R(2.6)}), rotate(placed.rotation, {10, 0}), 1});
      ASSERT_TRUE(hit.has_value());
      const double spacing = kFloat ? 1e-2 : 1e-9;  // the ray placed 1e5 away is rounded there
      EXPECT_NEAR(hit->fraction, 0.42, spacing / 10);
      EXPECT_LE(dist(hit->point, transform_point(placed, {R(0.2), R(2.6)})), spacing);
      EXPECT_LE(dist(hit->normal, rotate(placed.rotation, {R(-0.8), R(0.6)})), spacing) << str(hit->normal);
      EXPECT_NEAR(static_cast<double>(length_squared(hit->normal)), 1.0, kFloat ? 1e-5 : 1e-12);
    }
  }
  // A circle of radius 0 (a point) is hit only by a ray through it.
  const Shape point = circle(0, {1, 2});
  const std::optional<RayHit> through = raycast(point, at(0, 0), Ray{{-1, 2}, {4, 0}, 1});
  ASSERT_TRUE(through.has_value());
  EXPECT_EQ(through->fraction, R(0.5));
  EXPECT_FALSE(raycast(point, at(0, 0), Ray{{-1, R(2.01)}, {4, 0}, 1}).has_value());
}

// The circle's touching band classifies the ray's origin only, so it is that of what the origin's
// distance from the centre is computed from (docs/conventions.md): the radius, the turned centre
// and the origin's offset from the centre, not the ray's far end. Origins half a band and three
// bands from the surface, with a ray a thousand times the circle's size, whose far end would widen
// the band more than a hundredfold: a half band out (or in) is on the surface, three bands out is
// outside and hit three bands along, three bands in is inside. Near the origin and far from it
// (1e5 in float, 1e8 in double); the origin lies on the coordinates' grid there and the radius is
// chosen to put the surface where each case needs it, from the exact geometry (long double).
TEST(Raycast, CircleBandIsThatOfTheOriginsClassification) {
  const double far = kFloat ? 1e5 : 1e8;
  const Vec2 local_center{1, 2};
  const L epsilon = static_cast<L>(real_epsilon);
  int checked = 0;
  for (const double offset : {0.0, far}) {
    const Transform pose = at(offset, -offset, 0.7);
    for (const Vec2 from_position : {Vec2{4, R(0.5)}, Vec2{-3, R(2.25)}, Vec2{R(0.75), -4}}) {
      const Vec2 origin = pose.position + from_position;  // exact: the grid holds these sums
      const LP turned = turn(pose, lp(local_center));
      const LP from_center = lp(origin) - lp(pose.position) - turned;
      const L center_distance = norm(from_center);
      const LP outward = unit(from_center);
      // The documented band: contact_tolerance of the radius (about center_distance here), the
      // turned centre and the offset.
      const L band = 16 * epsilon * (center_distance + magnitude(turned) + magnitude(from_center));
      for (const double bands_outside : {-3.0, -0.5, 0.5, 3.0}) {
        const Real radius = static_cast<Real>(center_distance - static_cast<L>(bands_outside) * band);
        const Shape shape = circle(radius, local_center);
        const L outside = center_distance - static_cast<L>(radius);  // the origin's exact distance outside the surface
        ASSERT_NEAR(static_cast<double>(outside / band), bands_outside, 0.05);
        for (const double heading : {-1.0, 1.0}) {  // -1: toward the centre
          SCOPED_TRACE("offset " + std::to_string(offset) + " origin " + str(from_position) + " bands outside " +
                       std::to_string(bands_outside) + " heading " + std::to_string(heading));
          const Vec2 translation{static_cast<Real>(heading * 1000 * outward.x), static_cast<Real>(heading * 1000 * outward.y)};
          const std::optional<RayHit> hit = raycast(shape, pose, Ray{origin, translation, 1});
          ++checked;
          if (bands_outside < -1) {  // inside: a hit at 0, flagged, whichever way the ray goes
            ASSERT_TRUE(hit.has_value());
            EXPECT_EQ(hit->fraction, 0);
            EXPECT_TRUE(hit->inside);
            EXPECT_EQ(hit->point, origin);
          } else if (heading > 0) {  // leaving from the surface, or heading away from outside: nothing ahead
            EXPECT_FALSE(hit.has_value());
          } else if (bands_outside < 1) {  // on the surface, heading in: a hit at 0 with the surface normal there
            ASSERT_TRUE(hit.has_value());
            EXPECT_EQ(hit->fraction, 0);
            EXPECT_FALSE(hit->inside);
            EXPECT_EQ(hit->point, origin);
            EXPECT_LE(dist(hit->normal, {static_cast<Real>(outward.x), static_cast<Real>(outward.y)}), kFloat ? 1e-5 : 1e-12);
          } else {  // outside: hit where the surface is, three bands along the ray
            ASSERT_TRUE(hit.has_value());
            EXPECT_FALSE(hit->inside);
            EXPECT_GT(hit->fraction, 0);
            EXPECT_NEAR(static_cast<double>(static_cast<L>(hit->fraction) * 1000 / band), 3.0, 1.0);
            EXPECT_LE(dist(hit->normal, {static_cast<Real>(outward.x), static_cast<Real>(outward.y)}), kFloat ? 1e-5 : 1e-12);
            // The point lies on the surface to the round-off of placing it (its coordinates' size).
            const L point_outside = norm(lp(hit->point) - lp(pose.position) - turned) - static_cast<L>(radius);
            EXPECT_LE(static_cast<double>(std::abs(point_outside)), static_cast<double>(2 * band + 4 * epsilon * (offset + 8)));
          }
        }
      }
    }
  }
  EXPECT_EQ(checked, 2 * 3 * 4 * 2);
}

TEST(Raycast, RandomRaysAgainstBruteForce) {
  random_shapes::Generator gen(4001);
  random_shapes::Check fraction_check("hit fraction within the band", 1);
  random_shapes::Check miss_check("misses agree", 1);
  random_shapes::Check inside_check("starts inside: fraction 0, zero normal", 1);
  random_shapes::Check surface_check("hit point on the surface", 1);
  random_shapes::Check normal_check("normal supports the shape at the hit", 1);
  random_shapes::Check before_check("no sample before the hit inside", 1);
  random_shapes::Check segment_check("segment crossings (exact line intersection)", 1);
  // Capsules and rounded polygons are exact too: their hits lie on the surface within the plain
  // round-off err (64 eps x scale), not the old cast band (8 x 64 eps x scale more).
  random_shapes::Check rounded_check("rounded shapes: hit on the surface to round-off", 1);
  double worst_rounded = 0;
  int rays = 0, hits = 0, misses = 0, insides = 0, ambiguous = 0;
  Core core;
  const int kRays = 20000;
  for (int i = 0; i < kRays; ++i) {
    const random_shapes::Kind kind = gen.any_kind();
    random_shapes::Body body = gen.body(kind, gen.chance(0.75) ? Real(20) : random_shapes::max_offset);
    place_core(body.shape, body.transform, core);
    const double size = body.size;
    const Vec2 centre = body.transform.position;
    Ray ray;
    if (gen.chance(0.12)) {
      ray.origin = centre + body.size * gen.uniform(0, 0.6) * gen.direction();  // often inside
    } else {
      ray.origin = centre + body.size * gen.uniform(1.0, 4.0) * gen.direction();
    }
    const Vec2 target = centre + body.size * gen.uniform(0, 1.5) * gen.direction();
    ray.translation = gen.uniform(0.3, 2.5) * (target - ray.origin);
    ray.max_fraction = gen.chance(0.7) ? Real(1) : gen.uniform(0, 2);
    ++rays;

    const P o = dp(ray.origin), d = dp(ray.translation);
    const double maxf = ray.max_fraction, dlen = norm(d);
    auto f = [&](double t) { return point_sd(core, o + t * d); };
    // Round-off scale: the shape's size and the coordinates involved; `err` is the round-off of
    // the library and of the double oracle evaluated at Real inputs.
    const double scale = size + norm(dp(centre)) + norm(o) + dlen * maxf;
    const double err = 64 * kEps * scale;
    // The library's own start tolerance (raycast.cpp) and the cast tolerance of shape_cast, which
    // capsules and rounded polygons use (gap at the hit between tol/2 and tol).
    const double start_tol = kRel * (size + norm(o - dp(centre)) + dlen * maxf);
    const double band = 8 * kRel * (size + norm(o - dp(centre)) + dlen * maxf) + err;

    const std::optional<RayHit> hit = raycast(body.shape, body.transform, ray);
    auto context = [&] {
      char buffer[1024];
      std::snprintf(buffer, sizeof buffer, "ray %d: origin (%.9g, %.9g) translation (%.9g, %.9g) max %.9g -> %s f %.9g n (%.6g, %.6g) in %d; ",
                    i, static_cast<double>(ray.origin.x), static_cast<double>(ray.origin.y), static_cast<double>(ray.translation.x),
                    static_cast<double>(ray.translation.y), maxf, hit ? "hit" : "miss", hit ? static_cast<double>(hit->fraction) : -1.0,
                    hit ? static_cast<double>(hit->normal.x) : 0.0, hit ? static_cast<double>(hit->normal.y) : 0.0,
                    hit ? int(hit->inside) : 0);
      return std::string(buffer) + random_shapes::describe(body);
    };

    const double f0 = f(0);
    if (f0 < -(start_tol + err)) {
      ++insides;
      inside_check.require(hit && hit->inside && hit->fraction == 0 && hit->normal == Vec2{} && hit->point == ray.origin, context);
      continue;
    }
    if (f0 <= start_tol + err) {  // starts on the surface within the tolerance: either reading is fine
      ++ambiguous;
      if (hit) surface_check.record(std::max(0.0, std::abs(f(static_cast<double>(hit->fraction))) - band), scale, context);
      continue;
    }
    if (hit) inside_check.require(!hit->inside, context);

    if (std::holds_alternative<Segment>(body.shape)) {
      // Exact line intersection in double, away from the ends and from parallel.
      const P a = core.vertices[0], e = core.vertices[1] - core.vertices[0];
      const double denominator = cross(d, e);
      const double sine = std::abs(denominator) / (dlen * norm(e));
      if (sine < 1e-2) {
        ++ambiguous;
        if (hit) surface_check.record(std::max(0.0, f(static_cast<double>(hit->fraction)) - band), scale, context);
        continue;
      }
      const double t = cross(a - o, e) / denominator, s = cross(a - o, d) / denominator;
      const double margin_s = (err + band) / (norm(e) * sine), margin_t = (err + band) / (dlen * sine);
      const bool clearly_hit = s > margin_s && s < 1 - margin_s && t > margin_t && t < maxf - margin_t;
      const bool clearly_miss = s < -margin_s || s > 1 + margin_s || t < -margin_t || t > maxf + margin_t;
      if (clearly_hit) {
        ++hits;
        if (!segment_check.require(hit.has_value(), context)) continue;
        segment_check.record(std::abs(static_cast<double>(hit->fraction) - t) * dlen * sine, scale, context);
        P n{-e.y, e.x};
        n = unit(n);
        if (dot(n, d) > 0) n = -1 * n;
        normal_check.record(norm(dp(hit->normal) - n) * size, scale, context);
      } else if (clearly_miss) {
        ++misses;
        segment_check.require(!hit.has_value(), context);
      } else {
        ++ambiguous;
      }
      continue;
    }

    // Golden-section search for the minimum of the convex f on [0, maxf].
    double lo = 0, hi = maxf;
    const double g = (std::sqrt(5.0) - 1) / 2;
    double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo), f1 = f(x1), f2 = f(x2);
    for (int k = 0; k < 80 && hi - lo > 0; ++k) {
      if (f1 < f2) {
        hi = x2;
        x2 = x1;
        f2 = f1;
        x1 = hi - g * (hi - lo);
        f1 = f(x1);
      } else {
        lo = x1;
        x1 = x2;
        f1 = f2;
        x2 = lo + g * (hi - lo);
        f2 = f(x2);
      }
    }
    double t_min = f1 < f2 ? x1 : x2, f_min = std::min(f1, f2);
    if (f(maxf) < f_min) t_min = maxf, f_min = f(maxf);
    // First t in [0, t_min] with f(t) <= level (f(0) > level >= f(t_min)), by bisection.
    auto first_below = [&](double level) {
      double a = 0, b = t_min;
      for (int k = 0; k < 100; ++k) {
        const double m = 0.5 * (a + b);
        (f(m) <= level ? b : a) = m;
      }
      return b;
    };
    if (f_min > band) {
      ++misses;
      miss_check.require(!hit.has_value(), context);
      continue;
    }
    if (f_min >= -band) {  // grazes within the band: hit or miss both fine; a hit must be on the surface
      ++ambiguous;
      if (hit) surface_check.record(std::max(0.0, std::abs(f(static_cast<double>(hit->fraction))) - band), scale, context);
      continue;
    }
    ++hits;
    if (!miss_check.require(hit.has_value(), context)) continue;
    // The fraction lies where f crosses the band [-band, band], up to Real rounding of the fraction.
    const double t_outer = first_below(band), t_inner = first_below(-band);
    const double fraction = hit->fraction, slack = 4 * kEps * maxf;
    const double below = std::max(0.0, t_outer - slack - fraction), above = std::max(0.0, fraction - t_inner - slack);
    fraction_check.record(std::max(below, above) * dlen, scale, context);
    const P p = dp(hit->point);
    surface_check.record(std::max(0.0, std::abs(point_sd(core, p)) - band), scale, context);
    const bool rounded = std::holds_alternative<Capsule>(body.shape) ||
                         (std::holds_alternative<Polygon>(body.shape) && std::get<Polygon>(body.shape).radius() > 0);
    if (rounded) {
      rounded_check.record(std::max(0.0, std::abs(point_sd(core, p)) - err), scale, context);
      worst_rounded = std::max(worst_rounded, std::abs(point_sd(core, p)) / (kEps * scale));
    }
    // The normal: unit, facing the ray, and the plane through the hit with that normal supports the shape.
    const P n = dp(hit->normal);
    normal_check.require(std::abs(norm(n) - 1) < 1e-5 && dot(n, d) <= 1e-3 * dlen, context);
    normal_check.record(std::max(0.0, std::abs(support_value(core, n) - dot(n, p)) - band), scale, context);
    for (int k = 0; k < 32; ++k) {
      const double t = fraction * k / 32;
      before_check.record(std::max(0.0, -f(t) - band), scale, context);
    }
  }
  std::printf("checked %d random rays: %d hits, %d misses, %d starting inside, %d within the tolerance band; rounded shapes' hits "
              "off the surface by at most %.3g eps x scale\n",
              rays, hits, misses, insides, ambiguous, worst_rounded);
  for (const random_shapes::Check* check :
       {&fraction_check, &miss_check, &inside_check, &surface_check, &normal_check, &before_check, &segment_check, &rounded_check}) {
    check->print();
    EXPECT_EQ(check->failures(), 0) << check->name();
    for (const std::string& message : check->messages()) ADD_FAILURE() << check->name() << ": " << message;
  }
}

// ------------------------------------------------------------------------------------------------
// shape_cast: linear sweeps with closed-form times.

struct CastCase {
  std::string name;
  Shape a;
  Transform ta;
  Shape b;
  Transform tb;
  Vec2 translation;
  bool hit = false;
  Real time = 0;
  Vec2 normal{};
  Vec2 point0{}, point1{};  // the contact point lies on this segment (point0 == point1: exactly there)
  bool initially_touching = false;
};

std::vector<CastCase> cast_cases() {
  std::vector<CastCase> cases;
  const Vec2 up{0, 1}, right{1, 0};
  const Real s2 = std::sqrt(Real(2));
  // Circles r 1 at the origin and r 0.5 from (5, 0) along (-10, 0): touch at 1.5 apart, t = 3.5 / 10.
  cases.push_back({"circle circle", circle(1), at(0, 0), circle(R(0.5)), at(5, 0), {-10, 0}, true, R(0.35), right, {1, 0}, {1, 0}});
  // From (5, 1): touch when x^2 + 1 = 1.5^2, x = sqrt(1.25); normal (x, 1) / 1.5; point on A at the normal.
  {
    const Real x = std::sqrt(R(1.25));
    const Vec2 n{x / R(1.5), 1 / R(1.5)};
    cases.push_back({"circle circle oblique", circle(1), at(0, 0), circle(R(0.5)), at(5, 1), {-10, 0}, true, (5 - x) / 10, n, n, n});
  }
  // Circle r 0.5 from (0.7, 4) down onto the top face y = 1 of a 2 x 1 box: centre at 1.5 after 2.5 of 5.
  cases.push_back({"circle onto box face", box(2, 1), at(0, 0), circle(R(0.5)), at(0.7, 4), {0, -5}, true, R(0.5), up, {R(0.7), 1}, {R(0.7), 1}});
  // Box 1 x 1 (B) from (4, 0.3) along (-6, 0) onto a circle r 0.5 at the origin: the face x = 3 reaches 0.5 after 2.5.
  cases.push_back({"box face onto circle", circle(R(0.5)), at(0, 0), box(1, 1), at(4, 0.3), {-6, 0}, true, R(2.5) / 6, right, {R(0.5), 0}, {R(0.5), 0}});
  // Box 0.5 x 0.5 from (4, 0.2) along (-6, 0) onto a 1 x 1 box: faces meet after 2.5; contact on x = 1, y in [-0.3, 0.7].
  cases.push_back({"box box face to face", box(1, 1), at(0, 0), box(R(0.5), R(0.5)), at(4, 0.2), {-6, 0}, true, R(2.5) / 6, right,
                   {1, R(-0.3)}, {1, R(0.7)}});
  // A 0.5 x 0.5 box turned 45 degrees falls corner first from (0.1, 3) along (0, -4) onto the 2 x 1 box:
  // the corner is 0.5 sqrt2 below the centre, so it touches y = 1 after 3 - 1 - 0.5 sqrt2.
  cases.push_back({"box corner onto box face", box(2, 1), at(0, 0), box(R(0.5), R(0.5)), at(0.1, 3, std::numbers::pi / 4), {0, -4}, true,
                   (2 - R(0.5) * s2) / 4, up, {R(0.1), 1}, {R(0.1), 1}});
  // A's corner up: a 1 x 1 box turned 45 degrees has its top corner at (0, sqrt2); B's bottom face
  // (half height 0.5) comes down from 5 - 0.5 and touches it after 4.5 - sqrt2 of 6.
  cases.push_back({"box face onto box corner", box(1, 1), at(0, 0, std::numbers::pi / 4), box(2, R(0.5)), at(0.3, 5), {0, -6}, true,
                   (R(4.5) - s2) / 6, up, {0, s2}, {0, s2}});
  // Rounded box (core 1 x 1, radius 0.25) and a capsule r 0.25 lying flat, coming down from y = 3: gap 3 - 1.25 - 0.25 = 1.5 of 2.
  cases.push_back({"capsule onto rounded box", box(1, 1, R(0.25)), at(0, 0), capsule({-R(0.5), 0}, {R(0.5), 0}, R(0.25)), at(0, 3), {0, -2},
                   true, R(0.75), up, {R(-0.5), R(1.25)}, {R(0.5), R(1.25)}});
  // Already overlapping, or touching with a motion that closes the gap: time 0. Touching and
  // moving apart never touches again (no hit).
  cases.push_back({"circles touching, moving in", circle(1), at(0, 0), circle(R(0.5)), at(1.5, 0), {-1, 0}, true, 0, right, {1, 0}, {1, 0}, true});
  cases.push_back({"circles touching, moving apart", circle(1), at(0, 0), circle(R(0.5)), at(1.5, 0), {1, 0}, false, 0, right, {}, {}, false});
  cases.push_back({"boxes touching, moving in", box(1, 1), at(0, 0), box(R(0.5), R(0.5)), at(1.5, 0.2), {-3, 1}, true, 0, right, {1, R(-0.3)}, {1, R(0.7)}, true});
  cases.push_back({"boxes touching, moving apart", box(1, 1), at(0, 0), box(R(0.5), R(0.5)), at(1.5, 0.2), {3, 1}, false, 0, right, {}, {}, false});
  cases.push_back({"boxes touching, sliding along", box(1, 1), at(0, 0), box(R(0.5), R(0.5)), at(1.5, 0.2), {0, 3}, false, 0, right, {}, {}, false});
  // Overlapping by 0.3 along x: the normal is the penetration normal, +x.
  cases.push_back({"boxes overlapping", box(1, 1), at(0, 0), box(R(0.5), R(0.5)), at(1.2, 0.2), {0, 5}, true, 0, right, {}, {}, true});
  // Misses.
  cases.push_back({"circles moving apart", circle(1), at(0, 0), circle(R(0.5)), at(3, 0), {5, 0}, false});
  cases.push_back({"circles passing by", circle(1), at(0, 0), circle(R(0.5)), at(5, R(1.6)), {-10, 0}, false});
  cases.push_back({"circles stopping short", circle(1), at(0, 0), circle(R(0.5)), at(5, 0), {-3, 0}, false});
  cases.push_back({"boxes sliding past", box(2, 1), at(0, 0), box(R(0.5), R(0.5)), at(-5, R(1.6)), {10, 0}, false});
  cases.push_back({"box sliding along a face, apart", box(2, 1), at(0, 0), box(R(0.5), R(0.5)), at(-5, R(1.52)), {10, 0}, false});
  cases.push_back({"zero translation apart", box(2, 1), at(0, 0), circle(1), at(5, 0), {0, 0}, false});
  return cases;
}

TEST(ShapeCast, AnalyticOracles) {
  int checked = 0;
  for (const CastCase& cc : cast_cases()) {
    for (const Transform& pose : poses()) {
      const Transform ta = compose(pose, cc.ta), tb = compose(pose, cc.tb);
      const Vec2 translation = rotate(pose.rotation, cc.translation);
      const std::optional<CastHit> hit = cast(cc.a, ta, cc.b, tb, translation);
      SCOPED_TRACE(cc.name + " at pose " + str(pose.position));
      ++checked;
      ASSERT_EQ(hit.has_value(), cc.hit);
      if (!hit) continue;
      EXPECT_EQ(hit->status, IterationStatus::converged);
      EXPECT_EQ(hit->initially_touching, cc.initially_touching);
      const double travel = std::hypot(static_cast<double>(translation.x), static_cast<double>(translation.y));
      // The time, compared as distance travelled.
      EXPECT_LE(std::abs(static_cast<double>(hit->time - cc.time)) * std::max(travel, 1.0), kTol) << "time " << hit->time << " expected " << cc.time;
      if (cc.initially_touching) {
        EXPECT_EQ(hit->time, 0);
      }
      EXPECT_LE(dist(hit->normal, rotate(pose.rotation, cc.normal)), kTol) << "normal " << str(hit->normal);
      EXPECT_NEAR(static_cast<double>(length(hit->normal)), 1.0, kFloat ? 1e-5 : 1e-12);
      if (!(cc.point0 == Vec2{} && cc.point1 == Vec2{})) {
        const P p0 = dp(transform_point(pose, cc.point0)), p1 = dp(transform_point(pose, cc.point1));
        EXPECT_LE(segment_distance(dp(hit->point), p0, p1), kTol) << "point " << str(hit->point);
      }
      // The pose at the returned time touches: distance ~0 there, and not overlapping just before.
      const Transform tb_hit{tb.position + hit->time * translation, tb.rotation};
      const double gap = shape_sd(world_core<double>(cc.a, ta), world_core<double>(cc.b, tb_hit));
      if (!cc.initially_touching) {
        EXPECT_LE(std::abs(gap), kTol) << "gap at the returned time " << gap;
        EXPECT_GE(gap, 0.0) << "the returned pose overlaps";
        const Real before = hit->time * R(0.999);
        const double gap_before = shape_sd(world_core<double>(cc.a, ta), world_core<double>(cc.b, {tb.position + before * translation, tb.rotation}));
        EXPECT_GE(gap_before, 0.0);
      } else {
        EXPECT_LE(gap, kTol);
      }
    }
  }
  std::printf("checked %d analytic shape casts\n", checked);
}

// ------------------------------------------------------------------------------------------------
// time_of_impact: the sampling oracle.

// Poses of both bodies at time t, their cores, and the signed distance between them.
struct SweepPair {
  const Shape* a;
  const Shape* b;
  Sweep sa, sb;
  Real size_a, size_b;  // reach about the local origin (size_scale) plus |local_center|
  Core ca, cb;

  double gap(double t, double limit = std::numeric_limits<double>::infinity()) {
    const Transform ta = sa.at(R(t)), tb = sb.at(R(t));
    // Bounding circles about the body origins: far apart means positive, no exact distance needed.
    const double apart = norm(dp(tb.position) - dp(ta.position)) - size_a - size_b;
    if (apart > limit) return apart;
    place_core(*a, ta, ca);
    place_core(*b, tb, cb);
    return shape_sd(ca, cb, limit);
  }
  // The largest cast tolerance the library can pick at time t (CastOptions::tolerance 0, see
  // shape_cast.hpp): 8 relative tolerances of the two reaches (detail::reach_about, the farthest
  // core vertex from the turning centre, plus the radius), or 4 GJK tolerances
  // (K epsilons times the largest coordinate in A's frame).
  double tolerance_bound(double t) {
    const Transform ta = sa.at(R(t)), tb = sb.at(R(t));
    const double reaches = static_cast<double>(reach_about(*a, sa.local_center) + reach_about(*b, sb.local_center));
    return std::max(8 * kRel * reaches, 4 * kRel * (size_a + size_b + norm(dp(tb.position) - dp(ta.position))));
  }
  static Real reach_about(const Shape& shape, Vec2 center) {
    return random_shapes::visit_convex([&](const auto& s) { return detail::reach_about(s, center); }, shape);
  }
};

Real reach_of(const Shape& shape, Vec2 local_center) { return size_scale(shape) + length(local_center); }

struct SweepStats {
  long sweeps = 0, hits = 0, initially = 0, empties = 0, capped = 0, sampled_contacts = 0;
  long iterations = 0, most_iterations = 0;  // advancement steps over all hits, and the most one hit took
  double worst_capped_gap = 0;  // largest gap left at an iteration-capped time, relative to the sizes
};

// Runs one sweep through `query` and checks it against 200 samples plus refinement.
template <class Query>
void check_sweep(SweepPair& pair, Query query, double scale, random_shapes::Check& early, random_shapes::Check& touching,
                 random_shapes::Check& normal, random_shapes::Check& empty, SweepStats& stats, const std::string& label) {
  const std::optional<CastHit> hit = query();
  ++stats.sweeps;
  const double err = 64 * kEps * scale;
  auto context = [&] {
    char buffer[1024];
    std::snprintf(buffer, sizeof buffer,
                  "%s: %s t %.9g iterations %d cap %d | A sweep c(%.9g, %.9g)->(%.9g, %.9g) angle %.9g->%.9g lc (%.9g, %.9g) | "
                  "B sweep c(%.9g, %.9g)->(%.9g, %.9g) angle %.9g->%.9g lc (%.9g, %.9g) | ",
                  label.c_str(), hit ? "hit" : "empty", hit ? static_cast<double>(hit->time) : -1.0, hit ? hit->iterations : 0,
                  hit ? int(hit->status == IterationStatus::iteration_cap) : 0, static_cast<double>(pair.sa.center_start.x),
                  static_cast<double>(pair.sa.center_start.y), static_cast<double>(pair.sa.center_end.x),
                  static_cast<double>(pair.sa.center_end.y), static_cast<double>(pair.sa.angle_start),
                  static_cast<double>(pair.sa.angle_end), static_cast<double>(pair.sa.local_center.x),
                  static_cast<double>(pair.sa.local_center.y), static_cast<double>(pair.sb.center_start.x),
                  static_cast<double>(pair.sb.center_start.y), static_cast<double>(pair.sb.center_end.x),
                  static_cast<double>(pair.sb.center_end.y), static_cast<double>(pair.sb.angle_start),
                  static_cast<double>(pair.sb.angle_end), static_cast<double>(pair.sb.local_center.x),
                  static_cast<double>(pair.sb.local_center.y));
    random_shapes::Body body_a{*pair.a, {}, pair.size_a}, body_b{*pair.b, {}, pair.size_b};
    return std::string(buffer) + "A " + random_shapes::describe(body_a) + " | B " + random_shapes::describe(body_b);
  };

  // First sampled overlap (gap < -err), refined by bisection to a time where the gap is below -err.
  const int kSamples = 200;
  double first_overlap = 2;
  double previous = 0;
  for (int k = 0; k <= kSamples; ++k) {
    const double t = static_cast<double>(R(double(k) / kSamples));
    if (pair.gap(t, 0) < -err) {
      double lo = previous, hi = t;
      if (k > 0)
        for (int j = 0; j < 40; ++j) {
          const double m = static_cast<double>(R(0.5 * (lo + hi)));
          if (m <= lo || m >= hi) break;
          (pair.gap(m, 0) < -err ? hi : lo) = m;
        }
      first_overlap = hi;
      break;
    }
    previous = t;
  }
  if (first_overlap <= 1) ++stats.sampled_contacts;

  if (!hit) {
    ++stats.empties;
    empty.require(first_overlap > 1, context);
    return;
  }
  ++stats.hits;
  if (hit->initially_touching) ++stats.initially;
  if (hit->status == IterationStatus::iteration_cap) ++stats.capped;
  stats.iterations += hit->iterations;
  stats.most_iterations = std::max(stats.most_iterations, long(hit->iterations));
  const double t_hit = hit->time;
  // Never later than the first sampled overlap.
  early.require(t_hit <= first_overlap && t_hit >= 0 && t_hit <= 1, context);
  const double gap = pair.gap(t_hit);
  const double tolerance = pair.tolerance_bound(t_hit);
  if (hit->initially_touching) {
    touching.require(hit->time == 0, context);
    touching.record(std::max(0.0, gap - tolerance), scale, context);  // touching or overlapping at 0
    return;
  }
  if (hit->status == IterationStatus::iteration_cap) {  // a safe, early estimate: only `early` applies
    stats.worst_capped_gap = std::max(stats.worst_capped_gap, gap / (pair.size_a + pair.size_b));
    return;
  }
  // Touching at the time returned: gap in [0, tolerance] up to round-off.
  touching.record(std::max({0.0, gap - tolerance, -gap}), scale, context);
  // The normal points from A to B: the cores are separated along it by about the gap.
  const P n = dp(hit->normal);
  pair.gap(t_hit);  // refresh the cores at t_hit
  const double along = separation_along(n, pair.ca, pair.cb) - pair.ca.radius - pair.cb.radius;
  normal.require(std::abs(norm(n) - 1) < 1e-5, context);
  normal.record(std::max(0.0, -along - tolerance), scale, context);
  // The point is midway between the surfaces: within the tolerance of both.
  const P p = dp(hit->point);
  normal.record(std::max(0.0, std::abs(point_sd(pair.ca, p)) - tolerance), scale, context);
  normal.record(std::max(0.0, std::abs(point_sd(pair.cb, p)) - tolerance), scale, context);
}

TEST(TimeOfImpact, RandomSweepsAgainstSampling) {
  random_shapes::Generator gen(40001);
  random_shapes::Check early("toi: no later than the first sampled overlap", 1);
  random_shapes::Check touching("toi: touching at the returned time", 64);
  random_shapes::Check normal("toi: normal A->B and point between surfaces", 64);
  random_shapes::Check empty("toi: empty only when no sample overlaps", 1);
  random_shapes::Check cast_early("shape_cast: no later than the first sampled overlap", 1);
  random_shapes::Check cast_touching("shape_cast: touching at the returned time", 64);
  random_shapes::Check cast_normal("shape_cast: normal A->B and point between surfaces", 64);
  random_shapes::Check cast_empty("shape_cast: empty only when no sample overlaps", 1);
  SweepStats toi_stats, cast_stats;
  const int kSweeps = 10000, kCasts = 3000;
  for (int i = 0; i < kSweeps + kCasts; ++i) {
    const bool linear = i >= kSweeps;
    const random_shapes::Body a = gen.body(gen.any_kind(), Real(100)), b = gen.body(gen.any_kind(), Real(100));
    Sweep sa, sb;
    sa.local_center = linear || gen.chance(0.5) ? Vec2{} : gen.local_offset(a.size);
    sb.local_center = linear || gen.chance(0.5) ? Vec2{} : gen.local_offset(b.size);
    const Real size_a = reach_of(a.shape, sa.local_center), size_b = reach_of(b.shape, sb.local_center);
    const Real sum = size_a + size_b;
    sa.center_start = a.transform.position;
    sa.center_end = linear || gen.chance(0.5) ? sa.center_start : sa.center_start + sum * gen.uniform(0, 0.7) * gen.direction();
    // B starts clear of A's bounding circle most of the time (sometimes overlapping) and ends near A.
    sb.center_start = sa.center_start + sum * (gen.chance(0.85) ? gen.uniform(1.02, 3.0) : gen.uniform(0.2, 1.0)) * gen.direction();
    sb.center_end = sa.center_start + sum * gen.uniform(0, 1.6) * gen.direction();
    sa.angle_start = gen.angle();
    sb.angle_start = gen.angle();
    auto turn = [&] {
      if (linear || gen.chance(0.2)) return Real(0);
      return gen.chance(0.8) ? gen.uniform(-2 * std::numbers::pi, 2 * std::numbers::pi) : gen.uniform(-8 * std::numbers::pi, 8 * std::numbers::pi);
    };
    sa.angle_end = sa.angle_start + turn();
    sb.angle_end = sb.angle_start + turn();
    SweepPair pair{&a.shape, &b.shape, sa, sb, size_a, size_b, {}, {}};
    // Round-off scale: sizes, coordinates, and the angle's rounding carried over the reach.
    const double scale = static_cast<double>(sum) +
                         std::max({norm(dp(sa.center_start)), norm(dp(sa.center_end)), norm(dp(sb.center_start)), norm(dp(sb.center_end))}) +
                         (std::abs(static_cast<double>(sa.angle_end)) + std::abs(static_cast<double>(sa.angle_start))) * size_a +
                         (std::abs(static_cast<double>(sb.angle_end)) + std::abs(static_cast<double>(sb.angle_start))) * size_b;
    if (!linear) {
      check_sweep(pair, [&] { return toi(a.shape, sa, b.shape, sb); }, scale, early, touching, normal, empty, toi_stats,
                  "sweep " + std::to_string(i));
    } else {
      // shape_cast: A stays put, B translates (sweeps with no rotation are the same motion).
      const Transform ta = sa.at(0), tb = sb.at(0);
      pair.sa.center_end = pair.sa.center_start;
      const Vec2 translation = sb.center_end - sb.center_start;
      check_sweep(pair, [&] { return cast(a.shape, ta, b.shape, tb, translation); }, scale, cast_early, cast_touching, cast_normal,
                  cast_empty, cast_stats, "cast " + std::to_string(i));
    }
  }
  std::printf("checked %ld sweeps with rotation: %ld hits (%ld initially touching, %ld at the iteration cap, largest gap left there %.3g of the sizes; "
              "%.1f steps a hit, at most %ld), %ld empty; %ld with a sampled overlap\n",
              toi_stats.sweeps, toi_stats.hits, toi_stats.initially, toi_stats.capped, toi_stats.worst_capped_gap,
              double(toi_stats.iterations) / double(std::max(1L, toi_stats.hits)), toi_stats.most_iterations, toi_stats.empties,
              toi_stats.sampled_contacts);
  std::printf("checked %ld linear shape casts: %ld hits (%ld initially touching, %ld at the iteration cap; %.1f steps a hit, at most %ld), %ld empty; "
              "%ld with a sampled overlap\n",
              cast_stats.sweeps, cast_stats.hits, cast_stats.initially, cast_stats.capped,
              double(cast_stats.iterations) / double(std::max(1L, cast_stats.hits)), cast_stats.most_iterations, cast_stats.empties,
              cast_stats.sampled_contacts);
  // The separation bound's steps converge on every sweep: none stops at the cap (the Lipschitz
  // bound alone left 6 of these in float and 16 in double at the cap of 1024, taking 29.8 and 69.5
  // steps a hit). With the bound's axis turning with the face nearest (advance()), a hit takes 6.6
  // steps in float and 7.7 in double, at most 51 and 52; with a fixed axis it took 8.9 and 16.2, at
  // most 141 and 535 (a vertex closing on a turning face crept up by a tenth of the gap a step).
  EXPECT_EQ(toi_stats.capped, 0);
  EXPECT_EQ(cast_stats.capped, 0);
  EXPECT_LE(double(toi_stats.iterations) / double(std::max(1L, toi_stats.hits)), 8.5);
  EXPECT_LE(toi_stats.most_iterations, 100);
  for (const random_shapes::Check* check : {&early, &touching, &normal, &empty, &cast_early, &cast_touching, &cast_normal, &cast_empty}) {
    check->print();
    EXPECT_EQ(check->failures(), 0) << check->name();
    for (const std::string& message : check->messages()) ADD_FAILURE() << check->name() << ": " << message;
  }
}

// A fine sampling of a sweep: the first time the pair overlaps (gap < -err), or 2 when never.
double first_overlap_fine(SweepPair& pair, int samples, double err) {
  for (int k = 0; k <= samples; ++k) {
    const double t = static_cast<double>(R(double(k) / samples));
    if (pair.gap(t, 0) < -err) return t;
  }
  return 2;
}

TEST(TimeOfImpact, ThinFastShapesDoNotTunnel) {
  const Shape wall = box(R(0.005), 5);
  const Shape plank = box(3, R(0.005));
  const double err = 1e3 * kEps * 10;
  int checked = 0;
  // A thin plank moving 1000 units in one step straight through a thin wall, no rotation:
  // its right face (x + 0.5) reaches the wall's face x = -0.005 after 9.495.
  {
    const Shape bullet = box(R(0.5), R(0.005));
    const Sweep sa{{}, {0, 0}, {0, 0}, 0, 0};
    const Sweep sb{{}, {-10, R(0.1)}, {990, R(0.1)}, 0, 0};
    const std::optional<CastHit> hit = toi(wall, sa, bullet, sb);
    ASSERT_TRUE(hit.has_value());
    EXPECT_NEAR(static_cast<double>(hit->time) * 1000, 9.495, kFloat ? 2e-3 : 1e-9);
    EXPECT_LE(dist(hit->normal, {-1, 0}), kTol);
    ++checked;
  }
  // Spinning planks (up to 60 rad per step) thrown through the wall, and planks turning on the spot
  // whose tip sweeps through it. Each is checked against 20,000 samples.
  random_shapes::Generator gen(4242);
  int hits = 0;
  for (int i = 0; i < 40; ++i) {
    Sweep sa{{}, {0, 0}, {0, 0}, 0, 0};
    Sweep sb;
    if (i % 2 == 0) {
      sb = {{}, {-4, gen.uniform(-2, 2)}, {4, gen.uniform(-2, 2)}, gen.angle(), 0};
      sb.angle_end = sb.angle_start + gen.uniform(-60, 60);
    } else {
      sb = {{}, {R(-2.5), gen.uniform(-1, 1)}, {R(-2.5), gen.uniform(-1, 1)}, R(std::numbers::pi / 2), 0};
      sb.angle_end = sb.angle_start + gen.uniform(-2 * std::numbers::pi, 2 * std::numbers::pi);
    }
    SweepPair pair{&wall, &plank, sa, sb, reach_of(wall, {}), reach_of(plank, {}), {}, {}};
    const double first = first_overlap_fine(pair, 20000, err);
    const std::optional<CastHit> hit = toi(wall, sa, plank, sb);
    SCOPED_TRACE("plank " + std::to_string(i));
    ++checked;
    if (first <= 1) {
      ASSERT_TRUE(hit.has_value()) << "tunnelled: the sampling overlaps at " << first;
    }
    if (!hit) continue;
    ++hits;
    EXPECT_LE(static_cast<double>(hit->time), first);
    if (hit->status == IterationStatus::converged && !hit->initially_touching) {
      const double gap = pair.gap(hit->time);
      EXPECT_GE(gap, -err);
      EXPECT_LE(gap, pair.tolerance_bound(hit->time) + err);
    }
  }
  EXPECT_GT(hits, 30);
  std::printf("checked %d thin fast sweeps (%d hits)\n", checked, hits);
}

TEST(TimeOfImpact, ReportsTheIterationCap) {
  // A plank turning on the spot, its tip sweeping into a wall: conservative advancement needs many
  // steps here, so a cap of 1 stops it early, with a time before the contact.
  const Shape wall = box(R(0.005), 5);
  const Shape plank = box(3, R(0.005));
  const Sweep sa{{}, {0, 0}, {0, 0}, 0, 0};
  const Sweep sb{{}, {R(-2.5), 0}, {R(-2.5), 0}, R(std::numbers::pi / 2), R(std::numbers::pi / 2 - 2 * std::numbers::pi)};
  SweepPair pair{&wall, &plank, sa, sb, reach_of(wall, {}), reach_of(plank, {}), {}, {}};
  const double first = first_overlap_fine(pair, 20000, 1e3 * kEps * 10);
  ASSERT_LE(first, 1.0);
  const std::optional<CastHit> capped = toi(wall, sa, plank, sb, {.max_iterations = 1});
  ASSERT_TRUE(capped.has_value());
  EXPECT_EQ(capped->status, IterationStatus::iteration_cap);
  EXPECT_EQ(capped->iterations, 1);
  EXPECT_FALSE(capped->initially_touching);
  EXPECT_LT(static_cast<double>(capped->time), first);
  EXPECT_GT(pair.gap(capped->time), 0.0);  // a safe, early estimate: not yet touching
  const std::optional<CastHit> full = toi(wall, sa, plank, sb);
  ASSERT_TRUE(full.has_value());
  EXPECT_EQ(full->status, IterationStatus::converged);
  EXPECT_GT(full->iterations, 1);
  EXPECT_LE(static_cast<double>(full->time), first);
  EXPECT_GE(full->time, capped->time);
  // The same cap on shape_cast, whose GJK ray cast steps for a pair without a circle.
  const std::optional<CastHit> cast_capped =
      cast(box(1, 1), at(0, 0), box(R(0.5), R(0.5), R(0.1)), at(10, 0.3), {-20, 0.5}, {.max_iterations = 0});
  ASSERT_TRUE(cast_capped.has_value());
  EXPECT_EQ(cast_capped->status, IterationStatus::iteration_cap);
  EXPECT_EQ(cast_capped->time, 0);
  // A circle's cast is closed form: it takes no step, so no cap stops it.
  const std::optional<CastHit> circle_cast =
      cast(circle(1), at(0, 0), box(R(0.5), R(0.5), R(0.1)), at(10, 0), {-20, 0}, {.max_iterations = 0});
  ASSERT_TRUE(circle_cast.has_value());
  EXPECT_EQ(circle_cast->status, IterationStatus::converged);
  EXPECT_EQ(circle_cast->iterations, 0);
  // The box's rounded left face meets the circle's right side at (1, 0), at t = 8.4 / 20; the
  // cast stops within the touching band of coordinates up to 22 (twice it here).
  const double band = 2 * 16 * kEps * 22;
  EXPECT_NEAR(circle_cast->time, (10 - 0.5 - 0.1 - 1) / 20.0, band / 20);
  EXPECT_NEAR(circle_cast->normal.x, 1, 1e-6);
  EXPECT_NEAR(circle_cast->point.x, 1, band);
  EXPECT_NEAR(circle_cast->point.y, 0, band);
  std::printf("checked the iteration cap: capped at t %.6g, converged at t %.6g after %d steps, sampled first overlap %.6g\n",
              static_cast<double>(capped->time), static_cast<double>(full->time), full->iterations, first);
}

// ------------------------------------------------------------------------------------------------
// closest_point and contains.

struct PointCase {
  std::string name;
  Shape shape;
  Vec2 query;
  Real signed_distance;
  Vec2 point;
  std::optional<Vec2> normal;  // empty: not checked (a corner or a point on a segment)
};

std::vector<PointCase> point_cases() {
  std::vector<PointCase> cases;
  const Vec2 up{0, 1}, down{0, -1}, right{1, 0};
  const Real h2 = 1 / std::sqrt(Real(2)), s2 = std::sqrt(Real(2));
  const Shape c = circle(1, {1, 2});
  cases.push_back({"circle outside", c, {3, 2}, 1, {2, 2}, right});
  cases.push_back({"circle inside", c, {R(1.5), 2}, R(-0.5), {2, 2}, right});
  cases.push_back({"circle on the surface", c, {1, 3}, 0, {1, 3}, up});
  // (1 + 0.6, 2 + 0.8) * ... a point at distance 2 along (0.6, 0.8).
  cases.push_back({"circle outside oblique", c, {R(2.2), R(3.6)}, 1, {R(1.6), R(2.8)}, Vec2{R(0.6), R(0.8)}});
  // At the centre: the normal is the shape frame's +x (the pose's rotation of (1, 0)).
  cases.push_back({"circle at its centre", c, {1, 2}, -1, {2, 2}, right});

  const Shape b = box(2, 1);
  cases.push_back({"box outside a face", b, {3, R(0.5)}, 1, {2, R(0.5)}, right});
  cases.push_back({"box outside a corner", b, {3, 2}, s2, {2, 1}, Vec2{h2, h2}});
  cases.push_back({"box inside, nearest the top", b, {R(0.5), R(0.8)}, R(-0.2), {R(0.5), 1}, up});
  cases.push_back({"box inside, nearest the bottom", b, {R(-1.5), R(-0.6)}, R(-0.4), {R(-1.5), -1}, down});
  cases.push_back({"box on a face", b, {2, R(-0.3)}, 0, {2, R(-0.3)}, right});
  cases.push_back({"box on a corner", b, {2, 1}, 0, {2, 1}, std::nullopt});

  const Shape tri = polygon({{0, 0}, {4, 0}, {0, 3}});
  // Distance to 3x + 4y = 12 from (4, 3): (12 + 12 - 12) / 5 = 2.4; foot (4, 3) - 2.4 (0.6, 0.8).
  cases.push_back({"triangle outside the hypotenuse", tri, {4, 3}, R(2.4), {R(2.56), R(1.08)}, Vec2{R(0.6), R(0.8)}});
  cases.push_back({"triangle outside a vertex", tri, {5, -1}, s2, {4, 0}, Vec2{h2, -h2}});
  cases.push_back({"triangle inside", tri, {1, R(0.5)}, R(-0.5), {1, 0}, down});

  const Shape cap = capsule({-1, 0}, {1, 0}, R(0.5));
  cases.push_back({"capsule outside the side", cap, {0, 2}, R(1.5), {0, R(0.5)}, up});
  cases.push_back({"capsule outside the cap", cap, {2, 0}, R(0.5), {R(1.5), 0}, right});
  cases.push_back({"capsule outside the cap oblique", cap, {R(2.2), R(1.6)}, R(1.5), {R(1.3), R(0.4)}, Vec2{R(0.6), R(0.8)}});
  cases.push_back({"capsule inside", cap, {R(0.3), R(0.1)}, R(-0.4), {R(0.3), R(0.5)}, up});
  cases.push_back({"capsule inside the cap", cap, {R(1.2), 0}, R(-0.3), {R(1.5), 0}, right});
  cases.push_back({"capsule on the cap", cap, {R(1.3), R(0.4)}, 0, {R(1.3), R(0.4)}, Vec2{R(0.6), R(0.8)}});

  const Shape seg = segment({-1, 0}, {1, 0});
  cases.push_back({"segment above", seg, {R(0.5), 2}, 2, {R(0.5), 0}, up});
  cases.push_back({"segment below", seg, {R(0.5), R(-0.5)}, R(0.5), {R(0.5), 0}, down});
  cases.push_back({"segment beyond an end", seg, {3, 0}, 2, {1, 0}, right});
  cases.push_back({"segment near an end", seg, {R(-1.6), R(0.8)}, 1, {-1, 0}, Vec2{R(-0.6), R(0.8)}});
  cases.push_back({"segment on it", seg, {R(0.2), 0}, 0, {R(0.2), 0}, std::nullopt});

  const Shape rb = box(1, 1, R(0.5));
  const Real arc = R(0.5) * h2;
  cases.push_back({"rounded box outside the corner", rb, {2, 2}, s2 - R(0.5), {1 + arc, 1 + arc}, Vec2{h2, h2}});
  // (1.4, 1.4) is inside the core's 1.5 bounding square but 0.4 sqrt2 - 0.5 = 0.0657 outside the arc.
  cases.push_back({"rounded box in the corner's notch", rb, {R(1.4), R(1.4)}, R(0.4) * s2 - R(0.5), {1 + arc, 1 + arc}, Vec2{h2, h2}});
  cases.push_back({"rounded box inside the corner arc", rb, {R(1.2), R(1.2)}, R(0.2) * s2 - R(0.5), {1 + arc, 1 + arc}, Vec2{h2, h2}});
  cases.push_back({"rounded box inside near a face", rb, {R(0.2), R(0.9)}, R(-0.6), {R(0.2), R(1.5)}, up});
  cases.push_back({"rounded box outside a face", rb, {-3, R(0.3)}, R(1.5), {R(-1.5), R(0.3)}, Vec2{-1, 0}});
  cases.push_back({"rounded box on the arc", rb, {1 + arc, -1 - arc}, 0, {1 + arc, -1 - arc}, Vec2{h2, -h2}});
  return cases;
}

TEST(PointQuery, AnalyticOracles) {
  int checked = 0;
  for (const PointCase& pc : point_cases()) {
    for (const Transform& pose : poses()) {
      const Vec2 query = transform_point(pose, pc.query);
      const PointProjection projection = closest_point(pc.shape, pose, query);
      SCOPED_TRACE(pc.name + " at pose " + str(pose.position));
      ++checked;
      EXPECT_NEAR(static_cast<double>(projection.signed_distance), static_cast<double>(pc.signed_distance), kTol);
      EXPECT_LE(dist(projection.point, transform_point(pose, pc.point)), kTol) << str(projection.point);
      if (pc.normal) {
        EXPECT_LE(dist(projection.normal, rotate(pose.rotation, *pc.normal)), kTol) << str(projection.normal);
      }
      EXPECT_NEAR(static_cast<double>(length(projection.normal)), 1.0, kFloat ? 1e-5 : 1e-12);
      // contains: inside or on the surface.
      EXPECT_EQ(contains(pc.shape, pose, query), pc.signed_distance <= 0) << "contains";
    }
  }
  std::printf("checked %d analytic point queries\n", checked);
}

TEST(PointQuery, RandomPointsAgainstBruteForce) {
  random_shapes::Generator gen(40004);
  random_shapes::Check distance_check("signed distance", 64);
  random_shapes::Check point_check("nearest point on the surface", 64);
  random_shapes::Check relation_check("query = point + distance * normal", 64);
  random_shapes::Check contains_check("contains agrees with the signed distance", 1);
  Core core;
  int checked = 0, inside = 0, segment_points = 0;
  for (int i = 0; i < 20000; ++i) {
    const random_shapes::Body body = gen.body(gen.any_kind(), gen.chance(0.75) ? Real(20) : random_shapes::max_offset);
    place_core(body.shape, body.transform, core);
    const Vec2 query = body.transform.position + body.size * gen.uniform(0, 2) * gen.direction();
    const PointProjection projection = closest_point(body.shape, body.transform, query);
    const bool in = contains(body.shape, body.transform, query);
    const double scale = static_cast<double>(body.size) + norm(dp(body.transform.position)) + norm(dp(query));
    const double expected = point_sd(core, dp(query));
    auto context = [&] {
      char buffer[512];
      std::snprintf(buffer, sizeof buffer, "point %d (%.9g, %.9g): sd %.9g expected %.9g, point (%.9g, %.9g) contains %d; ", i,
                    static_cast<double>(query.x), static_cast<double>(query.y), static_cast<double>(projection.signed_distance), expected,
                    static_cast<double>(projection.point.x), static_cast<double>(projection.point.y), int(in));
      return std::string(buffer) + random_shapes::describe(body);
    };
    ++checked;
    if (expected < 0) ++inside;
    if (std::holds_alternative<Segment>(body.shape)) {
      ++segment_points;
      contains_check.require(projection.signed_distance >= 0, context);
    }
    distance_check.record(std::abs(static_cast<double>(projection.signed_distance) - expected), scale, context);
    point_check.record(std::abs(point_sd(core, dp(projection.point))), scale, context);
    const P relation = dp(projection.point) + static_cast<double>(projection.signed_distance) * dp(projection.normal) - dp(query);
    relation_check.record(norm(relation), scale, context);
    relation_check.require(std::abs(norm(dp(projection.normal)) - 1) < 1e-5, context);
    // contains is signed_distance <= its tolerance; it agrees with the oracle outside a band.
    const double tolerance = kRel * (static_cast<double>(size_scale(body.shape)) + norm(dp(query) - dp(body.transform.position)));
    contains_check.require(in == (static_cast<double>(projection.signed_distance) <= tolerance), context);
    const double band = tolerance + 64 * kEps * scale;
    if (expected < -band || expected > band) contains_check.require(in == (expected < 0), context);
  }
  std::printf("checked %d random points (%d inside, %d against segments)\n", checked, inside, segment_points);
  for (const random_shapes::Check* check : {&distance_check, &point_check, &relation_check, &contains_check}) {
    check->print();
    EXPECT_EQ(check->failures(), 0) << check->name();
    for (const std::string& message : check->messages()) ADD_FAILURE() << check->name() << ": " << message;
  }
}

}  // namespace

// ------------------------------------------------------------------------------------------------
// Casts from touching, and the stopping gap.

TEST(ShapeCast, TouchingPairsMovingApartOrAlongReportNoHitAndMovingInReportZero) {
  // A box resting exactly on a floor (and within round-off of it), turned floors, far from the
  // origin: moving away or sliding along gives no hit, so a cast-and-slide loop moves the whole
  // motion; moving into the floor gives time 0. Far from the origin the floor is not turned: a
  // turned pose there is rounded by more than the touching band of the shapes (1e-3 at 1e4 in
  // float), so the pair would not be touching but overlapping.
  const Shape floor = make_box(50, 1).value(), box = make_box(R(0.5), R(0.5)).value();
  const double far = kFloat ? 1e4 : 1e8;
  int checked = 0;
  for (const double origin : {0.0, far}) {
    for (const double angle : {0.0, 0.3, -1.2}) {
      if (origin != 0 && angle != 0) continue;
      const Rot turn = Rot::from_angle(R(angle));
      const Transform floor_pose{{R(origin), R(-origin)}, turn};
      for (const double lift : {0.0, 0.25 * double(contact_tolerance(64))}) {  // on it, and a quarter band above
        // On top of the floor (local y = 1.5 above its centre), shifted along it.
        const Transform box_pose{transform_point(floor_pose, {R(3), R(1.5 + lift)}), turn};
        const Vec2 up = rotate(turn, {0, 1}), along = rotate(turn, {1, 0});
        SCOPED_TRACE("origin " + std::to_string(origin) + " angle " + std::to_string(angle) + " lift " + std::to_string(lift));
        EXPECT_FALSE(shape_cast(floor, floor_pose, box, box_pose, R(2) * up).has_value());
        EXPECT_FALSE(shape_cast(floor, floor_pose, box, box_pose, R(5) * along).has_value());
        EXPECT_FALSE(shape_cast(floor, floor_pose, box, box_pose, R(5) * along + R(0.5) * up).has_value());
        const std::optional<CastHit> into = shape_cast(floor, floor_pose, box, box_pose, R(-1) * up + R(2) * along);
        ASSERT_TRUE(into.has_value());
        EXPECT_EQ(into->time, 0);
        EXPECT_TRUE(into->initially_touching);
        EXPECT_NEAR(dot(into->normal, up), 1, 1e-5);
        // Through the Shape variant, and against a floor cut into pieces (a compound).
        EXPECT_FALSE(shape_cast(Shape{floor}, floor_pose, Shape{box}, box_pose, R(5) * along).has_value());
        checked += 5;
      }
    }
  }
  // A corner on a face, and a circle on a polygon's vertex.
  const Shape circle = Circle{{}, R(0.5)};
  const Real diagonal = std::sqrt(R(0.5)) * R(0.5);
  const Transform on_corner{{R(0.5) + diagonal, R(0.5) + diagonal}, {}};
  EXPECT_FALSE(shape_cast(box, {}, circle, on_corner, {R(1), R(1)}).has_value());
  EXPECT_FALSE(shape_cast(box, {}, circle, on_corner, {R(1), R(-1)}).has_value());  // along the tangent at the vertex
  const std::optional<CastHit> into_corner = shape_cast(box, {}, circle, on_corner, {R(-1), R(0)});
  ASSERT_TRUE(into_corner.has_value());
  EXPECT_EQ(into_corner->time, 0);
  // Overlapping well beyond the band: time 0 whatever the motion.
  const std::optional<CastHit> deep = shape_cast(floor, {}, box, Transform{{0, R(1.2)}, {}}, {0, R(5)});
  ASSERT_TRUE(deep.has_value());
  EXPECT_EQ(deep->time, 0);
  EXPECT_TRUE(deep->initially_touching);
  EXPECT_GT(checked, 0);
}

TEST(ShapeCast, PairsTouchingAtACornerMovingInReportZero) {
  // Two shapes sharing a vertex exactly touch with a gap of 0, where GJK's and EPA's normals can
  // be any direction: a motion that pushes one into the other must still give time 0. The first
  // case is the fuzzer's (a segment and a triangle under the same turned pose, moved by (-32, -32):
  // 3.4 deep a quarter of the way, once reported as no hit). Then random triangles sharing a
  // vertex: when the brute-force signed distance (double) shows B sinking into A early on the
  // motion, the cast must hit at time 0; when it shows B moving clear, the cast must not stall.
  const Real step = std::ldexp(R(1), -10);
  const Shape segment_a = segment({-54228 * step, -54228 * step}, {-9684 * step, -52234 * step});
  const Shape triangle_b = polygon({{-64, -64}, {-54242 * step, -64}, {-54228 * step, -54228 * step}});
  const Transform pose{{-32, -32}, Rot::from_angle(R(32767 * std::numbers::pi / 32768))};
  const std::optional<CastHit> fuzzed = shape_cast(segment_a, pose, triangle_b, pose, {-32, -32});
  ASSERT_TRUE(fuzzed.has_value());
  EXPECT_EQ(fuzzed->time, 0);
  EXPECT_TRUE(fuzzed->initially_touching);

  std::mt19937 random(20261124);
  std::uniform_real_distribution<double> coordinate(-4, 4), angle(-std::numbers::pi, std::numbers::pi);
  auto grid = [&] { return R(std::round(coordinate(random) * 64) / 64); };
  int sinking = 0, clearing = 0, stalled = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const Vec2 shared{grid(), grid()};
    const Result<Polygon> made_a = make_polygon(std::vector<Vec2>{shared, {grid(), grid()}, {grid(), grid()}});
    const Result<Polygon> made_b = make_polygon(std::vector<Vec2>{shared, {grid(), grid()}, {grid(), grid()}});
    if (!made_a || !made_b) continue;
    const Shape a = made_a.value(), b = made_b.value();
    // Only pairs that touch at the shared vertex alone (their interiors apart) are asked.
    if (shape_sd(world_core<double>(a, {}), world_core<double>(b, {})) < -1e-12) continue;
    const Vec2 motion = R(4) * Vec2{std::cos(R(angle(random))), std::sin(R(angle(random)))};
    double least = 0;
    for (const double time : {1e-3, 1e-2, 0.05}) {
      const Transform moved{R(time) * motion, {}};
      least = std::min(least, shape_sd(world_core<double>(a, {}), world_core<double>(b, moved)));
    }
    const double band = 64 * static_cast<double>(contact_tolerance(8));
    const std::optional<CastHit> hit = shape_cast(a, {}, b, {}, motion);
    SCOPED_TRACE("trial " + std::to_string(trial) + " shared " + str(shared) + " motion " + str(motion));
    if (least < -band) {
      ++sinking;
      ASSERT_TRUE(hit.has_value());
      EXPECT_EQ(hit->time, 0);
    } else if (least >= 0) {  // never overlapping at the samples: moving clear or along a side
      if (!hit || hit->time > 0) ++clearing;
      else ++stalled;  // a conservative time 0 while the brute force sees B clear: counted, bounded below
    }  // in between: within the band, too close to call
  }
  std::printf("corner contacts: %d sinking (all hit at 0), %d moving clear, %d conservative stops\n", sinking, clearing, stalled);
  EXPECT_GT(sinking, 500);
  EXPECT_GT(clearing, 500);
  EXPECT_LE(stalled, clearing / 100);
}

TEST(ShapeCast, APointMeetingTheEndOfAThinCapsuleHasAUnitNormal) {
  // From the pair-query fuzzer: a point (a circle of radius 0) cast onto the end of a capsule of
  // radius 0.0005 that shares its local end point. At the contact EPA's polytope held a repeated
  // point, whose zero-length edge was taken as the nearest with a zero normal: the hit's normal
  // was (0, 0). Every hit's normal is unit, and the contact is not late.
  const Shape point = Circle{{-64, -64}, 0};
  const Shape capsule = Capsule{{-64, -64}, {R(4.5), R(1718.0 / 1024)}, R(1.0 / 2048)};
  const Rot turn = Rot::from_angle(R(7838) * R(3.14159265358979) / 32768);
  const Transform point_pose{{15676, 15676}, turn}, capsule_pose{{31352, 31352}, turn};
  const Vec2 motion{-131072, -131072};
  const std::optional<CastHit> hit = shape_cast(point, point_pose, capsule, capsule_pose, motion);
  ASSERT_TRUE(hit.has_value());
  EXPECT_NEAR(length(hit->normal), 1, 1e-5);
  const Transform before{capsule_pose.position + (hit->time * R(0.999)) * motion, turn};
  EXPECT_FALSE(overlap(point, point_pose, capsule, before) && penetration(point, point_pose, capsule, before)->depth > R(1e-2));
}

TEST(ShapeCast, APointEnteringAPolygonBesideAnAlmostFlatVertexHits) {
  // From the mover fuzzer: a point (a circle of radius 0) passes 0.0045 from a vertex whose two
  // edges turn by 0.1 degrees (where a cut of a concave outline meets it), into the polygon. The
  // two edges' lines are crossed within round-off of each other; the later crossing was the one
  // 0.0045 past its edge's end, taken as the vertex's region, whose circle of radius 0 it missed:
  // no hit, and a mover went 49 into a compound. The oracle: the clip of the ray against the
  // edges in long double, whose entry is the first contact.
  const std::vector<Vec2> corners = {{-0x1.8c1p+5f, -0x1.09a4p+7f}, {0x1.fd84p+7f, 0x1.898p+5f}, {0x1.fffcp+7f, 0x1.fffcp+7f},
                                     {-0x1.fcb8p+7f, 0x1.fffcp+7f}, {-0x1p+8f, -0x1p+8f}};
  const Shape polygon = make_polygon(corners).value();
  const Shape point = Circle{{-0x1p+5f, -0x1p+5f}, 0};
  const Transform point_pose{{-0x1p+10f, -0x1.fd9cp+9f}, {}};
  const Transform polygon_pose{{-0x1.0d5e3cp+10f, -0x1.2e2a7ap+10f}, {-0x1p+0f, 0x1.777a5cp-24f}};
  const Vec2 motion{-0x1.f965p+5f, 0x1.bc02cp+5f};  // the polygon's
  // The point's path in the polygon's frame, in long double, clipped against the edges.
  using Long = long double;
  const Long c = polygon_pose.rotation.cosine, s = polygon_pose.rotation.sine;
  const Long px = Long(point_pose.position.x) + point_pose.rotation.cosine * Long(-32) - point_pose.rotation.sine * Long(-32) - polygon_pose.position.x;
  const Long py = Long(point_pose.position.y) + point_pose.rotation.sine * Long(-32) + point_pose.rotation.cosine * Long(-32) - polygon_pose.position.y;
  const Long ox = c * px + s * py, oy = -s * px + c * py;  // the point, turned into the polygon's frame
  const Long dx = -(c * motion.x + s * motion.y), dy = -(-s * motion.x + c * motion.y);  // its motion there
  Long entry = 0, leave = 1;
  for (std::size_t i = 0; i < corners.size(); ++i) {
    const Vec2 a = corners[i], b = corners[(i + 1) % corners.size()];
    const Long nx = Long(b.y) - a.y, ny = Long(a.x) - b.x;  // outward (counter-clockwise corners)
    const Long offset = nx * (a.x - ox) + ny * (a.y - oy), approach = nx * dx + ny * dy;
    if (approach < 0) entry = std::max(entry, offset / approach);
    if (approach > 0) leave = std::min(leave, offset / approach);
  }
  ASSERT_LT(entry, leave - Long(0.1));  // the point's path runs well inside the polygon
  for (const bool point_first : {true, false}) {
    SCOPED_TRACE(point_first);
    const std::optional<CastHit> hit = point_first ? shape_cast(point, point_pose, polygon, polygon_pose, motion)
                                                   : shape_cast(polygon, polygon_pose, point, point_pose, -motion);
    ASSERT_TRUE(hit.has_value());
    EXPECT_NEAR(hit->time, static_cast<Real>(entry), R(1e-4));
    EXPECT_LE(hit->time, static_cast<Real>(entry));
    EXPECT_NEAR(length(hit->normal), 1, R(1e-5));
  }
}

TEST(ShapeCast, APointTouchingAnAlmostFlatVertexAndMovingInHitsAtTimeZero) {
  // From the mover fuzzer: the same polygon, a point 0.0005 outside it beside its 0.07-degree
  // vertex, over the edge that leaves the vertex, moving steeply in. The separations from the two
  // edges' lines differ there by less than their normals' round-off, and the edge ranked first was
  // the one whose end the point lies past, so the nearest feature was the vertex, 0.0025 away:
  // beyond the touching band, so the cast ran as from apart, from inside the swept band, and
  // found nothing. A mover slid off a seam's corner and ended 104 inside a compound. The oracles,
  // in long double: the least distance to the edges, and the clip of the point's path against
  // them, whose entry the cast must not pass, both ways round.
  const std::vector<Vec2> corners = {{-0x1.8c1p+5f, -0x1.09a4p+7f}, {0x1.fd84p+7f, 0x1.898p+5f}, {0x1.fffcp+7f, 0x1.fffcp+7f},
                                     {-0x1.fcb8p+7f, 0x1.fffcp+7f}, {-0x1p+8f, -0x1p+8f}};
  const Polygon polygon = make_polygon(corners).value();
  const Vec2 vertex = corners[0];
  auto oracle_distance = [&](Vec2 p) {
    long double least = 1e30L;
    for (std::size_t i = 0; i < corners.size(); ++i) {
      const Vec2 a = corners[i], b = corners[(i + 1) % corners.size()];
      const long double ex = b.x - a.x, ey = b.y - a.y, px = (long double)p.x - a.x, py = (long double)p.y - a.y;
      const long double t = std::clamp((px * ex + py * ey) / (ex * ex + ey * ey), 0.0L, 1.0L);
      least = std::min(least, std::hypot(px - t * ex, py - t * ey));
    }
    return least;
  };
  // Around the vertex, every point outside the polygon: its distance as the oracle gives it, to
  // the round-off of the coordinates.
  int outside = 0;
  for (const Real radius : {R(1e-4), R(5e-4), R(2.5e-3), R(1e-2), R(0.1)}) {
    for (int k = 0; k < 256; ++k) {
      const Real angle = R(2 * 3.14159265358979323846) * R(k) / 256;
      const Vec2 p = vertex + radius * Vec2{std::cos(angle), std::sin(angle)};
      const PointProjection projection = closest_point(Shape{polygon}, Transform{}, p);
      if (projection.signed_distance <= 0) continue;
      ++outside;
      EXPECT_NEAR(projection.signed_distance, static_cast<Real>(oracle_distance(p)), round_off(coordinate_magnitude(p) + 512))
          << "radius " << radius << " angle step " << k;
    }
  }
  EXPECT_GT(outside, 500);
  const Shape point = Circle{{-49.505497f, -132.819489f}, 0};
  const Vec2 motion{-74.783890f, 65.104034f};  // the point's, against the polygon
  ASSERT_NEAR(closest_point(Shape{polygon}, Transform{}, std::get<Circle>(point).center).signed_distance, R(0.00048), R(0.0002));
  // Where the point's path enters the polygon: its clip against the edges in long double.
  const Vec2 start = std::get<Circle>(point).center;
  long double entry = 0, leave = 1;
  for (std::size_t i = 0; i < corners.size(); ++i) {
    const Vec2 a = corners[i], b = corners[(i + 1) % corners.size()];
    const long double nx = (long double)b.y - a.y, ny = (long double)a.x - b.x;  // outward (counter-clockwise corners)
    const long double offset = nx * (a.x - start.x) + ny * (a.y - start.y), approach = nx * motion.x + ny * motion.y;
    if (approach < 0) entry = std::max(entry, offset / approach);
    if (approach > 0) leave = std::min(leave, offset / approach);
  }
  ASSERT_LT(entry, leave - 0.1L);
  for (const bool point_first : {true, false}) {
    SCOPED_TRACE(point_first);
    const std::optional<CastHit> hit = point_first ? shape_cast(point, Transform{}, Shape{polygon}, Transform{}, -motion)
                                                   : shape_cast(Shape{polygon}, Transform{}, point, Transform{}, motion);
    // Met where the path enters (5e-6), up to the touching band of the coordinates over the speed:
    // in float that band holds the start, so at once.
    ASSERT_TRUE(hit.has_value());
    EXPECT_LE(hit->time, static_cast<Real>(entry));
    EXPECT_NEAR(hit->time, static_cast<Real>(entry), 2 * contact_tolerance(coordinate_magnitude(start) + 512) / length(motion));
    EXPECT_EQ(hit->initially_touching, hit->time == 0);
    EXPECT_NEAR(length(hit->normal), 1, R(1e-5));
  }
}

TEST(ShapeCast, ASupportPointGjkDropsIsConvergenceNotACapAtTimeZero) {
  // From the pair-query fuzzer: a point (a circle of radius 0) inside the end of a capsule of
  // radius 128 and length 1.6e5, in float. The cores' difference is a segment whose near end lies
  // off the origin square to it, by less than the round-off of its length: GJK's reduction kept
  // dropping the far end it had just added, until its cap. The cast then ended "capped at time 0",
  // not flagged initially_touching, for a pair overlapping by 128. The same geometry is built from
  // each precision's epsilon (see Gjk.ASupportPointTheReductionDropsEndsTheLoopNotTheCap).
  const Real length_along = 131072;
  const Real offset = length_along * real_epsilon / 8;
  const Vec2 near_end{-offset, offset};
  const Vec2 far_end = near_end + Vec2{length_along, length_along};
  const Circle point{{}, 0};
  const Capsule capsule{far_end, near_end, 1};  // the far end first: a support square to the capsule ties, and takes it
  // Overlapping by the radius less offset x sqrt(2), and moving apart along the capsule: touching at time 0.
  for (const Vec2 motion : {Vec2{length_along, length_along}, Vec2{R(0.5), 0}}) {
    const std::optional<CastHit> hit = shape_cast(point, Transform{}, capsule, Transform{}, motion);
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->status, IterationStatus::converged);
    EXPECT_TRUE(hit->initially_touching);
    EXPECT_EQ(hit->time, 0);
  }
  // Two segments (the generic GJK ray cast): A a point, B the bare core, B closing on A along the
  // offset at four times its length per unit time. Contact at a quarter, a half band early at most.
  const Segment point_segment{{}, {}};
  const Segment core{far_end, near_end};
  const Vec2 closing = Real(-4) * near_end;
  const std::optional<CastHit> hit = shape_cast(point_segment, Transform{}, core, Transform{}, closing);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->status, IterationStatus::converged);
  EXPECT_FALSE(hit->initially_touching);
  EXPECT_NEAR(double(hit->time), 0.25, 1e-3);
  EXPECT_LE(hit->time, R(0.25));
  EXPECT_NEAR(double(hit->normal.x), -1 / std::sqrt(2.0), 1e-5);
  EXPECT_NEAR(double(hit->normal.y), 1 / std::sqrt(2.0), 1e-5);
}

TEST(ShapeCast, StopsWithinTheFeaturesBandOrAtTheTargetSeparation) {
  // A box dropped 2 units onto floors of half-width 10 to 5000: the gap left scales with the
  // round-off of the floor's coordinates (its face's vertices), not 8 x 64 epsilons of the sizes
  // (which left 0.0003 / 0.003 / 0.03 / 0.15 before).
  const Shape box = make_box(R(0.5), R(0.5)).value();
  for (const double half_width : {10.0, 100.0, 1000.0, 5000.0}) {
    const Shape floor = make_box(R(half_width), 1).value();
    const Transform start{{R(3), R(3.5)}, {}};
    for (const double target : {0.0, 0.01}) {
      CastOptions options;
      options.target_separation = R(target);
      const std::optional<CastHit> hit = shape_cast(floor, {}, box, start, {0, R(-4)}, options);
      ASSERT_TRUE(hit.has_value());
      const double bottom = 3.5 - 4 * double(hit->time) - 0.5;
      const double gap = bottom - 1;
      const double band = double(contact_tolerance(R(2 * half_width + 8)));
      std::printf("floor half-width %g, target %g: stopped %.3g above\n", half_width, target, gap);
      EXPECT_GE(gap, target - 1e-12);
      EXPECT_LE(gap, target + band + 1e-12);
    }
  }
}

TEST(ShapeCast, ACirclePassingABoxCornerAgainstTheClosedForm) {
  // A circle of radius 0.5 moves 10 along x past the top-left corner (-1, 1) of a box of half
  // extents 1, its centre at height 1.5 - depth above the box's centre: depth in (0, 0.5) meets the
  // corner, where the centre is sqrt(depth (1 - depth)) left of it; negative depth passes clear. The
  // shallow depths graze: the gap closes slowly there, which takes shape_cast's steps the longest.
  // Near the origin and far from it (1e5 in float, 1e8 in double), and with the shapes' roles
  // swapped (the box moving the other way): the same time, the normal turned, the same point.
  const Shape disc = circle(R(0.5)), square = box(1, 1);
  int hits = 0, misses = 0;
  for (const double offset : {0.0, kFloat ? 1e5 : 1e8}) {
    const Transform box_pose = at(offset, offset);
    for (const double depth : {0.4, 0.1, 0.05, 1e-2, 1e-3, 1e-4, 1e-5, -1e-5, -1e-3, -0.05, -0.1}) {
      const Transform circle_pose = at(offset - 5, offset + 1.5 - depth);
      // The oracle works with the heights the poses hold (rounded far from the origin) and calls a
      // depth within 8 touching bands of the grazing height too close to call.
      const double height = static_cast<double>(circle_pose.position.y) - static_cast<double>(box_pose.position.y);
      const double start_x = static_cast<double>(circle_pose.position.x) - static_cast<double>(box_pose.position.x);
      const double held_depth = 1.5 - height;
      const double band = static_cast<double>(contact_tolerance(R(16)));
      if (std::abs(held_depth) <= 8 * band) continue;
      const Vec2 motion{10, 0};
      SCOPED_TRACE("offset " + std::to_string(offset) + " depth " + std::to_string(held_depth));
      const std::optional<CastHit> hit = shape_cast(square, box_pose, disc, circle_pose, motion);
      const std::optional<CastHit> swapped = shape_cast(disc, circle_pose, square, box_pose, -motion);
      if (held_depth < 0) {
        EXPECT_FALSE(hit.has_value());
        EXPECT_FALSE(swapped.has_value());
        ++misses;
        continue;
      }
      ASSERT_TRUE(hit.has_value());
      ASSERT_TRUE(swapped.has_value());
      EXPECT_EQ(hit->status, IterationStatus::converged);
      EXPECT_FALSE(hit->initially_touching);
      // The centre's height above the corner, and where along x it first touches.
      const double above = height - 1, across = std::sqrt(0.25 - above * above);
      const double contact_x = -1 - across;
      const double expected_time = (contact_x - start_x) / 10;
      // A gap within the band at the hit moves the time by up to the band over the closing speed
      // along the normal (across / 0.5 of the motion); far away, the world point is rounded too.
      const double travel_band = 4 * band / (across / 0.5) + 4 * double(real_epsilon) * 10;
      const double spacing = 2 * double(real_epsilon) * offset;
      const P normal{-across / 0.5, above / 0.5};  // from the corner to the centre
      for (const CastHit* h : {&*hit, &*swapped}) {
        EXPECT_GE(h->time * 10, expected_time * 10 - travel_band) << "time " << h->time << " expected " << expected_time;
        EXPECT_LE(h->time * 10, expected_time * 10 + travel_band) << "time " << h->time << " expected " << expected_time;
        // The corner, where the box is at that time (it moves back by the motion when swapped).
        const double box_moved = h == &*swapped ? -10 * static_cast<double>(h->time) : 0;
        const P world_point = dp(h->point) - P{offset + box_moved, offset};
        EXPECT_LE(norm(world_point - P{-1, 1}), travel_band + spacing) << "point " << str(h->point);
      }
      EXPECT_LE(norm(dp(hit->normal) - normal), 1e-4 + 2 * std::sqrt(travel_band)) << "normal " << str(hit->normal);
      EXPECT_LE(norm(dp(swapped->normal) + normal), 1e-4 + 2 * std::sqrt(travel_band)) << "normal " << str(swapped->normal);
      EXPECT_NEAR(static_cast<double>(hit->time), static_cast<double>(swapped->time), 2 * travel_band / 10);
      ++hits;
    }
  }
  std::printf("circle past a box corner: %d hits, %d misses against the closed form\n", hits, misses);
  EXPECT_GE(hits, kFloat ? 9 : 14);
  EXPECT_GE(misses, kFloat ? 5 : 8);
}

// shape_cast() with a circle on either side is closed form (the circle's centre along a ray
// against the other core swept by the radii). Random circles cast at every convex kind, near the
// origin and far from it (1e5 in float, 1e8 in double), in both roles, against a long-double
// oracle in the core's frame: the gap along the centre's path (convex in time) from the exact
// distance to the core. A hit that is not initially touching must leave a gap within the band at
// its time, with no overlap before it, the normal and point of that pose, and the mirrored call
// (B's motion reversed, the roles swapped) must pass the same checks and agree; an empty answer
// must never overlap; a pair overlapping at time 0 must report it. The band is the documented
// touching band of the magnitudes in the frame the cast works in; cases within it are the
// oracle's to skip, never the code's.
TEST(ShapeCast, CirclesAgainstEveryCoreInClosedForm) {
  struct LongCore {
    std::vector<LP> vertices;  // local frame: 1 (a circle's centre), 2 (a segment) or a counter-clockwise polygon
    L radius = 0;
  };
  // The signed distance from p to the core (negative: the deepest edge separation inside a
  // polygon), and the nearest core point when outside.
  auto core_distance = [&](const LongCore& core, LP p, LP* nearest) {
    auto to_segment = [&](LP a, LP b, LP* at) {
      const LP e = b - a;
      const L ee = dot(e, e);
      L s = ee > 0 ? dot(p - a, e) / ee : 0;
      s = std::clamp(s, L(0), L(1));
      *at = LP{a.x + s * e.x, a.y + s * e.y};
      return norm(p - *at);
    };
    const std::size_t n = core.vertices.size();
    if (n == 1) {
      *nearest = core.vertices[0];
      return norm(p - core.vertices[0]);
    }
    if (n == 2) return to_segment(core.vertices[0], core.vertices[1], nearest);
    L deepest = -std::numeric_limits<L>::infinity();
    for (std::size_t i = 0; i < n; ++i) {
      const LP a = core.vertices[i], b = core.vertices[(i + 1) % n];
      const LP edge = b - a;
      const LP normal{edge.y / norm(edge), -edge.x / norm(edge)};
      deepest = std::max(deepest, dot(normal, p - a));
    }
    if (deepest <= 0) {
      *nearest = p;
      return deepest;
    }
    L best = std::numeric_limits<L>::infinity();
    for (std::size_t i = 0; i < n; ++i) {
      LP at;
      const L d = to_segment(core.vertices[i], core.vertices[(i + 1) % n], &at);
      if (d < best) {
        best = d;
        *nearest = at;
      }
    }
    return best;
  };

  random_shapes::Generator gen(52017);
  const random_shapes::Kind kinds[] = {random_shapes::Kind::polygon, random_shapes::Kind::box, random_shapes::Kind::large_polygon,
                                       random_shapes::Kind::rounded_polygon, random_shapes::Kind::circle, random_shapes::Kind::capsule,
                                       random_shapes::Kind::segment};
  int hits = 0, empties = 0, initially = 0, skipped = 0;
  for (const double offset : {0.0, 1e3, kFloat ? 1e5 : 1e8}) {
    for (int trial = 0; trial < 700; ++trial) {
      SCOPED_TRACE("offset " + std::to_string(offset) + " trial " + std::to_string(trial));
      const Shape core_shape = gen.shape(kinds[trial % 7], gen.size());
      const Real core_size = size_scale(core_shape);
      const Circle disc{gen.local_offset(core_size), gen.size() * gen.uniform(0.3, 1.0)};
      const Real disc_size = size_scale(Shape{disc});
      const Real sizes = core_size + disc_size;
      const Transform core_pose{Vec2{R(offset), R(-offset)} + gen.uniform(0, 10) * gen.direction(), Rot::from_angle(gen.angle())};
      const Real start_distance = sizes * (gen.chance(0.1) ? gen.uniform(0.0, 0.9) : gen.uniform(1.05, 2.5));
      const Transform disc_pose{core_pose.position + start_distance * gen.direction(), Rot::from_angle(gen.angle())};
      const Vec2 aim = core_pose.position + sizes * gen.uniform(0, 1.2) * gen.direction();
      const Vec2 motion = gen.uniform(0.5, 2.0) * (aim - disc_pose.position);

      // The oracle, in the core's frame.
      LongCore core;
      random_shapes::visit_convex(
          [&](const auto& concrete) {
            using S = std::decay_t<decltype(concrete)>;
            if constexpr (std::is_same_v<S, Circle>) {
              core.vertices = {lp(concrete.center)};
              core.radius = concrete.radius;
            } else if constexpr (std::is_same_v<S, Capsule> || std::is_same_v<S, Segment>) {
              core.vertices = {lp(concrete.a), lp(concrete.b)};
              if constexpr (std::is_same_v<S, Capsule>) core.radius = concrete.radius;
            } else if constexpr (std::is_same_v<S, Polygon>) {
              for (Vec2 v : concrete.vertices()) core.vertices.push_back(lp(v));
              core.radius = concrete.radius();
            }
          },
          core_shape);
      const LP placed = turn(disc_pose, lp(disc.center));
      const LP start = turn_back(core_pose, LP{(static_cast<L>(disc_pose.position.x) - core_pose.position.x) + placed.x,
                                               (static_cast<L>(disc_pose.position.y) - core_pose.position.y) + placed.y});
      const LP path = turn_back(core_pose, lp(motion));
      const L radii = core.radius + disc.radius;
      auto centre_at = [&](L t) { return LP{start.x + t * path.x, start.y + t * path.y}; };
      auto gap = [&](L t) {
        LP nearest;
        return core_distance(core, centre_at(t), &nearest) - radii;
      };
      // The smallest gap over [0, upto]: the gap is convex in t, so a ternary search finds it.
      auto least_gap = [&](L upto) {
        L low = 0, high = upto;
        for (int step = 0; step < 200; ++step) {
          const L m1 = low + (high - low) / 3, m2 = high - (high - low) / 3;
          if (gap(m1) < gap(m2)) high = m2;
          else low = m1;
        }
        return std::min({gap(0), gap(upto), gap((low + high) / 2)});
      };
      // The documented band (docs/conventions.md) of the sizes, the moving centre's two ends and
      // what placing it rounded (its offset there and its turned local centre, as collide() counts
      // it), in the frame the cast works in: the core's; for two circles, the first one's, which is
      // the disc's when the roles are swapped (the core circle's centre, moving by -motion, seen
      // from it).
      auto band_of = [&](LP from, LP moved_by, LP turned) {
        return 16 * static_cast<L>(real_epsilon) *
               (core_size + disc_size + 2 * magnitude(from) + magnitude(LP{from.x + moved_by.x, from.y + moved_by.y}) + magnitude(turned));
      };
      L swapped_band = band_of(start, path, placed);
      if (std::holds_alternative<Circle>(core_shape)) {
        const LP core_turned = turn(core_pose, lp(std::get<Circle>(core_shape).center));
        const LP from_disc = turn_back(disc_pose, LP{(static_cast<L>(core_pose.position.x) - disc_pose.position.x) + core_turned.x,
                                                     (static_cast<L>(core_pose.position.y) - disc_pose.position.y) + core_turned.y});
        const LP back = turn_back(disc_pose, lp(-motion));
        swapped_band = band_of(from_disc, back, core_turned);
      }
      const L given_band = band_of(start, path, placed), band = std::max(given_band, swapped_band);
      const L least = least_gap(1), at_start = gap(0);
      if (std::abs(least) <= 4 * band || std::abs(at_start) <= 4 * band) {
        ++skipped;  // grazing, or touching at the start: too close to call
        continue;
      }
      const std::optional<CastHit> hit = random_shapes::visit_convex(
          [&](const auto& concrete) { return shape_cast(concrete, core_pose, disc, disc_pose, motion); }, core_shape);
      const std::optional<CastHit> swapped = random_shapes::visit_convex(
          [&](const auto& concrete) { return shape_cast(disc, disc_pose, concrete, core_pose, -motion); }, core_shape);
      if (least > 0) {
        EXPECT_FALSE(hit.has_value()) << "time " << hit->time;
        EXPECT_FALSE(swapped.has_value());
        ++empties;
        continue;
      }
      ASSERT_TRUE(hit.has_value());
      ASSERT_TRUE(swapped.has_value());
      for (const CastHit* h : {&*hit, &*swapped}) {
        EXPECT_EQ(h->status, IterationStatus::converged);
        EXPECT_EQ(h->iterations, 0);
      }
      if (at_start < 0) {
        EXPECT_TRUE(hit->initially_touching);
        EXPECT_TRUE(swapped->initially_touching);
        EXPECT_EQ(hit->time, 0);
        ++initially;
        continue;
      }
      EXPECT_FALSE(hit->initially_touching);
      EXPECT_FALSE(swapped->initially_touching);
      // Each answer on its own: the gap within the band at its time, no overlap before, and that
      // pose's normal (core to centre) and point midway between the surfaces, in the world (the
      // swapped call's normal runs the other way, and its point is where the core is then).
      const L normal_band = 64 * band / radii + 64 * static_cast<L>(real_epsilon);
      const L point_band = 8 * band + 8 * static_cast<L>(real_epsilon) * (2 * static_cast<L>(offset) + 20);
      L closing = 0;  // how fast the gap closes at the hit's time (the centre's speed along the normal)
      for (const bool roles_swapped : {false, true}) {
        const CastHit& answer = roles_swapped ? *swapped : *hit;
        SCOPED_TRACE(roles_swapped ? "swapped" : "as given");
        const L time = answer.time, own_band = roles_swapped ? swapped_band : given_band;
        EXPECT_GE(gap(time), -own_band) << "overlapping at the time returned";
        EXPECT_LE(gap(time), own_band) << "apart by more than the band at the time returned";
        EXPECT_GE(least_gap(time), -own_band) << "an overlap before the time returned";
        LP nearest;
        const LP centre = centre_at(time);
        const L distance = core_distance(core, centre, &nearest);
        const LP normal{(centre.x - nearest.x) / distance, (centre.y - nearest.y) / distance};
        if (!roles_swapped) closing = -dot(path, normal);
        const L midway = core.radius + (distance - radii) / 2;
        const LP local_point{nearest.x + midway * normal.x, nearest.y + midway * normal.y};
        const L sign = roles_swapped ? -1 : 1, moved_back = roles_swapped ? time : 0;
        const LP world_normal = turn(core_pose, normal), world_offset = turn(core_pose, local_point);
        const LP world_point{world_offset.x + core_pose.position.x - moved_back * motion.x,
                             world_offset.y + core_pose.position.y - moved_back * motion.y};
        EXPECT_LE(norm(LP{answer.normal.x - sign * world_normal.x, answer.normal.y - sign * world_normal.y}), normal_band)
            << "normal " << str(answer.normal);
        EXPECT_LE(norm(lp(answer.point) - world_point), point_band) << "point " << str(answer.point);
      }
      // The same time both ways, to what the band moves it at this closing speed.
      EXPECT_NEAR(static_cast<double>(swapped->time), static_cast<double>(hit->time),
                  static_cast<double>(4 * band / std::max(closing, static_cast<L>(1e-30)) + 4 * real_epsilon));
      ++hits;
    }
  }
  std::printf("circle casts in closed form: %d hits, %d overlapping at the start, %d empty, %d too close to call\n", hits, initially,
              empties, skipped);
  EXPECT_GT(hits, 600);
  EXPECT_GT(empties, 300);
}

TEST(Raycast, ACircleHitByATinyTranslationOverAHugeFraction) {
  // The ray's direction is only scaled: in float, a translation so short that its squared length
  // underflows (1e-30) over a fraction that makes up for it meets the circle where a unit
  // translation does (the length is then taken in double), and so does one whose square does not
  // underflow. Double has no wider root: its limit is components above about 1e-150 (math.hpp).
  const Shape disc = circle(1);
  for (const double tiny : {kFloat ? 1e-30 : 1e-140, 1e-10}) {
    SCOPED_TRACE("translation " + std::to_string(tiny));
    const Ray ray{{-2, R(0.5)}, {R(tiny), 0}, R(4 / tiny)};
    const std::optional<RayHit> hit = raycast(disc, at(0, 0), ray);
    ASSERT_TRUE(hit.has_value());
    const double across = std::sqrt(1 - 0.25);  // where the line y = 0.5 meets the unit circle
    EXPECT_NEAR(double(hit->fraction) * tiny, 2 - across, 1e-5);
    EXPECT_NEAR(hit->point.x, -across, 1e-5);
    EXPECT_NEAR(hit->normal.x, -across, 1e-5);
    EXPECT_NEAR(hit->normal.y, 0.5, 1e-5);
  }
}

// A circle's ray is solved in one root from squares of products (r^2 |d|^2, cross(d, s)^2) where
// those are normal numbers not too near overflow, and over |d| (two roots) outside that range. Both
// forms against the closed form in long double: radii from 1e-12 to 1e15 and translations from
// 1e-15 to 1e15 long (1e-60 to 1e60 and 1e-150 to 1e60 in double), so that r^2 |d|^2 runs from
// underflow to overflow; the circle's centre away from its pose's position and turned; rays
// passing at most 0.9 radii from the centre, where the normal is well conditioned. Checked: the
// fraction (times |d|, a distance) and the point within 64 epsilons of the coordinates' magnitude,
// the normal within 64 epsilons of |origin - centre| over the radius, and its length.
TEST(Raycast, CircleRaysAtEveryScaleMatchTheClosedForm) {
  using Long = long double;
  std::mt19937 random(2026);
  std::uniform_real_distribution<double> unit(-1, 1);
  const double radius_exponents[2] = {-12, kFloat ? 15.0 : 60.0};
  const double length_exponents[2] = {kFloat ? -15.0 : -150.0, kFloat ? 15.0 : 60.0};
  int scaled_form = 0, form_over_length = 0;
  for (int radius_step = 0; radius_step <= 9; ++radius_step) {
    for (int length_step = 0; length_step <= 9; ++length_step) {
      const Real radius = R(std::pow(10.0, radius_exponents[0] + (radius_exponents[1] - radius_exponents[0]) * radius_step / 9));
      const Real length = R(std::pow(10.0, length_exponents[0] + (length_exponents[1] - length_exponents[0]) * length_step / 9));
      const Long scaled = Long(radius) * Long(radius) * Long(length) * Long(length);
      const bool in_range = scaled >= Long(std::numeric_limits<Real>::min()) * 4 && scaled <= Long(std::numeric_limits<Real>::max()) / 64 &&
                            Long(radius) * radius >= 1e-18L && Long(length) * length >= 1e-18L;
      ++(in_range ? scaled_form : form_over_length);
      for (int trial = 0; trial < 8; ++trial) {
        SCOPED_TRACE("radius " + std::to_string(double(radius)) + ", translation " + std::to_string(double(length)) + ", trial " +
                     std::to_string(trial));
        const Transform pose = Transform::from({R(radius * 3 * unit(random)), R(radius * 3 * unit(random))}, R(3 * unit(random)));
        const Vec2 local_center{R(radius * unit(random)), R(radius * unit(random))};
        const Real heading = R(3 * unit(random));
        const Vec2 along{std::cos(heading), std::sin(heading)};
        const Vec2 center = transform_point(pose, local_center);
        const Vec2 origin = center - R(4) * radius * along + R(0.9 * unit(random)) * radius * left_perpendicular(along);
        const Ray ray{origin, length * along, R(8) * radius / length};
        // The closed form from the inputs as they are, in long double: the centre placed exactly.
        const Long center_x = Long(pose.position.x) + Long(pose.rotation.cosine) * local_center.x - Long(pose.rotation.sine) * local_center.y;
        const Long center_y = Long(pose.position.y) + Long(pose.rotation.sine) * local_center.x + Long(pose.rotation.cosine) * local_center.y;
        const Long sx = Long(origin.x) - center_x, sy = Long(origin.y) - center_y, dx = ray.translation.x, dy = ray.translation.y;
        const Long a = dx * dx + dy * dy, b = sx * dx + sy * dy, c = sx * sx + sy * sy - Long(radius) * radius;
        const Long discriminant = b * b - a * c;
        ASSERT_GT(discriminant, 0);  // the premise: every ray passes within 0.9 radii of the centre
        const Long fraction = (-b - std::sqrt(discriminant)) / a;
        const Long normal_x = (sx + fraction * dx) / radius, normal_y = (sy + fraction * dy) / radius;
        const std::optional<RayHit> hit = raycast(Shape(Circle{local_center, radius}), pose, ray);
        ASSERT_TRUE(hit.has_value());
        EXPECT_FALSE(hit->inside);
        const Long magnitude = std::abs(Long(origin.x)) + std::abs(Long(origin.y)) + std::abs(center_x) + std::abs(center_y) + radius;
        const Long band = 64 * Long(kEps) * magnitude;
        EXPECT_LE(std::abs(Long(hit->fraction) - fraction) * std::sqrt(a), band) << double(fraction);
        EXPECT_LE(std::abs(Long(hit->point.x) - (origin.x + fraction * dx)), band);
        EXPECT_LE(std::abs(Long(hit->point.y) - (origin.y + fraction * dy)), band);
        const Long normal_band = 64 * Long(kEps) * std::sqrt(sx * sx + sy * sy) / radius;
        EXPECT_LE(std::abs(Long(hit->normal.x) - normal_x), normal_band) << str(hit->normal);
        EXPECT_LE(std::abs(Long(hit->normal.y) - normal_y), normal_band) << str(hit->normal);
        EXPECT_NEAR(double(length_squared(hit->normal)), 1.0, 16 * kEps);
      }
    }
  }
  // The premise: both forms were asked for, well beyond the range's edges as well as within it.
  EXPECT_GE(scaled_form, 20);
  EXPECT_GE(form_over_length, 20);
}

// A support function that never settles: the n-th call answers the point (1 - 1/(n + 1)) along the
// asked direction, a disc that grows with every question, so each support point is a little
// farther out than all before it and GJK's progress never stops. No shape of the library does
// this; it stands for a hostile ConvexSupport type on which GJK cannot converge (it hits its cap
// of 64 support evaluations).
struct RestlessDisc {
  mutable unsigned calls = 0;
  Vec2 support(Vec2 direction) const {
    ++calls;
    return (1 - R(1) / R(calls + 1)) * normalize(direction);
  }
  Real rounding_radius() const { return 0; }
};

TEST(ShapeCast, AGjkThatCannotConvergeEndsTheCastsAtTheCapAndSaysSo) {
  // GJK stops at its own cap inside the casts; they end there, at a time reached by proven moves
  // only, with iteration_cap, instead of trusting a distance that is only an upper bound.
  const RestlessDisc restless;
  const Circle ball{{}, R(0.5)};
  ASSERT_EQ(gjk(restless, ball, at(5, 0.2)).status, IterationStatus::iteration_cap);  // the premise
  const std::optional<CastHit> cast_hit = shape_cast(restless, at(0, 0), ball, at(5, 0.2), {-10, 0});
  ASSERT_TRUE(cast_hit.has_value());
  EXPECT_EQ(cast_hit->status, IterationStatus::iteration_cap);
  EXPECT_GE(cast_hit->time, 0);
  EXPECT_LE(cast_hit->time, 1);
  EXPECT_FALSE(cast_hit->initially_touching);
  EXPECT_NEAR(static_cast<double>(length(cast_hit->normal)), 1.0, 1e-5);  // the capped answer is still a direction
  EXPECT_TRUE(std::isfinite(cast_hit->point.x) && std::isfinite(cast_hit->point.y));
  const Sweep still{{}, {0, 0}, {0, 0}, 0, 0};
  const Sweep moving{{}, {5, R(0.2)}, {-5, R(0.2)}, 0, 1};
  const std::optional<CastHit> impact = time_of_impact(restless, still, ball, moving);
  ASSERT_TRUE(impact.has_value());
  EXPECT_EQ(impact->status, IterationStatus::iteration_cap);
  EXPECT_EQ(impact->time, 0);  // the first state's GJK is capped: nothing after time 0 is proven
  EXPECT_FALSE(impact->initially_touching);
  EXPECT_NEAR(static_cast<double>(length(impact->normal)), 1.0, 1e-5);
  EXPECT_TRUE(std::isfinite(impact->point.x) && std::isfinite(impact->point.y));
  std::printf("a support that never settles: shape_cast capped at t %.4g, time_of_impact at t %.4g\n", double(cast_hit->time),
              double(impact->time));
}

TEST(Raycast, ARayAlongASliverFarOutHitsItsSurfaceNotBeforeIt) {
  // From the pair-query fuzzer: a sliver triangle 47 long and 0.002 wide, 4.2e6 from the origin
  // and turned half a turn, and a ray along its long edges (off them by about 1e-7 rad), passing
  // within the touching band of its first vertex. In float the exact clip entered through the
  // sliver's far long edge 1,900 units before the sliver: the crossing of a line met that
  // shallowly moves that far with the round-off of the offsets. The hit lies on the surface
  // within the band, no earlier than the sliver's first vertex along the ray less the band.
  const Shape sliver =
      make_polygon(std::vector<Vec2>{{R(-0x1.9598p+4), R(-0x1.9598p+4)}, {R(0x1.09p+3), R(0x1.09p+3)}, {R(0x1.09p+3), R(0x1.091p+3)}}).value();
  const Transform pose{{R(-0x1p+22), R(-0x1p+22)}, {-1, R(0x1.777a5cp-24)}};
  const Ray ray{{R(-0x1.b3b4p+18), R(-0x1.b3b4p+18)}, {R(-0x1.b3b4p+21), R(-0x1.b3b4p+21)}, 2};
  const std::optional<RayHit> hit = raycast(sliver, pose, ray);
  ASSERT_TRUE(hit.has_value());
  EXPECT_FALSE(hit->inside);
  // Oracle in double: the placed sliver, and the band of the coordinates the cast works with (the
  // ray's ends and the sliver's place, each at most 8.4e6 from the origin), four times over.
  const Core core = world_core<double>(sliver, pose);
  const double band =
      4 * double(contact_tolerance(coordinate_magnitude(ray.origin) + coordinate_magnitude(ray.origin + ray.max_fraction * ray.translation) +
                                   2 * coordinate_magnitude(pose.position) + size_scale(std::get<Polygon>(sliver))));
  EXPECT_LE(std::abs(point_sd(core, dp(hit->point))), band) << "hit at " << str(hit->point);
  const P origin = dp(ray.origin), translation = dp(ray.translation);
  double first_vertex = std::numeric_limits<double>::infinity();
  for (const P vertex : core.vertices) first_vertex = std::min(first_vertex, dot(vertex - origin, translation) / dot(translation, translation));
  EXPECT_GE(double(hit->fraction), first_vertex - band / norm(translation));
  EXPECT_NEAR(double(length(hit->normal)), 1, 1e-5);
}

TEST(Raycast, RaysAlongSliversFarFromTheOriginHitOnTheirSurfaceOrMissByMoreThanTheBand) {
  // Random sliver triangles (a long edge of 1 to 100, a width of 1e-5 (float; 1e-12 in double) to
  // a tenth of it) placed 1e5 (float) or 1e8 (double) from the origin at any turn, and rays along
  // their long edges or into their sharp corner within its angle, turned by 1e-9 to 1e-3 rad and
  // moved sideways by up to four bands, from 10 to 1e5 lengths away. Oracle in long double from
  // the placed vertices (point_sd, shape_sd): a hit lies within the touching band of the surface;
  // a miss passes farther than half the band from the sliver, and never within an eighth of it
  // (between the two is too close to call).
  std::mt19937 random(29);
  std::uniform_real_distribution<double> uniform(0, 1);
  auto log_uniform = [&](double low, double high) { return low * std::pow(high / low, uniform(random)); };
  const double far = kFloat ? 1e5 : 1e8;
  int hits = 0, misses = 0, too_close = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const double length_along = log_uniform(1, 100), width = length_along * log_uniform(kFloat ? 1e-5 : 1e-12, 0.1);
    const double tip = uniform(random);  // where along the long edge the far vertex sits over it
    const Shape sliver = make_polygon(std::vector<Vec2>{{0, 0}, {R(length_along), 0}, {R(tip * length_along), R(width)}}).value();
    const double place_angle = 2 * 3.14159265358979 * uniform(random);
    const Transform pose = at(far * std::cos(place_angle), far * std::sin(place_angle), 2 * 3.14159265358979 * uniform(random));
    const WorldCore<L> placed = world_core<L>(sliver, pose);
    // The ray, built in the sliver's frame along its long edge (or back along it), then placed.
    const bool backwards = uniform(random) < 0.5;
    const double tilt = (uniform(random) < 0.5 ? -1 : 1) * log_uniform(1e-9, 1e-3);
    const double lead = length_along * log_uniform(10, 1e5);
    const double band_here = double(contact_tolerance(R(2 * (lead + length_along))));
    const double side = (uniform(random) - 0.5) * 8 * band_here;
    // Forwards, half the rays run into the sharp corner at the origin along a direction within its
    // angle (the needle's axis, as the fuzzer's ray did); backwards, along the long edge.
    const double corner = std::atan2(width, tip * length_along);
    const double angle = backwards ? 3.14159265358979 + tilt : (uniform(random) < 0.5 ? tilt : corner * uniform(random));
    const double span = lead + 2 * length_along;
    const double start_x = backwards ? length_along + lead : -lead * std::cos(angle);
    const double start_y = backwards ? side : side - lead * std::sin(angle);
    const Vec2 local_origin{R(start_x), R(start_y)};
    const Vec2 local_translation{R(span * std::cos(angle)), R(span * std::sin(angle))};
    const Ray ray{transform_point(pose, local_origin), rotate(pose.rotation, local_translation), 1};
    const std::optional<RayHit> hit = raycast(sliver, pose, ray);
    // Four touching bands of the coordinates the cast works with: the ray's ends and the sliver's
    // vertices, taken from the sliver's place (its frame's origin).
    const double band = 4 * double(contact_tolerance(coordinate_magnitude(ray.origin - pose.position) +
                                                     coordinate_magnitude(ray.origin + ray.translation - pose.position) +
                                                     2 * size_scale(std::get<Polygon>(sliver))));
    // The ray's segment as a core, for its long-double distance from the sliver (negative when it crosses it).
    const WorldCore<L> ray_segment{{lp(ray.origin), lp(ray.origin) + lp(ray.translation)}, 0};
    if (hit) {
      ++hits;
      // The hit point is a world point: it rounds by the round-off of its own coordinates too.
      const double point_band = band + 4 * double(contact_tolerance(coordinate_magnitude(hit->point)));
      EXPECT_LE(std::abs(double(point_sd(placed, lp(hit->point)))), point_band)
          << "trial " << trial << " hit at " << str(hit->point) << " fraction " << hit->fraction;
    } else if (const double passes_at = double(shape_sd(ray_segment, placed)); passes_at > band / 2) {
      ++misses;
    } else {
      // Within half a touching band (an eighth of this band) the ray touches the sliver: a hit.
      EXPECT_GT(passes_at, band / 8) << "trial " << trial << ": a miss passing " << passes_at << " from the sliver";
      ++too_close;
    }
  }
  std::printf("rays along slivers: %d hits on the surface, %d misses, %d too close to call\n", hits, misses, too_close);
  EXPECT_GT(hits, 500);
}

TEST(Raycast, ASegmentOnTheRaysLineBehindItIsNotHit) {
  // From the pair-query fuzzer: a ray starting on a segment's line, 466 short of its nearer end,
  // heading away from it and almost parallel to it (off by 3e-5 rad). The lines' crossing was at
  // the origin, and the end counted as grazed (it lies within the band of the ray's line), so the
  // ray hit at fraction 0 a point 659 from the segment. A grazed end is hit where it lies along the
  // ray: behind the origin, no hit; ahead of it, at that end.
  const Shape seg = segment({466, 466}, {4064, 4064});
  EXPECT_FALSE(raycast(seg, at(0, 0), Ray{{-32, -32}, {-32, R(-31.9990234)}, 1}).has_value());
  // Heading to the segment, off its line by a turn that leaves the nearer end within the band of
  // the ray's line (about 0.01 from it in float, 4e-12 in double): grazed, and hit at that end.
  const Ray toward{{-32, -32}, {1000, R(kFloat ? 1000.03 : 1000.00000000001)}, 1};
  const std::optional<RayHit> hit = raycast(seg, at(0, 0), toward);
  ASSERT_TRUE(hit.has_value());
  EXPECT_NEAR(double(hit->fraction), 0.498, 1e-4);  // the nearer end, (466, 466), 498 along x
  EXPECT_NEAR(double(hit->point.x), 466, 0.05);
  EXPECT_NEAR(double(hit->point.y), 466, 0.05);
}

// Rays at the edge of the touching band against random polygons, near the origin and far from it.
// raycast(Polygon) decides most rays by the exact clip and sends only those within the band to
// the banded one; this test puts rays on both sides of the band's edge and holds the answers to
// what raycast's documentation promises. The oracle works in long double in the polygon's frame
// (the ray's origin less the position first, which is exact for nearby values, then turned by the
// transform's own rotation), measures each ray against the exact vertices, and takes the band from
// the coordinates the cast uses there: a case within a factor 2 of the band's edge is too close to
// call and is skipped.
TEST(Raycast, PolygonRaysAtTheBandsEdgeNearAndFarFromTheOrigin) {
  random_shapes::Generator gen(4411);
  const double far = kFloat ? 1e5 : 1e8;
  int checked = 0, skipped = 0, failures = 0, hits = 0, misses = 0, starts = 0;
  for (int shape_index = 0; shape_index < 400; ++shape_index) {
    const bool is_box = shape_index % 4 == 0;
    const Real size = gen.uniform(2, 40);
    const Polygon polygon = is_box ? gen.box(size) : gen.polygon(size, 3, 8);
    const auto vertices = polygon.vertices();
    const int count = polygon.count();
    std::vector<LP> normals;  // exact outward unit normals of the edges, from the vertices
    for (int i = 0; i < count; ++i) {
      const LP along = lp(vertices[(i + 1) % count]) - lp(vertices[i]);
      normals.push_back(unit(LP{along.y, -along.x}));
    }
    const L reach = static_cast<L>(size_scale(polygon));
    for (const double offset : {0.0, 1e3, far}) {
      const bool turned = shape_index % 8 != 1;  // every eighth shape unturned: its edges are exactly parallel to axis rays
      const Transform pose{offset == 0 ? gen.position(50) : Vec2{R(offset), R(-0.7 * offset)} + gen.position(50),
                           turned ? Rot::from_angle(gen.angle()) : Rot{}};
      // One ray and what the oracle says of it.
      auto check = [&](const char* what, const Ray& ray, auto&& expect) {
        const LP origin = to_local(pose, ray.origin), direction = turn_back(pose, lp(ray.translation));
        const LP end = origin + (static_cast<L>(ray.max_fraction) * direction);
        const L band = static_cast<L>(contact_tolerance(static_cast<Real>(reach + magnitude(origin) + magnitude(end))));
        const std::optional<RayHit> hit = raycast(polygon, pose, ray);
        const std::string problem = expect(origin, direction, band, hit);
        if (problem.empty()) {
          ++checked;
          return;
        }
        if (problem == "skip") {
          ++skipped;
          return;
        }
        if (++failures <= 10)
          ADD_FAILURE() << what << ": " << problem << " (shape " << shape_index << ", offset " << offset << ", origin " << str(ray.origin)
                        << ", translation " << str(ray.translation) << ", max " << ray.max_fraction << ") -> "
                        << (hit ? "hit at " + std::to_string(hit->fraction) + (hit->inside ? " inside" : "") + " normal " + str(hit->normal)
                                : std::string("miss"));
      };
      auto normal_is = [&](const RayHit& hit, int edge) {
        return dist(hit.normal, world_direction(pose, normals[static_cast<std::size_t>(edge)])) <= 1e-4;
      };
      // The least signed distance of the polygon's vertices beyond the ray's line on the side of
      // `outward` (positive: the line misses by that much; negative: it cuts that deep).
      auto line_clearance = [&](LP origin, LP direction, LP outward) {
        LP side = unit(LP{-direction.y, direction.x});
        if (dot(side, outward) < 0) side = -1 * side;
        L least = std::numeric_limits<L>::max();
        for (int i = 0; i < count; ++i) least = std::min(least, dot(side, origin - lp(vertices[i])));
        return least;
      };
      // A point's signed distance from the polygon's surface (negative inside), and the exact
      // entry fraction of a ray that cuts the polygon (Cyrus-Beck in long double).
      auto edge_distance = [&](LP point, int i) {
        const LP a = lp(vertices[i]), edge_vector = lp(vertices[(i + 1) % count]) - a;
        const L t = std::clamp(dot(point - a, edge_vector) / dot(edge_vector, edge_vector), L(0), L(1));
        return norm(point - (a + (t * edge_vector)));
      };
      auto surface_distance = [&](LP point) {
        L deepest = -std::numeric_limits<L>::max();
        for (int i = 0; i < count; ++i) deepest = std::max(deepest, dot(normals[static_cast<std::size_t>(i)], point - lp(vertices[i])));
        if (deepest <= 0) return deepest;
        L nearest = std::numeric_limits<L>::max();
        for (int i = 0; i < count; ++i) nearest = std::min(nearest, edge_distance(point, i));
        return nearest;
      };
      auto exact_entry = [&](LP origin, LP direction) {
        L lower = 0;
        int entering = -1;
        for (int i = 0; i < count; ++i) {
          const LP n = normals[static_cast<std::size_t>(i)];
          const L approach = dot(n, direction);
          if (approach < 0 && dot(n, lp(vertices[i]) - origin) / approach > lower) {
            lower = dot(n, lp(vertices[i]) - origin) / approach;
            entering = i;
          }
        }
        return std::pair{lower, entering};
      };
      for (const L factor : {L(0.25), L(4)}) {
        for (const L sign : {L(1), L(-1)}) {
          const L depth = sign * factor;  // in bands: positive outside, negative inside
          // 1. Past a vertex across its outer bisector: a miss beyond the band, a graze within it
          //    (either edge's normal), a cut entering through the edge that faces the ray.
          const int vertex = gen.integer(0, count - 1);
          const int before = (vertex + count - 1) % count;
          const LP outward = unit(normals[static_cast<std::size_t>(vertex)] + normals[static_cast<std::size_t>(before)]);
          const LP across{-outward.y, outward.x};
          const L length = 3 * reach;
          const L rough_band = static_cast<L>(contact_tolerance(static_cast<Real>(reach + 2 * (length + reach))));
          const LP passing = lp(vertices[vertex]) + (depth * rough_band * outward);
          const Ray graze{world_of(pose, passing - (length * across)), world_direction(pose, 2 * length * across), 1};
          check("past a vertex", graze, [&](LP origin, LP direction, L band, const std::optional<RayHit>& hit) -> std::string {
            const L clearance = line_clearance(origin, direction, outward);
            if (clearance > 2 * band) return hit ? "hit beyond the band" : "";
            if (std::abs(clearance) < band / 2 || clearance < -2 * band) {
              if (!hit || hit->inside) return "no hit within the band or through the polygon: clearance " + std::to_string(double(clearance / band)) + " bands";
              // The hit lies on the surface, within the band, with the normal of an edge there; a
              // cut is hit at the exact entry.
              const LP point = origin + (static_cast<L>(hit->fraction) * direction);
              if (std::abs(surface_distance(point)) > 4 * band)
                return "hit " + std::to_string(double(surface_distance(point) / band)) + " bands from the surface";
              bool edge_there = false;
              for (int i = 0; i < count; ++i) edge_there = edge_there || (normal_is(*hit, i) && edge_distance(point, i) <= 4 * band);
              if (!edge_there) return "not the normal of an edge at the hit";
              if (clearance < -2 * band) {
                const auto [entry, entering] = exact_entry(origin, direction);
                const L slope = std::abs(dot(normals[static_cast<std::size_t>(entering)], unit(direction)));
                if (std::abs(static_cast<L>(hit->fraction) - entry) * norm(direction) > 4 * band / slope) return "hit off the exact entry";
              }
              ++hits;
              return "";
            }
            return "skip";
          });
          // 2. Straight at an edge's middle, stopping short of it (or past it).
          const int edge = gen.integer(0, count - 1);
          const LP normal = normals[static_cast<std::size_t>(edge)];
          const LP middle = L(0.5) * (lp(vertices[edge]) + lp(vertices[(edge + 1) % count]));
          const LP tilt = unit(-1 * normal + static_cast<L>(gen.uniform(-1, 1)) * LP{-normal.y, normal.x});
          const LP stop = middle + (depth * rough_band * normal);
          const Ray short_ray{world_of(pose, stop - (length * tilt)), world_direction(pose, length * tilt), 1};
          check("stopping short of an edge", short_ray, [&](LP origin, LP direction, L band, const std::optional<RayHit>& hit) -> std::string {
            const L short_by = dot(normal, (origin + direction) - middle);
            const L entry = dot(normal, middle - origin) / dot(normal, direction);  // exact crossing of the edge's line
            if (short_by > 2 * band) {
              if (hit) return "hit though the ray ends beyond the band";
              ++misses;
              return "";
            }
            if (std::abs(short_by) < band / 2 || short_by < -2 * band) {
              if (!hit || hit->inside || !normal_is(*hit, edge)) return "no hit on the edge";
              if (std::abs(static_cast<L>(hit->fraction) - std::min(entry, L(1))) * norm(direction) > 4 * band / std::abs(dot(normal, unit(direction))))
                return "hit fraction off the edge's crossing";
              ++hits;
              return "";
            }
            return "skip";
          });
          // 3. From near an edge's middle, heading in and heading out.
          const LP start = middle + (depth * rough_band * normal);
          for (const L heading : {L(1), L(-1)}) {
            const Ray from_surface{world_of(pose, start), world_direction(pose, heading * length * tilt), 1};
            check(heading > 0 ? "from the surface, heading in" : "from the surface, heading out", from_surface,
                  [&](LP origin, LP direction, L band, const std::optional<RayHit>& hit) -> std::string {
                    const L height = dot(normal, origin - middle);
                    ++starts;
                    if (height < -2 * band) return hit && hit->inside && hit->fraction == 0 && hit->normal == Vec2{} ? "" : "not inside";
                    if (std::abs(height) < band / 2) {
                      if (heading < 0) return hit ? "hit heading out from the surface" : "";
                      return hit && !hit->inside && hit->fraction == 0 && normal_is(*hit, edge) ? "" : "not a hit at 0 on the edge";
                    }
                    if (height > 2 * band) {
                      if (heading < 0) return hit ? "hit heading away from outside" : "";
                      if (!hit || hit->inside || !normal_is(*hit, edge)) return "no hit on the edge";
                      const L entry = dot(normal, middle - origin) / dot(normal, direction);
                      return std::abs(static_cast<L>(hit->fraction) - entry) * norm(direction) <= 4 * band / std::abs(dot(normal, unit(direction)))
                                 ? ""
                                 : "hit fraction off the edge's crossing";
                    }
                    return "skip";
                  });
          }
          // 4. Along an edge's line, beside it (exactly parallel when the pose is unturned).
          const LP edge_along = unit(lp(vertices[(edge + 1) % count]) - lp(vertices[edge]));
          const LP beside = middle + (depth * rough_band * normal);
          const Ray along{world_of(pose, beside - (length * edge_along)), world_direction(pose, 2 * length * edge_along), 1};
          check("along an edge", along, [&](LP origin, LP direction, L band, const std::optional<RayHit>& hit) -> std::string {
            const L clearance = line_clearance(origin, direction, normal);
            if (clearance > 2 * band) return hit ? "hit beside the edge beyond the band" : "";
            if (std::abs(clearance) < band / 2 || clearance < -2 * band) return hit && !hit->inside ? "" : "no hit along or through the edge";
            return "skip";
          });
        }
      }
    }
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GT(checked, 10 * skipped);
  EXPECT_GT(hits, 500);
  EXPECT_GT(misses, 200);
  std::printf("polygon rays at the band's edge: %d checked (%d hits, %d stopping short, %d from the surface), %d too close to call\n", checked,
              hits, misses, starts, skipped);
}

TEST(Raycast, RaysPastTheSharpTipsAndFlatVerticesOfSliversAgainstAnExactClip) {
  // Slivers (1,000 times longer than wide) and plain polygons of 3 to 16 vertices, so both the
  // small polygons' decision from the vertices' sides and the clip of the larger ones are tried,
  // near and far from the origin. Rays pass a vertex in any direction at a quarter, 4 and 12
  // touching bands on either side. Found by comparing the two: the clip's bounds, within their
  // round-off of each other, took a ray passing a sharp tip 3.8 bands outside for a hit, and one
  // entering a sliver beside an almost flat vertex for a miss (the entering edge's crossing, from
  // the neighbour's line, fell past its end). Oracle: the clip in long double of the ray's exact
  // local ends; a clear miss is a segment farther than 2 bands from the polygon, a clear hit an
  // origin more than 2 bands outside and a chord longer than 4 bands inside; the rest is too close
  // to call.
  random_shapes::Generator gen(4417);
  const double far = kFloat ? 1e5 : 1e8;
  int checked = 0, skipped = 0, failures = 0, hits = 0, misses = 0, large = 0;
  for (int shape_index = 0; shape_index < 600; ++shape_index) {
    const bool sliver = shape_index % 5 != 0;
    const Real size = gen.uniform(2, 40), aspect = sliver ? Real(1e-3) : Real(1);
    const int wanted = gen.integer(3, 16);
    std::vector<Vec2> points;
    for (int i = 0; i < wanted; ++i) {
      const Real angle = Real(2 * 3.14159265358979323846) * (Real(i) + gen.uniform(0.1, 0.9)) / Real(wanted);
      points.push_back({size * std::cos(angle), aspect * size * std::sin(angle)});
    }
    const auto made = make_polygon(convex_hull(points));
    if (!made) continue;
    const Polygon& polygon = made.value();
    const int count = polygon.count();
    large += count > polygon_inline_capacity ? 1 : 0;
    WorldCore<L> core;  // the polygon in its own frame, exactly
    for (const Vec2 vertex : polygon.vertices()) core.vertices.push_back(lp(vertex));
    const L reach = static_cast<L>(size_scale(polygon));
    for (const double offset : {0.0, 1e3, far}) {
      const Transform pose{offset == 0 ? gen.position(50) : Vec2{R(offset), R(-0.7 * offset)} + gen.position(50), Rot::from_angle(gen.angle())};
      const int vertex = gen.integer(0, count - 1);
      const LP toward = lp(gen.direction()), across{-toward.y, toward.x};
      const L length = 3 * reach;
      const L rough_band = static_cast<L>(contact_tolerance(static_cast<Real>(reach + 2 * (length + reach))));
      for (const L bands : {L(0.25), L(4), L(12), L(-0.25), L(-4), L(-12)}) {
        const LP passing = core.vertices[static_cast<std::size_t>(vertex)] + (bands * rough_band * across);
        const Ray ray{world_of(pose, passing - (length * toward)), world_direction(pose, 2 * length * toward), 1};
        const LP origin = to_local(pose, ray.origin), direction = turn_back(pose, lp(ray.translation)), end = origin + direction;
        const L band = static_cast<L>(contact_tolerance(static_cast<Real>(reach + magnitude(origin) + magnitude(end))));
        // The exact clip, and how far the ray's segment passes from the polygon when it misses.
        L lower = 0, upper = 1;
        int entering = -1;
        for (int i = 0; i < count; ++i) {
          const LP a = core.vertices[static_cast<std::size_t>(i)], b = core.vertices[static_cast<std::size_t>((i + 1) % count)];
          const LP normal = unit(LP{b.y - a.y, a.x - b.x});
          const L offset_inside = dot(normal, a - origin), approach = dot(normal, direction);
          if (approach < 0 && offset_inside / approach > lower) {
            lower = offset_inside / approach;
            entering = i;
          } else if (approach > 0) {
            upper = std::min(upper, offset_inside / approach);
          } else if (approach == 0 && offset_inside < 0) {
            upper = -1;
          }
        }
        L clearance = 0;
        if (lower > upper) {
          clearance = std::min(point_sd(core, origin), point_sd(core, end));
          for (const LP corner : core.vertices) clearance = std::min(clearance, segment_distance(corner, origin, end));
        }
        const std::optional<RayHit> hit = raycast(polygon, pose, ray);
        std::string problem;
        if (clearance > 2 * band) {
          if (hit) problem = "hit a polygon the ray passes " + std::to_string(double(clearance / band)) + " bands from";
          else ++misses;
        } else if (lower < upper && (upper - lower) * norm(direction) > 4 * band && point_sd(core, origin) > 2 * band && entering >= 0) {
          if (!hit || hit->inside) {
            problem = "no hit through a chord of " + std::to_string(double((upper - lower) * norm(direction) / band)) + " bands";
          } else {
            const LP point = origin + (static_cast<L>(hit->fraction) * direction);
            const LP a = core.vertices[static_cast<std::size_t>(entering)], b = core.vertices[static_cast<std::size_t>((entering + 1) % count)];
            const L slope = std::abs(dot(unit(LP{b.y - a.y, a.x - b.x}), unit(direction)));
            if (std::abs(point_sd(core, point)) > 4 * band) problem = "hit " + std::to_string(double(point_sd(core, point) / band)) + " bands from the surface";
            else if (std::abs(static_cast<L>(hit->fraction) - lower) * norm(direction) > 4 * band / slope) problem = "hit off the exact entry";
            else ++hits;
          }
        } else {
          ++skipped;
          continue;
        }
        if (problem.empty()) {
          ++checked;
        } else if (++failures <= 10) {
          ADD_FAILURE() << problem << " (shape " << shape_index << ", " << count << " vertices, offset " << offset << ", " << double(bands)
                        << " bands, origin " << str(ray.origin) << ", translation " << str(ray.translation) << ") -> "
                        << (hit ? "hit at " + std::to_string(hit->fraction) + " normal " + str(hit->normal) : std::string("miss"));
        }
      }
    }
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GT(checked, 4 * skipped);
  EXPECT_GT(hits, 500);
  EXPECT_GT(misses, 500);
  EXPECT_GT(large, 100);
  std::printf("rays past slivers' vertices: %d checked (%d hits, %d misses), %d too close to call, %d shapes above the inline capacity\n", checked, hits,
              misses, skipped, large);
}

TEST(Raycast, APolygonCornerGrazedByATinyTranslationOverAHugeFraction) {
  // A ray beside a box's top edge, within the band of its line, grazes the corner (-2, 1) and hits
  // it where it lies along the ray, with the normal of the edge it enters through (the left one).
  // The translation is so short that its squared length underflows in float: the corner's place
  // along the ray is taken with the direction's length, not its square.
  const Shape rectangle = box(2, 1);
  const Real band = contact_tolerance(size_scale(std::get<Polygon>(rectangle)) + 6 + 6);
  for (const double tiny : {kFloat ? 1e-30 : 1e-140, 1e-10, 1.0}) {
    SCOPED_TRACE("translation " + std::to_string(tiny));
    const Ray ray{{-5, 1 + band / 4}, {R(tiny), 0}, R(10 / tiny)};
    const std::optional<RayHit> hit = raycast(rectangle, at(0, 0), ray);
    ASSERT_TRUE(hit.has_value());
    EXPECT_FALSE(hit->inside);
    EXPECT_NEAR(double(hit->fraction) * tiny, 3, 1e-5);
    EXPECT_NEAR(hit->point.x, -2, 1e-5);
    EXPECT_NEAR(hit->point.y, 1, 1e-5);
    EXPECT_NEAR(hit->normal.x, -1, 1e-6);
    EXPECT_NEAR(hit->normal.y, 0, 1e-6);
    // Four bands above the line it passes the corner by and misses.
    EXPECT_FALSE(raycast(rectangle, at(0, 0), Ray{{-5, 1 + 4 * band}, {R(tiny), 0}, R(10 / tiny)}).has_value());
  }
}

// A shape seen only through its support function (the ConvexSupport concept), so the generic
// reach_about() (a bounding box's far corner) runs on it.
struct SupportOnly {
  Polygon polygon;
  Vec2 support(Vec2 direction) const { return polygon.support(direction); }
  Real rounding_radius() const { return polygon.radius(); }
};

TEST(TimeOfImpact, ReachAboutIsTheFarthestPointOfTheShape) {
  // time_of_impact() bounds what turning adds by each shape's reach about its turning centre: an
  // upper bound on the distance of any of its points (too small is unsafe, too large shortens
  // every step). For the library's shapes it is the farthest core vertex plus the radius, checked
  // against the cores in double; for a shape known only by its support, the bounding box's far
  // corner, which is never nearer than the farthest point and at most sqrt(2) times as far (each
  // of its offsets from the centre is at most that distance).
  random_shapes::Generator gen(4412);
  Core core;
  int checked = 0;
  for (int i = 0; i < 3000; ++i) {
    const random_shapes::Body body = gen.body(gen.any_kind());
    const Vec2 center = gen.chance(0.3) ? Vec2{} : body.size * gen.uniform(0, 1.5) * gen.direction();
    place_core(body.shape, Transform{}, core);
    double farthest = 0;
    for (const P& vertex : core.vertices) farthest = std::max(farthest, norm(vertex - dp(center)));
    farthest += core.radius;
    const double reach = random_shapes::visit_convex([&](const auto& s) { return double(detail::reach_about(s, center)); }, body.shape);
    const double round_off = 8 * kEps * (farthest + norm(dp(center)));
    EXPECT_NEAR(reach, farthest, round_off) << "shape " << i << ": " << random_shapes::describe(body);
    if (const Polygon* polygon = std::get_if<Polygon>(&body.shape)) {
      const double generic = detail::reach_about(SupportOnly{*polygon}, center);
      EXPECT_GE(generic, farthest - round_off) << "shape " << i;
      EXPECT_LE(generic, std::numbers::sqrt2 * (farthest + round_off)) << "shape " << i;
    }
    ++checked;
  }
  std::printf("reach about a turning centre: %d shapes\n", checked);
}

TEST(Raycast, SegmentsCapsulesAndRoundedPolygonsHitByATinyTranslationOverAHugeFraction) {
  // As for circles and plain polygons above: the ray is only scaled, so a translation whose
  // squared length underflows in float (1e-30) meets each shape where a unit translation does.
  // The shapes whose rays start with the closest-point classification (segments, capsules,
  // rounded polygons) once took such a ray for a zero-length one, and a segment's end or line
  // was placed along the ray by the squared length. Closed forms, in distance along the ray:
  struct Case {
    const char* what;
    Shape shape;
    Vec2 origin, direction;  // a unit-scale direction; the ray's is tiny times it
    double distance;         // where the hit lies along the ray, in units of |direction|
    Vec2 normal;
  };
  const double past_end = double(contact_tolerance(30)) / 4;
  const std::vector<Case> cases = {
      {"along a segment's line", segment({0, 0}, {2, 0}), {-3, 0}, {1, 0}, 3, {-1, 0}},
      // Past the segment's end by a quarter of the least band the cast can take (|origin|_1 = 6,
      // its far end's 29 at a unit translation, and the segment's 2): a graze, hit where the end
      // (2, 0) projects on the ray, at (10 + 3 past_end) / 10.
      {"grazing a segment's end", segment({0, 0}, {2, 0}), {R(5 + past_end), -1}, {-3, 1}, 1 + 0.3 * past_end, {0, -1}},
      {"a capsule's rounded end", capsule({0, 0}, {2, 0}, R(0.5)), {-3, 0}, {1, 0}, 2.5, {-1, 0}},
      {"a rounded box's side", box(1, 1, R(0.25)), {-3, 0}, {1, 0}, 1.75, {-1, 0}},
  };
  for (const double tiny : {kFloat ? 1e-30 : 1e-140, 1e-10, 1.0}) {
    for (const Case& c : cases) {
      SCOPED_TRACE(std::string(c.what) + ", translation x " + std::to_string(std::log10(tiny)) + " decades");
      const std::optional<RayHit> hit = raycast(c.shape, at(0, 0), Ray{c.origin, R(tiny) * c.direction, R(10 / tiny)});
      ASSERT_TRUE(hit.has_value());
      EXPECT_FALSE(hit->inside);
      EXPECT_NEAR(double(hit->fraction) * tiny, c.distance, 1e-5);
      EXPECT_NEAR(hit->point.x, c.origin.x + c.distance * c.direction.x, 1e-5);
      EXPECT_NEAR(hit->point.y, c.origin.y + c.distance * c.direction.y, 1e-5);
      EXPECT_NEAR(hit->normal.x, c.normal.x, 1e-5);
      EXPECT_NEAR(hit->normal.y, c.normal.y, 1e-5);
    }
  }
}

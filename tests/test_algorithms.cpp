#include <gtest/gtest.h>

// The algorithms on their own: gjk() (traces, warm start, iteration cap, separation limit),
// epa() (starts from point and segment simplices, far from the origin, slivers, traces, cap),
// sat() (traces, the rectangle fast path against hand values and a brute-force scan), and the
// brute-force minkowski_difference() with minkowski_exit().

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <optional>
#include <vector>

#include "collide2d/collide2d.hpp"

using namespace collide2d;

namespace {

constexpr bool kFloat = sizeof(Real) == sizeof(float);
const Real kTol = kFloat ? Real(2e-4) : Real(1e-9);
const Real kSqrt2 = std::sqrt(Real(2));
const Real kPi = std::numbers::pi_v<Real>;

Transform at(Real x, Real y, Real angle = 0) { return Transform::from({x, y}, angle); }
bool near(Vec2 a, Vec2 b, Real tol = kTol) { return std::abs(a.x - b.x) <= tol && std::abs(a.y - b.y) <= tol; }
::testing::AssertionResult vec_near(Vec2 actual, Vec2 expected, Real tol = kTol) {
  if (near(actual, expected, tol)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "actual (" << actual.x << ", " << actual.y << ") expected (" << expected.x << ", "
                                       << expected.y << ")";
}

Polygon regular(int n, Real radius, Vec2 centre = {}, Real phase = 0) {
  std::vector<Vec2> points;
  for (int i = 0; i < n; ++i) {
    const Real angle = phase + Real(i) * 2 * kPi / Real(n);
    points.push_back({centre.x + radius * std::cos(angle), centre.y + radius * std::sin(angle)});
  }
  return make_polygon(points).value();
}

Real twice_area_sign(const std::vector<Vec2>& v) {
  Real sum = 0;
  for (std::size_t i = 0; i < v.size(); ++i) sum += cross(v[i], v[(i + 1) % v.size()]);
  return sum;
}

bool in_points(const std::vector<Vec2>& points, Vec2 p) { return std::find(points.begin(), points.end(), p) != points.end(); }

// The true distance between two polygons' cores by brute force over vertex-edge pairs.
Real point_segment_distance(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 ab = b - a;
  const Real t = std::clamp(dot(p - a, ab) / length_squared(ab), Real(0), Real(1));
  return length(p - (a + t * ab));
}
Real brute_distance(const Polygon& a, const Polygon& b, const Transform& b_to_a) {
  std::vector<Vec2> pb;
  for (Vec2 v : b.vertices()) pb.push_back(transform_point(b_to_a, v));
  const auto pa = a.vertices();
  Real best = std::numeric_limits<Real>::max();
  for (std::size_t i = 0; i < pa.size(); ++i)
    for (std::size_t j = 0; j < pb.size(); ++j) {
      best = std::min(best, point_segment_distance(pa[i], pb[j], pb[(j + 1) % pb.size()]));
      best = std::min(best, point_segment_distance(pb[j], pa[i], pa[(i + 1) % pa.size()]));
    }
  return best;
}

}  // namespace

// ---------------------------------------------------------------- GJK

TEST(Gjk, TraceRecordsEverySimplex) {
  const Polygon a = make_box(1, 1).value();
  const Polygon b = regular(12, 1, {}, Real(0.1));
  int checked = 0;
  for (const Transform& b_to_a : {at(4, Real(0.5), Real(0.3)), at(Real(-3), 3, 1), at(Real(0.5), Real(0.2), 2)}) {
    std::vector<Simplex> trace;
    const GjkResult r = gjk(a, b, b_to_a, {.trace = &trace});
    const MinkowskiDifference md = minkowski_difference(a, b, b_to_a);
    ASSERT_FALSE(trace.empty());
    EXPECT_LE(static_cast<int>(trace.size()), r.iterations + 1);
    for (const Simplex& s : trace) {
      ASSERT_GE(s.count, 1);
      ASSERT_LE(s.count, 3);
      for (int i = 0; i < s.count; ++i) {
        const MinkowskiVertex& v = s.vertices[static_cast<std::size_t>(i)];
        EXPECT_EQ(v.point, v.point_b - v.point_a);
        EXPECT_TRUE(in_points(md.all_points, v.point)) << "simplex vertex is not a vertex difference";
      }
    }
    // The last trace entry is the final simplex.
    EXPECT_EQ(trace.back().count, r.simplex.count);
    for (int i = 0; i < r.simplex.count; ++i)
      EXPECT_EQ(trace.back().vertices[static_cast<std::size_t>(i)].point, r.simplex.vertices[static_cast<std::size_t>(i)].point);
    // The answer agrees with the brute-force difference.
    EXPECT_EQ(r.overlapping, md.contains_origin);
    if (!r.overlapping) {
      EXPECT_NEAR(r.distance, md.signed_distance, kTol);
      EXPECT_NEAR(r.distance, brute_distance(a, b, b_to_a), kTol);
      EXPECT_TRUE(vec_near(r.point_b - r.point_a, r.distance * r.normal));
    }
    ++checked;
  }
  // Hand value: boxes half 1, B at (4,0.5): gap 2 along x.
  std::vector<Simplex> trace;
  const GjkResult r = gjk(a, a, at(4, Real(0.5)), {.trace = &trace});
  EXPECT_FALSE(r.overlapping);
  EXPECT_NEAR(r.distance, 2, kTol);
  EXPECT_TRUE(vec_near(r.normal, {1, 0}));
  EXPECT_NEAR(r.point_a.x, 1, kTol);
  EXPECT_NEAR(r.point_b.x, 3, kTol);
  EXPECT_EQ(r.status, IterationStatus::converged);
  std::printf("checked %d cases\n", checked + 1);
}

TEST(Gjk, WarmStartSameAnswerFewerIterations) {
  const Polygon a = regular(16, 2, {}, Real(0.05));
  const Polygon b = make_box(1, Real(0.5)).value();
  SimplexCache cache;
  int checked = 0, warm_total = 0, cold_total = 0;
  for (int k = 0; k < 200; ++k) {
    // A slow orbit around A: separated for most steps, overlapping near the end.
    const Real s = Real(k) * Real(0.01);
    const Transform b_to_a = at(Real(4.5) - s, Real(0.3) + Real(0.5) * std::sin(s * 3), s);
    const GjkResult cold = gjk(a, b, b_to_a);
    const GjkResult warm = gjk(a, b, b_to_a, {.cache = &cache});
    ASSERT_EQ(warm.overlapping, cold.overlapping) << "step " << k;
    EXPECT_NEAR(warm.distance, cold.distance, kTol) << "step " << k;
    if (!cold.overlapping) { EXPECT_NEAR(cold.distance, brute_distance(a, b, b_to_a), kTol) << "step " << k; }
    if (k > 0) { EXPECT_LE(warm.iterations, cold.iterations) << "step " << k; }
    EXPECT_GE(cache.count, 1);
    warm_total += warm.iterations;
    cold_total += cold.iterations;
    ++checked;
  }
  EXPECT_LT(warm_total, cold_total);
  // distance() forwards the cache too.
  SimplexCache distance_cache;
  const DistanceResult first = distance(a, Transform{}, b, at(5, 0), {.cache = &distance_cache});
  const DistanceResult second = distance(a, Transform{}, b, at(Real(5.01), 0), {.cache = &distance_cache});
  EXPECT_NEAR(second.distance, first.distance + Real(0.01), kTol);
  EXPECT_LE(second.iterations, first.iterations);
  std::printf("checked %d cases (iterations warm %d, cold %d)\n", checked, warm_total, cold_total);
}

TEST(Gjk, IterationCapIsReported) {
  const Polygon a = regular(64, 3, {}, Real(0.01));
  const Polygon b = regular(64, 2, {}, Real(0.02));
  int checked = 0;
  for (const Transform& b_to_a : {at(7, Real(1.3), Real(0.4)), at(-2, Real(6.5), 1), at(Real(5.5), Real(-0.2), 0)}) {
    const GjkResult capped = gjk(a, b, b_to_a, {.max_iterations = 1});
    EXPECT_EQ(capped.status, IterationStatus::iteration_cap);
    EXPECT_EQ(capped.iterations, 1);
    const GjkResult full = gjk(a, b, b_to_a);
    EXPECT_EQ(full.status, IterationStatus::converged);
    EXPECT_GT(full.iterations, 1);
    // The capped simplex is a subset of the difference, so its distance is an upper bound.
    EXPECT_GE(capped.distance, full.distance - kTol);
    EXPECT_NEAR(full.distance, brute_distance(a, b, b_to_a), kTol * 10);
    const DistanceResult d = distance(a, Transform{}, b, b_to_a, {.max_iterations = 1});
    EXPECT_EQ(d.status, IterationStatus::iteration_cap);
    ++checked;
  }
  std::printf("checked %d cases\n", checked);
}

TEST(Gjk, SeparationLimitStopsEarly) {
  const Polygon a = make_box(1, 1).value();
  const Polygon b = regular(32, 1, {}, Real(0.3));
  int checked = 0;
  for (const Transform& b_to_a : {at(10, 3, Real(0.3)), at(-6, -8, 1), at(0, 20, 2)}) {
    const Real true_distance = brute_distance(a, b, b_to_a);
    const GjkResult limited = gjk(a, b, b_to_a, {.separation_limit = 1});
    EXPECT_TRUE(limited.stopped_early);
    EXPECT_FALSE(limited.overlapping);
    const GjkResult full = gjk(a, b, b_to_a);
    EXPECT_FALSE(full.stopped_early);
    EXPECT_NEAR(full.distance, true_distance, kTol);
    EXPECT_LE(limited.iterations, full.iterations);
    // The shapes are proven farther apart than the limit.
    EXPECT_GT(true_distance, 1);
    ++checked;
  }
  // Within the limit it runs to the end: boxes 0.5 apart with a limit of 1.
  const GjkResult near_pair = gjk(a, a, at(Real(2.5), 0), {.separation_limit = 1});
  EXPECT_FALSE(near_pair.stopped_early);
  EXPECT_NEAR(near_pair.distance, Real(0.5), kTol);
  // overlap() uses the limit with the radii: rounded boxes 0.5 apart with radii 0.3 + 0.3 touch.
  const Polygon rounded = make_box(1, 1, {}, Real(0.3)).value();
  EXPECT_TRUE(overlap(rounded, Transform{}, rounded, at(Real(2.5), 0)));
  EXPECT_FALSE(overlap(rounded, Transform{}, rounded, at(Real(2.7), 0)));
  std::printf("checked %d cases\n", checked + 1);
}

// The doc says an early stop leaves a lower bound in `distance`.
TEST(Gjk, SeparationLimitDistanceIsLowerBound) {
  const Polygon a = make_box(1, 1).value();
  const Polygon b = regular(32, 1, {}, Real(0.3));
  int checked = 0;
  for (const Transform& b_to_a : {at(10, 3, Real(0.3)), at(-6, -8, 1), at(0, 20, 2), at(7, -7, Real(0.1))}) {
    const GjkResult limited = gjk(a, b, b_to_a, {.separation_limit = 1});
    ASSERT_TRUE(limited.stopped_early);
    EXPECT_LE(limited.distance, brute_distance(a, b, b_to_a) + kTol);
    EXPECT_GT(limited.distance, 1);
    ++checked;
  }
  std::printf("checked %d cases\n", checked);
}

// ---------------------------------------------------------------- EPA

namespace {
// Convex, counter-clockwise (turns >= 0), holds the origin, made of vertex differences.
void check_polytope(const std::vector<Vec2>& polytope, const MinkowskiDifference& md, Real tol) {
  ASSERT_GE(polytope.size(), 1u);
  for (Vec2 p : polytope) { EXPECT_TRUE(in_points(md.all_points, p)) << "polytope vertex is not a vertex difference"; }
  if (polytope.size() < 3) return;
  for (std::size_t i = 0; i < polytope.size(); ++i) {
    const Vec2 p = polytope[i], q = polytope[(i + 1) % polytope.size()], r = polytope[(i + 2) % polytope.size()];
    EXPECT_GE(cross(q - p, r - q), -tol);
    EXPECT_GE(cross(q - p, -p), -tol * length(q - p)) << "origin outside polytope edge " << i;
  }
}
}  // namespace

TEST(Epa, FromPointAndSegmentSimplices) {
  const Real tol = kTol;
  int from_point = 0, from_segment = 0, checked = 0;
  struct Pair {
    ConvexShape a, b;
    Transform b_to_a;
    std::optional<Vec2> touch;  // the touching point, A's frame, when it is unique
  };
  const Polygon box = make_box(1, 1).value();
  const std::vector<Pair> pairs = {
      {box, box, at(2, 2), Vec2{1, 1}},                                      // corner to corner
      {box, box, at(2, 0), std::nullopt},                                // shared edge (touch x = 1)
      {box, box, at(2, Real(0.5)), std::nullopt},                        // shared edge, offset
      {Segment{{-1, 0}, Vec2{1, 0}}, Segment{{-1, 0}, Vec2{1, 0}}, at(1, 0), std::nullopt},  // collinear overlap
      {Segment{{-1, 0}, Vec2{1, 0}}, Segment{{-1, 0}, Vec2{1, 0}}, at(2, 0), Vec2{1, 0}},   // end to end
      {Segment{{-1, 0}, Vec2{1, 0}}, Circle{{0, 0}, 0}, at(Real(0.3), 0), Vec2{Real(0.3), 0}},  // point on segment
      {Segment{{-1, 0}, Vec2{1, 0}}, Segment{{0, 0}, Vec2{1, 1}}, at(1, 0), Vec2{1, 0}},    // ends meet at an angle
      {box, Segment{{0, 0}, Vec2{0, 2}}, at(Real(0.2), 1), Vec2{Real(0.2), 1}},         // segment standing on a face
      {box, Circle{{0, 0}, 0}, at(1, Real(0.4)), Vec2{1, Real(0.4)}},               // point on a face
  };
  for (const Pair& pair : pairs) {
    std::visit(
        [&](const auto& a, const auto& b) {
          const GjkResult cores = gjk(a, b, pair.b_to_a);
          ASSERT_TRUE(cores.overlapping);
          if (cores.simplex.count == 1) ++from_point;
          if (cores.simplex.count == 2) ++from_segment;
          std::vector<std::vector<Vec2>> trace;
          const EpaResult e = epa(a, b, pair.b_to_a, cores.simplex, {.trace = &trace});
          EXPECT_NEAR(e.depth, 0, tol);
          EXPECT_NEAR(length(e.normal), 1, tol);
          EXPECT_TRUE(vec_near(e.point_a - e.point_b, e.depth * e.normal, tol));
          if (pair.touch) {
            EXPECT_TRUE(vec_near(e.point_a, *pair.touch, tol));
            EXPECT_TRUE(vec_near(e.point_b, *pair.touch, tol));
          }
          EXPECT_EQ(e.status, IterationStatus::converged);
          EXPECT_FALSE(trace.empty());
          ++checked;
        },
        pair.a, pair.b);
  }
  EXPECT_GE(from_point, 1);
  EXPECT_GE(from_segment, 1);
  std::printf("checked %d cases (%d from a point, %d from a segment)\n", checked, from_point, from_segment);
}

TEST(Epa, FarFromOriginAndSlivers) {
  int checked = 0;
  // Boxes whose local frames put them near (1000,1000): the difference is [-0.5,3.5] x [-1.8,2.2],
  // nearest side x = -0.5 -> depth 0.5 along +x.
  {
    const Polygon far = make_box(1, 1, Transform{{1000, 1000}, {}}).value();
    const Transform b_to_a = at(Real(1.5), Real(0.2));
    const GjkResult cores = gjk(far, far, b_to_a);
    ASSERT_TRUE(cores.overlapping);
    const EpaResult e = epa(far, far, b_to_a, cores.simplex);
    const Real tol = 4 * relative_tolerance * 1002 + kTol;  // the documented size-scaled tolerance
    EXPECT_NEAR(e.depth, Real(0.5), tol);
    EXPECT_TRUE(vec_near(e.normal, {1, 0}, tol));
    EXPECT_NEAR(e.point_a.x, 1001, tol);
    EXPECT_NEAR(e.point_b.x, Real(1000.5), tol);
    ++checked;
  }
  // Sliver (half 1 x 1e-4) under a box whose bottom is 0.003 below the sliver's top.
  {
    const Real t = Real(1e-4);
    const Polygon sliver = make_box(1, t).value();
    const Polygon box = make_box(1, 1).value();
    const Transform b_to_a = at(Real(0.5), 1 + t - Real(0.003));
    const GjkResult cores = gjk(sliver, box, b_to_a);
    ASSERT_TRUE(cores.overlapping);
    std::vector<std::vector<Vec2>> trace;
    const EpaResult e = epa(sliver, box, b_to_a, cores.simplex, {.trace = &trace});
    EXPECT_NEAR(e.depth, Real(0.003), kTol / 4);
    EXPECT_TRUE(vec_near(e.normal, {0, 1}));
    const MinkowskiDifference md = minkowski_difference(sliver, box, b_to_a);
    for (const auto& polytope : trace) check_polytope(polytope, md, kTol);
    ++checked;
  }
  // Two slivers crossed: the difference is a square of half side 1 + 1e-4.
  {
    const Polygon sliver = make_box(1, Real(1e-4)).value();
    const Transform b_to_a = at(0, 0, kPi / 2);
    const GjkResult cores = gjk(sliver, sliver, b_to_a);
    ASSERT_TRUE(cores.overlapping);
    const EpaResult e = epa(sliver, sliver, b_to_a, cores.simplex);
    EXPECT_NEAR(e.depth, 1 + Real(1e-4), kTol);
    ++checked;
  }
  std::printf("checked %d cases\n", checked);
}

TEST(Epa, TraceAndCap) {
  const Polygon a = regular(48, 2, {}, Real(0.01));
  const Polygon b = regular(48, Real(1.5), {}, Real(0.03));
  int checked = 0;
  for (const Transform& b_to_a : {at(Real(0.7), Real(0.4), Real(0.2)), at(Real(-1), Real(1.2), 1), at(0, 0, Real(0.5))}) {
    const GjkResult cores = gjk(a, b, b_to_a);
    ASSERT_TRUE(cores.overlapping);
    std::vector<std::vector<Vec2>> trace;
    // Near-circular differences need many expansions (every edge of the ~96-gon lies within a
    // few 1e-3 of the nearest); the default cap of 256 covers them.
    const EpaResult full = epa(a, b, b_to_a, cores.simplex, {.trace = &trace});
    EXPECT_EQ(full.status, IterationStatus::converged);
    const MinkowskiDifference md = minkowski_difference(a, b, b_to_a);
    // Hand-independent reference: the brute-force difference's depth.
    EXPECT_NEAR(full.depth, -md.signed_distance, kTol);
    // The support of D along the reported normal's reverse is depth away: D's boundary there.
    EXPECT_NEAR(length(full.point_a - full.point_b), full.depth, kTol);
    ASSERT_FALSE(trace.empty());
    Real previous = -1;
    for (const auto& polytope : trace) {
      check_polytope(polytope, md, kTol);
      // The polytope only grows, so its nearest edge never comes closer to the origin.
      Real nearest = std::numeric_limits<Real>::max();
      for (std::size_t i = 0; i < polytope.size(); ++i) {
        const Vec2 p = polytope[i], q = polytope[(i + 1) % polytope.size()];
        nearest = std::min(nearest, dot(normalize(right_perpendicular(q - p)), p));
      }
      EXPECT_GE(nearest, previous - kTol);
      previous = nearest;
    }
    EXPECT_NEAR(previous, full.depth, kTol);
    // Capped: iteration_cap reported; the polytope lies inside the difference so its depth is a lower bound.
    const EpaResult capped = epa(a, b, b_to_a, cores.simplex, {.max_iterations = 1});
    EXPECT_EQ(capped.status, IterationStatus::iteration_cap);
    EXPECT_LE(capped.depth, full.depth + kTol);
    ++checked;
  }
  std::printf("checked %d cases\n", checked);
}

// ---------------------------------------------------------------- SAT

namespace {
// Brute force: separation of `other` (vertices already in A's frame) from each edge of `reference`.
Real edge_separation(Vec2 vertex, Vec2 normal, const std::vector<Vec2>& other) {
  Real best = std::numeric_limits<Real>::max();
  for (Vec2 p : other) best = std::min(best, dot(normal, p - vertex));
  return best;
}
std::vector<Vec2> placed(const Polygon& p, const Transform& t) {
  std::vector<Vec2> out;
  for (Vec2 v : p.vertices()) out.push_back(transform_point(t, v));
  return out;
}
}  // namespace

TEST(Sat, TraceListsEveryAxis) {
  const Polygon a = make_polygon(std::vector<Vec2>{{0, 0}, {3, 0}, {4, 2}, {1, 3}, {-1, 1}}).value();
  const Polygon b = make_polygon(std::vector<Vec2>{{-1, -1}, {1, -1}, {0, 1}}).value();
  int checked = 0;
  for (const Transform& b_to_a : {at(6, 1, Real(0.3)), at(2, 1, Real(-0.7)), at(Real(4.5), Real(2.5), 2), at(-2, -1, Real(0.1))}) {
    std::vector<SatAxis> trace;
    const SatAxis best = sat(a, b, b_to_a, &trace);
    ASSERT_EQ(static_cast<int>(trace.size()), a.count() + b.count());
    const std::vector<Vec2> b_in_a = placed(b, b_to_a);
    const std::vector<Vec2> a_in_a(a.vertices().begin(), a.vertices().end());
    Real max_separation = -std::numeric_limits<Real>::max();
    bool seen[2][8] = {};
    for (const SatAxis& axis : trace) {
      ASSERT_TRUE(axis.shape == 0 || axis.shape == 1);
      ASSERT_GE(axis.edge, 0);
      seen[axis.shape][axis.edge] = true;
      Vec2 normal, vertex;
      const std::vector<Vec2>* other;
      if (axis.shape == 0) {
        normal = a.normals()[static_cast<std::size_t>(axis.edge)];
        vertex = a.vertices()[static_cast<std::size_t>(axis.edge)];
        other = &b_in_a;
      } else {
        normal = rotate(b_to_a.rotation, b.normals()[static_cast<std::size_t>(axis.edge)]);
        vertex = b_in_a[static_cast<std::size_t>(axis.edge)];
        other = &a_in_a;
      }
      EXPECT_TRUE(vec_near(axis.normal, normal));
      EXPECT_NEAR(axis.separation, edge_separation(vertex, normal, *other), kTol);
      max_separation = std::max(max_separation, axis.separation);
    }
    for (int e = 0; e < a.count(); ++e) { EXPECT_TRUE(seen[0][e]); }
    for (int e = 0; e < b.count(); ++e) { EXPECT_TRUE(seen[1][e]); }
    EXPECT_EQ(best.separation, max_separation);
    // Positive best separation exactly when the cores are apart.
    const MinkowskiDifference md = minkowski_difference(a, b, b_to_a);
    EXPECT_EQ(best.separation > kTol, !md.contains_origin);
    ++checked;
  }
  std::printf("checked %d cases\n", checked);
}

TEST(Sat, RectangleFastPathMatchesHandValues) {
  // A half 2 x 1; B half 1 x 0.5 turned 30 degrees at (3.2, 0.4).
  //   A's x: 3.2 - 2 - (1 cos30 + 0.5 sin30) = 0.083975 (the best: apart along +x)
  //   A's y: 0.4 - 1 - (1 sin30 + 0.5 cos30) = -1.533013
  //   B's x: |(cos30, sin30).(-3.2,-0.4)| - 1 - (2 cos30 + 1 sin30) = -0.260770
  //   B's y: |(-sin30, cos30).(-3.2,-0.4)| - 0.5 - (2 sin30 + 1 cos30) = -1.112436
  const Polygon a = make_box(2, 1).value();
  const Polygon b = make_box(1, Real(0.5)).value();
  ASSERT_TRUE(a.is_rectangle());
  ASSERT_TRUE(b.is_rectangle());
  const Real c = std::cos(kPi / 6), s = std::sin(kPi / 6);
  const Transform b_to_a = at(Real(3.2), Real(0.4), kPi / 6);
  std::vector<SatAxis> trace;
  const SatAxis best = sat(a, b, b_to_a, &trace);
  EXPECT_EQ(trace.size(), 4u);
  EXPECT_NEAR(best.separation, Real(3.2) - 2 - (c + Real(0.5) * s), kTol);
  EXPECT_TRUE(vec_near(best.normal, {1, 0}));
  EXPECT_EQ(best.shape, 0);
  EXPECT_TRUE(vec_near(a.normals()[static_cast<std::size_t>(best.edge)], {1, 0}));
  std::vector<Real> expected = {Real(3.2) - 2 - (c + Real(0.5) * s), Real(0.4) - 1 - (s + Real(0.5) * c),
                                std::abs(c * Real(-3.2) + s * Real(-0.4)) - 1 - (2 * c + s),
                                std::abs(-s * Real(-3.2) + c * Real(-0.4)) - Real(0.5) - (2 * s + c)};
  std::vector<Real> got;
  for (const SatAxis& axis : trace) got.push_back(axis.separation);
  std::sort(expected.begin(), expected.end());
  std::sort(got.begin(), got.end());
  for (std::size_t i = 0; i < 4; ++i) { EXPECT_NEAR(got[i], expected[i], kTol); }
  // Every traced axis names the edge whose outward normal it is.
  for (const SatAxis& axis : trace) {
    const Vec2 normal = axis.shape == 0 ? a.normals()[static_cast<std::size_t>(axis.edge)]
                                        : rotate(b_to_a.rotation, b.normals()[static_cast<std::size_t>(axis.edge)]);
    EXPECT_TRUE(vec_near(axis.normal, normal));
  }
}

TEST(Sat, RectangleFastPathMatchesBruteForce) {
  const Polygon a = make_box(2, 1, at(Real(0.3), Real(-0.2), Real(0.4))).value();  // offset rectangle
  const Polygon b = make_box(Real(0.7), Real(1.3)).value();
  ASSERT_TRUE(a.is_rectangle());
  int checked = 0;
  for (int k = 0; k < 100; ++k) {
    const Real angle = Real(k) * Real(0.37);
    const Transform b_to_a = at(Real(4) * std::cos(Real(k) * Real(0.21)), Real(3) * std::sin(Real(k) * Real(0.13)), angle);
    const SatAxis best = sat(a, b, b_to_a);
    // Brute force over all 8 edge normals.
    const std::vector<Vec2> b_in_a = placed(b, b_to_a);
    const std::vector<Vec2> a_in_a(a.vertices().begin(), a.vertices().end());
    Real brute = -std::numeric_limits<Real>::max();
    for (int i = 0; i < 4; ++i) {
      brute = std::max(brute, edge_separation(a_in_a[static_cast<std::size_t>(i)], a.normals()[static_cast<std::size_t>(i)], b_in_a));
      brute = std::max(brute, edge_separation(b_in_a[static_cast<std::size_t>(i)],
                                              rotate(b_to_a.rotation, b.normals()[static_cast<std::size_t>(i)]), a_in_a));
    }
    EXPECT_NEAR(best.separation, brute, kTol * 4) << "k " << k;
    ++checked;
  }
  std::printf("checked %d cases\n", checked);
}

// ---------------------------------------------------------------- Minkowski difference and exit

TEST(Minkowski, PolygonsCirclesAndRoundedShapes) {
  const Polygon box = make_box(1, 1).value();
  int checked = 0;
  // Boxes, B at (3,0): difference [1,5] x [-2,2]; 1 from the origin along +x.
  {
    const MinkowskiDifference md = minkowski_difference(box, box, at(3, 0));
    EXPECT_EQ(md.all_points.size(), 16u);
    ASSERT_EQ(md.hull.size(), 4u);
    for (Vec2 corner : {Vec2{1, -2}, Vec2{5, -2}, Vec2{5, 2}, Vec2{1, 2}}) { EXPECT_TRUE(in_points(md.hull, corner)); }
    EXPECT_GT(twice_area_sign(md.hull), 0);
    EXPECT_FALSE(md.contains_origin);
    EXPECT_NEAR(md.signed_distance, 1, kTol);
    EXPECT_TRUE(vec_near(md.closest_point, {1, 0}));
    EXPECT_TRUE(vec_near(md.normal, {1, 0}));
    EXPECT_EQ(md.radius, 0);
    ++checked;
  }
  // Boxes overlapping, B at (1.5,0.5): difference [-0.5,3.5] x [-1.5,2.5]; nearest side x = -0.5.
  {
    const MinkowskiDifference md = minkowski_difference(box, box, at(Real(1.5), Real(0.5)));
    EXPECT_TRUE(md.contains_origin);
    EXPECT_NEAR(md.signed_distance, Real(-0.5), kTol);
    EXPECT_TRUE(vec_near(md.closest_point, {Real(-0.5), 0}));
    EXPECT_TRUE(vec_near(md.normal, {1, 0}));  // B moves +x to separate
    ++checked;
  }
  // Circles r 1 and r 0.5, centres 1.2 apart: one hull point, radius 1.5, depth 0.3.
  {
    const MinkowskiDifference md = minkowski_difference(Circle{{0, 0}, 1}, Circle{{0, 0}, Real(0.5)}, at(Real(1.2), 0));
    ASSERT_EQ(md.hull.size(), 1u);
    EXPECT_TRUE(vec_near(md.hull[0], {Real(1.2), 0}));
    EXPECT_NEAR(md.radius, Real(1.5), kTol);
    EXPECT_TRUE(md.contains_origin);
    EXPECT_NEAR(md.signed_distance, Real(-0.3), kTol);
    EXPECT_TRUE(vec_near(md.closest_point, {Real(-0.3), 0}));
    EXPECT_TRUE(vec_near(md.normal, {1, 0}));
    ++checked;
  }
  // Capsule (-1,0)-(1,0) r 0.5 and a rounded box (half 1, r 0.25) at (0,3): core difference
  // [-2,2] x [2,4], radius 0.75 -> 1.25 apart, closest point (0,1.25), normal +y.
  {
    const Capsule cap{{-1, 0}, {1, 0}, Real(0.5)};
    const MinkowskiDifference md = minkowski_difference(cap, make_box(1, 1, {}, Real(0.25)).value(), at(0, 3));
    EXPECT_EQ(md.all_points.size(), 8u);
    EXPECT_EQ(md.hull.size(), 4u);
    EXPECT_NEAR(md.radius, Real(0.75), kTol);
    EXPECT_FALSE(md.contains_origin);
    EXPECT_NEAR(md.signed_distance, Real(1.25), kTol);
    EXPECT_TRUE(vec_near(md.closest_point, {0, Real(1.25)}));
    EXPECT_TRUE(vec_near(md.normal, {0, 1}));
    ++checked;
  }
  // Capsule and a circle r 0.5 at (0.3,0.8): the core difference is the segment (1.3,0.8)-(-0.7,0.8)
  // (a 2-point hull), radius 1 -> 0.2 deep, closest point (0,-0.2), normal +y.
  {
    const Capsule cap{{-1, 0}, {1, 0}, Real(0.5)};
    const MinkowskiDifference md = minkowski_difference(cap, Circle{{0, 0}, Real(0.5)}, at(Real(0.3), Real(0.8)));
    EXPECT_EQ(md.hull.size(), 2u);
    EXPECT_TRUE(md.contains_origin);
    EXPECT_NEAR(md.signed_distance, Real(-0.2), kTol);
    EXPECT_TRUE(vec_near(md.closest_point, {0, Real(-0.2)}));
    EXPECT_TRUE(vec_near(md.normal, {0, 1}));
    ++checked;
  }
  // Turned: B a box turned 45 degrees at (3,0): B's corners at (3 +- sqrt2, 0), (3, +-sqrt2);
  // the difference's nearest boundary point to the origin is 3 - sqrt2 - 1 along +x.
  {
    const MinkowskiDifference md = minkowski_difference(box, box, at(3, 0, kPi / 4));
    EXPECT_FALSE(md.contains_origin);
    EXPECT_NEAR(md.signed_distance, 2 - kSqrt2, kTol);
    EXPECT_TRUE(vec_near(md.normal, {1, 0}));
    ++checked;
  }
  std::printf("checked %d cases\n", checked);
}

TEST(Minkowski, ExitBoxSlidingDownASlope) {
  // A: the triangle (0,0),(4,0),(0,4); its slope x + y = 4 has outward normal (1,1)/sqrt2.
  // B: a box of half 0.5 that fell by (0,-1) and now sits at (2.5,2.2): its corner (2,1.7) is
  // inside the slope (2 + 1.7 < 4). Backing out along the motion, the corner reaches the slope
  // after 0.3: translation (0,0.3). D's outward normal there is the slope's reversed,
  // (-1,-1)/sqrt2, and the motion minus its normal part is (0.5,-0.5), along the slope.
  const Polygon slope = make_polygon(std::vector<Vec2>{{0, 0}, {4, 0}, {0, 4}}).value();
  const Polygon box = make_box(Real(0.5), Real(0.5)).value();
  const Transform b_pose = at(Real(2.5), Real(2.2));
  const MinkowskiDifference md = minkowski_difference(slope, box, b_pose);
  ASSERT_TRUE(md.contains_origin);
  const Vec2 motion{0, -1};
  const std::optional<MinkowskiExit> exit = minkowski_exit(md, motion);
  ASSERT_TRUE(exit.has_value());
  EXPECT_TRUE(vec_near(exit->translation_b, {0, Real(0.3)}));
  EXPECT_TRUE(vec_near(exit->hit_point, {0, Real(-0.3)}));
  EXPECT_TRUE(vec_near(exit->surface_normal, {-1 / kSqrt2, -1 / kSqrt2}));
  EXPECT_TRUE(vec_near(exit->slide, {Real(0.5), Real(-0.5)}));
  EXPECT_NEAR(cross(exit->slide, Vec2{1, -1}), 0, kTol);  // parallel to the slope
  // Backed out, B touches the slope.
  const Transform backed{b_pose.position + exit->translation_b, b_pose.rotation};
  EXPECT_NEAR(minkowski_difference(slope, box, backed).signed_distance, 0, kTol);
  const auto pen = penetration(slope, Transform{}, box, backed);
  ASSERT_TRUE(pen.has_value());
  EXPECT_NEAR(pen->depth, 0, kTol);
  // A slanted motion (1,-2) also backs out along itself: the corner (2,1.7) - t (1,-2) reaches
  // x + y = 4 when 3.7 + t = 4 -> t = 0.3: translation (-0.3, 0.6).
  const std::optional<MinkowskiExit> slanted = minkowski_exit(md, {1, -2});
  ASSERT_TRUE(slanted.has_value());
  EXPECT_TRUE(vec_near(slanted->translation_b, {Real(-0.3), Real(0.6)}));
  EXPECT_NEAR(cross(slanted->slide, Vec2{1, -1}), 0, kTol);
}

TEST(Minkowski, ExitRoundedExact) {
  // A circle r 0.5 falling by (0,-1) sits at (1.3,1.2), over the corner (1,1) of a box of half 1:
  // 0.3606 from the corner. Backing up by s until |(0.3, 0.2 + s)| = 0.5 gives s = 0.2. D is the
  // core [0.3,2.3] x [0.2,2.2] swept by 0.5; the hit point (0,-0.2) lies on the arc around the
  // core corner (0.3,0.2): outward normal (-0.3,-0.4)/0.5 = (-0.6,-0.8). The slide is
  // (0,-1) - 0.8 (-0.6,-0.8) = (0.48,-0.36).
  const Polygon box = make_box(1, 1).value();
  const Circle ball{{0, 0}, Real(0.5)};
  const MinkowskiDifference md = minkowski_difference(box, ball, at(Real(1.3), Real(1.2)));
  ASSERT_TRUE(md.contains_origin);
  const std::optional<MinkowskiExit> exit = minkowski_exit(md, {0, -1});
  ASSERT_TRUE(exit.has_value());
  EXPECT_TRUE(vec_near(exit->translation_b, {0, Real(0.2)}));
  EXPECT_TRUE(vec_near(exit->surface_normal, {Real(-0.6), Real(-0.8)}));
  EXPECT_TRUE(vec_near(exit->slide, {Real(0.48), Real(-0.36)}));
  // Circle on a slope (the face part of a rounded difference): centre (2,2.2) is 0.2/sqrt2 above
  // x + y = 4; backing up by s until (0.2 + s)/sqrt2 = 0.5 gives s = 0.5 sqrt2 - 0.2.
  const Polygon slope = make_polygon(std::vector<Vec2>{{0, 0}, {4, 0}, {0, 4}}).value();
  const MinkowskiDifference on_slope = minkowski_difference(slope, ball, at(2, Real(2.2)));
  const std::optional<MinkowskiExit> slide = minkowski_exit(on_slope, {0, -1});
  ASSERT_TRUE(slide.has_value());
  EXPECT_TRUE(vec_near(slide->translation_b, {0, Real(0.5) * kSqrt2 - Real(0.2)}));
  EXPECT_TRUE(vec_near(slide->surface_normal, {-1 / kSqrt2, -1 / kSqrt2}));
  EXPECT_TRUE(vec_near(slide->slide, {Real(0.5), Real(-0.5)}));
}

TEST(Minkowski, ExitEmptyWhenApartOrStill) {
  const Polygon box = make_box(1, 1).value();
  EXPECT_FALSE(minkowski_exit(minkowski_difference(box, box, at(3, 0)), {-1, 0}).has_value());
  EXPECT_FALSE(minkowski_exit(minkowski_difference(box, box, at(1, 0)), {0, 0}).has_value());
  EXPECT_TRUE(minkowski_exit(minkowski_difference(box, box, at(1, 0)), {1, 0}).has_value());
}

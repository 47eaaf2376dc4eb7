#include <gtest/gtest.h>

// Shape construction and the per-shape helpers: make_polygon (welding, collinear points, winding,
// every refusal with its kind and index), make_box, convex_hull, Polygon::support_index against a
// brute-force scan, GJK's placed support searches against the search in the shape's own frame,
// compute_aabb, size_scale and Result.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <random>
#include <stdexcept>
#include <vector>

#include "collide2d/collide2d.hpp"

using namespace collide2d;

namespace {

constexpr bool kFloat = sizeof(Real) == sizeof(float);
const Real kTol = kFloat ? Real(2e-5) : Real(1e-12);
const Real kPi = std::numbers::pi_v<Real>;

bool near(Vec2 a, Vec2 b, Real tol = kTol) { return std::abs(a.x - b.x) <= tol && std::abs(a.y - b.y) <= tol; }

// Twice the signed area (shoelace).
Real twice_area(std::span<const Vec2> v) {
  Real sum = 0;
  for (std::size_t i = 0; i < v.size(); ++i) sum += cross(v[i], v[(i + 1) % v.size()]);
  return sum;
}

// The stored vertices are exactly `expected` up to a cyclic shift (same order, counter-clockwise).
::testing::AssertionResult same_cycle(std::span<const Vec2> actual, const std::vector<Vec2>& expected, Real tol = kTol) {
  if (actual.size() != expected.size()) {
    return ::testing::AssertionFailure() << "count " << actual.size() << " expected " << expected.size();
  }
  for (std::size_t shift = 0; shift < actual.size(); ++shift) {
    bool all = true;
    for (std::size_t i = 0; i < actual.size() && all; ++i) all = near(actual[(i + shift) % actual.size()], expected[i], tol);
    if (all) return ::testing::AssertionSuccess();
  }
  auto failure = ::testing::AssertionFailure() << "vertices:";
  for (Vec2 v : actual) failure << " (" << v.x << ", " << v.y << ")";
  return failure;
}

// Every stored-polygon invariant: CCW strictly convex turns, unit outward normals.
void check_invariants(const Polygon& p) {
  const auto v = p.vertices();
  const auto n = p.normals();
  ASSERT_EQ(static_cast<int>(v.size()), p.count());
  ASSERT_GE(p.count(), 3);
  EXPECT_GT(twice_area(v), 0);
  for (std::size_t i = 0; i < v.size(); ++i) {
    const Vec2 here = v[i], next = v[(i + 1) % v.size()], after = v[(i + 2) % v.size()];
    EXPECT_GT(cross(next - here, after - next), 0) << "turn at " << i;
    EXPECT_NEAR(length(n[i]), 1, kTol);
    EXPECT_NEAR(dot(n[i], next - here), 0, kTol * length(next - here));
    // Outward: every vertex is on the inner side of edge i.
    for (Vec2 w : v) EXPECT_LE(dot(n[i], w - here), kTol * (1 + length(w)));
  }
}

ShapeError refusal(std::vector<Vec2> points, Real radius = 0) {
  Result<Polygon> result = make_polygon(points, radius);
  EXPECT_FALSE(result.has_value());
  if (result.has_value()) return {ShapeErrorKind::non_finite, -100, ""};
  EXPECT_FALSE(result.error().message.empty());
  return result.error();
}

}  // namespace

// ---------------------------------------------------------------- make_polygon

TEST(MakePolygon, CounterClockwiseSquareKeptAsGiven) {
  const std::vector<Vec2> square = {{0, 0}, {2, 0}, {2, 2}, {0, 2}};
  const Polygon p = make_polygon(square).value();
  check_invariants(p);
  EXPECT_TRUE(same_cycle(p.vertices(), square));
  EXPECT_TRUE(p.is_rectangle());
  EXPECT_TRUE(near(p.centroid(), {1, 1}));
  EXPECT_EQ(p.radius(), 0);
  // Normals of the CCW square, edge i from vertex i to i+1.
  const std::vector<Vec2> expected_normals = {{0, -1}, {1, 0}, {0, 1}, {-1, 0}};
  for (int i = 0; i < 4; ++i) {
    const Vec2 edge = p.vertices()[static_cast<std::size_t>((i + 1) % 4)] - p.vertices()[static_cast<std::size_t>(i)];
    EXPECT_TRUE(near(p.normals()[static_cast<std::size_t>(i)], normalize(right_perpendicular(edge))));
  }
  bool seen[4] = {};
  for (Vec2 normal : p.normals())
    for (int k = 0; k < 4; ++k) seen[k] = seen[k] || near(normal, expected_normals[static_cast<std::size_t>(k)]);
  EXPECT_TRUE(seen[0] && seen[1] && seen[2] && seen[3]);
}

TEST(MakePolygon, ClockwiseInputStoredCounterClockwise) {
  const std::vector<Vec2> clockwise = {{0, 0}, {0, 3}, {3, 0}};
  const Polygon p = make_polygon(clockwise).value();
  check_invariants(p);
  EXPECT_TRUE(same_cycle(p.vertices(), {{0, 0}, {3, 0}, {0, 3}}));
  EXPECT_FALSE(p.is_rectangle());
  EXPECT_TRUE(near(p.centroid(), {1, 1}));  // (0+3+0)/3, (0+0+3)/3
}

TEST(MakePolygon, WeldsDuplicates) {
  // Repeated points, including the closing point repeating the first.
  const std::vector<Vec2> points = {{0, 0}, {0, 0}, {1, 0}, {1, 1}, {1, 1}, {1, 1}, {0, 1}, {0, 0}};
  const Polygon p = make_polygon(points).value();
  check_invariants(p);
  EXPECT_TRUE(same_cycle(p.vertices(), {{0, 0}, {1, 0}, {1, 1}, {0, 1}}));
  // Points closer than the size-scaled tolerance (far below 64 eps * 100) weld too.
  const Real tiny = Real(100) * real_epsilon;  // 100 * eps absolute, scale 100 -> tolerance 6400 eps
  const std::vector<Vec2> nearly = {{0, 0}, {100, 0}, {100 + tiny, tiny}, {100, 100}, {0, 100}};
  const Polygon q = make_polygon(nearly).value();
  EXPECT_EQ(q.count(), 4);
  check_invariants(q);
}

TEST(MakePolygon, DropsCollinearPoints) {
  // Midpoints on every edge of a square, and two on one edge.
  const std::vector<Vec2> points = {{0, 0}, {1, 0}, {2, 0}, {2, 1}, {2, 2}, {Real(1.5), 2}, {Real(0.5), 2}, {0, 2}, {0, 1}};
  const Polygon p = make_polygon(points).value();
  check_invariants(p);
  EXPECT_TRUE(same_cycle(p.vertices(), {{0, 0}, {2, 0}, {2, 2}, {0, 2}}));
  EXPECT_TRUE(p.is_rectangle());
  // Same with clockwise order.
  std::vector<Vec2> reversed(points.rbegin(), points.rend());
  const Polygon q = make_polygon(reversed).value();
  EXPECT_TRUE(same_cycle(q.vertices(), {{0, 0}, {2, 0}, {2, 2}, {0, 2}}));
}

TEST(MakePolygon, RoundedPolygonKeepsRadius) {
  const std::vector<Vec2> tri = {{0, 0}, {1, 0}, {0, 1}};
  const Polygon p = make_polygon(tri, Real(0.25)).value();
  EXPECT_EQ(p.radius(), Real(0.25));
  EXPECT_EQ(p.rounding_radius(), Real(0.25));
}

TEST(MakePolygon, RefusesTooFewPoints) {
  EXPECT_EQ(refusal({}).kind, ShapeErrorKind::too_few_points);
  EXPECT_EQ(refusal({{1, 2}}).kind, ShapeErrorKind::too_few_points);
  EXPECT_EQ(refusal({{0, 0}, {1, 0}}).kind, ShapeErrorKind::too_few_points);
  const ShapeError dup = refusal({{0, 0}, {1, 0}, {1, 0}, {0, 0}});
  EXPECT_EQ(dup.kind, ShapeErrorKind::too_few_points);
  EXPECT_EQ(dup.index, -1);
  EXPECT_EQ(refusal({{3, 3}, {3, 3}, {3, 3}}).kind, ShapeErrorKind::too_few_points);
}

TEST(MakePolygon, RefusesZeroArea) {
  const ShapeError line = refusal({{0, 0}, {1, 0}, {2, 0}});
  EXPECT_EQ(line.kind, ShapeErrorKind::zero_area);
  EXPECT_EQ(line.index, -1);
  // A line traced back and forth.
  EXPECT_EQ(refusal({{0, 0}, {2, 2}, {1, 1}}).kind, ShapeErrorKind::zero_area);
  EXPECT_EQ(refusal({{0, 0}, {1, 1}, {2, 2}, {3, 3}, {1, 1}}).kind, ShapeErrorKind::zero_area);
}

TEST(MakePolygon, RefusesNotConvexWithInputIndex) {
  // A square with its top edge pushed in at input point 3, (1,1).
  const ShapeError dent = refusal({{0, 0}, {2, 0}, {2, 2}, {1, 1}, {0, 2}});
  EXPECT_EQ(dent.kind, ShapeErrorKind::not_convex);
  EXPECT_EQ(dent.index, 3);
  // The same outline clockwise: the dent is input point 1.
  const ShapeError dent_cw = refusal({{0, 2}, {1, 1}, {2, 2}, {2, 0}, {0, 0}});
  EXPECT_EQ(dent_cw.kind, ShapeErrorKind::not_convex);
  EXPECT_EQ(dent_cw.index, 1);
  // With a duplicate before it, the index still names the input point.
  const ShapeError dent_dup = refusal({{0, 0}, {0, 0}, {2, 0}, {2, 2}, {1, 1}, {0, 2}});
  EXPECT_EQ(dent_dup.kind, ShapeErrorKind::not_convex);
  EXPECT_EQ(dent_dup.index, 4);
}

TEST(MakePolygon, RefusesPentagram) {
  std::vector<Vec2> star;
  for (int k = 0; k < 5; ++k) {
    const Real angle = kPi / 2 + Real(k) * Real(4) * kPi / Real(5);  // every second point of a pentagon
    star.push_back({std::cos(angle), std::sin(angle)});
  }
  const ShapeError e = refusal(star);
  EXPECT_EQ(e.kind, ShapeErrorKind::not_convex);
  EXPECT_EQ(e.index, -1);
  std::vector<Vec2> reversed(star.rbegin(), star.rend());
  EXPECT_EQ(refusal(reversed).kind, ShapeErrorKind::not_convex);
  // A square traced twice turns left everywhere but winds twice.
  const ShapeError twice = refusal({{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0, 0}, {1, 0}, {1, 1}, {0, 1}});
  EXPECT_EQ(twice.kind, ShapeErrorKind::not_convex);
  EXPECT_EQ(twice.index, -1);
}

TEST(MakePolygon, RefusesNonFinite) {
  const Real nan = std::numeric_limits<Real>::quiet_NaN();
  const Real inf = std::numeric_limits<Real>::infinity();
  ShapeError e = refusal({{0, 0}, {1, 0}, {nan, 1}});
  EXPECT_EQ(e.kind, ShapeErrorKind::non_finite);
  EXPECT_EQ(e.index, 2);
  e = refusal({{0, 0}, {1, inf}, {0, 1}});
  EXPECT_EQ(e.kind, ShapeErrorKind::non_finite);
  EXPECT_EQ(e.index, 1);
  e = refusal({{-inf, 0}, {1, 0}, {0, 1}});
  EXPECT_EQ(e.kind, ShapeErrorKind::non_finite);
  EXPECT_EQ(e.index, 0);
  e = refusal({{0, 0}, {1, 0}, {0, 1}}, nan);
  EXPECT_EQ(e.kind, ShapeErrorKind::non_finite);
  EXPECT_EQ(e.index, -1);
  e = refusal({{0, 0}, {1, 0}, {0, 1}}, inf);
  EXPECT_EQ(e.kind, ShapeErrorKind::non_finite);
}

TEST(MakePolygon, RefusesNegativeRadius) {
  const ShapeError e = refusal({{0, 0}, {1, 0}, {0, 1}}, Real(-0.1));
  EXPECT_EQ(e.kind, ShapeErrorKind::negative_radius);
  EXPECT_EQ(e.index, -1);
}

TEST(Result, ValueThrowsOnError) {
  Result<Polygon> bad = make_polygon(std::vector<Vec2>{{0, 0}, {1, 0}});
  EXPECT_FALSE(bad.has_value());
  EXPECT_FALSE(static_cast<bool>(bad));
  EXPECT_THROW((void)bad.value(), std::invalid_argument);
  EXPECT_THROW((void)std::move(bad).value(), std::invalid_argument);
  try {
    (void)make_box(-1, 1).value();
    FAIL() << "no throw";
  } catch (const std::invalid_argument& error) {
    EXPECT_FALSE(std::string(error.what()).empty());
  }
  Result<Polygon> good = make_box(1, 1);
  EXPECT_TRUE(good.has_value());
  EXPECT_TRUE(static_cast<bool>(good));
  EXPECT_NO_THROW((void)good.value());
  EXPECT_EQ(std::move(good).value().count(), 4);
}

// ---------------------------------------------------------------- make_box

TEST(MakeBox, CornersWithOffset) {
  const Real angle = kPi / 6;
  const Transform offset = Transform::from({3, 4}, angle);
  const Polygon p = make_box(2, 1, offset, Real(0.1)).value();
  check_invariants(p);
  EXPECT_TRUE(p.is_rectangle());
  EXPECT_EQ(p.radius(), Real(0.1));
  const Real c = std::cos(angle), s = std::sin(angle);
  // Corners (+-2, +-1) turned by 30 degrees and moved to (3,4), counter-clockwise.
  auto corner = [&](Real x, Real y) { return Vec2{3 + c * x - s * y, 4 + s * x + c * y}; };
  EXPECT_TRUE(same_cycle(p.vertices(), {corner(-2, -1), corner(2, -1), corner(2, 1), corner(-2, 1)}, kTol * 10));
  EXPECT_TRUE(near(p.centroid(), {3, 4}, kTol * 10));
  // Plain box.
  const Polygon q = make_box(Real(0.5), Real(1.5)).value();
  EXPECT_TRUE(same_cycle(q.vertices(), {{Real(-0.5), Real(-1.5)}, {Real(0.5), Real(-1.5)}, {Real(0.5), Real(1.5)}, {Real(-0.5), Real(1.5)}}));
}

TEST(MakeBox, Refusals) {
  const Real nan = std::numeric_limits<Real>::quiet_NaN();
  const Real inf = std::numeric_limits<Real>::infinity();
  int checked = 0;
  auto expect_refused = [&](Result<Polygon> r, ShapeErrorKind kind) {
    ++checked;
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().kind, kind);
    EXPECT_FALSE(r.error().message.empty());
  };
  expect_refused(make_box(0, 1), ShapeErrorKind::negative_radius);
  expect_refused(make_box(1, 0), ShapeErrorKind::negative_radius);
  expect_refused(make_box(-1, 1), ShapeErrorKind::negative_radius);
  expect_refused(make_box(1, -2), ShapeErrorKind::negative_radius);
  expect_refused(make_box(nan, 1), ShapeErrorKind::non_finite);
  expect_refused(make_box(1, nan), ShapeErrorKind::non_finite);
  expect_refused(make_box(inf, 1), ShapeErrorKind::non_finite);
  expect_refused(make_box(1, 1, Transform{{nan, 0}, {}}), ShapeErrorKind::non_finite);
  expect_refused(make_box(1, 1, Transform{{0, 0}, {nan, 0}}), ShapeErrorKind::non_finite);
  expect_refused(make_box(1, 1, {}, Real(-1)), ShapeErrorKind::negative_radius);
  expect_refused(make_box(1, 1, {}, nan), ShapeErrorKind::non_finite);
  std::printf("checked %d cases\n", checked);
}

// ---------------------------------------------------------------- convex_hull

TEST(ConvexHull, SquareWithInteriorDuplicateAndEdgePoints) {
  const std::vector<Vec2> cloud = {{1, 1}, {0, 0}, {2, 0}, {Real(0.5), Real(0.5)}, {2, 2}, {0, 2}, {1, 0}, {2, 1},
                                   {0, 0}, {2, 2}, {Real(1.5), Real(0.3)}, {0, 1}};
  const std::vector<Vec2> hull = convex_hull(cloud);
  EXPECT_TRUE(same_cycle(hull, {{0, 0}, {2, 0}, {2, 2}, {0, 2}}));
}

TEST(ConvexHull, DegenerateClouds) {
  EXPECT_TRUE(convex_hull(std::vector<Vec2>{}).empty());
  const std::vector<Vec2> single = convex_hull(std::vector<Vec2>{{3, 4}, {3, 4}, {3, 4}});
  ASSERT_EQ(single.size(), 1u);
  EXPECT_EQ(single[0], (Vec2{3, 4}));
  const std::vector<Vec2> line = convex_hull(std::vector<Vec2>{{1, 1}, {3, 3}, {0, 0}, {2, 2}, {3, 3}});
  ASSERT_EQ(line.size(), 2u);
  EXPECT_TRUE((line[0] == Vec2{0, 0} && line[1] == Vec2{3, 3}) || (line[0] == Vec2{3, 3} && line[1] == Vec2{0, 0}));
  const Real nan = std::numeric_limits<Real>::quiet_NaN();
  const std::vector<Vec2> with_nan = convex_hull(std::vector<Vec2>{{0, 0}, {nan, 1}, {1, 0}, {0, 1},
                                                                   {std::numeric_limits<Real>::infinity(), 0}});
  EXPECT_TRUE(same_cycle(with_nan, {{0, 0}, {1, 0}, {0, 1}}));
  // Hull of a hull-worthy cloud passed to make_polygon succeeds; of a line, make_polygon refuses.
  EXPECT_EQ(make_polygon(line).error().kind, ShapeErrorKind::too_few_points);
}

TEST(ConvexHull, RandomCloudsContainEveryPoint) {
  std::mt19937 rng(12345);
  std::uniform_real_distribution<Real> coord(-10, 10);
  int checked = 0;
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<Vec2> cloud;
    const int n = 3 + trial % 60;
    for (int i = 0; i < n; ++i) cloud.push_back({coord(rng), coord(rng)});
    const std::vector<Vec2> hull = convex_hull(cloud);
    if (hull.size() < 3) continue;
    // Strictly convex, counter-clockwise, made of input points.
    for (std::size_t i = 0; i < hull.size(); ++i) {
      const Vec2 a = hull[i], b = hull[(i + 1) % hull.size()], c = hull[(i + 2) % hull.size()];
      EXPECT_GT(cross(b - a, c - b), 0);
      EXPECT_NE(std::find(cloud.begin(), cloud.end(), a), cloud.end());
      for (Vec2 p : cloud) EXPECT_GE(cross(b - a, p - a), -Real(1e-3)) << "point outside hull edge";
    }
    const Polygon polygon = make_polygon(hull).value();
    check_invariants(polygon);
    ++checked;
  }
  std::printf("checked %d cases\n", checked);
}

// ---------------------------------------------------------------- support_index

namespace {
int brute_support(const Polygon& p, Vec2 d) {
  int best = 0;
  for (int i = 1; i < p.count(); ++i)
    if (dot(p.vertices()[static_cast<std::size_t>(i)], d) > dot(p.vertices()[static_cast<std::size_t>(best)], d)) best = i;
  return best;
}

// A convex polygon with n vertices on an ellipse at sorted random angles, centred off the origin.
Polygon random_ngon(int n, std::mt19937& rng, Real rx, Real ry, Vec2 centre) {
  std::uniform_real_distribution<Real> jitter(Real(-0.3), Real(0.3));
  std::vector<Vec2> points;
  const Real phase = jitter(rng);
  for (int i = 0; i < n; ++i) {
    const Real angle = phase + (Real(i) + jitter(rng)) * 2 * kPi / Real(n);
    points.push_back({centre.x + rx * std::cos(angle), centre.y + ry * std::sin(angle)});
  }
  return make_polygon(points).value();
}
}  // namespace

TEST(Polygon, SupportIndexMatchesBruteForce) {
  std::mt19937 rng(2024);
  std::normal_distribution<Real> gauss(0, 1);
  int checked = 0;
  for (int n : {3, 5, 8, 9, 16, 100, 500, 1000}) {
    for (int shape = 0; shape < 4; ++shape) {
      const Polygon p = random_ngon(n, rng, Real(1 + shape), Real(1 + 2 * (shape % 2)), {Real(shape) * 3, Real(-shape)});
      // Nearly collinear neighbours (within the float tolerance) may be dropped from the big ones.
      // (In float, 1000 points on a small ellipse lose many of them this way.)
      if (n <= polygon_inline_capacity) {
        ASSERT_EQ(p.count(), n);
      } else {
        ASSERT_GT(p.count(), polygon_inline_capacity);  // the binary-search path
        ASSERT_LE(p.count(), n);
      }
      std::vector<Vec2> directions;
      for (int k = 0; k < 500; ++k) directions.push_back({gauss(rng), gauss(rng)});
      // Exactly along each normal and each axis: two vertices tie.
      for (Vec2 normal : p.normals()) directions.push_back(normal);
      for (Vec2 axis : {Vec2{1, 0}, Vec2{-1, 0}, Vec2{0, 1}, Vec2{0, -1}}) directions.push_back(axis);
      for (Vec2 d : directions) {
        const int index = p.support_index(d);
        ASSERT_GE(index, 0);
        ASSERT_LT(index, p.count());
        const int best = brute_support(p, d);
        // Ties allowed: the chosen vertex has the same dot value as the brute-force maximum.
        EXPECT_EQ(dot(p.vertices()[static_cast<std::size_t>(index)], d), dot(p.vertices()[static_cast<std::size_t>(best)], d))
            << "n " << n << " direction (" << d.x << ", " << d.y << ") index " << index << " best " << best;
        EXPECT_EQ(p.support(d), p.vertices()[static_cast<std::size_t>(index)]);
        ++checked;
      }
    }
  }
  std::printf("checked %d cases\n", checked);
}

// keep_larger, the step of every search for a largest value (support points, faces): against a
// plain scan, on runs with ties, negatives, infinities and NaN, every prefix.
TEST(Polygon, KeepLargerKeepsTheFirstOfTheLargest) {
  const Real inf = std::numeric_limits<Real>::infinity(), nan = std::numeric_limits<Real>::quiet_NaN();
  const std::vector<std::vector<Real>> runs = {
      {1, 2, 3}, {3, 2, 1}, {2, 2, 2}, {-1, -3, -1, -0.5F}, {0, -0.0F, 0}, {1, inf, inf, 2}, {-inf, -inf}, {1, nan, 2, nan, 2}, {5, 7, 7, 6, 7, 1}};
  int checked = 0;
  for (const auto& run : runs) {
    for (std::size_t length = 1; length <= run.size(); ++length) {
      Real best_value = run[0];
      int best_index = 0;
      for (std::size_t i = 1; i < length; ++i) keep_larger(run[i], static_cast<int>(i), best_value, best_index);
      int expected = 0;  // the first index whose value is larger than every earlier kept one
      for (std::size_t i = 1; i < length; ++i) {
        if (run[i] > run[static_cast<std::size_t>(expected)]) expected = static_cast<int>(i);
      }
      EXPECT_EQ(best_index, expected) << "run " << checked << " length " << length;
      EXPECT_EQ(best_value, run[static_cast<std::size_t>(expected)]);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 33);
}

// GJK's placed searches (detail::PlacedPolygonSupport for polygons of up to 8 vertices, the placed
// detail::RectangleSupport for rectangles) against the search in the polygon's own frame with the
// vertex placed after (transformed_support): every answer is one of the vertices transform_point
// places, the same one, or where they differ, one as far along the direction to within the
// round-off of placing and projecting them. Half of the directions are a placed edge's normal,
// along which the edge's two ends tie; half the poses lie far from the origin.
TEST(Polygon, PlacedSupportFindsTheVertexTheSearchInItsOwnFramePlaces) {
  std::mt19937 random(1208);
  std::uniform_real_distribution<double> unit(-1, 1), angle(0, 2 * std::numbers::pi);
  const Real far = kFloat ? Real(1e5) : Real(1e8);
  int checks = 0, random_checks = 0, random_same = 0;
  // True when `found` is `expected` itself.
  auto check = [&](Vec2 found, Vec2 expected, Vec2 direction, const Polygon& polygon, const Transform& placement) {
    ++checks;
    bool placed_vertex = false;
    for (const Vec2 vertex : polygon.vertices()) placed_vertex = placed_vertex || transform_point(placement, vertex) == found;
    EXPECT_TRUE(placed_vertex) << "trial " << checks;
    if (found == expected) return true;
    const Real gap = std::abs(dot(found, direction) - dot(expected, direction));
    const Real band = 64 * std::numeric_limits<Real>::epsilon() * (std::abs(found.x) + std::abs(found.y) + std::abs(expected.x) + std::abs(expected.y)) *
                      (std::abs(direction.x) + std::abs(direction.y));
    EXPECT_LE(gap, band) << "trial " << checks;
    return false;
  };
  for (int trial = 0; trial < 3000; ++trial) {
    const bool rectangle = trial % 5 == 0;
    std::vector<Vec2> points;
    const int count = 3 + trial % 6;
    std::vector<double> angles;
    for (int i = 0; i < count; ++i) angles.push_back(angle(random));
    std::sort(angles.begin(), angles.end());
    const Real radius = Real(0.1 + 2 * std::abs(unit(random)));
    for (const double a : angles) points.push_back({radius * Real(std::cos(a)), radius * Real(std::sin(a))});
    const Result<Polygon> made = rectangle ? make_box(Real(0.05 + std::abs(unit(random))), Real(0.05 + std::abs(unit(random))))
                                           : make_polygon(points);
    if (!made) continue;  // too few distinct points
    const Polygon& polygon = made.value();
    ASSERT_LE(polygon.count(), polygon_inline_capacity);
    const Real offset = trial % 2 == 0 ? far : Real(1);
    const Transform placement = Transform::from({offset * Real(unit(random)), offset * Real(unit(random))}, Real(angle(random)));
    const detail::PlacedPolygonSupport placed(polygon, placement);
    for (int d = 0; d < 16; ++d) {
      const Vec2 direction = d % 2 == 0 ? rotate(placement.rotation, polygon.normals()[static_cast<std::size_t>(d / 2 % polygon.count())])
                                        : Vec2{Real(unit(random)), Real(unit(random))};
      const Vec2 expected = transformed_support(polygon, placement, direction);
      const bool same = check(placed.support(direction), expected, direction, polygon, placement);
      if (d % 2 == 1) {
        ++random_checks;
        random_same += same ? 1 : 0;
      }
      if (polygon.is_rectangle()) check(detail::RectangleSupport(polygon, placement).support(direction), expected, direction, polygon, placement);
    }
  }
  EXPECT_GT(checks, 50000);
  EXPECT_GT(random_same, random_checks * 99 / 100);  // a random direction seldom meets a tie: the very same point
}

TEST(Polygon, LargeRegularPolygonNormalsOrdered) {
  std::vector<Vec2> points;
  const int n = 100;
  for (int i = 0; i < n; ++i) {
    const Real angle = Real(i) * 2 * kPi / Real(n);
    points.push_back({5 * std::cos(angle), 5 * std::sin(angle)});
  }
  const Polygon p = make_polygon(points).value();
  ASSERT_EQ(p.count(), n);
  check_invariants(p);
  EXPECT_TRUE(near(p.centroid(), {0, 0}, kTol * 10));
  // The support along the direction of vertex i is vertex i.
  int checked = 0;
  for (int i = 0; i < n; ++i) {
    const int index = p.support_index(points[static_cast<std::size_t>(i)]);
    EXPECT_TRUE(near(p.vertices()[static_cast<std::size_t>(index)], points[static_cast<std::size_t>(i)]));
    ++checked;
  }
  std::printf("checked %d cases\n", checked);
}

// ---------------------------------------------------------------- compute_aabb and size_scale

TEST(Shapes, ComputeAabb) {
  const Transform turn90 = Transform::from({10, 0}, kPi / 2);
  // Circle centre (1,2) turned 90 degrees -> (-2,1), moved to (8,1); radius 0.5.
  const Aabb circle = compute_aabb(Circle{{1, 2}, Real(0.5)}, turn90);
  EXPECT_TRUE(near(circle.lower, {Real(7.5), Real(0.5)}));
  EXPECT_TRUE(near(circle.upper, {Real(8.5), Real(1.5)}));
  // Capsule (-1,0)-(1,0) r 0.5 upright at (10,0): x in [9.5,10.5], y in [-1.5,1.5].
  const Aabb capsule = compute_aabb(Capsule{{-1, 0}, {1, 0}, Real(0.5)}, turn90);
  EXPECT_TRUE(near(capsule.lower, {Real(9.5), Real(-1.5)}));
  EXPECT_TRUE(near(capsule.upper, {Real(10.5), Real(1.5)}));
  // Segment (0,0)-(3,4) at the identity.
  const Aabb segment = compute_aabb(Segment{{0, 0}, {3, 4}}, Transform{});
  EXPECT_TRUE(near(segment.lower, {0, 0}));
  EXPECT_TRUE(near(segment.upper, {3, 4}));
  // Box 2 x 1 (half) turned 45 degrees: half extents (2 + 1) / sqrt2 both ways; plus radius 0.25.
  const Polygon box = make_box(2, 1, {}, Real(0.25)).value();
  const Aabb turned = compute_aabb(box, Transform::from({1, -1}, kPi / 4));
  const Real h = 3 / std::sqrt(Real(2)) + Real(0.25);
  EXPECT_TRUE(near(turned.lower, {1 - h, -1 - h}));
  EXPECT_TRUE(near(turned.upper, {1 + h, -1 + h}));
  // Through the variant.
  EXPECT_EQ(compute_aabb(Shape{box}, Transform::from({1, -1}, kPi / 4)), turned);
  EXPECT_EQ(compute_aabb(Shape{Circle{{1, 2}, Real(0.5)}}, turn90), circle);
}

// A polygon's box against its vertices placed one by one (transform_point): up to the inline
// capacity the box is exactly their range (the vertices are placed at once, in lanes, with the
// same arithmetic), above it every placed vertex lies inside and each side is reached to
// round-off. Every vertex count from 3 to 8 (the padding of one and two lane groups), 9 and 40;
// rounded and not; near the origin and far out; every rotation quadrant.
TEST(Shapes, ComputeAabbMatchesPlacedVertices) {
  std::mt19937 rng(77);
  std::uniform_real_distribution<Real> angle(-kPi, kPi), unit(-1, 1);
  int checked = 0;
  for (int n : {3, 4, 5, 6, 7, 8, 9, 40}) {
    for (int trial = 0; trial < 40; ++trial) {
      const Real far = trial % 4 == 3 ? Real(1e4) : Real(10);
      const Polygon core = random_ngon(n, rng, Real(1 + trial % 3), Real(0.5 + trial % 5), {unit(rng), unit(rng)});
      const Real radius = trial % 2 == 0 ? Real(0) : Real(0.25);
      const Polygon polygon = radius > 0 ? make_polygon(core.vertices(), radius).value() : core;
      const Transform transform = Transform::from({far * unit(rng), far * unit(rng)}, angle(rng));
      Aabb placed{{std::numeric_limits<Real>::max(), std::numeric_limits<Real>::max()},
                  {-std::numeric_limits<Real>::max(), -std::numeric_limits<Real>::max()}};
      for (Vec2 vertex : polygon.vertices()) {
        const Vec2 point = transform_point(transform, vertex);
        placed.lower = min(placed.lower, point);
        placed.upper = max(placed.upper, point);
      }
      placed.lower -= Vec2{radius, radius};
      placed.upper += Vec2{radius, radius};
      const Aabb box = compute_aabb(polygon, transform);
      if (polygon.count() <= polygon_inline_capacity) {
        EXPECT_EQ(box, placed) << n << " vertices, trial " << trial;
      } else {
        const Real band = 8 * real_epsilon * (far + 10);
        EXPECT_TRUE(box.lower.x <= placed.lower.x && box.lower.y <= placed.lower.y && box.upper.x >= placed.upper.x &&
                    box.upper.y >= placed.upper.y)
            << n << " vertices, trial " << trial << ": a placed vertex lies outside the box";
        EXPECT_TRUE(placed.lower.x - box.lower.x <= band && placed.lower.y - box.lower.y <= band && box.upper.x - placed.upper.x <= band &&
                    box.upper.y - placed.upper.y <= band)
            << n << " vertices, trial " << trial << ": the box is wider than its vertices";
      }
      ++checked;
    }
  }
  std::printf("checked %d polygons\n", checked);
}

TEST(Shapes, SizeScale) {
  EXPECT_NEAR(size_scale(Circle{{3, 4}, 1}), 6, kTol);
  EXPECT_NEAR(size_scale(Capsule{{0, 0}, {3, 4}, Real(0.5)}), Real(5.5), kTol);
  EXPECT_NEAR(size_scale(Segment{{-6, 8}, {1, 0}}), 10, kTol);
  EXPECT_NEAR(size_scale(make_box(3, 4, {}, Real(0.25)).value()), Real(5.25), kTol);
  EXPECT_NEAR(size_scale(make_box(1, 1, Transform{{10, 0}, {}}).value()), std::sqrt(Real(122)), kTol * 10);
  EXPECT_NEAR(size_scale(Shape{Circle{{0, 0}, 2}}), 2, kTol);
}

#include <gtest/gtest.h>

// The algorithms on their own: gjk() (traces, warm start, iteration cap, separation limit),
// epa() (starts from point and segment simplices, far from the origin, slivers, traces, cap),
// sat() (traces, rectangles against hand values and a brute-force scan), and the
// brute-force minkowski_difference(), and minkowski_exit() against closed forms, bisection on
// overlap() and the brute-force difference.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <optional>
#include <random>
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

// GJK's loop compares lengths scaled by its search direction's length without taking that
// length, from |x| + |y| (between |search| and sqrt(2) |search|), and takes the root only between
// those bounds. Against the comparison with the exact length (long double): search directions
// along an axis, along a diagonal (where the two bounds are furthest apart) and at random angles
// and lengths from 1e-15 to 1e15, each against values 0.1%, 10% and 35% either side of
// band x |search|, both for an edge's perpendicular and for a single vertex.
TEST(Gjk, SearchDirectionComparesScaledLengthsAsWithTheRoot) {
  std::mt19937 random(12);
  std::uniform_real_distribution<double> angle(0, 2 * std::numbers::pi), exponent(-15, 15);
  for (int trial = 0; trial < 3000; ++trial) {
    const double length = std::pow(10.0, exponent(random));
    const double turn = trial % 3 == 0 ? 0 : (trial % 3 == 1 ? std::numbers::pi / 4 + std::numbers::pi / 2 * (trial % 4) : angle(random));
    const Vec2 search{static_cast<Real>(length * std::cos(turn)), static_cast<Real>(length * std::sin(turn))};
    const long double exact_length = std::sqrt((long double)search.x * search.x + (long double)search.y * search.y);
    const Real band = static_cast<Real>(std::pow(10.0, exponent(random) / 3));
    for (const bool edge : {true, false}) {
      for (const double factor : {0.65, 0.9, 0.999, 1.001, 1.1, 1.35}) {
        const Real scaled = static_cast<Real>(factor * double(band) * double(exact_length));
        // A vertex's search is the vertex itself, and its scaled distance |vertex|^2.
        const detail::SearchDirection toward{search, edge ? scaled : length_squared(search), edge};
        const bool expected = (long double)scaled <= (long double)band * exact_length;
        EXPECT_EQ(toward.scaled_at_most(scaled, band), expected) << "search (" << search.x << ", " << search.y << "), factor " << factor;
      }
    }
  }
}

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

TEST(Gjk, ASupportPointTheReductionDropsEndsTheLoopNotTheCap) {
  // From the pair-query fuzzer (in float, a point 1.6e5 from a capsule's far end). B - A is a
  // segment whose near end w lies off the origin square to it, by less than the round-off of its
  // length. The support along -w is the far end; the edge to it rounds to the far end itself, so
  // the reduction loses w's offset and keeps w alone, and the same support came back at every
  // step until the cap (64 iterations, status iteration_cap). In exact arithmetic a support point
  // that passes the progress test stays in the reduced simplex: dropped, GJK has converged. The
  // offset is an eighth of the length's epsilon, so this happens in float and in double alike.
  const Real length_along = 131072;
  const Real offset = length_along * real_epsilon / 8;
  const Vec2 near_end{-offset, offset};
  // The far end first: along a direction square to the segment its support ties, and takes it.
  const Segment segment_b{near_end + Vec2{length_along, length_along}, near_end};
  const Circle point_a{{}, 0};
  ASSERT_EQ(dot(near_end, segment_b.a - near_end), 0);  // the premise: the edge's direction has lost the offset
  // Closed form: the segment runs square to its near end's offset, so the origin's nearest point
  // on it is that end, offset x sqrt(2) away, along (-1, 1) / sqrt(2).
  const Real expected = offset * kSqrt2, band = 8 * real_epsilon * expected;
  const GjkResult result = gjk(point_a, segment_b, Transform{});
  EXPECT_EQ(result.status, IterationStatus::converged);
  EXPECT_LE(result.iterations, 4);
  EXPECT_FALSE(result.overlapping);
  EXPECT_NEAR(result.distance, expected, band);
  EXPECT_TRUE(vec_near(result.normal, Vec2{-1, 1} * (1 / kSqrt2), 8 * real_epsilon));
  EXPECT_TRUE(vec_near(result.point_a, {}, 0));
  EXPECT_TRUE(vec_near(result.point_b, near_end, band));
  // A and B swapped: the same distance, the normal reversed, the witnesses exchanged.
  const GjkResult swapped = gjk(segment_b, point_a, Transform{});
  EXPECT_EQ(swapped.status, IterationStatus::converged);
  EXPECT_NEAR(swapped.distance, expected, band);
  EXPECT_TRUE(vec_near(swapped.normal, Vec2{1, -1} * (1 / kSqrt2), 8 * real_epsilon));
  EXPECT_TRUE(vec_near(swapped.point_a, near_end, band));
  EXPECT_TRUE(vec_near(swapped.point_b, {}, 0));
  // distance() takes a circle and a segment in closed form, with collide()'s band, which scales
  // with the segment's extent (its far end's round-off is far above the offset): both call the
  // pair touching, where GJK's band follows the one vertex it ends on.
  const DistanceResult d = distance(point_a, Transform{}, segment_b, Transform{});
  EXPECT_EQ(d.iterations, 0);
  EXPECT_TRUE(d.overlapping);
  EXPECT_EQ(collide(point_a, Transform{}, segment_b, Transform{}).point_count, 1);
  // A warm start from the converged simplex agrees.
  SimplexCache cache;
  gjk(point_a, segment_b, Transform{}, {.cache = &cache});
  const GjkResult warm = gjk(point_a, segment_b, Transform{}, {.cache = &cache});
  EXPECT_EQ(warm.status, IterationStatus::converged);
  EXPECT_NEAR(warm.distance, expected, band);
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
    const Real tol = 4 * 64 * real_epsilon * 1002 + kTol;  // the documented size-scaled tolerance
    EXPECT_NEAR(e.depth, Real(0.5), tol);
    EXPECT_TRUE(vec_near(e.normal, {1, 0}, tol));
    EXPECT_NEAR(e.point_a.x, 1001, tol);
    EXPECT_NEAR(e.point_b.x, Real(1000.5), tol);
    // The features in contact: B's left side, placed at x = 1000.5 from y = 999.2 to 1001.2 (its
    // farther corners, 2003.7 out, are not in contact).
    EXPECT_NEAR(e.feature_magnitude, Real(2001.7), tol);
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

TEST(Epa, WitnessOnTheNearestEdgeWhenItsNeighbourIsNearlyCollinear) {
  auto R = [](double value) { return static_cast<Real>(value); };
  // From the pair-query fuzzer (Clang build): two rounded squares 3e6 wide, one 20,480 narrower,
  // under the same pose. Their difference has nearly collinear neighbouring edges, and round-off
  // picked the one the origin does not project onto: the witness points were clamped to its end,
  // 2,267 from depth x normal. Then nearly identical boxes at many scales, turned and shifted.
  const Polygon a = make_polygon(std::vector<Vec2>{{R(-1127522.5), R(-960890.0625)}, {R(368506.0625), R(-1127522.5)},
                                                    {R(535138.5625), R(368506.0625)}, {R(-960890.0625), R(535138.5625)}},
                                 R(126444)).value();
  const Polygon b = make_polygon(std::vector<Vec2>{{R(-1148002.5), R(-960890.0625)}, {R(348026.0625), R(-1127522.5)},
                                                    {R(514658.5625), R(368506.0625)}, {R(-981370.0625), R(535138.5625)}},
                                 R(126444)).value();
  const Transform pose = at(-296192, -296192, R(-0.110925987));
  auto residual = [](const Penetration& found) { return length(found.point_a - found.point_b - found.depth * found.normal); };
  const std::optional<Penetration> fuzzed = penetration(a, pose, b, pose);
  ASSERT_TRUE(fuzzed.has_value());
  EXPECT_LE(residual(*fuzzed), 64 * contact_tolerance(R(4e6)));
  std::mt19937 random(3);
  std::uniform_real_distribution<double> unit(0, 1);
  double worst = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const double scale = std::pow(10.0, std::floor(unit(random) * (kFloat ? 6 : 12)));
    const Real half_width = R(scale * (0.5 + unit(random))), half_height = R(scale * (0.5 + unit(random)));
    const Real shrink = R(std::pow(10.0, -2 - 4 * unit(random)));
    const Polygon first = make_box(half_width, half_height).value();
    const Polygon second = make_box(half_width * (1 - shrink), half_height * (1 - shrink * R(unit(random)))).value();
    const Transform first_pose = at(R(scale * unit(random)), R(scale * unit(random)), R(6 * unit(random)));
    const Transform second_pose{first_pose.position + R(shrink * scale * unit(random)) * Vec2{1, 1}, first_pose.rotation};
    const std::optional<Penetration> found = penetration(first, first_pose, second, second_pose);
    ASSERT_TRUE(found.has_value()) << "trial " << trial;
    const Real band = 64 * contact_tolerance(R(4 * scale));
    EXPECT_LE(residual(*found), band) << "trial " << trial;
    worst = std::max(worst, double(residual(*found) / band));
  }
  std::printf("nearly identical boxes: worst |point_a - point_b - depth x normal| %.3g of the band\n", worst);
}

TEST(Epa, CollinearOverlappingSegmentsTouchAlongTheirLine) {
  // From the pair-query fuzzer: two equal segments on one diagonal, one shifted along it, under a
  // turned pose. Their difference is a segment, but rounding bent its points into a sliver
  // triangle, EPA ran on it and reported witness points 45 apart for a depth of 0. A difference
  // with no more area than round-off is handled as the line it is.
  auto R = [](double value) { return static_cast<Real>(value); };
  const Real end = R(24029.0 / 1024);
  const Capsule segment{{end, end}, {-32, -32}, 0};
  const Rot turn = Rot::from_angle(R(-32768) * R(3.14159265358979) / 32768);  // a half turn, as the fuzzer rounded it
  const Transform pose_a{{-32, -32}, turn}, pose_b{{-64, -64}, turn};
  const std::optional<Penetration> found = penetration(segment, pose_a, segment, pose_b);
  ASSERT_TRUE(found.has_value());
  const Real band = 64 * contact_tolerance(256);
  EXPECT_LE(found->depth, band);
  EXPECT_LE(length(found->point_a - found->point_b - found->depth * found->normal), band);
  EXPECT_LE(std::abs(closest_point(Shape{segment}, pose_a, found->point_a).signed_distance), band);
  EXPECT_LE(std::abs(closest_point(Shape{segment}, pose_b, found->point_b).signed_distance), band);
}

TEST(Epa, APointFarOutInItsOwnFrameInsideARoundedQuadHasItsWitnessOnTheNearestFace) {
  // From the pair-query fuzzer: a point (a circle of radius 0) 8.4e6 from its own origin, placed
  // back near the world origin, 8.6 inside the core of a rounded quad 1e4 across. Its placement
  // rounds its position by about 1, and the flatness test scaled that by the placement's
  // magnitude instead of the difference's extent: the whole 1e4-wide difference counted as a
  // line, and point_a landed on a diagonal of the quad, 6,000 from the contact.
  auto R = [](double value) { return static_cast<Real>(value); };
  const std::vector<Vec2> corners{{R(10474.4971), R(9935.03613)}, {R(-124.641602), R(9799.87891)}, {R(45.5029297), R(-3543.03613)},
                                  {R(10644.6416), R(-3407.87891)}};
  const Polygon quad = make_polygon(corners, R(1975.9375)).value();
  const Vec2 turn = normalize(Vec2{R(0.471396655), R(0.881921291)});  // the fuzzer's rotation, printed to float precision
  const Transform pose_a{{R(-16.6298828), R(-1.12988281)}, {turn.x, turn.y}};
  const Circle point{{-8388608, -8388608}, 0};
  const Transform pose_b{{-8388608, -8388608}, {-1, R(8.74227766e-08)}};
  const std::optional<Penetration> found = penetration(quad, pose_a, point, pose_b);
  ASSERT_TRUE(found.has_value());
  const Vec2 at = transform_point(pose_b, point.center);
  const Real band = 64 * contact_tolerance(R(1.2e7));  // the point's placement rounds by this much
  EXPECT_LE(length(found->point_b - at), band);
  EXPECT_LE(length(found->point_a - found->point_b - found->depth * found->normal), band);
  // point_a lies on the quad's surface, and the depth is the radius plus how deep the point is
  // in the core (about 8), which the closest point on the core polygon says independently.
  EXPECT_LE(std::abs(closest_point(Shape{quad}, pose_a, found->point_a).signed_distance), band);
  const Polygon core = make_polygon(corners).value();
  const Real inside_core = -closest_point(Shape{core}, pose_a, at).signed_distance;
  EXPECT_GT(inside_core, 7);
  EXPECT_NEAR(found->depth, quad.radius() + inside_core, band);
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

TEST(Sat, RectanglesMatchHandValues) {
  // A half 2 x 1; B half 1 x 0.5 turned 30 degrees at (3.2, 0.4). Along each box axis k (unit u,
  // half extent h) the centres are `along` apart and the other box projects to `p`; the axis's
  // two normals separate by along - h - p and -along - h - p:
  //   A's x: along 3.2, p = 1 cos30 + 0.5 sin30: +x separates by 0.083975 (the best: apart along +x)
  //   A's y: along 0.4, p = 1 sin30 + 0.5 cos30
  //   B's x: along (cos30, sin30).(-3.2,-0.4), p = 2 cos30 + 1 sin30
  //   B's y: along (-sin30, cos30).(-3.2,-0.4), p = 2 sin30 + 1 cos30
  const Polygon a = make_box(2, 1).value();
  const Polygon b = make_box(1, Real(0.5)).value();
  ASSERT_TRUE(a.is_rectangle());
  ASSERT_TRUE(b.is_rectangle());
  const Real c = std::cos(kPi / 6), s = std::sin(kPi / 6);
  const Transform b_to_a = at(Real(3.2), Real(0.4), kPi / 6);
  std::vector<SatAxis> trace;
  const SatAxis best = sat(a, b, b_to_a, &trace);
  EXPECT_EQ(trace.size(), 8u);
  EXPECT_NEAR(best.separation, Real(3.2) - 2 - (c + Real(0.5) * s), kTol);
  EXPECT_TRUE(vec_near(best.normal, {1, 0}));
  EXPECT_EQ(best.shape, 0);
  EXPECT_TRUE(vec_near(a.normals()[static_cast<std::size_t>(best.edge)], {1, 0}));
  const Real axes[4][3] = {{Real(3.2), 2, c + Real(0.5) * s},
                           {Real(0.4), 1, s + Real(0.5) * c},
                           {c * Real(-3.2) + s * Real(-0.4), 1, 2 * c + s},
                           {-s * Real(-3.2) + c * Real(-0.4), Real(0.5), 2 * s + c}};
  std::vector<Real> expected;
  for (const auto& axis : axes) {
    expected.push_back(axis[0] - axis[1] - axis[2]);
    expected.push_back(-axis[0] - axis[1] - axis[2]);
  }
  std::vector<Real> got;
  for (const SatAxis& axis : trace) got.push_back(axis.separation);
  std::sort(expected.begin(), expected.end());
  std::sort(got.begin(), got.end());
  for (std::size_t i = 0; i < expected.size(); ++i) { EXPECT_NEAR(got[i], expected[i], kTol); }
  // Every traced axis names the edge whose outward normal it is, A's first.
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const SatAxis& axis = trace[i];
    EXPECT_EQ(axis.shape, i < 4 ? 0 : 1);
    const Vec2 normal = axis.shape == 0 ? a.normals()[static_cast<std::size_t>(axis.edge)]
                                        : rotate(b_to_a.rotation, b.normals()[static_cast<std::size_t>(axis.edge)]);
    EXPECT_TRUE(vec_near(axis.normal, normal));
  }
}

TEST(Sat, RectanglesMatchBruteForce) {
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

TEST(Sat, EveryVertexCountMatchesBruteForce) {
  // Every pair of vertex counts from 3 to 11: the small path keeps four normals to a vector
  // register and reads the views' storage four at a time (counts that are not a multiple of four
  // leave lanes unused; 5 to 8 take two groups), polygons past 8 take the rotating-calipers walk.
  // Each axis in the trace and the best against brute force over all n + m normals.
  auto polygon = [](int count, Real phase) {
    std::vector<Vec2> points;
    for (int i = 0; i < count; ++i) {
      const Real angle = phase + Real(2 * kPi) * Real(i) / Real(count) + Real(0.2) * std::sin(Real(3 * i + count));
      points.push_back({Real(1.3) * std::cos(angle) + Real(0.2), Real(0.8) * std::sin(angle) - Real(0.1)});
    }
    return make_polygon(points).value();
  };
  int checked = 0;
  for (int n = 3; n <= 11; ++n) {
    for (int m = 3; m <= 11; ++m) {
      const Polygon a = polygon(n, Real(0.1) * Real(n)), b = polygon(m, Real(-0.3) * Real(m));
      ASSERT_EQ(a.count(), n);
      ASSERT_EQ(b.count(), m);
      for (int k = 0; k < 6; ++k) {
        const Transform b_to_a = at(Real(2.6) * std::cos(Real(k + n) * Real(1.1)), Real(1.9) * std::sin(Real(k + m) * Real(0.7)), Real(k) * Real(0.9) - 1);
        std::vector<SatAxis> trace;
        const SatAxis best = sat(a, b, b_to_a, &trace);
        ASSERT_EQ(static_cast<int>(trace.size()), n + m);
        const std::vector<Vec2> b_in_a = placed(b, b_to_a);
        const std::vector<Vec2> a_in_a(a.vertices().begin(), a.vertices().end());
        Real brute = -std::numeric_limits<Real>::max();
        for (const SatAxis& axis : trace) {
          const bool of_a = axis.shape == 0;
          const std::size_t edge = static_cast<std::size_t>(axis.edge);
          const Vec2 normal = of_a ? a.normals()[edge] : rotate(b_to_a.rotation, b.normals()[edge]);
          const Real separation = edge_separation(of_a ? a_in_a[edge] : b_in_a[edge], normal, of_a ? b_in_a : a_in_a);
          EXPECT_NEAR(axis.separation, separation, kTol) << n << " x " << m << " case " << k << (of_a ? " A edge " : " B edge ") << axis.edge;
          brute = std::max(brute, separation);
        }
        EXPECT_NEAR(best.separation, brute, kTol) << n << " x " << m << " case " << k;
        ++checked;
      }
    }
  }
  std::printf("checked %d pairs\n", checked);
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

// ---------------------------------------------------------------- minkowski_exit

// The band an exit may miss the exact touching pose by, along the contact normal: the cast
// declares contact within 8 relative tolerances of the shapes' sizes (docs/conventions.md), and
// never below 4x GJK's tolerance, 64 epsilons x the largest coordinate in A's frame. Twice
// the sum of both covers the round-off of placing B in A's frame.
Real exit_band(const ConvexShape& a, const ConvexShape& b, const Transform& transform_a, const Transform& transform_b) {
  const Real sizes = size_scale(a) + size_scale(b);
  const Real offset = length(inverse_compose(transform_a, transform_b).position);
  return 2 * 64 * real_epsilon * (8 * sizes + 4 * (sizes + offset));
}

// Checks an exit against the closed forms: B moved back by `fraction` x motion touches A with
// the unit normal `normal` (A to B); the slide is the remainder fraction x motion without its
// component along the normal. The fraction may miss by the band along the normal.
void expect_exit(const ConvexShape& a, const Transform& transform_a, const ConvexShape& b, const Transform& transform_b, Vec2 motion,
                 Real fraction, Vec2 normal) {
  const auto exit = minkowski_exit(a, transform_a, b, transform_b, motion);
  ASSERT_TRUE(exit.has_value()) << exit.error().message;
  const Real band = exit_band(a, b, transform_a, transform_b);
  const Real approach = std::abs(dot(motion, normal));
  EXPECT_NEAR(exit.value().fraction, fraction, band / approach);
  EXPECT_GE(exit.value().fraction, fraction - kTol * band / approach);  // never short of touching: B backs out at least to the contact
  EXPECT_TRUE(vec_near(exit.value().translation_b, -fraction * motion, band * length(motion) / approach));
  EXPECT_TRUE(vec_near(exit.value().normal, normal));
  const Vec2 blocked = fraction * motion;
  EXPECT_TRUE(vec_near(exit.value().slide, blocked - dot(blocked, normal) * normal, band * length(motion) / approach + kTol));
  EXPECT_EQ(exit.value().status, IterationStatus::converged);
  // The brute-force difference at the backed-out pose has the origin on its boundary, with the same normal.
  const Transform backed{transform_b.position + exit.value().translation_b, transform_b.rotation};
  const MinkowskiDifference difference = minkowski_difference(a, b, inverse_compose(transform_a, backed));
  EXPECT_GE(difference.signed_distance, -band);
  EXPECT_LE(difference.signed_distance, band);
  EXPECT_TRUE(vec_near(rotate(transform_a.rotation, difference.normal), normal));
}

TEST(MinkowskiExit, BoxSunkIntoAFloorByItsOwnMotionBacksOutAndSlides) {
  // Floor: the box [-5,5] x [-1,0]. B: a box of half 0.5 moved by (0.1,-0.002) to (0.3,0.499),
  // 0.001 into the floor; before the move it was 0.001 above. Half the motion came after the
  // contact: fraction 0.5, translation (-0.05,0.001), normal +y, slide the blocked (0.05,-0.001)
  // without its y part.
  const ConvexShape floor = make_box(5, Real(0.5)).value();
  const ConvexShape box = make_box(Real(0.5), Real(0.5)).value();
  const Transform floor_pose = at(0, Real(-0.5));
  expect_exit(floor, floor_pose, box, at(Real(0.3), Real(0.499)), {Real(0.1), Real(-0.002)}, Real(0.5), {0, 1});
  // Resting on the floor (touching) and then pushed 0.01 into it: the whole motion is blocked.
  expect_exit(floor, floor_pose, box, at(Real(0.2), Real(0.49)), {Real(0.2), Real(-0.01)}, 1, {0, 1});
}

TEST(MinkowskiExit, RefusesMotionsThatDoNotExplainTheOverlapAndPairsApart) {
  // The box rests 0.001 into the floor. Moved sideways by (0.1,0), or up by (0,0.0005), it was
  // already overlapping before the move: backing out along the motion would send it 10.6 units
  // sideways or push it through the floor, so the exit is refused with the reason.
  const ConvexShape floor = make_box(5, Real(0.5)).value();
  const ConvexShape box = make_box(Real(0.5), Real(0.5)).value();
  const Transform floor_pose = at(0, Real(-0.5)), sunk = at(0, Real(0.499));
  for (const Vec2 motion : {Vec2{Real(0.1), 0}, Vec2{0, Real(0.0005)}}) {
    const auto exit = minkowski_exit(floor, floor_pose, box, sunk, motion);
    ASSERT_FALSE(exit.has_value());
    EXPECT_EQ(exit.error().kind, ExitRefusalKind::overlapping_before);
    EXPECT_NE(exit.error().message.find("overlapped before the motion"), std::string::npos) << exit.error().message;
  }
  const auto still = minkowski_exit(floor, floor_pose, box, sunk, {0, 0});
  ASSERT_FALSE(still.has_value());
  EXPECT_EQ(still.error().kind, ExitRefusalKind::zero_motion);
  const auto apart = minkowski_exit(floor, floor_pose, box, at(0, 2), {0, -1});
  ASSERT_FALSE(apart.has_value());
  EXPECT_EQ(apart.error().kind, ExitRefusalKind::apart);
  // A box that passed right through a thin wall ([-0.05,0.05] x [-1,1]) does not overlap it after
  // the move: nothing to undo, though the cast from its start meets the wall.
  const auto through = minkowski_exit(make_box(Real(0.05), 1).value(), at(0, 0), box, at(1, 0), {2, 0});
  ASSERT_FALSE(through.has_value());
  EXPECT_EQ(through.error().kind, ExitRefusalKind::apart);
}

TEST(MinkowskiExit, SlopesAtThirtyAndSixtyDegrees) {
  // A: a box of half (4,1) turned by theta, its top face through P = (3,2) with outward normal
  // n = (-sin, cos). B falls by (0,-0.4) and ends p = 0.05 into the face. Backing up by s
  // raises B's height above the face by 0.4 s cos: s = p / (0.4 cos), translation (0, p / cos);
  // the blocked (0,-p / cos) without its normal part -p leaves the slide -p tan (cos, sin), downhill.
  // B is a circle of radius 0.5 (contact on its arc) and a box turned with the slope (face on face).
  const Vec2 on_face{3, 2};
  const Vec2 motion{0, Real(-0.4)};
  const Real p = Real(0.05);
  for (const Real degrees : {Real(30), Real(60)}) {
    const Real theta = degrees * kPi / 180;
    const Vec2 normal{-std::sin(theta), std::cos(theta)}, downhill{-std::cos(theta), -std::sin(theta)};
    const ConvexShape slope = make_box(4, 1).value();
    const Transform slope_pose{on_face - normal, Rot::from_angle(theta)};
    const Real fraction = p / (Real(0.4) * std::cos(theta));
    const Circle ball{{}, Real(0.5)};
    expect_exit(slope, slope_pose, ball, {on_face + (Real(0.5) - p) * normal, Rot{}}, motion, fraction, normal);
    const ConvexShape crate = make_box(Real(0.3), Real(0.2)).value();
    const Transform crate_pose{on_face + (Real(0.2) - p) * normal, Rot::from_angle(theta)};
    expect_exit(slope, slope_pose, crate, crate_pose, motion, fraction, normal);
    const auto exit = minkowski_exit(slope, slope_pose, ball, {on_face + (Real(0.5) - p) * normal, Rot{}}, motion);
    ASSERT_TRUE(exit.has_value());
    EXPECT_TRUE(vec_near(exit.value().slide, p * std::tan(theta) * downhill, Real(10) * kTol));
  }
}

TEST(MinkowskiExit, CircleOverABoxCornerLeavesAlongTheArc) {
  // A circle of radius 0.5 fell by (0,-1) to (1.3,1.2), over the corner (1,1) of a box of half 1,
  // 0.3606 from it. Backing up by s until |(0.3, 0.2 + s)| = 0.5 gives s = 0.2, normal
  // (0.3,0.4)/0.5 = (0.6,0.8).
  expect_exit(make_box(1, 1).value(), at(0, 0), Circle{{}, Real(0.5)}, at(Real(1.3), Real(1.2)), {0, -1}, Real(0.2),
              {Real(0.6), Real(0.8)});
}

TEST(MinkowskiExit, RandomConvexPairsAgreeWithBisectionOnOverlap) {
  // B ends overlapping A after a motion that starts it clear of A (the bounding circles apart).
  // Oracle: bisection on overlap() along the motion for the exit fraction; the contact normal of
  // penetration() or distance() at the bisection's touching pose; the slide in closed form from those two.
  std::mt19937 generator(2024);
  std::uniform_real_distribution<Real> unit(0, 1);
  auto random_shape = [&](int kind) -> ConvexShape {
    const Real size = Real(0.3) + 2 * unit(generator);
    switch (kind) {
      case 0: return Circle{{}, size};
      case 1: return Capsule{{-size, 0}, {size, 0}, Real(0.2) * size};
      default: return regular(3 + static_cast<int>(unit(generator) * 6), size, {}, unit(generator));
    }
  };
  int checked = 0;
  Real worst = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const ConvexShape a = random_shape(trial % 4), b = random_shape((trial / 4) % 4);
    const Transform transform_a = at(20 * unit(generator) - 10, 20 * unit(generator) - 10, 7 * unit(generator));
    const Real angle = 7 * unit(generator);
    const Vec2 direction{std::cos(angle), std::sin(angle)};
    const Transform transform_b{transform_a.position + Real(0.5) * (unit(generator) - Real(0.5)) * Vec2{1, 1},
                                Rot::from_angle(7 * unit(generator))};
    const Real clear = 2 * (size_scale(a) + size_scale(b));
    const Vec2 motion = (clear + 2 * unit(generator)) * direction;
    auto overlaps_at = [&](Real s) {
      return std::visit([&](const auto& shape_a, const auto& shape_b) {
        return overlap(shape_a, transform_a, shape_b, Transform{transform_b.position - s * motion, transform_b.rotation});
      }, a, b);
    };
    if (!overlaps_at(0)) continue;
    Real inside = 0, outside = 1;
    for (int step = 0; step < 60; ++step) (overlaps_at(Real(0.5) * (inside + outside)) ? inside : outside) = Real(0.5) * (inside + outside);
    const Transform touching{transform_b.position - inside * motion, transform_b.rotation};
    // At the touching pose overlap() and penetration() may draw the round-off band differently:
    // the normal is penetration()'s when it sees contact, else distance()'s.
    const Vec2 normal = std::visit(
        [&](const auto& shape_a, const auto& shape_b) {
          const std::optional<Penetration> contact = penetration(shape_a, transform_a, shape_b, touching);
          return contact ? contact->normal : distance(shape_a, transform_a, shape_b, touching).normal;
        },
        a, b);
    ASSERT_NEAR(length(normal), 1, kTol);

    const auto exit = minkowski_exit(a, transform_a, b, transform_b, motion);
    ASSERT_TRUE(exit.has_value()) << exit.error().message;
    const Real band = exit_band(a, b, transform_a, transform_b);
    const Real approach = std::abs(dot(motion, normal));
    EXPECT_LE(std::abs(exit.value().fraction - inside) * approach, band) << "trial " << trial;
    EXPECT_TRUE(vec_near(exit.value().translation_b, -exit.value().fraction * motion, kTol * length(motion)));
    const Vec2 blocked = inside * motion;
    const Vec2 expected_slide = blocked - dot(blocked, normal) * normal;
    // The slide moves by the fraction's miss and by the normal's allowed turn over the remainder.
    const Real slide_band = band * length(motion) / approach + length(blocked) * Real(10) * kTol;
    EXPECT_TRUE(vec_near(exit.value().slide, expected_slide, slide_band + kTol)) << "trial " << trial;
    EXPECT_TRUE(vec_near(exit.value().normal, normal, Real(10) * kTol)) << "trial " << trial;
    worst = std::max(worst, std::abs(exit.value().fraction - inside) * approach / band);
    ++checked;
  }
  std::printf("checked %d random exits; worst miss along the normal %.3g of the band\n", checked, double(worst));
  EXPECT_GE(checked, 200);
}

// test_tolerance_model.cpp — the touching band follows the features in contact and the round-off
// of the coordinates in use: not the size of a large shape, not the distance from the origin;
// and every query agrees on touching.
//
// Oracles: closed forms (a box above a floor, two squares a known gap apart), and the same pair
// at the origin (placed with the exact offset the far pair realises, so both pairs are the same
// geometry and only the round-off of the coordinates differs).
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>
#include <random>
#include <vector>

#include "collide2d/collide2d.hpp"

namespace {

using namespace collide2d;

constexpr bool real_is_float = sizeof(Real) == sizeof(float);

/// Every query's touching verdict for one pair, so a test can ask that they agree.
struct Verdicts {
  bool overlap;
  bool penetration;
  bool distance;
  bool manifolds;
};

Verdicts verdicts_of(const Shape& a, const Transform& transform_a, const Shape& b, const Transform& transform_b) {
  std::vector<ChildManifold> manifolds;
  contact_manifolds(a, transform_a, b, transform_b, manifolds);
  return {overlap(a, transform_a, b, transform_b), penetration(a, transform_a, b, transform_b).has_value(),
          distance(a, transform_a, b, transform_b).overlapping, !manifolds.empty()};
}

/// Every query says apart.
void expect_apart(const Verdicts& verdicts) {
  EXPECT_FALSE(verdicts.overlap);
  EXPECT_FALSE(verdicts.penetration);
  EXPECT_FALSE(verdicts.distance);
  EXPECT_FALSE(verdicts.manifolds);
}

TEST(ToleranceModel, BoxJustAboveAWideFloorIsApartWhateverTheFloorsWidth) {
  const Shape box = make_box(0.5f, 0.5f).value();
  for (const Real half_width : {Real(10), Real(100), Real(1000), Real(5000)}) {
    SCOPED_TRACE(half_width);
    const Shape floor = make_box(half_width, 0.5f).value();
    // The floor's top is y = 0.5; the box's bottom is 0.01 above it.
    const Transform box_pose{{3, Real(1.01)}, {}};
    expect_apart(verdicts_of(floor, {}, box, box_pose));
    const DistanceResult gap = distance(floor, {}, box, box_pose);
    // The floor's top face is a feature of magnitude ~half_width: the round-off band is a few
    // epsilons of it, far below the 0.01 gap (0.0048 at 5000 in float).
    EXPECT_NEAR(gap.distance, 0.01, 4 * contact_tolerance(half_width + 4));
    // Resting 0.001 into the floor: every query says touching, with the depth.
    const Transform resting{{3, Real(0.999)}, {}};
    const Verdicts touching = verdicts_of(floor, {}, box, resting);
    EXPECT_TRUE(touching.overlap && touching.penetration && touching.distance && touching.manifolds);
    const std::optional<Penetration> resting_depth = penetration(floor, {}, box, resting);
    EXPECT_NEAR(resting_depth->depth, 0.001, 4 * contact_tolerance(half_width + 4));
    // The band it reports is that of the floor's face and the box: a few epsilons of half_width.
    EXPECT_GT(resting_depth->tolerance, 0);
    EXPECT_LE(resting_depth->tolerance, contact_tolerance(2 * half_width + 8));
  }
}

TEST(ToleranceModel, LongOutlineAGapAwayIsApartForEveryQuery) {
  // A 4 km terrain outline with notches; a box 0.05 above its top face, near its far end.
  std::vector<Vec2> outline = {{0, -10}, {4000, -10}, {4000, 0}};
  for (int notch = 39; notch >= 1; --notch) {
    const Real x = Real(notch) * 100;
    outline.push_back({x + 10, 0});
    outline.push_back({x + 5, -5});
    outline.push_back({x, 0});
  }
  outline.push_back({0, 0});
  const Shape terrain = shape_from_outline(outline).value();
  ASSERT_TRUE(std::holds_alternative<Compound>(terrain));
  const Shape box = make_box(1, 1).value();
  const Transform box_pose{{3950, Real(1.05)}, {}};
  expect_apart(verdicts_of(terrain, {}, box, box_pose));
  EXPECT_NEAR(distance(terrain, {}, box, box_pose).distance, 0.05, 4 * contact_tolerance(8000));
}

TEST(ToleranceModel, SquaresFarFromTheOriginAreApartByTheirGap) {
  // Two 2 x 2 squares placed near 1e5 (float) or 1e8 (double), 0.25 apart.
  const Real far = real_is_float ? Real(1e5) : Real(1e8);
  const Shape square = make_box(1, 1).value();
  const Transform left{{far, -far}, {}}, right{{far + Real(2.25), -far}, {}};
  expect_apart(verdicts_of(square, left, square, right));
  const Real realised_gap = (right.position.x - left.position.x) - 2;
  EXPECT_NEAR(distance(square, left, square, right).distance, realised_gap, 4 * contact_tolerance(4));
}

TEST(ToleranceModel, FarPairsAnswerAsThePairsAtTheOrigin) {
  // Random boxes, polygons, circles and capsules near each other, placed at the origin and at
  // 1e3, 1e4, 1e5 (float) or 1e8 (double). The far pair's realised offset is used at the origin,
  // so the geometry is the same; the answers must agree within the round-off of the pair's own
  // coordinates (depths, distances, normals), and the world points within a few ulps of the far
  // position.
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> unit(-1, 1), size(0.2, 2);
  // Concave outlines too: an L and a notched block, as compounds.
  const Shape l_shape = shape_from_outline(std::vector<Vec2>{{0, 0}, {2, 0}, {2, 0.5f}, {0.5f, 0.5f}, {0.5f, 2}, {0, 2}}).value();
  const Shape notched = shape_from_outline(std::vector<Vec2>{{-1.5f, -1}, {1.5f, -1}, {1.5f, 1}, {0.5f, 1}, {0, 0.2f}, {-0.5f, 1}, {-1.5f, 1}}).value();
  auto random_shape = [&](int kind) -> Shape {
    switch (kind) {
      case 4: return l_shape;
      case 5: return notched;
      case 0: return make_box(Real(size(random)), Real(size(random))).value();
      case 1: return Circle{{}, Real(size(random))};
      case 2: return Capsule{{Real(-size(random)), 0}, {Real(size(random)), 0}, Real(size(random) / 4)};
      default: {
        std::vector<Vec2> points;
        for (int i = 0; i < 7; ++i) {
          const double angle = 2 * 3.14159265358979 * i / 7 + 0.3 * unit(random);
          const double radius = size(random);
          points.push_back({Real(radius * std::cos(angle)), Real(radius * std::sin(angle))});
        }
        return make_polygon(convex_hull(points)).value();
      }
    }
  };
  const std::vector<double> magnitudes = real_is_float ? std::vector<double>{1e3, 1e4, 1e5} : std::vector<double>{1e3, 1e5, 1e8};
  int compared = 0;
  for (const double magnitude : magnitudes) {
    double worst_depth = 0, worst_normal = 0;
    for (int trial = 0; trial < 400; ++trial) {
      const Shape a = random_shape(trial % 6), b = random_shape((trial / 6) % 6);
      const Vec2 base{Real(magnitude * (1 + 0.1 * unit(random))), Real(-magnitude * (1 + 0.1 * unit(random)))};
      const Real angle_a = Real(3 * unit(random)), angle_b = Real(3 * unit(random));
      const Transform far_a = Transform::from(base, angle_a);
      const Transform far_b = Transform::from(base + Vec2{Real(2 * unit(random)), Real(2 * unit(random))}, angle_b);
      const Vec2 realised = far_b.position - far_a.position;  // exact: Sterbenz
      const Transform near_a = Transform::from({}, angle_a), near_b = Transform::from(realised, angle_b);
      const std::optional<Penetration> far_depth = penetration(a, far_a, b, far_b), near_depth = penetration(a, near_a, b, near_b);
      const DistanceResult far_gap = distance(a, far_a, b, far_b), near_gap = distance(a, near_a, b, near_b);
      // The band: the round-off of the pair's own coordinates (a few units), not of the position.
      const Real band = 8 * contact_tolerance(16);
      const bool decided = near_depth ? near_depth->depth > band : near_gap.distance > band;
      if (!decided) continue;
      ++compared;
      ASSERT_EQ(far_depth.has_value(), near_depth.has_value()) << "trial " << trial << " at " << magnitude;
      EXPECT_NEAR(far_gap.distance, near_gap.distance, band) << "trial " << trial << " at " << magnitude;
      if (far_depth) {
        worst_depth = std::max(worst_depth, double(std::abs(far_depth->depth - near_depth->depth)));
        worst_normal = std::max(worst_normal, double(length(far_depth->normal - near_depth->normal)));
        EXPECT_NEAR(far_depth->depth, near_depth->depth, band) << "trial " << trial << " at " << magnitude;
        // World witness points: the far pair's, moved back by the base, are the near pair's.
        const Real point_band = 8 * contact_tolerance(Real(2 * magnitude));
        EXPECT_NEAR(far_depth->point_a.x - base.x, near_depth->point_a.x, point_band);
        EXPECT_NEAR(far_depth->point_a.y - base.y, near_depth->point_a.y, point_band);
      }
    }
    std::printf("at %.0e: worst depth difference %.3g, worst normal difference %.3g\n", magnitude, worst_depth, worst_normal);
  }
  EXPECT_GT(compared, 600);
}

TEST(ToleranceModel, CirclePairsFarFromTheOriginAgainstExactCentres) {
  // Circles with local centres off their origin, turned, near the origin and 1e5 (float) or 1e8
  // (double) away. The oracle places both centres exactly (GMP rationals, p + R c from the very
  // inputs), rounds only their offset to double and takes the gap |c_b - c_a| - r_a - r_b. The
  // queries must answer it within a band of the pair's own coordinates (a few units: the offset,
  // the local centres, the radii), not of the position: overlap, distance, penetration and collide, where
  // the oracle is farther than that from touching: the verdicts, the gap or depth, the normal, and
  // collide's world point midway between the surfaces.
  std::mt19937_64 random(23);
  std::uniform_real_distribution<double> unit(-1, 1);
  const Real band = 8 * contact_tolerance(16);
  int compared = 0;
  for (const double magnitude : {0.0, 1e3, real_is_float ? 1e5 : 1e8}) {
    for (int trial = 0; trial < 500; ++trial) {
      const Circle a{{Real(unit(random)), Real(unit(random))}, Real(0.5 + 0.5 * std::abs(unit(random)))};
      const Circle b{{Real(unit(random)), Real(unit(random))}, Real(0.5 + 0.5 * std::abs(unit(random)))};
      const Vec2 base{Real(magnitude * (1 + 0.1 * unit(random))), Real(-magnitude * (1 + 0.1 * unit(random)))};
      const Transform transform_a = Transform::from(base, Real(3 * unit(random)));
      const Transform transform_b = Transform::from(base + Vec2{Real(3 * unit(random)), Real(3 * unit(random))}, Real(3 * unit(random)));
      auto centre = [](const Circle& circle, const Transform& transform) {
        const mpq_class c(double(transform.rotation.cosine)), s(double(transform.rotation.sine));
        const mpq_class x(double(circle.center.x)), y(double(circle.center.y));
        return std::array<mpq_class, 2>{mpq_class(double(transform.position.x)) + (c * x - s * y),
                                        mpq_class(double(transform.position.y)) + (s * x + c * y)};
      };
      const auto exact_a = centre(a, transform_a), exact_b = centre(b, transform_b);
      const std::array<double, 2> ca{exact_a[0].get_d(), exact_a[1].get_d()};
      const mpq_class exact_dx = exact_b[0] - exact_a[0], exact_dy = exact_b[1] - exact_a[1];
      const double dx = exact_dx.get_d(), dy = exact_dy.get_d(), between = std::hypot(dx, dy);
      const double gap = between - double(a.radius) - double(b.radius);
      if (std::abs(gap) <= double(band) || between < 0.1) continue;  // too close to call, or nearly concentric
      ++compared;
      SCOPED_TRACE("trial " + std::to_string(trial) + " at " + std::to_string(magnitude) + " gap " + std::to_string(gap));
      EXPECT_EQ(overlap(a, transform_a, b, transform_b), gap < 0);
      SimplexCache cache;
      const DistanceResult apart = distance(a, transform_a, b, transform_b, {.cache = &cache});
      const std::optional<Penetration> deep = penetration(a, transform_a, b, transform_b);
      EXPECT_EQ(apart.overlapping, gap < 0);
      EXPECT_EQ(apart.iterations, 0);  // analytic: no GJK
      // The cache is left as GJK leaves two points: one vertex, each shape's centre in its own frame.
      EXPECT_EQ(cache.count, 1);
      EXPECT_EQ(cache.local_a[0], a.center);
      EXPECT_EQ(cache.local_b[0], b.center);
      ASSERT_EQ(deep.has_value(), gap < 0);
      // The band follows the pair's own coordinates (offset, centres, radii: |x| + |y| below 32),
      // whatever the distance from the origin.
      if (deep) {
        EXPECT_GT(deep->tolerance, 0);
        EXPECT_LE(deep->tolerance, contact_tolerance(32));
      }
      const Manifold manifold = collide(a, transform_a, b, transform_b);
      ASSERT_EQ(manifold.point_count, gap < 0 ? 1 : 0);
      if (gap >= 0) {
        EXPECT_NEAR(apart.distance, gap, band);
        EXPECT_NEAR(apart.normal.x, dx / between, band);
        EXPECT_NEAR(apart.normal.y, dy / between, band);
        continue;
      }
      EXPECT_NEAR(deep->depth, -gap, band);
      EXPECT_NEAR(deep->normal.x, dx / between, band);
      EXPECT_NEAR(deep->normal.y, dy / between, band);
      EXPECT_NEAR(manifold.points[0].separation, gap, band);
      EXPECT_NEAR(manifold.normal.x, dx / between, band);
      EXPECT_NEAR(manifold.normal.y, dy / between, band);
      // Midway between the surfaces: A's surface point and B's along the line of centres.
      const double along = double(a.radius) + 0.5 * gap;
      const Real point_band = band + 4 * contact_tolerance(Real(2 * magnitude));
      EXPECT_NEAR(manifold.points[0].point.x, ca[0] + along * dx / between, point_band);
      EXPECT_NEAR(manifold.points[0].point.y, ca[1] + along * dy / between, point_band);
    }
  }
  EXPECT_GT(compared, 1200);
}

TEST(ToleranceModel, EveryQueryAgreesOnTouching) {
  // Random convex pairs brought to touch (B moved along the distance normal by the gap), then
  // nudged by a few bands either way: overlap, penetration, distance and the manifolds agree.
  std::mt19937_64 random(11);
  std::uniform_real_distribution<double> unit(-1, 1);
  int disagreements = 0, pairs = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const Shape a = make_box(Real(0.5 + std::abs(unit(random))), Real(0.5 + std::abs(unit(random)))).value();
    const Shape b = (trial % 2) ? Shape{Circle{{}, Real(0.3 + std::abs(unit(random)))}} : Shape{make_box(0.7f, 0.4f).value()};
    const Transform transform_a = Transform::from({Real(10 * unit(random)), Real(10 * unit(random))}, Real(3 * unit(random)));
    Transform transform_b = Transform::from(transform_a.position + Vec2{Real(4 * unit(random)), Real(4 * unit(random))}, Real(3 * unit(random)));
    const DistanceResult gap = distance(a, transform_a, b, transform_b);
    if (gap.overlapping) continue;
    transform_b.position -= gap.distance * gap.normal;  // now touching, to round-off
    for (const Real nudge : {Real(-0.01), Real(0), Real(0.01)}) {
      const Transform nudged{transform_b.position + nudge * gap.normal, transform_b.rotation};
      const Verdicts verdicts = verdicts_of(a, transform_a, b, nudged);
      ++pairs;
      const bool agree = verdicts.overlap == verdicts.penetration && verdicts.overlap == verdicts.distance &&
                         verdicts.overlap == verdicts.manifolds;
      disagreements += !agree;
      if (nudge != 0) {
        EXPECT_EQ(verdicts.overlap, nudge < 0) << "trial " << trial;
      }
    }
  }
  std::printf("%d pairs at, inside and outside touching; %d disagreements\n", pairs, disagreements);
  EXPECT_EQ(disagreements, 0);
}

/// The signed distance of `point` from a convex polygon (counter-clockwise `vertices`) in double:
/// negative inside, by the nearest edge; outside, the nearest point of the nearest edge. Two
/// vertices are a segment (equal, a point), which has no inside.
double signed_distance_to_polygon(const std::vector<std::array<double, 2>>& vertices, std::array<double, 2> point) {
  bool inside = vertices.size() > 2;
  double nearest = std::numeric_limits<double>::max();
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    const auto& p = vertices[i];
    const auto& q = vertices[(i + 1) % vertices.size()];
    const double ex = q[0] - p[0], ey = q[1] - p[1], px = point[0] - p[0], py = point[1] - p[1];
    if (ex * py - ey * px < 0) inside = false;
    const double length_squared = ex * ex + ey * ey;
    const double t = length_squared > 0 ? std::clamp((px * ex + py * ey) / length_squared, 0.0, 1.0) : 0.0;
    nearest = std::min(nearest, std::hypot(px - t * ex, py - t * ey));
  }
  return inside ? -nearest : nearest;
}

/// `point` placed by `transform`, in double from the same floats: the oracles' placement.
std::array<double, 2> placed_in_double(const Transform& transform, Vec2 point) {
  const double c = transform.rotation.cosine, s = transform.rotation.sine;
  return {double(transform.position.x) + (c * double(point.x) - s * double(point.y)),
          double(transform.position.y) + (s * double(point.x) + c * double(point.y))};
}

/// A fuzzer's rotation, unit in float; normalised in double, where its float round-off would
/// scale coordinates 1e6 out.
Rot fuzzer_rotation(Vec2 turned) {
  const Vec2 unit = real_is_float ? turned : normalize(turned);
  return {unit.x, unit.y};
}

/// A shape with a polygon-like core for check_circle_core_pairs: the shape and its core vertices
/// (local frame; two for a capsule or a segment, equal for one of zero length).
template <class CoreShape>
struct CoreCase {
  CoreShape shape;
  std::vector<Vec2> core;
};

/// A circle against shapes `make_core(trial, random)` makes, near the origin and far out (1e5 in
/// float, 1e8 in double), both orders. The oracle: the core's vertices and the circle's centre
/// placed in double from the same floats, the centre's signed distance from the core (by its
/// edges; a two-vertex core has no inside), less the radii. overlap(), penetration(), distance()
/// and collide() give one verdict on every pair (the band's cases included) and the oracle's where
/// it is decisive; distance and depth match the oracle within the band of the coordinates'
/// round-off; the witness points lie on their surfaces; swapping the shapes mirrors every field;
/// the cache holds the nearest feature's vertices with the circle's centre, and an analytic pair
/// reports 0 iterations. Returns the number of overlapping verdicts.
template <class MakeCore>
int check_circle_core_pairs(std::uint64_t seed, int trials, const MakeCore& make_core) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> unit(-1, 1);
  const double far = real_is_float ? 1e5 : 1e8;
  int compared = 0, decisive = 0, overlapping = 0;
  for (int trial = 0; trial < trials; ++trial) {
    const auto made = make_core(trial, random);  // not a structured binding: clang's C++20 lambdas cannot capture those
    const auto& shape = made.shape;
    const std::vector<Vec2>& core_vertices = made.core;
    const Real core_radius = shape.rounding_radius();
    const Circle circle{{Real(0.2 * unit(random)), Real(0.2 * unit(random))}, Real(0.05 + 0.5 * std::abs(unit(random)))};
    const double magnitude = trial % 4 == 3 ? far : 1;
    const Vec2 where{Real(magnitude * unit(random)), Real(magnitude * unit(random))};
    const Transform transform_core = Transform::from(where, Real(3 * unit(random)));
    const Transform transform_circle =
        Transform::from(where + Vec2{Real(2.5 * unit(random)), Real(2 * unit(random))}, Real(3 * unit(random)));
    // The oracle, in double from the same floats.
    std::vector<std::array<double, 2>> core;
    for (Vec2 vertex : core_vertices) core.push_back(placed_in_double(transform_core, vertex));
    const std::array<double, 2> center = placed_in_double(transform_circle, circle.center);
    const double gap = signed_distance_to_polygon(core, center) - double(core_radius) - double(circle.radius);
    const double band = 64 * double(real_epsilon) * (std::abs(double(where.x)) + std::abs(double(where.y)) + 4);
    auto on_core = [&](Vec2 point) { return std::abs(signed_distance_to_polygon(core, {double(point.x), double(point.y)}) - double(core_radius)); };
    auto on_circle = [&](Vec2 point) { return std::abs(std::hypot(double(point.x) - center[0], double(point.y) - center[1]) - double(circle.radius)); };
    SCOPED_TRACE("trial " + std::to_string(trial) + ", " + std::to_string(core_vertices.size()) + " vertices at " + std::to_string(magnitude) +
                 ", gap " + std::to_string(gap) + ", band " + std::to_string(band));
    ++compared;
    for (const bool core_first : {true, false}) {
      SCOPED_TRACE(core_first ? "core first" : "circle first");
      SimplexCache cache;
      const bool lib_overlap = core_first ? overlap(shape, transform_core, circle, transform_circle)
                                          : overlap(circle, transform_circle, shape, transform_core);
      const DistanceResult apart = core_first ? distance(shape, transform_core, circle, transform_circle, {.cache = &cache})
                                              : distance(circle, transform_circle, shape, transform_core, {.cache = &cache});
      const std::optional<Penetration> deep = core_first ? penetration(shape, transform_core, circle, transform_circle)
                                                         : penetration(circle, transform_circle, shape, transform_core);
      const Manifold manifold = core_first ? collide(shape, transform_core, circle, transform_circle)
                                           : collide(circle, transform_circle, shape, transform_core);
      // One verdict from every query, and the oracle's where it is decisive.
      EXPECT_EQ(apart.overlapping, lib_overlap);
      EXPECT_EQ(deep.has_value(), lib_overlap);
      EXPECT_EQ(manifold.point_count > 0, lib_overlap);
      if (std::abs(gap) > band) {
        EXPECT_EQ(lib_overlap, gap < 0);
      }
      EXPECT_EQ(apart.iterations, 0);
      // The cache: the nearest feature's one or two core vertices, each with the circle's centre.
      EXPECT_TRUE(cache.count == 1 || cache.count == 2);
      for (int i = 0; i < std::min(cache.count, 2); ++i) {
        const Vec2 vertex = core_first ? cache.local_a[std::size_t(i)] : cache.local_b[std::size_t(i)];
        EXPECT_EQ(core_first ? cache.local_b[std::size_t(i)] : cache.local_a[std::size_t(i)], circle.center);
        EXPECT_TRUE(std::find(core_vertices.begin(), core_vertices.end(), vertex) != core_vertices.end());
      }
      const Vec2 point_core = core_first ? apart.point_a : apart.point_b, point_circle = core_first ? apart.point_b : apart.point_a;
      if (!apart.overlapping) {
        EXPECT_NEAR(double(apart.distance), gap, band);
        EXPECT_LE(on_core(point_core), band);
        EXPECT_LE(on_circle(point_circle), band);
        EXPECT_NEAR(double(length(apart.normal)), 1.0, 1e-5);
        EXPECT_NEAR(double(collide2d::distance(apart.point_a, apart.point_b)), double(apart.distance), band);
        // From A toward B.
        EXPECT_GE(double(dot(apart.point_b - apart.point_a, apart.normal)), -band);
      }
      if (deep) {
        ++overlapping;
        EXPECT_NEAR(double(deep->depth), std::max(-gap, 0.0), band);
        const Vec2 deep_core = core_first ? deep->point_a : deep->point_b, deep_circle = core_first ? deep->point_b : deep->point_a;
        EXPECT_LE(on_core(deep_core), band);
        EXPECT_LE(on_circle(deep_circle), band);
        const Vec2 separation = deep->point_a - deep->point_b - deep->depth * deep->normal;
        EXPECT_LE(double(coordinate_magnitude(separation)), 2 * band);
        // Moving B by depth along the normal leaves the pair touching: the oracle's gap after the move is within the band.
        const Transform moved_circle{transform_circle.position + (core_first ? 1 : -1) * deep->depth * deep->normal, transform_circle.rotation};
        const Transform moved_core{transform_core.position - (core_first ? 1 : -1) * deep->depth * deep->normal, transform_core.rotation};
        std::vector<std::array<double, 2>> moved;
        for (Vec2 vertex : core_vertices) moved.push_back(placed_in_double(core_first ? transform_core : moved_core, vertex));
        const std::array<double, 2> moved_center = placed_in_double(core_first ? moved_circle : transform_circle, circle.center);
        EXPECT_NEAR(signed_distance_to_polygon(moved, moved_center) - double(core_radius) - double(circle.radius), 0.0, 2 * band);
      }
      // Swapped: the mirrored answer.
      if (!core_first) continue;
      const DistanceResult swapped = distance(circle, transform_circle, shape, transform_core);
      EXPECT_EQ(swapped.overlapping, apart.overlapping);
      EXPECT_EQ(swapped.distance, apart.distance);
      EXPECT_EQ(swapped.normal, -apart.normal);
      EXPECT_EQ(swapped.point_a, apart.point_b);
      EXPECT_EQ(swapped.point_b, apart.point_a);
      const std::optional<Penetration> swapped_deep = penetration(circle, transform_circle, shape, transform_core);
      if (deep && swapped_deep) {
        EXPECT_EQ(swapped_deep->depth, deep->depth);
        EXPECT_EQ(swapped_deep->normal, -deep->normal);
        EXPECT_EQ(swapped_deep->point_a, deep->point_b);
        EXPECT_EQ(swapped_deep->point_b, deep->point_a);
      }
    }
    decisive += std::abs(gap) > band;
  }
  std::printf("compared %d pairs both ways (%d decisive, %d overlapping verdicts)\n", compared, decisive, overlapping);
  return overlapping;
}

TEST(ToleranceModel, CirclePolygonPairsAgainstADoubleOracleInBothOrders) {
  // Polygons of 3 to 8 and 12 vertices on an ellipse, a third of them rounded.
  const int overlapping = check_circle_core_pairs(29, 3000, [](int trial, std::mt19937_64& random) {
    std::uniform_real_distribution<double> unit(-1, 1);
    const int count = trial % 7 == 6 ? 12 : 3 + trial % 6;
    std::vector<Vec2> points;
    const double phase = unit(random);
    for (int i = 0; i < count; ++i) {
      const double angle = phase + (i + 0.3 * unit(random)) * 2 * std::numbers::pi / count;
      points.push_back({Real(std::cos(angle)), Real(0.6 * std::sin(angle))});  // on an ellipse: convex
    }
    const Real radius = trial % 3 == 0 ? Real(0.1) : Real(0);
    const Polygon polygon = make_polygon(points, radius).value();
    return CoreCase<Polygon>{polygon, {polygon.vertices().begin(), polygon.vertices().end()}};
  });
  EXPECT_GT(overlapping, 500);
}

TEST(ToleranceModel, CircleCapsuleAndSegmentPairsAgainstADoubleOracleInBothOrders) {
  // Capsules (radius 0.02 to 0.4) and segments up to 2 long, one in eleven of zero length (a
  // point core: a circle, or a point).
  auto end_points = [](int trial, std::mt19937_64& random) {
    std::uniform_real_distribution<double> unit(-1, 1);
    const Vec2 a{Real(unit(random)), Real(0.5 * unit(random))};
    const Vec2 b = trial % 11 == 10 ? a : Vec2{Real(unit(random)), Real(0.5 * unit(random))};
    return std::pair{a, b};
  };
  const int capsules = check_circle_core_pairs(31, 2000, [&](int trial, std::mt19937_64& random) {
    const auto [a, b] = end_points(trial, random);
    const Real radius = Real(0.02 + 0.38 * std::uniform_real_distribution<double>(0, 1)(random));
    return CoreCase<Capsule>{Capsule{a, b, radius}, {a, b}};
  });
  EXPECT_GT(capsules, 250);
  const int segments = check_circle_core_pairs(37, 2000, [&](int trial, std::mt19937_64& random) {
    const auto [a, b] = end_points(trial, random);
    return CoreCase<Segment>{Segment{a, b}, {a, b}};
  });
  EXPECT_GT(segments, 120);
}

/// penetration() along a fuzzer's slide: `moving` turned by `rotation` at `first` + (k / 64)
/// (`last` - `first`), k = 0 to `steps`, against `held` at `held_pose`, in one order. At each pose
/// overlap() agrees, and the depth matches `expected_depth(pose)` (the test's oracle) within the
/// band reported. Gathers the bands, the verdicts and the oracle's depths.
struct SlideAnswers {
  Real least_band = std::numeric_limits<Real>::max(), widest_band = 0;
  double least_expected = std::numeric_limits<double>::max(), deepest_expected = -std::numeric_limits<double>::max();
  int deep = 0, poses = 0;
};
template <class ExpectedDepth>
void slide_against(const Shape& moving, Rot rotation, Vec2 first, Vec2 last, int steps, const Shape& held, const Transform& held_pose,
                   bool moving_first, const ExpectedDepth& expected_depth, SlideAnswers& answers) {
  for (int step = 0; step <= steps; ++step) {
    const Transform pose{first + (Real(step) / 64) * (last - first), rotation};
    SCOPED_TRACE(::testing::Message() << "step " << step << (moving_first ? ", the moving shape first" : ", the held shape first"));
    const double expected = expected_depth(pose);
    answers.least_expected = std::min(answers.least_expected, expected);
    answers.deepest_expected = std::max(answers.deepest_expected, expected);
    const std::optional<Penetration> found = moving_first ? penetration(moving, pose, held, held_pose) : penetration(held, held_pose, moving, pose);
    ASSERT_TRUE(found.has_value());
    EXPECT_TRUE(moving_first ? overlap(moving, pose, held, held_pose) : overlap(held, held_pose, moving, pose));
    EXPECT_NEAR(double(found->depth), expected, double(found->tolerance));
    answers.least_band = std::min(answers.least_band, found->tolerance);
    answers.widest_band = std::max(answers.widest_band, found->tolerance);
    answers.deep += found->depth > found->tolerance ? 1 : 0;
    ++answers.poses;
  }
}

TEST(ToleranceModel, ACircleAcrossAnAlmostFlatVertexHasOneBandWhicheverFaceRanksFirst) {
  // From the mover fuzzer (float): a quadrilateral whose vertex 2 turns by 0.07 degrees between
  // a face 4.8e7 long and one 2.8e7 long, 1.2e6 from its origin, and a circle of radius 65 sliding
  // past that vertex with its centre 18.7 inside. The two faces' separations from the centre
  // differ by round-off, so which ranks first flipped from pose to pose, and with it the band
  // (133 or 78): 84 deep against the one, touching against the other, at poses 1.6 apart. The
  // band now counts every face that could rank first. Oracle (double, from the same floats): the
  // circle's overlap, its radius plus the centre's depth in the quadrilateral.
  const std::vector<Vec2> corners = {{-0x1p+25f, 0x1.3734p+24f}, {-0x1p+25f, -0x1.ffd8p+24f}, {0x1.3e8p+19f, 0x1.3bp+19f}, {0x1.3614p+24f, 0x1.3684p+24f}};
  const Polygon quadrilateral = make_polygon(corners).value();
  const Transform quadrilateral_pose{{-0x1p+14f, -0x1.596p+11f}, fuzzer_rotation({0x1.bb11b6p-1f, -0x1.0094aep-1f})};
  const Circle circle{{0x1.3734p+8f, 0x1.34p+8f}, 0x1.04p+6f};
  const Rot circle_rotation = fuzzer_rotation({-1, 0x1.777a5cp-24f});
  const Vec2 first{871744.4375f, 228962.453125f}, last{871847.625f, 228990.015625f};
  std::vector<std::array<double, 2>> oracle_corners;
  for (const Vec2 corner : corners) oracle_corners.push_back(placed_in_double(quadrilateral_pose, corner));
  auto overlap_depth = [&](const Transform& pose) {
    return double(circle.radius) - signed_distance_to_polygon(oracle_corners, placed_in_double(pose, circle.center));
  };
  SlideAnswers answers;  // both orders together: the circle is judged in the quadrilateral's frame either way
  for (const bool circle_first : {true, false}) {
    slide_against(circle, circle_rotation, first, last, 64, quadrilateral, quadrilateral_pose, circle_first, overlap_depth, answers);
  }
  EXPECT_GT(answers.least_expected, 80);
  EXPECT_LT(answers.deepest_expected, 90);
  // One band, so one verdict, all along (the band moves only with the centre's coordinates).
  EXPECT_LT(answers.widest_band - answers.least_band, Real(0.01) * answers.widest_band) << answers.least_band << " to " << answers.widest_band;
  EXPECT_TRUE(answers.deep == 0 || answers.deep == answers.poses) << answers.deep << " of " << answers.poses << " poses deep";
}

/// How deep two convex polygons (counter-clockwise, one frame) overlap, in double: the least
/// overlap along the edge normals of both (the separating axis theorem); negative when apart.
double overlap_depth_by_axes(const std::vector<std::array<double, 2>>& p, const std::vector<std::array<double, 2>>& q) {
  double least = std::numeric_limits<double>::max();
  for (const auto* polygon : {&p, &q}) {
    const auto& other = polygon == &p ? q : p;
    for (std::size_t i = 0; i < polygon->size(); ++i) {
      const auto& from = (*polygon)[i];
      const auto& to = (*polygon)[(i + 1) % polygon->size()];
      const double nx = to[1] - from[1], ny = from[0] - to[0], length = std::hypot(nx, ny);
      double deepest = std::numeric_limits<double>::max();  // the other's least offset along the outward normal
      for (const auto& vertex : other) deepest = std::min(deepest, (nx * (vertex[0] - from[0]) + ny * (vertex[1] - from[1])) / length);
      least = std::min(least, -deepest);
    }
  }
  return least;
}

TEST(ToleranceModel, APolygonPairsBandIsThatOfTheFeaturesInContact) {
  // From the mover fuzzer (float): a quadrilateral 30 across in a crack of a compound 1.5e6
  // across, 1.7 into the piece on one side, sliding 138 along it. penetration() took its band
  // from GJK's last simplex, whose points are wherever the search ended: with the piece's far
  // corner (1.8e6 out) among them the band was 3.7, without it 1.1, at poses 8 apart, so the pair
  // was touching at one and deep at the next, and the compound's way out jumped from 0 to 826.
  // The band is now that of EPA's final edge, the face and vertex in contact. Oracle (double,
  // from the same floats): the overlap by the separating axis theorem.
  const std::vector<Vec2> piece_corners = {{-0x1.13cp+16f, -0x1.4504p+19f}, {-0x1.88p+13f, -0x1.d38p+16f}, {-0x1.77d4p+19f, 0x1.fffcp+19f},
                                           {-0x1p+20f, -0x1.ffe4p+19f}, {-0x1.a34cp+19f, -0x1.fca4p+19f}};
  const Shape piece = make_polygon(piece_corners).value();
  const Transform piece_pose{{-0x1.fc04p+7f, -0x1.fc04p+7f}, fuzzer_rotation({-0x1.fffffcp-1f, 0x1.f6a888p-12f})};
  const std::vector<Vec2> mover_corners = {{-0x1.4808p+3f, 0x1.fffcp+4f}, {-0x1.4d5p+3f, 0x1.e2bp+3f}, {0x1.4b48p+4f, -0x1.4d5p+3f}, {0x1.4b48p+4f, 0x1.4b48p+4f}};
  const Shape mover = make_polygon(mover_corners).value();
  const Rot mover_rotation = fuzzer_rotation({-0x1.fffe6p-1f, -0x1.46b63p-8f});
  const Vec2 first{0x1.a62f62p+13f, 0x1.fd71bp+16f}, last{0x1.a6a1fp+13f, 0x1.fdfb7p+16f};
  auto placed = [](const Transform& transform, const std::vector<Vec2>& corners) {
    std::vector<std::array<double, 2>> result;
    for (const Vec2 corner : corners) result.push_back(placed_in_double(transform, corner));
    return result;
  };
  const std::vector<std::array<double, 2>> oracle_piece = placed(piece_pose, piece_corners);
  auto overlap_depth = [&](const Transform& pose) { return overlap_depth_by_axes(oracle_piece, placed(pose, mover_corners)); };
  for (const bool mover_first : {true, false}) {
    SlideAnswers answers;
    slide_against(mover, mover_rotation, first, last, 64, piece, piece_pose, mover_first, overlap_depth, answers);
    EXPECT_GT(answers.least_expected, 1.2);
    EXPECT_LT(answers.deepest_expected, 1.8);
    // One band and one verdict in each order all along (the band moves only with the mover's
    // coordinates). The two orders' bands differ: each is worked out in A's frame, where placing
    // the other shape rounds its own coordinates and where they lie (docs/conventions.md), 2.5 with
    // the mover first and 1.1 with the piece first here.
    EXPECT_LT(answers.widest_band - answers.least_band, Real(0.01) * answers.widest_band) << answers.least_band << " to " << answers.widest_band;
    EXPECT_TRUE(answers.deep == 0 || answers.deep == answers.poses) << answers.deep << " of " << answers.poses << " poses deep";
  }
}

TEST(ToleranceModel, ACapsuleWhoseCoreTouchesALongFaceByItsNearEndHasOneVerdict) {
  // From the mover fuzzer (float): a capsule of radius 13.25 whose core lies on a face 3.3e7 long
  // of a quadrilateral (a compound's piece), beside the face's near end, sliding 40 along it. The
  // cores touch, so B - A has the origin on its boundary at a vertex where two edges meet: one
  // from the whole face, one from the face's near end alone. EPA's final edge was either, by
  // round-off, so the band was 101 or 2.5 at poses 2.7 apart, and the capsule, 13.25 deep, touching
  // at one and deep (its compound's way out 4.6e6) at the next. The band now counts a neighbouring
  // edge that could as well have been the nearest (the face's band, 101 with the piece first; with
  // the capsule first, where the face's corners are placed, 172 to 197). Oracle: the cores touch,
  // so the depth is the radius.
  if constexpr (!real_is_float) {
    GTEST_SKIP() << "float's round-off puts the core on the face; in double the same pose leaves it 13.246 off";
  }
  const std::vector<Vec2> piece_corners = {{-0x1p+25f, -0x1.14ccp+24f}, {-0x1p+25f, -0x1.ffd8p+24f}, {0x1.f3fcp+24f, -0x1.f3fp+23f}, {0x1.3e8p+19f, 0x1.3bp+19f}};
  const Shape piece = make_polygon(piece_corners).value();
  const Transform piece_pose{{-0x1.5b7p+13f, -0x1.e4p+13f}, fuzzer_rotation({-0x1.fff93cp-1f, -0x1.4cffccp-7f})};
  const Real radius = 0x1.a8p+3f;
  const Shape capsule = Capsule{{-0x1.596p+3f, -0x1.596p+3f}, {-0x1.596p+3f, 0x1.76ap+3f}, radius};
  const Rot capsule_rotation = fuzzer_rotation({-0x1.414dacp-2f, 0x1.e6249cp-1f});
  const Vec2 first{-0x1.40b19ap+19f, -0x1.45c6a2p+19f}, last{-0x1.40b72ap+19f, -0x1.45cc5p+19f};
  for (const bool capsule_first : {true, false}) {
    SlideAnswers answers;
    // 40 of the 64ths: past that the core leaves the face beyond its end.
    slide_against(capsule, capsule_rotation, first, last, 40, piece, piece_pose, capsule_first, [&](const Transform&) { return double(radius); },
                  answers);
    EXPECT_TRUE(answers.deep == 0 || answers.deep == answers.poses) << answers.deep << " of " << answers.poses << " poses deep";
  }
}

TEST(ToleranceModel, ARoundedPairsDepthIsItsRadiiLessTheCoresDistanceInsideTheBand) {
  // GJK counts cores within their band as touching and hands them to EPA, which reported a depth
  // of 0 for them, so a capsule whose core lay 0.9 bands off a face was as deep as its radius:
  // the depth stepped by a band where the cores' distance crossed it (a capsule of radius 106, its
  // core 66 off a compound's piece in float, band 75, was "deep" by 106 against a true 40). Here a
  // box whose corners lie far out in its own frame (1e5 in float, 1e8 in double, as a compound's
  // piece's do), so the band is that of those coordinates, and a capsule's core parallel to its top
  // face or turned so its end is nearest, 0 to 3 bands above the face in steps of a twentieth.
  // Oracle: the distance of the core's lower end from the face, exact (the points are placed
  // without rotation, and a long double holds their sums); the depth is the radius less it, in
  // both orders, with the witnesses on the two surfaces.
  const Real far = real_is_float ? Real(1e5) : Real(1e8);
  const Real left = far - 1000, right = far + 1000, bottom = Real(0.75) * far - 10, top = Real(0.75) * far + 10;
  const std::vector<Vec2> corners = {{left, bottom}, {right, bottom}, {right, top}, {left, top}};
  const Shape box = make_polygon(corners).value();
  const Transform box_pose{};
  const Real radius = 5;
  int poses = 0;
  for (const Vec2 core_end : {Vec2{20, 0}, Vec2{20, 6}}) {
    const Shape capsule = Capsule{{-20, 0}, core_end, radius};
    // The band: that of the features in contact where the cores touch, the wider of the two orders'
    // (the box's corners are placed in the capsule's frame with the capsule first, which leaves
    // them small: 0.002 there in float against 0.33 with the box first).
    const Transform touching{{far, top}, Rot{}};
    const Real band = std::max(penetration(capsule, touching, box, box_pose).value().tolerance, penetration(box, box_pose, capsule, touching).value().tolerance);
    for (int step = 0; step <= 60; ++step) {
      const Vec2 position{far + 7, top + Real(step) * band / 20};
      const long double core_distance = static_cast<long double>(position.y) - static_cast<long double>(top);  // the lower end's
      const long double expected = radius - core_distance;
      for (const bool capsule_first : {true, false}) {
        const Transform capsule_pose{position, Rot{}};
        const std::optional<Penetration> found =
            capsule_first ? penetration(capsule, capsule_pose, box, box_pose) : penetration(box, box_pose, capsule, capsule_pose);
        ASSERT_TRUE(found.has_value()) << "step " << step;
        ++poses;
        const Real slack = band / 4;
        EXPECT_NEAR(static_cast<double>(found->depth), static_cast<double>(expected), static_cast<double>(slack))
            << "core " << static_cast<double>(core_distance / band) << " bands off the face, band " << band
            << (capsule_first ? ", capsule first" : ", box first");
        const Vec2 up{0, capsule_first ? Real(-1) : Real(1)};  // from A to B
        EXPECT_NEAR(found->normal.x, up.x, 1e-3);
        EXPECT_NEAR(found->normal.y, up.y, 1e-3);
        EXPECT_LE(length(found->point_a - found->point_b - found->depth * found->normal), slack);
        // The witnesses: the box's on its top face, the capsule's on its surface below its core.
        const Vec2 on_box = capsule_first ? found->point_b : found->point_a, on_capsule = capsule_first ? found->point_a : found->point_b;
        EXPECT_NEAR(static_cast<double>(static_cast<long double>(on_box.y) - static_cast<long double>(top)), 0, static_cast<double>(slack));
        EXPECT_NEAR(static_cast<double>(static_cast<long double>(on_capsule.y) - (static_cast<long double>(position.y) - radius)), 0,
                    static_cast<double>(slack));
      }
    }
  }
  EXPECT_EQ(poses, 244);
}

TEST(FeatureIds, StayDistinctOnPolygonsOfThousandsOfVertices) {
  // A 3000-gon: contacts on faces far apart in the vertex order have different ids (11-bit fields
  // used to wrap at 2048). In float no convex polygon of more than about 1,900 vertices around a
  // circle survives welding (each turn is below the collinearity band), so this runs in double.
  if (real_is_float) GTEST_SKIP() << "float cannot hold a convex polygon of more than 2048 vertices";
  std::vector<Vec2> points;
  constexpr int count = 3000;
  for (int i = 0; i < count; ++i) {
    const double angle = 2 * 3.14159265358979323846 * i / count;
    points.push_back({Real(100 * std::cos(angle)), Real(100 * std::sin(angle))});
  }
  const Polygon big = make_polygon(points).value();
  ASSERT_GT(big.count(), 2048);
  const Shape small = make_box(0.01f, 0.01f).value();
  auto contact_id = [&](double angle) {
    const Vec2 direction{Real(std::cos(angle)), Real(std::sin(angle))};
    const Manifold manifold = collide(big, {}, std::get<Polygon>(small), Transform{Real(99.99) * direction, Rot::from_angle(Real(angle))});
    EXPECT_GT(manifold.point_count, 0);
    return manifold.points[0].id;
  };
  const double step = 2 * 3.14159265358979323846 / count;
  const FeatureId near_start = contact_id(step * 10.5), past_wrap = contact_id(step * (10.5 + 2048));
  EXPECT_NE(near_start, past_wrap);
  // Small motion that keeps the features keeps the id.
  EXPECT_EQ(contact_id(step * 10.5), contact_id(step * 10.5 + step * 1e-3));
}

}  // namespace

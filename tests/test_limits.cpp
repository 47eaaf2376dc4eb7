// test_limits.cpp — the documented input limits (docs/conventions.md, "Limits"): values up to
// coordinate_limit are accepted and answered right, values just beyond it are refused with
// ShapeErrorKind::out_of_range and a reason naming the limit.
//
// Oracles: closed forms for circles and boxes at the limit (the circles of radius 1e30,
// 3e30 apart, were reported overlapping by 2e30 in float), and scale invariance: a random pair
// scaled by a power of two (exact) up to the limit answers as the pair at unit scale, scaled.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "collide2d/collide2d.hpp"
#include "random_shapes.hpp"

namespace {

using namespace collide2d;
using random_shapes::Generator;

/// The smallest Real above coordinate_limit.
const Real just_beyond = std::nextafter(coordinate_limit, std::numeric_limits<Real>::infinity());

void expect_out_of_range(const ShapeError& error, const std::string& what) {
  EXPECT_EQ(error.kind, ShapeErrorKind::out_of_range) << what << ": " << error.message;
  EXPECT_NE(error.message.find(coordinate_limit_text()), std::string::npos) << what << ": " << error.message;
}

TEST(Limits, ShapeBuildersAcceptTheLimitAndRefuseJustBeyondIt) {
  const Real limit = coordinate_limit;
  // make_polygon: a vertex, then the radius.
  const std::vector<Vec2> at_limit{{-limit, -limit}, {limit, -limit}, {limit, limit}};
  EXPECT_TRUE(make_polygon(at_limit));
  std::vector<Vec2> beyond = at_limit;
  beyond[1].x = just_beyond;
  const auto polygon = make_polygon(beyond);
  ASSERT_FALSE(polygon);
  expect_out_of_range(polygon.error(), "make_polygon vertex");
  EXPECT_EQ(polygon.error().index, 1);
  const std::vector<Vec2> unit{{0, 0}, {1, 0}, {0, 1}};
  EXPECT_TRUE(make_polygon(unit, limit));
  expect_out_of_range(make_polygon(unit, just_beyond).error(), "make_polygon radius");
  // make_box: half extents and offset.
  EXPECT_TRUE(make_box(limit / 2, limit / 2, Transform{{limit / 2, -limit / 2}, {}}));
  expect_out_of_range(make_box(just_beyond, 1).error(), "make_box half width");
  expect_out_of_range(make_box(1, 1, Transform{{0, just_beyond}, {}}).error(), "make_box offset");
  // decompose and shape_from_outline: a concave outline with a point beyond.
  std::vector<Vec2> concave{{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}};
  for (Vec2& point : concave) point = (limit / 2) * point;
  EXPECT_TRUE(decompose(concave));
  concave[2].y = -just_beyond;
  const auto pieces = decompose(concave);
  ASSERT_FALSE(pieces);
  expect_out_of_range(pieces.error(), "decompose");
  EXPECT_EQ(pieces.error().index, 2);
  expect_out_of_range(shape_from_outline(concave).error(), "shape_from_outline");
  // validate: plain structs and placements.
  EXPECT_FALSE(validate(Shape(Circle{{limit, -limit}, limit}), Transform{{-limit, limit}, {}}));
  expect_out_of_range(*validate(Shape(Circle{{}, just_beyond})), "circle radius");
  expect_out_of_range(*validate(Shape(Circle{{just_beyond, 0}, 1})), "circle center");
  expect_out_of_range(*validate(Shape(Capsule{{0, 0}, {0, -just_beyond}, 1})), "capsule end");
  expect_out_of_range(*validate(Shape(Segment{{-just_beyond, 0}, {0, 0}})), "segment end");
  expect_out_of_range(*validate(Shape(Circle{{}, 1}), Transform{{0, just_beyond}, {}}), "position");
  EXPECT_EQ(validate(Shape(Circle{{}, -1}))->kind, ShapeErrorKind::negative_radius);
  EXPECT_EQ(validate(Shape(Segment{{std::numeric_limits<Real>::quiet_NaN(), 0}, {}}))->kind, ShapeErrorKind::non_finite);
  // make_compound: a child beyond, and a child placed beyond.
  const auto compound = make_compound({{Circle{{}, 1}, {}}, {Circle{{}, just_beyond}, {}}});
  ASSERT_FALSE(compound);
  expect_out_of_range(compound.error(), "compound child");
  EXPECT_EQ(compound.error().index, 1);
  expect_out_of_range(make_compound({{Circle{{}, 1}, Transform{{just_beyond, 0}, {}}}}).error(), "compound placement");
}

TEST(Limits, CirclesAtTheLimitAreApartByTheirGap) {
  // The case (radius 1e30, centres 3e30 apart) brought inside the limit: radius L/4,
  // centres at -L and L/2 (1.5 L apart in A's frame), a gap of L. It was "overlapping by 2e30".
  const Real limit = coordinate_limit;
  const Shape circle = Circle{{}, limit / 4};
  const Transform at_a{{-limit, 0}, {}}, at_b{{limit / 2, 0}, {}};
  EXPECT_FALSE(overlap(circle, at_a, circle, at_b));
  EXPECT_FALSE(penetration(circle, at_a, circle, at_b));
  const DistanceResult gap = distance(circle, at_a, circle, at_b);
  EXPECT_FALSE(gap.overlapping);
  EXPECT_NEAR(gap.distance / limit, 1, 1e-5);
  EXPECT_NEAR(gap.normal.x, 1, 1e-5);
  // Boxes of half extent L/2 at -L/2 and L, turned: apart by L/2 along x... only when upright.
  const Shape box = make_box(limit / 2, limit / 2).value();
  const DistanceResult boxes = distance(box, Transform{{-limit / 2, 0}, {}}, box, Transform{{limit, limit / 4}, {}});
  EXPECT_NEAR(boxes.distance / limit, 0.5, 1e-5);
  const auto sunk = penetration(box, Transform{{-limit / 2, 0}, {}}, box, Transform{{limit / 4, limit / 2}, {}});
  ASSERT_TRUE(sunk);
  EXPECT_NEAR(sunk->depth / limit, 0.25, 1e-5);  // 0.25 deep along x, 0.5 along y
  EXPECT_NEAR(sunk->normal.x, 1, 1e-5);
}

/// A comb of `teeth` teeth of width 1 and height 10 on a base 1 deep: 4 teeth - 2 + 2 points.
std::vector<Vec2> comb(int teeth) {
  std::vector<Vec2> points{{0, -1}, {Real(2 * teeth), -1}};
  for (int tooth = teeth - 1; tooth >= 0; --tooth) {
    const Real x = Real(2 * tooth);
    points.push_back({x + 1, 10});
    points.push_back({x, 10});
    if (tooth > 0) {
      points.push_back({x, 0});
      points.push_back({x - 1, 0});
    }
  }
  return points;
}

TEST(Limits, DecomposeRefusesOutlinesOverThePointLimitUpFront) {
  // A 100,003-point comb ran 74 s and ended in std::bad_alloc; past decompose_point_limit the
  // outline is refused before any work, and at the limit it is cut into its teeth.
  const std::vector<Vec2> at_limit = comb(decompose_point_limit / 4);
  ASSERT_EQ(at_limit.size(), static_cast<std::size_t>(decompose_point_limit));
  const auto pieces = decompose(at_limit);
  ASSERT_TRUE(pieces) << pieces.error().message;
  EXPECT_GE(pieces.value().pieces.size(), static_cast<std::size_t>(decompose_point_limit / 4));
  for (const std::vector<Vec2>& outline : {comb(decompose_point_limit / 4 + 1), comb(25'001)}) {
    const auto refused = decompose(outline);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().kind, ShapeErrorKind::too_many_points);
    EXPECT_NE(refused.error().message.find(std::to_string(outline.size()) + " points"), std::string::npos) << refused.error().message;
    EXPECT_EQ(shape_from_outline(outline).error().kind, ShapeErrorKind::too_many_points);
  }
}

/// `shape` with every length multiplied by `factor` (a power of two, so exactly).
Shape scaled(const Shape& shape, Real factor) {
  return std::visit(
      [&](const auto& concrete) -> Shape {
        using Concrete = std::decay_t<decltype(concrete)>;
        if constexpr (std::is_same_v<Concrete, Circle>) {
          return Circle{factor * concrete.center, factor * concrete.radius};
        } else if constexpr (std::is_same_v<Concrete, Capsule>) {
          return Capsule{factor * concrete.a, factor * concrete.b, factor * concrete.radius};
        } else if constexpr (std::is_same_v<Concrete, Segment>) {
          return Segment{factor * concrete.a, factor * concrete.b};
        } else if constexpr (std::is_same_v<Concrete, Polygon>) {
          std::vector<Vec2> vertices;
          for (Vec2 vertex : concrete.vertices()) vertices.push_back(factor * vertex);
          return make_polygon(vertices, factor * concrete.radius()).value();
        } else {
          throw std::logic_error("scaled: the generator makes no compounds");
        }
      },
      shape);
}

TEST(Limits, PairsScaledUpToTheLimitAnswerAsAtUnitScale) {
  // Random pairs of every convex kind within 10 of the origin (sizes 0.01 to 100), then scaled
  // by the power of two that brings their coordinates up to about half the
  // limit. Every query's answer must be the unit-scale answer times the factor, within the
  // round-off band of the pair's size.
  Generator generator(16);
  const Real factor = std::ldexp(Real(1), std::ilogb(coordinate_limit) - 9);  // 300 x factor < limit / 2
  int compared = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const random_shapes::Pair pair = generator.mixed_pair(10);
    const Shape a = scaled(pair.a.shape, factor), b = scaled(pair.b.shape, factor);
    const Transform ta{factor * pair.a.transform.position, pair.a.transform.rotation};
    const Transform tb{factor * pair.b.transform.position, pair.b.transform.rotation};
    ASSERT_FALSE(validate(a, ta));
    ASSERT_FALSE(validate(b, tb));
    const double band = 1e-4 * double(pair.a.size + pair.b.size);  // unit-scale lengths
    const DistanceResult small = distance(pair.a.shape, pair.a.transform, pair.b.shape, pair.b.transform);
    const DistanceResult large = distance(a, ta, b, tb);
    const std::optional<Penetration> small_depth = penetration(pair.a.shape, pair.a.transform, pair.b.shape, pair.b.transform);
    const std::optional<Penetration> large_depth = penetration(a, ta, b, tb);
    const double signed_gap = small_depth ? -double(small_depth->depth) : double(small.distance);
    if (std::abs(signed_gap) < band) continue;  // too close to touching to compare verdicts
    ++compared;
    SCOPED_TRACE("trial " + std::to_string(trial));
    ASSERT_TRUE(std::isfinite(large.distance));
    EXPECT_EQ(overlap(a, ta, b, tb), overlap(pair.a.shape, pair.a.transform, pair.b.shape, pair.b.transform));
    EXPECT_EQ(large.overlapping, small.overlapping);
    EXPECT_NEAR(double(large.distance) / double(factor), double(small.distance), band);
    ASSERT_EQ(large_depth.has_value(), small_depth.has_value());
    if (small_depth) {
      EXPECT_NEAR(double(large_depth->depth) / double(factor), double(small_depth->depth), band);
      EXPECT_NEAR(double(length(large_depth->normal)), 1, 1e-5);
      EXPECT_LT(double(length(large_depth->normal - small_depth->normal)), 1e-3);
    } else {
      EXPECT_LT(double(length(large.normal - small.normal)), 1e-3);
    }
    // A ray from A's origin through B's: the same fraction.
    const Ray small_ray{pair.a.transform.position, 2 * (pair.b.transform.position - pair.a.transform.position)};
    const Ray large_ray{factor * small_ray.origin, factor * small_ray.translation};
    const std::optional<RayHit> small_hit = raycast(pair.b.shape, pair.b.transform, small_ray);
    const std::optional<RayHit> large_hit = raycast(b, tb, large_ray);
    ASSERT_EQ(small_hit.has_value(), large_hit.has_value());
    if (small_hit) {
      EXPECT_NEAR(double(large_hit->fraction), double(small_hit->fraction), 1e-4);
    }
  }
  std::printf("compared %d pairs scaled by %g\n", compared, double(factor));
  EXPECT_GT(compared, 2500);
}

}  // namespace

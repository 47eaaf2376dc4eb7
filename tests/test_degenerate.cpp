#include <gtest/gtest.h>

// A battery of degenerate inputs: duplicate and collinear vertices, slivers, tiny and huge
// shapes, shared edges and vertices, identical shapes, points, zero-length capsules and segments,
// collinear segments. Nothing may crash, and every answer must match a hand value.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "collide2d/collide2d.hpp"

using namespace collide2d;

namespace {

constexpr bool kFloat = sizeof(Real) == sizeof(float);
// Relative tolerance for hand values: scaled by the size of the scene in each check.
const Real kRel = kFloat ? Real(5e-5) : Real(1e-11);
const Real kSqrt2 = std::sqrt(Real(2));
const Real kQuarter = std::numbers::pi_v<Real> / 2;

Transform at(Real x, Real y, Real angle = 0) { return Transform::from({x, y}, angle); }
bool near(Vec2 a, Vec2 b, Real tol) { return std::abs(a.x - b.x) <= tol && std::abs(a.y - b.y) <= tol; }
::testing::AssertionResult vec_near(Vec2 actual, Vec2 expected, Real tol) {
  if (near(actual, expected, tol)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "actual (" << actual.x << ", " << actual.y << ") expected (" << expected.x << ", "
                                       << expected.y << ") tol " << tol;
}
bool all_finite(Real x) { return std::isfinite(x); }
bool all_finite(Vec2 v) { return is_finite(v); }

// Penetration expected by hand: depth and (optionally) the exact normal.
void expect_penetration(const Shape& a, const Transform& ta, const Shape& b, const Transform& tb, Real depth,
                        std::optional<Vec2> normal, Real tol) {
  EXPECT_TRUE(overlap(a, ta, b, tb));
  const auto pen = penetration(a, ta, b, tb);
  ASSERT_TRUE(pen.has_value());
  EXPECT_NEAR(pen->depth, depth, tol);
  EXPECT_NEAR(length(pen->normal), 1, kRel * 10);
  if (normal) { EXPECT_TRUE(vec_near(pen->normal, *normal, tol)); }
  EXPECT_TRUE(vec_near(pen->point_a - pen->point_b, pen->depth * pen->normal, tol));
  const DistanceResult d = distance(a, ta, b, tb);
  EXPECT_TRUE(d.overlapping);
  EXPECT_EQ(d.distance, 0);
}

}  // namespace

// Duplicate and collinear vertices are cleaned away: the polygon answers exactly like the clean box.
TEST(Degenerate, DuplicateAndCollinearVertices) {
  const std::vector<Vec2> messy = {{-1, -1}, {-1, -1}, {0, -1}, {1, -1}, {1, -1}, {1, 0}, {1, 1}, {0, 1}, {0, 1}, {-1, 1},
                                   {-1, 0}, {-1, -1}};
  const Polygon p = make_polygon(messy).value();
  ASSERT_EQ(p.count(), 4);
  EXPECT_TRUE(p.is_rectangle());
  const Real tol = kRel * 4;
  // Circle r 0.5 at (0.3,1.3): 0.2 into the top face.
  expect_penetration(p, Transform{}, Circle{{0, 0}, Real(0.5)}, at(Real(0.3), Real(1.3)), Real(0.2), Vec2{0, 1}, tol);
  // Box on the messy box.
  const Manifold m = collide(p, Transform{}, make_box(1, 1).value(), at(Real(0.5), Real(1.9)));
  ASSERT_EQ(m.point_count, 2);
  EXPECT_NEAR(m.points[0].separation, Real(-0.1), tol);
  EXPECT_NEAR(m.points[1].separation, Real(-0.1), tol);
  EXPECT_TRUE(vec_near(m.normal, {0, 1}, tol));
}

// Slivers of aspect ratio 1e4.
TEST(Degenerate, Slivers) {
  const Real t = Real(1e-4);
  const Polygon sliver = make_box(1, t).value();
  ASSERT_EQ(sliver.count(), 4);
  const Polygon block = make_box(1, 1).value();
  const Real tol = kRel * 4;
  int checked = 0;
  // Sliver A lying 0.003 deep in the block's top (bottom at 0.997): the block drops by 0.003.
  for (Real x : {Real(0), Real(0.5), Real(1.5)}) {
    const Transform ta = at(x, 1 + t - Real(0.003));
    expect_penetration(sliver, ta, block, Transform{}, Real(0.003), Vec2{0, -1}, tol);
    const Manifold m = collide(sliver, ta, block, Transform{});
    ASSERT_EQ(m.point_count, 2);
    for (int i = 0; i < 2; ++i) { EXPECT_NEAR(m.points[static_cast<std::size_t>(i)].separation, Real(-0.003), tol); }
    ++checked;
  }
  // Sliver 0.01 above the block: gap 0.01.
  const DistanceResult gap = distance(sliver, at(Real(0.2), 1 + t + Real(0.01)), block, Transform{});
  EXPECT_FALSE(gap.overlapping);
  EXPECT_NEAR(gap.distance, Real(0.01), tol);
  EXPECT_TRUE(vec_near(gap.normal, {0, -1}, tol));
  ++checked;
  // Two slivers crossed at their centres: the difference is a rectangle of half extents 1 + t
  // both ways, so the depth is 1 + t.
  const auto cross_pen = penetration(sliver, Transform{}, sliver, at(0, 0, kQuarter));
  ASSERT_TRUE(cross_pen.has_value());
  EXPECT_NEAR(cross_pen->depth, 1 + t, tol);
  ++checked;
  // Two parallel slivers overlapping by half their thickness: depth t along y.
  expect_penetration(sliver, Transform{}, sliver, at(Real(0.3), t), t, Vec2{0, 1}, tol);
  ++checked;
  // A sliver triangle: base 2, height 2e-4.
  const Polygon needle = make_polygon(std::vector<Vec2>{{-1, 0}, {1, 0}, {0, 2 * t}}).value();
  ASSERT_EQ(needle.count(), 3);
  const Circle dot{{0, 0}, Real(0.01)};
  // Circle r 0.01 at (0.5, -0.005): 0.005 below the base.
  expect_penetration(needle, Transform{}, dot, at(Real(0.5), Real(-0.005)), Real(0.005), Vec2{0, -1}, tol);
  ++checked;
  std::printf("checked %d cases\n", checked);
}

// Tiny (1e-3) and huge (1e4) versions of a few analytic scenes, also far from the origin.
TEST(Degenerate, TinyAndHugeScales) {
  int checked = 0;
  for (Real s : {Real(1e-3), Real(1), Real(1e4)}) {
    for (Real far : {Real(0), Real(10)}) {
      const Transform base = at(far * s, -far * s, Real(0.4));
      auto place = [&](Real x, Real y, Real angle = 0) { return compose(base, at(x * s, y * s, angle)); };
      const Real tol = kRel * s * (1 + far) * 4;
      SCOPED_TRACE("scale " + std::to_string(s) + " far " + std::to_string(far));
      const Polygon box = make_box(s, s).value();
      // Box on box, 0.1 s deep, contact over x in [-0.5 s, s].
      {
        const Manifold m = collide(box, place(0, 0), box, place(Real(0.5), Real(1.9)));
        ASSERT_EQ(m.point_count, 2);
        EXPECT_TRUE(vec_near(m.normal, rotate(base.rotation, {0, 1}), kRel * 10));
        for (int i = 0; i < 2; ++i) { EXPECT_NEAR(m.points[static_cast<std::size_t>(i)].separation, Real(-0.1) * s, tol); }
        expect_penetration(box, place(0, 0), box, place(Real(0.5), Real(1.9)), Real(0.1) * s, rotate(base.rotation, {0, 1}), tol);
      }
      // Circle r s at (1.3,1.4) s against the box corner: depth 0.5 s, normal (-0.6,-0.8).
      {
        const Circle ball{{0, 0}, s};
        expect_penetration(ball, place(Real(1.3), Real(1.4)), box, place(0, 0), Real(0.5) * s,
                           rotate(base.rotation, {Real(-0.6), Real(-0.8)}), tol);
      }
      // Capsules crossed: B upright at (0,1.2) s, core gap 0.2 s, radii s -> depth 0.8 s.
      {
        const Capsule cap{{-s, 0}, {s, 0}, Real(0.5) * s};
        expect_penetration(cap, place(0, 0), cap, place(0, Real(1.2), kQuarter), Real(0.8) * s, rotate(base.rotation, {0, 1}), tol);
      }
      // Separated boxes: B at (3,2.5) s, gap sqrt(1.25) s between corners (1,1) s and (2,1.5) s.
      {
        const DistanceResult d = distance(box, place(0, 0), box, place(3, Real(2.5)));
        EXPECT_FALSE(d.overlapping);
        EXPECT_NEAR(d.distance, std::sqrt(Real(1.25)) * s, tol);
        EXPECT_TRUE(vec_near(d.point_a, transform_point(base, {s, s}), tol));
        EXPECT_TRUE(vec_near(d.point_b, transform_point(base, {2 * s, Real(1.5) * s}), tol));
      }
      ++checked;
    }
  }
  std::printf("checked %d cases\n", checked);
}

// Shapes sharing an edge or a single vertex touch: overlap is true and the depth is ~0.
TEST(Degenerate, SharedEdgesAndVertices) {
  const Real tol = kRel * 8;
  int checked = 0;
  for (Transform pose : {at(0, 0), at(5, -3, Real(0.9)), at(-20, 7, Real(-2.5))}) {
    auto place = [&](Real x, Real y, Real angle = 0) { return compose(pose, at(x, y, angle)); };
    // Boxes sharing the edge x = 1.
    const Polygon box = make_box(1, 1).value();
    expect_penetration(box, place(0, 0), box, place(2, 0), 0, rotate(pose.rotation, {1, 0}), tol);
    {
      const Manifold m = collide(box, place(0, 0), box, place(2, 0));
      ASSERT_EQ(m.point_count, 2);
      for (int i = 0; i < 2; ++i) { EXPECT_NEAR(m.points[static_cast<std::size_t>(i)].separation, 0, tol); }
    }
    // Triangles sharing their hypotenuse (general SAT path): normal (1,1)/sqrt2.
    const Polygon lower = make_polygon(std::vector<Vec2>{{0, 0}, {1, 0}, {0, 1}}).value();
    const Polygon upper = make_polygon(std::vector<Vec2>{{1, 0}, {1, 1}, {0, 1}}).value();
    expect_penetration(lower, place(0, 0), upper, place(0, 0), 0, rotate(pose.rotation, {1 / kSqrt2, 1 / kSqrt2}), tol);
    {
      const Manifold m = collide(lower, place(0, 0), upper, place(0, 0));
      ASSERT_EQ(m.point_count, 2);
      EXPECT_TRUE(vec_near(m.normal, rotate(pose.rotation, {1 / kSqrt2, 1 / kSqrt2}), tol));
      for (int i = 0; i < 2; ++i) { EXPECT_NEAR(m.points[static_cast<std::size_t>(i)].separation, 0, tol); }
    }
    // Triangles meeting only at the vertex (1,0).
    const Polygon wedge = make_polygon(std::vector<Vec2>{{1, 0}, {2, -1}, {2, 1}}).value();
    expect_penetration(lower, place(0, 0), wedge, place(0, 0), 0, std::nullopt, tol);
    {
      const Manifold m = collide(lower, place(0, 0), wedge, place(0, 0));
      ASSERT_GE(m.point_count, 1);
      for (int i = 0; i < m.point_count; ++i) {
        EXPECT_NEAR(m.points[static_cast<std::size_t>(i)].separation, 0, tol);
        EXPECT_TRUE(vec_near(m.points[static_cast<std::size_t>(i)].point, transform_point(pose, {1, 0}), tol));
      }
    }
    // Box corner to box corner: B at (2,2) touches A only at (1,1).
    expect_penetration(box, place(0, 0), box, place(2, 2), 0, std::nullopt, tol);
    checked += 4;
  }
  std::printf("checked %d cases\n", checked);
}

// Identical shapes at the same pose: the depth is the shape's smallest width (the difference A - A
// has support width(d)), or 2r for round shapes.
TEST(Degenerate, IdenticalShapesSamePose) {
  const Real tol = kRel * 8;
  int checked = 0;
  for (Transform pose : {at(0, 0), at(3, 4, Real(1.1)), at(-100, 50, Real(-0.3))}) {
    // Box half 2 x 1: smallest width 2.
    const Polygon box = make_box(2, 1).value();
    expect_penetration(box, pose, box, pose, 2, std::nullopt, tol * 2);
    // Right triangle with legs 1: smallest width is the altitude to the hypotenuse, 1/sqrt2.
    const Polygon tri = make_polygon(std::vector<Vec2>{{0, 0}, {1, 0}, {0, 1}}).value();
    expect_penetration(tri, pose, tri, pose, 1 / kSqrt2, std::nullopt, tol * 2);
    {  // ... along the hypotenuse's normal, either sign (A - A is symmetric).
      const auto pen = penetration(tri, pose, tri, pose);
      ASSERT_TRUE(pen.has_value());
      EXPECT_NEAR(std::abs(dot(pen->normal, rotate(pose.rotation, {1 / kSqrt2, 1 / kSqrt2}))), 1, tol);
    }
    // Circles: 2r, normal A's +x.
    const Circle ball{{0, 0}, Real(0.75)};
    expect_penetration(ball, pose, ball, pose, Real(1.5), rotate(pose.rotation, {1, 0}), tol);
    // Capsule: 2r across its core.
    const Capsule cap{{-1, 0}, {1, 0}, Real(0.25)};
    expect_penetration(cap, pose, cap, pose, Real(0.5), std::nullopt, tol);
    // Segment: no width at all, so touching with depth 0.
    const Segment seg{{-1, 0}, {1, 0}};
    expect_penetration(seg, pose, seg, pose, 0, std::nullopt, tol);
    // Rounded box: 2 + 2 r.
    const Polygon rounded = make_box(2, 1, {}, Real(0.1)).value();
    expect_penetration(rounded, pose, rounded, pose, Real(2.2), std::nullopt, tol * 2);
    // Manifolds do not crash and report overlap.
    EXPECT_GE(collide(box, pose, box, pose).point_count, 1);
    EXPECT_GE(collide(tri, pose, tri, pose).point_count, 1);
    EXPECT_GE(collide(seg, pose, seg, pose).point_count, 1);
    checked += 6;
  }
  std::printf("checked %d cases\n", checked);
}

// A point (circle of radius 0) inside and outside a polygon; and a circle centred on a corner.
TEST(Degenerate, PointsAndCorners) {
  const Real tol = kRel * 8;
  const Polygon box = make_box(1, 1).value();
  const Circle point{{0, 0}, 0};
  // Inside at (0.3,0.6): nearest face is the top, 0.4 away; the box drops by 0.4.
  expect_penetration(point, at(Real(0.3), Real(0.6)), box, Transform{}, Real(0.4), Vec2{0, -1}, tol);
  {
    const Manifold m = collide(point, at(Real(0.3), Real(0.6)), box, Transform{});
    ASSERT_EQ(m.point_count, 1);
    EXPECT_NEAR(m.points[0].separation, Real(-0.4), tol);
    EXPECT_TRUE(vec_near(m.normal, {0, -1}, tol));
  }
  // Outside at (0.3,1.5): 0.5 from the top face.
  {
    const DistanceResult d = distance(point, at(Real(0.3), Real(1.5)), box, Transform{});
    EXPECT_FALSE(d.overlapping);
    EXPECT_NEAR(d.distance, Real(0.5), tol);
    EXPECT_TRUE(vec_near(d.point_a, {Real(0.3), Real(1.5)}, tol));
    EXPECT_TRUE(vec_near(d.point_b, {Real(0.3), 1}, tol));
    EXPECT_FALSE(overlap(point, at(Real(0.3), Real(1.5)), box, Transform{}));
  }
  // A point exactly on the boundary touches.
  expect_penetration(point, at(Real(0.3), 1), box, Transform{}, 0, std::nullopt, tol);
  // Two points at the same place touch; two apart are at their distance.
  expect_penetration(point, at(2, 3), point, at(2, 3), 0, std::nullopt, tol);
  EXPECT_NEAR(distance(point, at(2, 3), point, at(5, 7)).distance, 5, tol);
  // Circle r 0.5 centred exactly on the corner (1,1): the core difference has the origin at its
  // corner, so the depth is the radius 0.5 and the box may leave along any direction of the
  // corner's quadrant: the normal (box's motion) points into x <= 0, y <= 0.
  {
    const Circle ball{{0, 0}, Real(0.5)};
    const auto pen = penetration(ball, at(1, 1), box, Transform{});
    ASSERT_TRUE(pen.has_value());
    EXPECT_NEAR(pen->depth, Real(0.5), tol);
    EXPECT_LE(pen->normal.x, tol);
    EXPECT_LE(pen->normal.y, tol);
    EXPECT_NEAR(length(pen->normal), 1, tol);
    const Manifold m = collide(ball, at(1, 1), box, Transform{});
    ASSERT_EQ(m.point_count, 1);
    EXPECT_NEAR(m.points[0].separation, Real(-0.5), tol);
    EXPECT_LE(m.normal.x, tol);
    EXPECT_LE(m.normal.y, tol);
  }
}

// Collinear segments: overlapping (touching, depth 0), meeting end to end, and apart.
TEST(Degenerate, CollinearSegments) {
  const Real tol = kRel * 8;
  const Segment seg{{-1, 0}, {1, 0}};
  int checked = 0;
  for (Transform pose : {at(0, 0), at(2, 1, Real(0.6)), at(-30, 12, Real(2.9))}) {
    auto place = [&](Real x, Real y) { return compose(pose, at(x, y)); };
    // Overlapping on [0,1]: the difference is a segment with no area, so any sideways nudge
    // separates them: depth 0, normal +-y.
    {
      const auto pen = penetration(seg, place(0, 0), seg, place(1, 0));
      ASSERT_TRUE(pen.has_value());
      EXPECT_NEAR(pen->depth, 0, tol);
      EXPECT_NEAR(std::abs(dot(pen->normal, rotate(pose.rotation, {0, 1}))), 1, tol);
      EXPECT_TRUE(overlap(seg, place(0, 0), seg, place(1, 0)));
      const Manifold m = collide(seg, place(0, 0), seg, place(1, 0));
      ASSERT_EQ(m.point_count, 2);
      for (int i = 0; i < 2; ++i) { EXPECT_NEAR(m.points[static_cast<std::size_t>(i)].separation, 0, tol); }
    }
    // End to end at (1,0).
    {
      expect_penetration(seg, place(0, 0), seg, place(2, 0), 0, std::nullopt, tol);
      const Manifold m = collide(seg, place(0, 0), seg, place(2, 0));
      ASSERT_GE(m.point_count, 1);
      for (int i = 0; i < m.point_count; ++i) {
        EXPECT_NEAR(m.points[static_cast<std::size_t>(i)].separation, 0, tol);
        EXPECT_TRUE(vec_near(m.points[static_cast<std::size_t>(i)].point, transform_point(pose, {1, 0}), tol));
      }
    }
    // Apart by 1 along the line.
    {
      const DistanceResult d = distance(seg, place(0, 0), seg, place(3, 0));
      EXPECT_FALSE(d.overlapping);
      EXPECT_NEAR(d.distance, 1, tol);
      EXPECT_TRUE(vec_near(d.normal, rotate(pose.rotation, {1, 0}), tol));
      EXPECT_TRUE(vec_near(d.point_a, transform_point(pose, {1, 0}), tol));
      EXPECT_TRUE(vec_near(d.point_b, transform_point(pose, {2, 0}), tol));
      EXPECT_FALSE(overlap(seg, place(0, 0), seg, place(3, 0)));
      EXPECT_EQ(collide(seg, place(0, 0), seg, place(3, 0)).point_count, 0);
      const Manifold speculative = collide(seg, place(0, 0), seg, place(3, 0), {.speculative_distance = 2});
      ASSERT_EQ(speculative.point_count, 1);
      EXPECT_NEAR(speculative.points[0].separation, 1, tol);
    }
    // Collinear capsules end to end: cores 0.8 apart, radii 1 -> depth 0.2 along the line.
    {
      const Capsule cap{{-1, 0}, {1, 0}, Real(0.5)};
      expect_penetration(cap, place(0, 0), cap, place(Real(2.8), 0), Real(0.2), rotate(pose.rotation, {1, 0}), tol);
      const Manifold m = collide(cap, place(0, 0), cap, place(Real(2.8), 0));
      ASSERT_EQ(m.point_count, 1);
      EXPECT_NEAR(m.points[0].separation, Real(-0.2), tol);
      EXPECT_TRUE(vec_near(m.normal, rotate(pose.rotation, {1, 0}), tol));
      EXPECT_TRUE(vec_near(m.points[0].point, transform_point(pose, {Real(1.4), 0}), tol));
    }
    checked += 4;
  }
  std::printf("checked %d cases\n", checked);
}

// A zero-length capsule is a circle; a zero-length segment is a point.
TEST(Degenerate, ZeroLengthCapsuleAndSegment) {
  const Real tol = kRel * 8;
  const Capsule blob{{0, 0}, {0, 0}, Real(0.5)};
  const Polygon box = make_box(1, 1).value();
  int checked = 0;
  for (Transform pose : {at(0, 0), at(4, -2, Real(0.8)), at(-9, 30, Real(-1.9))}) {
    auto place = [&](Real x, Real y, Real angle = 0) { return compose(pose, at(x, y, angle)); };
    // Zero-length capsule r 0.5 at (0.2,1.3) on the box: 0.2 deep, one contact midway between
    // its bottom (0.8) and the box's top (1), at (0.2,0.9).
    for (Real spin : {Real(0), Real(0.7)}) {
      expect_penetration(blob, place(Real(0.2), Real(1.3), spin), box, place(0, 0), Real(0.2), rotate(pose.rotation, {0, -1}), tol);
      const Manifold m = collide(blob, place(Real(0.2), Real(1.3), spin), box, place(0, 0));
      ASSERT_EQ(m.point_count, 1);
      EXPECT_NEAR(m.points[0].separation, Real(-0.2), tol);
      EXPECT_TRUE(vec_near(m.normal, rotate(pose.rotation, {0, -1}), tol));
      EXPECT_TRUE(vec_near(m.points[0].point, transform_point(pose, {Real(0.2), Real(0.9)}), tol));
      ++checked;
    }
    // Against a circle r 1: centres 1.2 apart -> depth 0.3.
    expect_penetration(blob, place(Real(1.2), 0), Circle{{0, 0}, 1}, place(0, 0), Real(0.3), rotate(pose.rotation, {-1, 0}), tol);
    {
      const Manifold m = collide(blob, place(Real(1.2), 0), Circle{{0, 0}, 1}, place(0, 0));
      ASSERT_EQ(m.point_count, 1);
      EXPECT_NEAR(m.points[0].separation, Real(-0.3), tol);
    }
    // Against a capsule (-1,0)-(1,0) r 0.5: centre (0.4,0.8) -> core gap 0.8, depth 0.2.
    {
      const Capsule cap{{-1, 0}, {1, 0}, Real(0.5)};
      expect_penetration(blob, place(Real(0.4), Real(0.8)), cap, place(0, 0), Real(0.2), rotate(pose.rotation, {0, -1}), tol);
      const Manifold m = collide(blob, place(Real(0.4), Real(0.8)), cap, place(0, 0));
      ASSERT_EQ(m.point_count, 1);
      EXPECT_NEAR(m.points[0].separation, Real(-0.2), tol);
      EXPECT_TRUE(vec_near(m.points[0].point, transform_point(pose, {Real(0.4), Real(0.4)}), tol));
    }
    // Two zero-length capsules: circles of r 0.5 with centres 0.6 apart -> depth 0.4.
    {
      expect_penetration(blob, place(0, 0), blob, place(0, Real(0.6)), Real(0.4), rotate(pose.rotation, {0, 1}), tol);
      const Manifold m = collide(blob, place(0, 0), blob, place(0, Real(0.6)));
      ASSERT_EQ(m.point_count, 1);
      EXPECT_NEAR(m.points[0].separation, Real(-0.4), tol);
    }
    // A zero-length segment (a point) 0.3 inside the box's right face.
    {
      const Segment dot{{0, 0}, {0, 0}};
      expect_penetration(dot, place(Real(0.7), 0), box, place(0, 0), Real(0.3), rotate(pose.rotation, {-1, 0}), tol);
      const Manifold m = collide(dot, place(Real(0.7), 0), box, place(0, 0));
      ASSERT_EQ(m.point_count, 1);
      EXPECT_NEAR(m.points[0].separation, Real(-0.3), tol);
    }
    checked += 4;
  }
  std::printf("checked %d cases\n", checked);
}

// Nothing crashes and every output is finite across all pairs of degenerate shapes and poses.
TEST(Degenerate, NoCrashBattery) {
  const Real t = Real(1e-4);
  std::vector<Shape> shapes = {
      Circle{{0, 0}, 0},
      Circle{{Real(0.1), 0}, Real(1e-3)},
      Capsule{{0, 0}, {0, 0}, Real(0.5)},
      Capsule{{0, 0}, {0, 0}, 0},
      Capsule{{-1, 0}, {1, 0}, 0},
      Segment{{0, 0}, {0, 0}},
      Segment{{-1, 0}, {1, 0}},
      make_box(1, t).value(),
      make_box(Real(1e-3), Real(1e-3)).value(),
      make_box(Real(1e4), Real(1e4)).value(),
      make_polygon(std::vector<Vec2>{{-1, 0}, {1, 0}, {0, 2 * t}}).value(),
      make_polygon(std::vector<Vec2>{{0, 0}, {0, 0}, {1, 0}, {2, 0}, {2, 1}, {1, 1}, {0, 1}}).value(),
      make_box(1, 1, {}, Real(0.5)).value(),
  };
  const std::vector<Transform> poses = {at(0, 0), at(Real(0.5), 0), at(1, 1, Real(0.3)), at(0, 2 * t, kQuarter),
                                        at(Real(1e4), Real(-1e4), 2), at(2, 0)};
  int checked = 0;
  for (const Shape& a : shapes) {
    for (const Shape& b : shapes) {
      for (const Transform& tb : poses) {
        const Transform ta = at(0, 0);
        const bool touches = overlap(a, ta, b, tb);
        const auto pen = penetration(a, ta, b, tb);
        const DistanceResult d = distance(a, ta, b, tb);
        std::vector<ChildManifold> manifolds;
        contact_manifolds(a, ta, b, tb, manifolds, {.speculative_distance = Real(0.1)});
        ASSERT_LE(manifolds.size(), 1u);
        const Manifold m = manifolds.empty() ? Manifold{} : manifolds[0].manifold;
        if (pen) {
          EXPECT_TRUE(all_finite(pen->depth) && all_finite(pen->normal) && all_finite(pen->point_a) && all_finite(pen->point_b));
          EXPECT_GE(pen->depth, 0);
          EXPECT_NEAR(length(pen->normal), 1, Real(1e-3));
        }
        EXPECT_TRUE(all_finite(d.distance) && all_finite(d.point_a) && all_finite(d.point_b));
        EXPECT_GE(d.distance, 0);
        if (!d.overlapping) { EXPECT_NEAR(length(d.normal), 1, Real(1e-3)); }
        EXPECT_GE(m.point_count, 0);
        EXPECT_LE(m.point_count, 2);
        for (int i = 0; i < m.point_count; ++i) {
          EXPECT_TRUE(all_finite(m.points[static_cast<std::size_t>(i)].point) && all_finite(m.points[static_cast<std::size_t>(i)].separation));
        }
        if (m.point_count > 0) { EXPECT_TRUE(all_finite(m.normal)); }
        (void)touches;
        ++checked;
      }
    }
  }
  std::printf("checked %d cases\n", checked);
}

TEST(Degenerate, CoresWithinTheirBandBesideEachOthersFacesStillMeetThroughTheRadii) {
  // From the pair-query fuzzer: a capsule of radius 31872 and a segment, 1.7e7 from the origin and
  // both turned by half a turn. In float the segment's end lies 50 from the capsule's core, within
  // the cores' touching band there (about 65), and beside both faces: clipping found no point, and
  // the fallback returned nothing because GJK had the cores touching, while overlap() and
  // penetration() had the pair overlapping by the radius. Cores that touch are parted along EPA's
  // normal, as penetration() parts them. In double the same pair takes the closest points.
  const Shape capsule = Capsule{{-262144, -16777088}, {-16777216, -16777216}, 31872};
  const Shape segment = Segment{{-16777216, -16777216}, {-16777216, -10616832}};
  const Rot half_turn{-1, Real(0x1.777a5cp-24)};
  const Transform capsule_pose{{Real(-0x1.fdccp+5), Real(0x1.b1ap+2)}, half_turn}, segment_pose{{-32, -32}, half_turn};
  // Oracle in long double: the placed cores, which do not cross, and their distance (the least
  // from an end of one to the other); the pair overlaps by the radius less that distance.
  using Wide = long double;
  struct WidePoint { Wide x, y; };
  auto place = [](const Transform& pose, Vec2 p) {
    return WidePoint{Wide(pose.position.x) + Wide(pose.rotation.cosine) * p.x - Wide(pose.rotation.sine) * p.y,
                     Wide(pose.position.y) + Wide(pose.rotation.sine) * p.x + Wide(pose.rotation.cosine) * p.y};
  };
  auto point_to_segment = [](WidePoint p, WidePoint a, WidePoint b) {
    const Wide ex = b.x - a.x, ey = b.y - a.y;
    const Wide t = std::clamp(((p.x - a.x) * ex + (p.y - a.y) * ey) / (ex * ex + ey * ey), Wide(0), Wide(1));
    return std::hypot(p.x - (a.x + t * ex), p.y - (a.y + t * ey));
  };
  const Capsule& core_a = std::get<Capsule>(capsule);
  const Segment& core_b = std::get<Segment>(segment);
  const WidePoint a1 = place(capsule_pose, core_a.a), a2 = place(capsule_pose, core_a.b);
  const WidePoint b1 = place(segment_pose, core_b.a), b2 = place(segment_pose, core_b.b);
  auto side = [](WidePoint p, WidePoint a, WidePoint b) { return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x); };
  ASSERT_GT(side(b1, a1, a2) * side(b2, a1, a2), 0);  // B's core lies on one side of A's line: they do not cross
  const Wide core_distance = std::min({point_to_segment(b1, a1, a2), point_to_segment(b2, a1, a2), point_to_segment(a1, b1, b2),
                                       point_to_segment(a2, b1, b2)});
  const double expected_depth = double(Wide(core_a.radius) - core_distance);
  ASSERT_NEAR(double(core_distance), 50, 1);
  // The band: four touching bands of the largest coordinate magnitude involved (1.7e7 in each of x and y).
  const double band = 4 * double(contact_tolerance(2 * 16777216 + core_a.radius));
  const Manifold manifold = collide(core_a, capsule_pose, core_b, segment_pose);
  ASSERT_GE(manifold.point_count, 1);
  EXPECT_NEAR(double(length(manifold.normal)), 1, 1e-5);
  for (int i = 0; i < manifold.point_count; ++i) EXPECT_NEAR(double(manifold.points[i].separation), -expected_depth, band);
  const Manifold swapped = collide(core_b, segment_pose, core_a, capsule_pose);
  ASSERT_EQ(swapped.point_count, manifold.point_count);
  EXPECT_TRUE(vec_near(swapped.normal, -manifold.normal, Real(1e-5)));
  EXPECT_NEAR(double(swapped.points[0].separation), double(manifold.points[0].separation), band);
  const std::optional<Penetration> depth = penetration(capsule, capsule_pose, segment, segment_pose);
  ASSERT_TRUE(depth.has_value());
  EXPECT_NEAR(double(depth->depth), expected_depth, band);
  std::vector<ChildManifold> manifolds;
  contact_manifolds(capsule, capsule_pose, segment, segment_pose, manifolds);
  EXPECT_EQ(manifolds.size(), 1u);
}

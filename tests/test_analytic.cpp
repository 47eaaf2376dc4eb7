#include <gtest/gtest.h>

// Analytic cases for every pair of Circle, Capsule, Segment and Polygon, in both orders and under
// several rigid poses. Every expected value below was worked out by hand in a "canonical" frame
// (the comments show the reasoning); the poses only move the whole scene rigidly, so the expected
// world values are the canonical ones carried by the same rigid motion.

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
// Absolute tolerance for scenes of size ~1..5 placed up to ~50 from the origin.
const Real kTol = kFloat ? Real(3e-4) : Real(1e-9);

const Real kSqrt2 = std::sqrt(Real(2));

Shape circle(Real r, Vec2 c = {}) { return Circle{c, r}; }
Shape capsule(Vec2 a, Vec2 b, Real r) { return Capsule{a, b, r}; }
Shape segment(Vec2 a, Vec2 b) { return Segment{a, b}; }
Shape box(Real hw, Real hh, Real r = 0) { return make_box(hw, hh, {}, r).value(); }
Shape polygon(std::vector<Vec2> points, Real r = 0) { return make_polygon(points, r).value(); }

/// The manifold of two convex shapes through contact_manifolds(), which gives at most one for them.
Manifold only_manifold(const Shape& a, const Transform& ta, const Shape& b, const Transform& tb, const CollideOptions& options = {}) {
  std::vector<ChildManifold> manifolds;
  contact_manifolds(a, ta, b, tb, manifolds, options);
  EXPECT_LE(manifolds.size(), 1u);
  if (manifolds.empty()) return {};
  EXPECT_EQ(manifolds[0].child_a, -1);
  EXPECT_EQ(manifolds[0].child_b, -1);
  return manifolds[0].manifold;
}
Transform at(Real x, Real y, Real angle = 0) { return Transform::from({x, y}, angle); }

const Real kQuarter = std::numbers::pi_v<Real> / 2;
const Real kEighth = std::numbers::pi_v<Real> / 4;

enum class Kind { overlapping, touching, separated };
enum class NormalCheck { exact, axis, none };  // axis: the normal is +-normal (a symmetric case)

struct Case {
  std::string name;
  Shape a;
  Transform ta;
  Shape b;
  Transform tb;
  Kind kind;
  Real value;  // depth when overlapping, 0 when touching, distance when separated
  NormalCheck normal_check = NormalCheck::none;
  Vec2 normal{};
  std::optional<Vec2> point_a{}, point_b{};  // witness points (penetration) or closest points (distance)
  int manifold_count = -1;                   // -1: not checked
  std::vector<Real> separations{};           // expected manifold separations (any order)
  std::vector<Vec2> manifold_points{};       // expected manifold points (any order); empty: not checked
};

bool near(Real a, Real b) { return std::abs(a - b) <= kTol; }
bool near(Vec2 a, Vec2 b) { return near(a.x, b.x) && near(a.y, b.y); }
::testing::AssertionResult vec_near(Vec2 actual, Vec2 expected) {
  if (near(actual, expected)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "actual (" << actual.x << ", " << actual.y << ") expected (" << expected.x << ", "
                                       << expected.y << ")";
}

std::vector<Case> make_cases() {
  std::vector<Case> cases;
  const Vec2 up{0, 1}, down{0, -1}, right{1, 0};

  // ---------------- Circle - Circle ----------------
  // |c_b - c_a| = 1.2 < 1 + 0.5: depth 0.3 along +x; A's deepest point (1,0), B's (1.2-0.5, 0).
  cases.push_back({"CC overlap", circle(1), at(0, 0), circle(Real(0.5)), at(Real(1.2), 0), Kind::overlapping, Real(0.3),
                   NormalCheck::exact, right, Vec2{1, 0}, Vec2{Real(0.7), 0}, 1, {Real(-0.3)}, {{Real(0.85), 0}}});
  // Centres 3 apart: gap 3 - 1.5 = 1.5 between (1,0) and (2.5,0).
  cases.push_back({"CC separated", circle(1), at(0, 0), circle(Real(0.5)), at(3, 0), Kind::separated, Real(1.5),
                   NormalCheck::exact, right, Vec2{1, 0}, Vec2{Real(2.5), 0}, 0});
  cases.push_back({"CC touching", circle(1), at(0, 0), circle(Real(0.5)), at(Real(1.5), 0), Kind::touching, 0,
                   NormalCheck::exact, right, Vec2{1, 0}, Vec2{1, 0}, 1, {0}, {{1, 0}}});
  // B (r 0.2 at 0.3) inside A: B moves +x by 1 - 0.3 + 0.2 = 0.9.
  cases.push_back({"CC contained", circle(1), at(0, 0), circle(Real(0.2)), at(Real(0.3), 0), Kind::overlapping, Real(0.9),
                   NormalCheck::exact, right, Vec2{1, 0}, Vec2{Real(0.1), 0}, 1, {Real(-0.9)}, {{Real(0.55), 0}}});
  // A circle with an off-centre local centre, turned: centre lands at (0,0) + R(90)(1,0) = (0,1).
  // B r 0.5 at (0,2.2): distance 1.2, depth 1 + 0.5 - 1.2 = 0.3 along +y.
  cases.push_back({"CC offset centre rotated", circle(1, {1, 0}), at(0, 0, kQuarter), circle(Real(0.5)), at(0, Real(2.2)),
                   Kind::overlapping, Real(0.3), NormalCheck::exact, up, Vec2{0, 2}, Vec2{0, Real(1.7)}, 1, {Real(-0.3)},
                   {{0, Real(1.85)}}});
  cases.push_back({"CC concentric", circle(1), at(0, 0), circle(Real(0.5)), at(0, 0), Kind::overlapping, Real(1.5),
                   NormalCheck::none, {}, std::nullopt, std::nullopt, 1, {Real(-1.5)}});

  // ---------------- Circle - Capsule (core (-1,0)-(1,0), r 0.5) ----------------
  const Shape cap = capsule({-1, 0}, {1, 0}, Real(0.5));
  // Circle r 0.5 at (0.3,0.8): core distance 0.8, radii 1 -> depth 0.2, normal (circle to capsule) -y.
  cases.push_back({"CK side", circle(Real(0.5)), at(Real(0.3), Real(0.8)), cap, at(0, 0), Kind::overlapping, Real(0.2),
                   NormalCheck::exact, down, Vec2{Real(0.3), Real(0.3)}, Vec2{Real(0.3), Real(0.5)}, 1, {Real(-0.2)},
                   {{Real(0.3), Real(0.4)}}});
  // Circle r 0.5 at (1.3,0.4): nearest core point is the end (1,0) at distance 0.5 -> depth 0.5,
  // normal (1,0)-(1.3,0.4) normalised = (-0.6,-0.8).
  cases.push_back({"CK end cap", circle(Real(0.5)), at(Real(1.3), Real(0.4)), cap, at(0, 0), Kind::overlapping, Real(0.5),
                   NormalCheck::exact, {Real(-0.6), Real(-0.8)}, Vec2{1, 0}, Vec2{Real(1.3), Real(0.4)}, 1, {Real(-0.5)},
                   {{Real(1.15), Real(0.2)}}});
  // Circle r 0.5 at (2.8,2.4): 3 from the end (1,0) -> gap 2.
  cases.push_back({"CK separated", circle(Real(0.5)), at(Real(2.8), Real(2.4)), cap, at(0, 0), Kind::separated, 2,
                   NormalCheck::exact, {Real(-0.6), Real(-0.8)}, Vec2{Real(2.5), 2}, Vec2{Real(1.3), Real(0.4)}, 0});
  cases.push_back({"CK touching", circle(Real(0.5)), at(0, 1), cap, at(0, 0), Kind::touching, 0, NormalCheck::exact, down,
                   Vec2{0, Real(0.5)}, Vec2{0, Real(0.5)}, 1, {0}, {{0, Real(0.5)}}});
  // Circle r 0.1 at (0.5,0.1) inside the capsule: depth 0.6 - 0.1 = 0.5.
  cases.push_back({"CK contained", circle(Real(0.1)), at(Real(0.5), Real(0.1)), cap, at(0, 0), Kind::overlapping, Real(0.5),
                   NormalCheck::exact, down, Vec2{Real(0.5), 0}, Vec2{Real(0.5), Real(0.5)}, 1, {Real(-0.5)},
                   {{Real(0.5), Real(0.25)}}});
  // Circle centre on the core at (0.2,0): the difference is a capsule of radius 1 with the origin on
  // its core, 1 from the sides and 1.8 from the ends -> depth 1 along +-y.
  cases.push_back({"CK centre on core", circle(Real(0.5)), at(Real(0.2), 0), cap, at(0, 0), Kind::overlapping, 1,
                   NormalCheck::axis, up, std::nullopt, std::nullopt, 1, {-1}});
  // The capsule turned upright at (2,0): core (2,-1)-(2,1); circle r 1 at (0.5,0.5): gap 1.5 - 1.5 = 0 -> touching.
  cases.push_back({"CK rotated touching", circle(1), at(Real(0.5), Real(0.5)), cap, at(2, 0, kQuarter), Kind::touching, 0,
                   NormalCheck::exact, right, Vec2{Real(1.5), Real(0.5)}, Vec2{Real(1.5), Real(0.5)}, 1, {0}});

  // On the capsule's line, beyond its end: circle r 0.5 at (3,0) is 2 from the core end, gap 1.
  cases.push_back({"CK collinear separated", circle(Real(0.5)), at(3, 0), cap, at(0, 0), Kind::separated, 1,
                   NormalCheck::exact, {-1, 0}, Vec2{Real(2.5), 0}, Vec2{Real(1.5), 0}, 0});
  // On the line, overlapping the end cap: circle r 0.5 at (1.8,0) is 0.8 from the core end, depth 0.2.
  cases.push_back({"CK collinear end", circle(Real(0.5)), at(Real(1.8), 0), cap, at(0, 0), Kind::overlapping, Real(0.2),
                   NormalCheck::exact, {-1, 0}, Vec2{Real(1.3), 0}, Vec2{Real(1.5), 0}, 1, {Real(-0.2)},
                   {{Real(1.4), 0}}});

  // ---------------- Circle - Segment (-1,0)-(1,0) ----------------
  const Shape seg = segment({-1, 0}, {1, 0});
  cases.push_back({"CS side", circle(1), at(Real(0.5), Real(0.6)), seg, at(0, 0), Kind::overlapping, Real(0.4),
                   NormalCheck::exact, down, Vec2{Real(0.5), Real(-0.4)}, Vec2{Real(0.5), 0}, 1, {Real(-0.4)},
                   {{Real(0.5), Real(-0.2)}}});
  cases.push_back({"CS end", circle(1), at(Real(1.3), Real(0.4)), seg, at(0, 0), Kind::overlapping, Real(0.5),
                   NormalCheck::exact, {Real(-0.6), Real(-0.8)}, Vec2{Real(0.7), Real(-0.4)}, Vec2{1, 0}, 1, {Real(-0.5)},
                   {{Real(0.85), Real(-0.2)}}});
  cases.push_back({"CS separated", circle(1), at(0, 3), seg, at(0, 0), Kind::separated, 2, NormalCheck::exact, down,
                   Vec2{0, 2}, Vec2{0, 0}, 0});
  // On the segment's line: circle r 1 at (1.5,0) covers the end (1,0) by 0.5; at (3,0) it is 1 away.
  cases.push_back({"CS collinear end", circle(1), at(Real(1.5), 0), seg, at(0, 0), Kind::overlapping, Real(0.5),
                   NormalCheck::exact, {-1, 0}, Vec2{Real(0.5), 0}, Vec2{1, 0}, 1, {Real(-0.5)}, {{Real(0.75), 0}}});
  cases.push_back({"CS collinear separated", circle(1), at(3, 0), seg, at(0, 0), Kind::separated, 1, NormalCheck::exact,
                   {-1, 0}, Vec2{2, 0}, Vec2{1, 0}, 0});
  cases.push_back({"CS touching", circle(1), at(0, 1), seg, at(0, 0), Kind::touching, 0, NormalCheck::exact, down,
                   Vec2{0, 0}, Vec2{0, 0}, 1, {0}, {{0, 0}}});
  // The whole segment inside a circle of radius 2 centred (0,0.5): the segment must move down 2 - 0.5.
  cases.push_back({"CS contained", circle(2), at(0, Real(0.5)), seg, at(0, 0), Kind::overlapping, Real(1.5),
                   NormalCheck::exact, down, Vec2{0, Real(-1.5)}, Vec2{0, 0}, 1, {Real(-1.5)}, {{0, Real(-0.75)}}});
  cases.push_back({"CS centre on segment", circle(1), at(Real(0.3), 0), seg, at(0, 0), Kind::overlapping, 1,
                   NormalCheck::axis, up, std::nullopt, std::nullopt, 1, {-1}});
  // Segment turned by 45 degrees about (0,0): it runs along (1,1)/sqrt2. A circle r 0.5 centred at
  // (-0.5,0.5)·(1/sqrt2)... placed at distance 0.3 from the segment's midpoint along its normal
  // (-1,1)/sqrt2: depth 0.2, normal from the circle toward the segment (1,-1)/sqrt2.
  {
    const Vec2 n{1 / kSqrt2, -1 / kSqrt2};
    const Vec2 c = Real(-0.3) * n;
    cases.push_back({"CS rotated", circle(Real(0.5)), at(c.x, c.y), seg, at(0, 0, kEighth), Kind::overlapping, Real(0.2),
                     NormalCheck::exact, n, c + Real(0.5) * n, Vec2{0, 0}, 1, {Real(-0.2)}});
  }

  // ---------------- Circle - Polygon (box half 1 x 1) ----------------
  const Shape unit_box = box(1, 1);
  cases.push_back({"CP face", circle(Real(0.5)), at(0, Real(1.3)), unit_box, at(0, 0), Kind::overlapping, Real(0.2),
                   NormalCheck::exact, down, Vec2{0, Real(0.8)}, Vec2{0, 1}, 1, {Real(-0.2)}, {{0, Real(0.9)}}});
  // Circle r 1 at (1.3,1.4): corner (1,1) is 0.5 away -> depth 0.5, normal (-0.6,-0.8).
  cases.push_back({"CP corner", circle(1), at(Real(1.3), Real(1.4)), unit_box, at(0, 0), Kind::overlapping, Real(0.5),
                   NormalCheck::exact, {Real(-0.6), Real(-0.8)}, Vec2{Real(0.7), Real(0.6)}, Vec2{1, 1}, 1, {Real(-0.5)},
                   {{Real(0.85), Real(0.8)}}});
  // Circle r 0.5 at (4,5): 5 from corner (1,1) -> gap 4.5.
  cases.push_back({"CP separated corner", circle(Real(0.5)), at(4, 5), unit_box, at(0, 0), Kind::separated, Real(4.5),
                   NormalCheck::exact, {Real(-0.6), Real(-0.8)}, Vec2{Real(3.7), Real(4.6)}, Vec2{1, 1}, 0});
  cases.push_back({"CP separated face", circle(Real(0.5)), at(Real(0.2), 3), unit_box, at(0, 0), Kind::separated, Real(1.5),
                   NormalCheck::exact, down, Vec2{Real(0.2), Real(2.5)}, Vec2{Real(0.2), 1}, 0});
  cases.push_back({"CP touching", circle(Real(0.5)), at(Real(0.2), Real(1.5)), unit_box, at(0, 0), Kind::touching, 0,
                   NormalCheck::exact, down, Vec2{Real(0.2), 1}, Vec2{Real(0.2), 1}, 1, {0}, {{Real(0.2), 1}}});
  // Circle r 0.2 at (0.5,0.6) inside the box: the nearest face is the top (0.4 away): depth 0.6.
  cases.push_back({"CP contained", circle(Real(0.2)), at(Real(0.5), Real(0.6)), unit_box, at(0, 0), Kind::overlapping,
                   Real(0.6), NormalCheck::exact, down, Vec2{Real(0.5), Real(0.4)}, Vec2{Real(0.5), 1}, 1, {Real(-0.6)},
                   {{Real(0.5), Real(0.7)}}});
  // Circle r 0.5 at the centre of a 4 x 2 box: depth 1 + 0.5 along +-y.
  cases.push_back({"CP concentric", circle(Real(0.5)), at(0, 0), box(2, 1), at(0, 0), Kind::overlapping, Real(1.5),
                   NormalCheck::axis, up, std::nullopt, std::nullopt, 1, {Real(-1.5)}});
  // Box turned 45 degrees: its corner (0, sqrt2) points up. Circle r 0.5 centred 0.4 above it.
  cases.push_back({"CP rotated box corner", circle(Real(0.5)), at(0, kSqrt2 + Real(0.4)), unit_box, at(0, 0, kEighth),
                   Kind::overlapping, Real(0.1), NormalCheck::exact, down, Vec2{0, kSqrt2 - Real(0.1)}, Vec2{0, kSqrt2}, 1,
                   {Real(-0.1)}, {{0, kSqrt2 - Real(0.05)}}});
  // Rounded box (core half 1, radius 0.25) against a circle r 0.5 at (0,1.6): core gap 0.6, radii 0.75.
  cases.push_back({"CP rounded face", circle(Real(0.5)), at(0, Real(1.6)), box(1, 1, Real(0.25)), at(0, 0),
                   Kind::overlapping, Real(0.15), NormalCheck::exact, down, Vec2{0, Real(1.1)}, Vec2{0, Real(1.25)}, 1,
                   {Real(-0.15)}, {{0, Real(1.175)}}});

  // ---------------- Capsule - Capsule ----------------
  // Parallel, B at (0.5,0.8): core gap 0.8, radii 1 -> depth 0.2; cores overlap on x in [-0.5,1].
  cases.push_back({"KK parallel", cap, at(0, 0), cap, at(Real(0.5), Real(0.8)), Kind::overlapping, Real(0.2),
                   NormalCheck::exact, up, std::nullopt, std::nullopt, 2, {Real(-0.2), Real(-0.2)},
                   {{Real(-0.5), Real(0.4)}, {1, Real(0.4)}}});
  // B upright at (0,1.2): its core (0,0.2)-(0,2.2) is 0.2 from A's core -> depth 0.8.
  cases.push_back({"KK crossed", cap, at(0, 0), cap, at(0, Real(1.2), kQuarter), Kind::overlapping, Real(0.8),
                   NormalCheck::exact, up, Vec2{0, Real(0.5)}, Vec2{0, Real(-0.3)}, 1, {Real(-0.8)}, {{0, Real(0.1)}}});
  // End to end: cores (1,0) and (2.5,0) are 1.5 apart -> gap 0.5.
  cases.push_back({"KK separated", cap, at(0, 0), cap, at(Real(3.5), 0), Kind::separated, Real(0.5), NormalCheck::exact,
                   right, Vec2{Real(1.5), 0}, Vec2{2, 0}, 0});
  // End to end, collinear: cores (1,0) and (1.8,0) are 0.8 apart, radii 1 -> depth 0.2 along +x.
  cases.push_back({"KK end overlap", cap, at(0, 0), cap, at(Real(2.8), 0), Kind::overlapping, Real(0.2), NormalCheck::exact,
                   right, Vec2{Real(1.5), 0}, Vec2{Real(1.3), 0}, 1, {Real(-0.2)}, {{Real(1.4), 0}}});
  cases.push_back({"KK touching", cap, at(0, 0), cap, at(0, 1), Kind::touching, 0, NormalCheck::exact, up, std::nullopt,
                   std::nullopt, 2, {0, 0}, {{-1, Real(0.5)}, {1, Real(0.5)}}});
  // Small capsule (-0.2,0)-(0.2,0) r 0.1 at (0,0.1) inside A: depth 0.6 - 0.1.
  cases.push_back({"KK contained", cap, at(0, 0), capsule({Real(-0.2), 0}, {Real(0.2), 0}, Real(0.1)), at(0, Real(0.1)),
                   Kind::overlapping, Real(0.5), NormalCheck::exact, up, std::nullopt, std::nullopt, 2,
                   {Real(-0.5), Real(-0.5)}, {{Real(-0.2), Real(0.25)}, {Real(0.2), Real(0.25)}}});
  // Identical capsules at the same pose: the difference is core (-2,0)-(2,0) with radius 1 -> depth 1 along +-y.
  cases.push_back({"KK identical", cap, at(0, 0), cap, at(0, 0), Kind::overlapping, 1, NormalCheck::axis, up, std::nullopt,
                   std::nullopt, 2, {-1, -1}});
  // Crossed at the centre: core difference is the square [-1,1]^2, radius 1 -> depth 2.
  cases.push_back({"KK cross centred", cap, at(0, 0), cap, at(0, 0, kQuarter), Kind::overlapping, 2});

  // ---------------- Capsule - Segment ----------------
  cases.push_back({"KS parallel", cap, at(0, 0), seg, at(Real(0.5), Real(0.3)), Kind::overlapping, Real(0.2),
                   NormalCheck::exact, up, std::nullopt, std::nullopt, 2, {Real(-0.2), Real(-0.2)},
                   {{Real(-0.5), Real(0.4)}, {1, Real(0.4)}}});
  // Upright segment at x = 1.2 spanning y in [-1,1]: 0.2 from the core end (1,0) -> depth 0.3.
  cases.push_back({"KS end into segment", cap, at(0, 0), seg, at(Real(1.2), 0, kQuarter), Kind::overlapping, Real(0.3),
                   NormalCheck::exact, right, Vec2{Real(1.5), 0}, Vec2{Real(1.2), 0}, 1, {Real(-0.3)},
                   {{Real(1.35), 0}}});
  cases.push_back({"KS separated", cap, at(0, 0), seg, at(3, 0, kQuarter), Kind::separated, Real(1.5), NormalCheck::exact,
                   right, Vec2{Real(1.5), 0}, Vec2{3, 0}, 0});
  cases.push_back({"KS touching", cap, at(0, 0), seg, at(Real(0.5), Real(0.5)), Kind::touching, 0, NormalCheck::exact, up,
                   std::nullopt, std::nullopt, 2, {0, 0}, {{Real(-0.5), Real(0.5)}, {1, Real(0.5)}}});
  cases.push_back({"KS contained", cap, at(0, 0), segment({Real(-0.5), 0}, {Real(0.5), 0}), at(0, Real(0.1)),
                   Kind::overlapping, Real(0.4), NormalCheck::exact, up, std::nullopt, std::nullopt, 2,
                   {Real(-0.4), Real(-0.4)}, {{Real(-0.5), Real(0.3)}, {Real(0.5), Real(0.3)}}});
  cases.push_back({"KS same line", cap, at(0, 0), seg, at(0, 0), Kind::overlapping, Real(0.5), NormalCheck::axis, up});

  // ---------------- Capsule - Polygon ----------------
  // Box (half 1) at (0.5,-1.4): top face y = -0.4, capsule bottom y = -0.5 -> depth 0.1; the
  // contact runs over x in [-0.5, 1], midway between the surfaces at y = -0.45.
  cases.push_back({"KP resting", cap, at(0, 0), unit_box, at(Real(0.5), Real(-1.4)), Kind::overlapping, Real(0.1),
                   NormalCheck::exact, down, std::nullopt, std::nullopt, 2, {Real(-0.1), Real(-0.1)},
                   {{Real(-0.5), Real(-0.45)}, {1, Real(-0.45)}}});
  // Box at (2.3,0): left face x = 1.3, capsule reaches 1.5.
  cases.push_back({"KP end into face", cap, at(0, 0), unit_box, at(Real(2.3), 0), Kind::overlapping, Real(0.2),
                   NormalCheck::exact, right, Vec2{Real(1.5), 0}, Vec2{Real(1.3), 0}, 1, {Real(-0.2)}, {{Real(1.4), 0}}});
  // Box at (3,2): its corner (2,1) is sqrt2 from the core end (1,0).
  {
    const Vec2 n{1 / kSqrt2, 1 / kSqrt2};
    cases.push_back({"KP separated corner", cap, at(0, 0), unit_box, at(3, 2), Kind::separated, kSqrt2 - Real(0.5),
                     NormalCheck::exact, n, Vec2{1, 0} + Real(0.5) * n, Vec2{2, 1}, 0});
  }
  cases.push_back({"KP touching", cap, at(0, 0), unit_box, at(Real(0.5), Real(-1.5)), Kind::touching, 0,
                   NormalCheck::exact, down, std::nullopt, std::nullopt, 2, {0, 0},
                   {{Real(-0.5), Real(-0.5)}, {1, Real(-0.5)}}});
  // Capsule (-0.2,0)-(0.2,0) r 0.1 at (0,0.5) inside the box: the box must drop 1 - 0.4 = 0.6.
  cases.push_back({"KP contained", capsule({Real(-0.2), 0}, {Real(0.2), 0}, Real(0.1)), at(0, Real(0.5)), unit_box, at(0, 0),
                   Kind::overlapping, Real(0.6), NormalCheck::exact, down, std::nullopt, std::nullopt, 2,
                   {Real(-0.6), Real(-0.6)}, {{Real(-0.2), Real(0.7)}, {Real(0.2), Real(0.7)}}});
  cases.push_back({"KP concentric", cap, at(0, 0), box(2, 1), at(0, 0), Kind::overlapping, Real(1.5), NormalCheck::axis, up,
                   std::nullopt, std::nullopt, 2, {Real(-1.5), Real(-1.5)}});

  // ---------------- Segment - Segment ----------------
  // Upright B (0.3, y in [-0.8,1.2]) crossing A: difference is x in [-0.7,1.3], y in [-0.8,1.2];
  // the nearest side is x = -0.7, so B moves +x by 0.7 to touch A's end (1,0).
  cases.push_back({"SS crossing", seg, at(0, 0), seg, at(Real(0.3), Real(0.2), kQuarter), Kind::overlapping, Real(0.7),
                   NormalCheck::exact, right, Vec2{1, 0}, Vec2{Real(0.3), 0}, 1, {Real(-0.7)}, {{Real(0.65), 0}}});
  cases.push_back({"SS separated", seg, at(0, 0), seg, at(3, 1), Kind::separated, kSqrt2, NormalCheck::exact,
                   {1 / kSqrt2, 1 / kSqrt2}, Vec2{1, 0}, Vec2{2, 1}, 0});
  // T junction: B's lower end (0.2,0) lies on A.
  cases.push_back({"SS touching T", seg, at(0, 0), seg, at(Real(0.2), 1, kQuarter), Kind::touching, 0, NormalCheck::exact,
                   up, Vec2{Real(0.2), 0}, Vec2{Real(0.2), 0}, 1, {0}, {{Real(0.2), 0}}});
  // Crossed at the centres: the difference is the square [-1,1]^2 -> depth 1 along an axis.
  cases.push_back({"SS cross centred", seg, at(0, 0), seg, at(0, 0, kQuarter), Kind::overlapping, 1});

  // ---------------- Segment - Polygon ----------------
  // Upright A segment (0.3, y in [0.8, 2.8]) poking 0.2 into the box's top.
  cases.push_back({"SP poke", seg, at(Real(0.3), Real(1.8), kQuarter), unit_box, at(0, 0), Kind::overlapping, Real(0.2),
                   NormalCheck::exact, down, Vec2{Real(0.3), Real(0.8)}, Vec2{Real(0.3), 1}, 1, {Real(-0.2)},
                   {{Real(0.3), Real(0.9)}}});
  // Horizontal A from (-0.5,0.9) to (1.5,0.9), 0.1 below the box's top; contact over x in [-0.5,1].
  cases.push_back({"SP lying", seg, at(Real(0.5), Real(0.9)), unit_box, at(0, 0), Kind::overlapping, Real(0.1),
                   NormalCheck::exact, down, std::nullopt, std::nullopt, 2, {Real(-0.1), Real(-0.1)},
                   {{Real(-0.5), Real(0.95)}, {1, Real(0.95)}}});
  // Upright A from (3,1.5) to (3,3.5): nearest to the corner (1,1): offset (-2,-0.5).
  {
    const Real d = std::sqrt(Real(4.25));
    cases.push_back({"SP separated", seg, at(3, Real(2.5), kQuarter), unit_box, at(0, 0), Kind::separated, d,
                     NormalCheck::exact, {-2 / d, Real(-0.5) / d}, Vec2{3, Real(1.5)}, Vec2{1, 1}, 0});
  }
  cases.push_back({"SP touching face", seg, at(0, 1), unit_box, at(0, 0), Kind::touching, 0, NormalCheck::exact, down,
                   std::nullopt, std::nullopt, 2, {0, 0}, {{-1, 1}, {1, 1}}});
  // Segment inside a 4 x 4 box at height 0.5: the box must drop 2 - 0.5.
  cases.push_back({"SP contained", seg, at(0, Real(0.5)), box(2, 2), at(0, 0), Kind::overlapping, Real(1.5),
                   NormalCheck::exact, down, std::nullopt, std::nullopt, 2, {Real(-1.5), Real(-1.5)}});
  cases.push_back({"SP concentric", seg, at(0, 0), box(2, 1), at(0, 0), Kind::overlapping, 1, NormalCheck::axis, up});

  // ---------------- Polygon - Polygon ----------------
  // Box on box: B at (0.5,1.9), 0.1 deep; contact over x in [-0.5,1] at y = 0.95.
  cases.push_back({"PP resting", unit_box, at(0, 0), unit_box, at(Real(0.5), Real(1.9)), Kind::overlapping, Real(0.1),
                   NormalCheck::exact, up, std::nullopt, std::nullopt, 2, {Real(-0.1), Real(-0.1)},
                   {{Real(-0.5), Real(0.95)}, {1, Real(0.95)}}});
  // B turned 45 degrees, its lowest corner (0,0.9) 0.1 into A's top face.
  cases.push_back({"PP corner down", unit_box, at(0, 0), unit_box, at(0, 1 + kSqrt2 - Real(0.1), kEighth), Kind::overlapping,
                   Real(0.1), NormalCheck::exact, up, Vec2{0, 1}, Vec2{0, Real(0.9)}, 1, {Real(-0.1)},
                   {{0, Real(0.95)}}});
  cases.push_back({"PP separated", unit_box, at(0, 0), unit_box, at(3, Real(2.5)), Kind::separated, std::sqrt(Real(1.25)),
                   NormalCheck::exact, {1 / std::sqrt(Real(1.25)), Real(0.5) / std::sqrt(Real(1.25))}, Vec2{1, 1},
                   Vec2{2, Real(1.5)}, 0});
  cases.push_back({"PP touching edge", unit_box, at(0, 0), unit_box, at(2, Real(0.5)), Kind::touching, 0,
                   NormalCheck::exact, right, std::nullopt, std::nullopt, 2, {0, 0}, {{1, Real(-0.5)}, {1, 1}}});
  cases.push_back({"PP touching corner", unit_box, at(0, 0), unit_box, at(0, 1 + kSqrt2, kEighth), Kind::touching, 0,
                   NormalCheck::exact, up, Vec2{0, 1}, Vec2{0, 1}, 1, {0}, {{0, 1}}});
  // Small box (half 0.2) at (0.5,0.6) inside A: it leaves fastest upward, 1 - 0.4 = 0.6.
  cases.push_back({"PP contained", unit_box, at(0, 0), box(Real(0.2), Real(0.2)), at(Real(0.5), Real(0.6)),
                   Kind::overlapping, Real(0.6), NormalCheck::exact, up, std::nullopt, std::nullopt, 2,
                   {Real(-0.6), Real(-0.6)}, {{Real(0.3), Real(0.7)}, {Real(0.7), Real(0.7)}}});
  cases.push_back({"PP identical", unit_box, at(0, 0), unit_box, at(0, 0), Kind::overlapping, 2, NormalCheck::none, {},
                   std::nullopt, std::nullopt, 2, {-2, -2}});
  // A triangle (-1,-1),(1,-1),(0,1) (not a rectangle: general SAT) on a box at (0.4,-1.9):
  // box top y = -0.9, 0.1 above the triangle's base; contact over x in [-0.6, 1] at y = -0.95.
  cases.push_back({"PP triangle on box", polygon({{-1, -1}, {1, -1}, {0, 1}}), at(0, 0), unit_box, at(Real(0.4), Real(-1.9)),
                   Kind::overlapping, Real(0.1), NormalCheck::exact, down, std::nullopt, std::nullopt, 2,
                   {Real(-0.1), Real(-0.1)}, {{Real(-0.6), Real(-0.95)}, {1, Real(-0.95)}}});
  // Rounded B (core half 1, r 0.25) at (0.5,2.15): its surface bottom is at 0.9 -> depth 0.1.
  cases.push_back({"PP rounded resting", unit_box, at(0, 0), box(1, 1, Real(0.25)), at(Real(0.5), Real(2.15)),
                   Kind::overlapping, Real(0.1), NormalCheck::exact, up, std::nullopt, std::nullopt, 2,
                   {Real(-0.1), Real(-0.1)}, {{Real(-0.5), Real(0.95)}, {1, Real(0.95)}}});
  // Two rounded boxes, cores' corners (1,1) and (2,2): gap sqrt2 - 0.5 - 0.5.
  {
    const Vec2 n{1 / kSqrt2, 1 / kSqrt2};
    cases.push_back({"PP rounded corners apart", box(1, 1, Real(0.5)), at(0, 0), box(1, 1, Real(0.5)), at(3, 3),
                     Kind::separated, kSqrt2 - 1, NormalCheck::exact, n, Vec2{1, 1} + Real(0.5) * n,
                     Vec2{2, 2} - Real(0.5) * n, 0});
  }
  // Rounded boxes overlapping at the corners: core corners sqrt2 * 0.5 apart, radii 1 -> depth 1 - 0.7071.
  {
    const Vec2 n{1 / kSqrt2, 1 / kSqrt2};
    const Real core = Real(0.5) * kSqrt2;
    cases.push_back({"PP rounded corners overlap", box(1, 1, Real(0.5)), at(0, 0), box(1, 1, Real(0.5)),
                     at(Real(2.5), Real(2.5)), Kind::overlapping, 1 - core, NormalCheck::exact, n,
                     Vec2{1, 1} + Real(0.5) * n, Vec2{Real(1.5), Real(1.5)} - Real(0.5) * n, 1, {core - 1},
                     {{Real(1.25), Real(1.25)}}});
  }
  return cases;
}

const std::vector<Transform>& poses() {
  static const std::vector<Transform> list = {at(0, 0), at(3, -2, Real(0.7)), at(-40, 25, Real(-2.1)), at(7, 11, kQuarter)};
  return list;
}

void check_case(const Case& c, const Transform& pose, bool swapped) {
  const Shape& a = swapped ? c.b : c.a;
  const Shape& b = swapped ? c.a : c.b;
  const Transform ta = compose(pose, swapped ? c.tb : c.ta);
  const Transform tb = compose(pose, swapped ? c.ta : c.tb);
  const Real sign = swapped ? Real(-1) : Real(1);
  const Vec2 normal = sign * rotate(pose.rotation, c.normal);
  std::optional<Vec2> point_a = swapped ? c.point_b : c.point_a, point_b = swapped ? c.point_a : c.point_b;
  if (point_a) point_a = transform_point(pose, *point_a);
  if (point_b) point_b = transform_point(pose, *point_b);

  auto check_normal = [&](Vec2 actual, const char* what) {
    SCOPED_TRACE(what);
    EXPECT_NEAR(length(actual), 1, kTol);
    if (c.normal_check == NormalCheck::exact) { EXPECT_TRUE(vec_near(actual, normal)); }
    if (c.normal_check == NormalCheck::axis) { EXPECT_NEAR(std::abs(dot(actual, normal)), 1, kTol); }
  };

  const bool overlapping = c.kind != Kind::separated;
  EXPECT_EQ(overlap(a, ta, b, tb), overlapping);

  const std::optional<Penetration> pen = penetration(a, ta, b, tb);
  const DistanceResult dist = distance(a, ta, b, tb);
  if (overlapping) {
    ASSERT_TRUE(pen.has_value());
    EXPECT_EQ(pen->status, IterationStatus::converged);
    EXPECT_NEAR(pen->depth, c.kind == Kind::touching ? 0 : c.value, kTol);
    check_normal(pen->normal, "penetration normal");
    // The witness points always differ by depth * normal.
    EXPECT_TRUE(vec_near(pen->point_a - pen->point_b, pen->depth * pen->normal));
    if (point_a) { EXPECT_TRUE(vec_near(pen->point_a, *point_a)) << "penetration point_a"; }
    if (point_b) { EXPECT_TRUE(vec_near(pen->point_b, *point_b)) << "penetration point_b"; }
    EXPECT_TRUE(dist.overlapping);
    EXPECT_EQ(dist.distance, 0);
  } else {
    EXPECT_FALSE(pen.has_value());
    EXPECT_FALSE(dist.overlapping);
    EXPECT_NEAR(dist.distance, c.value, kTol);
    check_normal(dist.normal, "distance normal");
    if (point_a) { EXPECT_TRUE(vec_near(dist.point_a, *point_a)) << "distance point_a"; }
    if (point_b) { EXPECT_TRUE(vec_near(dist.point_b, *point_b)) << "distance point_b"; }
    EXPECT_NEAR(distance(dist.point_a, dist.point_b), c.value, kTol);
  }

  const Manifold m = only_manifold(a, ta, b, tb);
  if (c.manifold_count >= 0) {
    ASSERT_EQ(m.point_count, c.manifold_count);
    if (m.point_count > 0) check_normal(m.normal, "manifold normal");
    std::vector<Real> got, want = c.separations;
    for (int i = 0; i < m.point_count; ++i) got.push_back(m.points[static_cast<std::size_t>(i)].separation);
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], kTol) << "separation " << i;
    for (Vec2 expected : c.manifold_points) {
      const Vec2 world = transform_point(pose, expected);
      bool found = false;
      for (int i = 0; i < m.point_count; ++i) found = found || near(m.points[static_cast<std::size_t>(i)].point, world);
      EXPECT_TRUE(found) << "no manifold point near (" << world.x << ", " << world.y << ")";
    }
    if (m.point_count == 2) { EXPECT_NE(m.points[0].id, m.points[1].id); }
  }
  // With a speculative distance wider than the gap, separated pairs report their gap.
  if (!overlapping && c.manifold_count == 0) {
    const Manifold speculative = only_manifold(a, ta, b, tb, {.speculative_distance = c.value + 1});
    ASSERT_GE(speculative.point_count, 1);
    Real smallest = speculative.points[0].separation;
    for (int i = 1; i < speculative.point_count; ++i)
      smallest = std::min(smallest, speculative.points[static_cast<std::size_t>(i)].separation);
    EXPECT_NEAR(smallest, c.value, kTol);
    if (c.normal_check == NormalCheck::exact) { EXPECT_TRUE(vec_near(speculative.normal, normal)) << "speculative normal"; }
  }
}

}  // namespace

TEST(Analytic, EveryPairBothOrdersAllPoses) {
  const std::vector<Case> cases = make_cases();
  int checked = 0;
  bool seen[4][4] = {};
  for (const Case& c : cases) {
    seen[c.a.index()][c.b.index()] = true;
    for (std::size_t p = 0; p < poses().size(); ++p) {
      for (bool swapped : {false, true}) {
        SCOPED_TRACE(c.name + " pose " + std::to_string(p) + (swapped ? " swapped" : ""));
        check_case(c, poses()[p], swapped);
        ++checked;
      }
    }
  }
  // Every unordered pair is covered (and the swap covers the other order).
  for (int i = 0; i < 4; ++i)
    for (int j = i; j < 4; ++j) EXPECT_TRUE(seen[i][j] || seen[j][i]) << "pair " << i << "," << j;
  std::printf("checked %d cases\n", checked);
}

// The typed (non-variant) entry points agree with the hand values too; a few direct calls.
TEST(Analytic, TypedEntryPoints) {
  const Polygon box1 = make_box(1, 1).value();
  const Circle ball{{0, 0}, Real(0.5)};
  const Transform tb = at(0, Real(1.3));
  EXPECT_TRUE(overlap(box1, Transform{}, ball, tb));
  const auto pen = penetration(box1, Transform{}, ball, tb);
  ASSERT_TRUE(pen.has_value());
  EXPECT_NEAR(pen->depth, Real(0.2), kTol);
  EXPECT_TRUE(vec_near(pen->normal, {0, 1}));
  EXPECT_TRUE(vec_near(pen->point_a, {0, 1}));
  EXPECT_TRUE(vec_near(pen->point_b, {0, Real(0.8)}));
  const Manifold m = collide(box1, Transform{}, ball, tb);  // mirrored template
  ASSERT_EQ(m.point_count, 1);
  EXPECT_TRUE(vec_near(m.normal, {0, 1}));
  EXPECT_NEAR(m.points[0].separation, Real(-0.2), kTol);
  const DistanceResult d = distance(box1, Transform{}, ball, at(0, 3));
  EXPECT_NEAR(d.distance, Real(1.5), kTol);
  EXPECT_TRUE(vec_near(d.normal, {0, 1}));
}

// Concentric circles: the documented normal is A's +x axis (turned with A).
TEST(Analytic, ConcentricCirclesUseAsPlusX) {
  int checked = 0;
  for (Real angle : {Real(0), Real(0.5), Real(2), Real(-1.2)}) {
    const Transform ta = at(Real(4), Real(-3), angle), tb = at(Real(4), Real(-3), Real(0.3));
    const Circle a{{0, 0}, 1}, b{{0, 0}, Real(0.5)};
    const auto pen = penetration(a, ta, b, tb);
    ASSERT_TRUE(pen.has_value());
    EXPECT_NEAR(pen->depth, Real(1.5), kTol);
    EXPECT_TRUE(vec_near(pen->normal, {std::cos(angle), std::sin(angle)}));
    const Manifold m = only_manifold(a, ta, b, tb);
    ASSERT_EQ(m.point_count, 1);
    EXPECT_NEAR(m.points[0].separation, Real(-1.5), kTol);
    EXPECT_TRUE(vec_near(m.normal, {std::cos(angle), std::sin(angle)}));
    ++checked;
  }
  std::printf("checked %d cases\n", checked);
}

// Box resting on a box under many rotations of the whole scene: always two points, equal
// separations, midway between the faces.
TEST(Analytic, BoxRestingOnBoxRotated) {
  const Polygon ground = make_box(3, Real(0.5)).value();
  const Polygon crate = make_box(Real(0.5), Real(0.5)).value();
  int checked = 0;
  for (int k = 0; k < 36; ++k) {
    const Real angle = Real(k) * Real(0.17453292519943295);  // 10 degrees
    const Transform pose = at(Real(2), Real(-1), angle);
    // Crate centred at (0.7, 0.98) in the ground's frame: its bottom y = 0.48, ground top 0.5.
    const Transform ta = compose(pose, Transform{}), tb = compose(pose, at(Real(0.7), Real(0.98)));
    const Manifold m = collide(ground, ta, crate, tb);
    ASSERT_EQ(m.point_count, 2);
    EXPECT_TRUE(vec_near(m.normal, rotate(pose.rotation, {0, 1})));
    EXPECT_NEAR(m.points[0].separation, Real(-0.02), kTol);
    EXPECT_NEAR(m.points[1].separation, Real(-0.02), kTol);
    std::array<Vec2, 2> want = {transform_point(pose, {Real(0.2), Real(0.49)}), transform_point(pose, {Real(1.2), Real(0.49)})};
    const bool direct = near(m.points[0].point, want[0]) && near(m.points[1].point, want[1]);
    const bool crossed = near(m.points[0].point, want[1]) && near(m.points[1].point, want[0]);
    EXPECT_TRUE(direct || crossed);
    ++checked;
  }
  std::printf("checked %d cases\n", checked);
}

// Speculative contacts: a box 0.2 above another has no points without a margin, two with one.
TEST(Analytic, SpeculativeDistance) {
  const Polygon b1 = make_box(1, 1).value();
  const Transform tb = at(0, Real(2.2));
  EXPECT_EQ(collide(b1, Transform{}, b1, tb).point_count, 0);
  const Manifold m = collide(b1, Transform{}, b1, tb, {.speculative_distance = Real(0.5)});
  ASSERT_EQ(m.point_count, 2);
  EXPECT_NEAR(m.points[0].separation, Real(0.2), kTol);
  EXPECT_NEAR(m.points[1].separation, Real(0.2), kTol);
  EXPECT_EQ(collide(b1, Transform{}, b1, tb, {.speculative_distance = Real(0.1)}).point_count, 0);
}

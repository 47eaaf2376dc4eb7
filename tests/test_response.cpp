// Response: separate() and push_out() against closed forms and a brute-force search, the world's
// mover queries against brute force over every body, the world's bookkeeping (sensors, contacts
// of a body, shapes and user data in place, integrate), and move_and_slide against closed forms
// (resting at the skin, standing on a gentle slope, sliding down a steep one, walls, corners,
// steps, snapping) and a scripted walk over a level built as one concave outline and as tiles,
// slow and fast, near and far from the origin.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>

#include "collide2d/collide2d.hpp"

using namespace collide2d;

namespace {

constexpr bool real_is_float = sizeof(Real) == sizeof(float);
constexpr Real skin = Real(0.01);

class Random {
 public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}
  Real uniform(double low, double high) { return static_cast<Real>(std::uniform_real_distribution<double>(low, high)(engine_)); }
  int below(int count) { return std::uniform_int_distribution<int>(0, count - 1)(engine_); }
  Shape convex() {
    switch (below(4)) {
      case 0: return Circle{{}, uniform(0.2, 1.0)};
      case 1: return Capsule{{uniform(-0.8, -0.1), 0}, {uniform(0.1, 0.8), uniform(-0.3, 0.3)}, uniform(0.05, 0.4)};
      case 2: return make_box(uniform(0.1, 1.0), uniform(0.1, 1.0), {}, below(2) == 0 ? uniform(0, 0.2) : Real(0)).value();
      default: {
        std::vector<Vec2> points;
        for (int i = 0; i < 7; ++i) points.push_back({uniform(-1, 1), uniform(-1, 1)});
        return make_polygon(convex_hull(points)).value();
      }
    }
  }
  Shape any() {
    if (below(4) != 0) return convex();
    static const std::vector<Vec2> l_outline = {{0, 0}, {2, 0}, {2, Real(0.5)}, {Real(0.5), Real(0.5)}, {Real(0.5), 2}, {0, 2}};
    return shape_from_outline(l_outline).value();
  }
  Transform pose(Real extent) { return Transform::from({uniform(-extent, extent), uniform(-extent, extent)}, uniform(-3.2, 3.2)); }

 private:
  std::mt19937_64 engine_;
};

/// The touching band of shapes of about this size at this distance from their frames' origins.
Real band_at(Real magnitude) { return 4 * contact_tolerance(magnitude); }

/// The gap between two placed shapes (negative: the depth they overlap), from distance() and penetration().
Real gap(const Shape& a, const Transform& ta, const Shape& b, const Transform& tb) {
  if (const std::optional<Penetration> depth = penetration(a, ta, b, tb)) return -depth->depth;
  return distance(a, ta, b, tb).distance;
}

/// The shortest translation freeing B from A by brute force: for each of `directions` directions,
/// bisection on overlap() for the shortest move along it that leaves them apart.
double brute_force_exit(const Shape& a, const Transform& ta, const Shape& b, const Transform& tb, int directions) {
  double best = 1e30;
  for (int k = 0; k < directions; ++k) {
    const double angle = 2 * std::numbers::pi * k / directions;
    const Vec2 direction{Real(std::cos(angle)), Real(std::sin(angle))};
    double low = 0, high = 10;
    if (overlap(a, ta, b, {tb.position + Real(high) * direction, tb.rotation})) continue;
    for (int step = 0; step < 40 && high - low > 1e-7; ++step) {
      const double middle = 0.5 * (low + high);
      (overlap(a, ta, b, {tb.position + Real(middle) * direction, tb.rotation}) ? low : high) = middle;
    }
    best = std::min(best, high);
  }
  return best;
}

}  // namespace

TEST(Separate, SplitsTheDepthByInverseMass) {
  const Penetration contact{.depth = 2, .normal = {0, 1}, .point_a = {}, .point_b = {}};
  const Separation both = separate(contact, 1, 3);
  EXPECT_NEAR(both.translation_a.y, -0.5, 1e-6);
  EXPECT_NEAR(both.translation_b.y, 1.5, 1e-6);
  EXPECT_NEAR(both.translation_b.y - both.translation_a.y, 2, 1e-6);  // they end touching
  const Separation static_a = separate(contact, 0, 1, Real(0.25));
  EXPECT_EQ(static_a.translation_a, Vec2{});
  EXPECT_NEAR(static_a.translation_b.y, 2.25, 1e-6);
  const Separation both_static = separate(contact, 0, 0);
  EXPECT_EQ(both_static.translation_a, Vec2{});
  EXPECT_EQ(both_static.translation_b, Vec2{});
}

TEST(Separate, FreesRandomOverlappingPairs) {
  Random random(11);
  int checked = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const Shape a = random.convex(), b = random.convex();
    const Transform ta = random.pose(1), tb = random.pose(1);
    const std::optional<Penetration> contact = penetration(a, ta, b, tb);
    if (!contact || contact->depth <= 0) continue;
    const Real mass_a = random.uniform(0, 2), mass_b = random.uniform(0.1, 2);
    const Separation moves = separate(*contact, mass_a, mass_b);
    const Transform moved_a{ta.position + moves.translation_a, ta.rotation}, moved_b{tb.position + moves.translation_b, tb.rotation};
    EXPECT_GE(gap(a, moved_a, b, moved_b), -band_at(8)) << "trial " << trial;
    ++checked;
  }
  EXPECT_GT(checked, 500);
}

TEST(PushOut, FindsTheShortestExitAgainstBruteForce) {
  Random random(12);
  int convex_checked = 0, compound_checked = 0;
  double worst_excess_convex = 0, worst_excess_compound = 0;
  for (int trial = 0; trial < 300; ++trial) {
    World world;
    const Shape obstacle = random.any();
    const Transform obstacle_at = random.pose(Real(0.5));
    world.add({.shape = obstacle, .transform = obstacle_at});
    const Shape mover = random.convex();
    const Transform mover_at = random.pose(Real(1.5));
    if (gap(obstacle, obstacle_at, mover, mover_at) > -band_at(8)) continue;
    const PushOutResult pushed = push_out(world, mover, mover_at, {.max_iterations = 16});
    ASSERT_EQ(pushed.status, PushOutStatus::resolved) << "trial " << trial;
    EXPECT_GE(gap(obstacle, obstacle_at, mover, pushed.transform), -band_at(8)) << "trial " << trial;
    const double brute = brute_force_exit(obstacle, obstacle_at, mover, mover_at, 720);
    const double excess = (double(length(pushed.translation)) - brute) / brute;
    const bool compound = std::holds_alternative<Compound>(obstacle);
    (compound ? worst_excess_compound : worst_excess_convex) = std::max(compound ? worst_excess_compound : worst_excess_convex, excess);
    (compound ? compound_checked : convex_checked) += 1;
    // The exact minimum is at most the brute force's (a direction grid, 0.5 degrees apart).
    if (!compound) {
      EXPECT_LE(excess, 1e-3) << "trial " << trial;
    }
  }
  std::printf("push_out: %d convex and %d compound obstacles; longest push over the brute-force minimum: convex %+.2e, compound %+.2e\n",
              convex_checked, compound_checked, worst_excess_convex, worst_excess_compound);
  EXPECT_GT(convex_checked, 100);
  EXPECT_GT(compound_checked, 20);
  // A compound's penetration frees the shape from the whole outline but is not always the least
  // translation where its pieces' planes squeeze it (penetration.hpp): within half of it here.
  EXPECT_LE(worst_excess_compound, 0.5);
}

TEST(MinkowskiExit, BacksOutOfConcaveShapesToTheFirstPieceTheMotionMet) {
  // B moved by a motion into A (either may be a concave outline): the exit backs B out to where
  // the motion first met A. Oracle: the Shape overlap sampled at 2,000 times along the motion
  // from B's pose before it; the exit's contact must come no later than the first overlapping
  // sample, leave B touching A (signed gap within the band) and report a unit normal the motion
  // went against, the translation -fraction x motion and the slide in closed form.
  Random random(31);
  int checked = 0, compound_pairs = 0;
  for (int trial = 0; trial < 1500 && checked < 300; ++trial) {
    const Shape a = random.any(), b = random.any();
    const Transform ta = random.pose(Real(0.5)), tb = random.pose(Real(1.5));
    const Real angle = random.uniform(0, Real(6.2831853));
    const Vec2 motion = random.uniform(1, 8) * Vec2{std::cos(angle), std::sin(angle)};
    const Transform before{tb.position - motion, tb.rotation};
    if (gap(a, ta, b, tb) > -band_at(16) || gap(a, ta, b, before) < band_at(16)) continue;  // overlapping after, clear before
    constexpr int samples = 2000;
    int first_overlap = samples;
    for (int i = 0; i <= samples; ++i) {
      if (overlap(a, ta, b, {before.position + (Real(i) / samples) * motion, tb.rotation})) {
        first_overlap = i;
        break;
      }
    }
    const auto exit = minkowski_exit(a, ta, b, tb, motion);
    ASSERT_TRUE(exit.has_value()) << "trial " << trial << ": " << exit.error().message;
    const MinkowskiExit& found = exit.value();
    const Real contact_time = 1 - found.fraction;
    EXPECT_LE(contact_time, Real(first_overlap) / samples + band_at(16)) << "trial " << trial;
    const Transform touching{tb.position + found.translation_b, tb.rotation};
    EXPECT_NEAR(gap(a, ta, b, touching), 0, 4 * band_at(32)) << "trial " << trial;
    EXPECT_NEAR(length(found.normal), 1, 1e-5);
    EXPECT_LT(dot(found.normal, motion), 0) << "trial " << trial;
    EXPECT_EQ(found.translation_b, -found.fraction * motion);
    const Vec2 blocked = found.fraction * motion;
    EXPECT_NEAR(dot(found.slide, found.normal), 0, band_at(16) * length(motion));
    EXPECT_NEAR(length(found.slide - (blocked - dot(blocked, found.normal) * found.normal)), 0, band_at(16));
    ++checked;
    compound_pairs += std::holds_alternative<Compound>(a) || std::holds_alternative<Compound>(b);
  }
  std::printf("minkowski_exit: %d pairs checked, %d with a concave shape\n", checked, compound_pairs);
  EXPECT_GE(checked, 200);
  EXPECT_GE(compound_pairs, 50);
}

TEST(PushOut, KeepsTheSkinAndReportsASqueeze) {
  World world;
  world.add({.shape = make_box(5, 1).value(), .transform = {{0, -1}, {}}});
  const Shape box = make_box(Real(0.5), Real(0.5)).value();
  const PushOutResult lifted = push_out(world, box, {{0, Real(0.2)}, {}}, {.skin = Real(0.05)});
  EXPECT_EQ(lifted.status, PushOutStatus::resolved);
  EXPECT_NEAR(lifted.transform.position.y, 0.55, 1e-5);
  EXPECT_NEAR(lifted.translation.x, 0, 1e-6);
  // Between two walls closer than the box is wide: no translation frees it.
  World narrow;
  narrow.add({.shape = make_box(1, 5).value(), .transform = {{Real(-1.4), 0}, {}}});
  narrow.add({.shape = make_box(1, 5).value(), .transform = {{Real(1.4), 0}, {}}});
  const PushOutResult squeezed = push_out(narrow, box, {});
  EXPECT_EQ(squeezed.status, PushOutStatus::squeezed);
}

TEST(PushOut, ALargeBodysBandDoesNotHideASmallOverlap) {
  // From the mover fuzzer: a capsule 80 long on four copies of itself, beside a segment 1.5e7
  // long. The segment's touching band (3,771 in float) was taken for every plane, so the
  // capsules' overlap of 43 counted as touching and push_out() reported resolved having moved
  // half of it. Each plane now holds within its own pair's band. Here: a box half sunk in a box
  // beside a segment 2e7 long (in float its band is wider than the half unit of overlap).
  World world;
  world.add({.shape = make_box(1, 1).value(), .transform = {}});
  world.add({.shape = Segment{{-1e7f, Real(0.3)}, {1e7f, Real(0.3)}}, .transform = {}});
  world.update();
  const Shape box = make_box(1, 1).value();
  const PushOutResult pushed = push_out(world, box, {{0, Real(0.5)}, {}});
  EXPECT_EQ(pushed.status, PushOutStatus::resolved);
  const std::optional<Penetration> left = penetration(make_box(1, 1).value(), {}, box, pushed.transform);
  EXPECT_TRUE(!left || left->depth <= left->tolerance) << left->depth;
}

TEST(PushOut, NestedCirclesSqueezeRatherThanSendTheShapeFarAway) {
  // From the mover fuzzer: a circle inside two circles of its size whose centres are a hair from
  // its own, on opposite sides. Their planes face nearly opposite ways and meet some 15,000 away,
  // and push_out() took that corner as the way out (165,000 in the fuzzer's case, for circles 256
  // across), reporting it resolved. A translation longer than the shape and the bodies it meets
  // are wide is no way out: squeezed.
  World world;
  world.add({.shape = Circle{{}, 128}, .transform = {{Real(-1.5), Real(1.6)}, {}}});
  world.add({.shape = Circle{{}, 128}, .transform = {{Real(0.02), Real(-0.02)}, {}}});
  world.update();
  const Shape mover = Circle{{}, 128};
  const Transform inside{{Real(-0.07), Real(0.07)}, {}};
  for (const Real kept : {Real(0), Real(2)}) {
    const PushOutResult pushed = push_out(world, mover, inside, {.skin = kept});
    EXPECT_EQ(pushed.status, PushOutStatus::squeezed);
    EXPECT_LE(length(pushed.translation), 600);  // never beyond what the bodies span
  }
}

namespace {

/// The deepest penetration of `shape` at `transform` beyond its pair's band, over every body of
/// the world (0 when it overlaps nothing): how push_out() compares the poses it reaches.
Real deepest_overlap(const World& world, const std::vector<BodyHandle>& bodies, const Shape& shape, const Transform& transform) {
  Real deepest = 0;
  for (BodyHandle body : bodies) {
    const BodyDefinition& definition = *world.find(body);
    if (const std::optional<Penetration> contact = penetration(definition.shape, definition.transform, shape, transform)) {
      deepest = std::max(deepest, contact->depth - contact->tolerance);
    }
  }
  return deepest;
}

}  // namespace

TEST(PushOut, APushThatCannotFreeTheShapeNeverLeavesItDeeperThanItStarted) {
  // From the mover fuzzer: a capsule just beyond the band of a segment 2e7 long (in float the
  // band is 41.7 and the capsule 42.3 deep), wedged under a shorter segment and beside capsules.
  // Each round's push out of one body went into another; after four rounds the planes were
  // opposed and push_out() reported squeezed where it had stopped, 29.7 inside the short
  // segment, and move_and_slide() then moved from there and ended inside it. A push that cannot
  // free the shape now ends at the pose it reached with the least overlap.
  World world;
  std::vector<BodyHandle> bodies;
  const Rot turned{Real(0.521157324), Real(-0.85346061)};
  const Vec2 at{Real(-10.4160156), Real(-10.4160156)};
  bodies.push_back(world.add({.shape = Segment{{Real(98.9648438), Real(119.714844)}, {Real(119.015625), Real(-127.824219)}},
                              .transform = {{Real(-31.8369141), Real(9.91308594)}, {Real(0.562644601), Real(0.826698899)}}}));
  bodies.push_back(world.add({.shape = Capsule{{Real(-41.6640625), Real(-45.6640625)}, {Real(-41.6640625), Real(-41.6640625)}, Real(21.5839844)},
                              .transform = {at, turned}}));
  bodies.push_back(world.add({.shape = Segment{{Real(10394624), Real(10394624)}, {Real(-10921984), Real(-10921984)}},
                              .transform = {at, {Real(0.529478312), Real(-0.848323464)}}}));
  bodies.push_back(world.add({.shape = Capsule{{Real(-41.6640625), Real(-42)}, {Real(-127.664062), Real(-41.6640625)}, Real(21.5839844)},
                              .transform = {at, turned}}));
  world.update();
  const Shape capsule = Capsule{{Real(-41.6640625), Real(38.6601562)}, {Real(41.6601562), Real(41.6601562)}, Real(42.3339844)};
  const Transform start{at, turned};
  const PushOutResult pushed = push_out(world, capsule, start);
  EXPECT_LE(deepest_overlap(world, bodies, capsule, pushed.transform), deepest_overlap(world, bodies, capsule, start));
  const MoveResult moved = move_and_slide(world, capsule, start, at, {.skin = 0});
  EXPECT_LE(deepest_overlap(world, bodies, capsule, moved.transform), deepest_overlap(world, bodies, capsule, start));

  // Random crowds of overlapping bodies, pushed with and without a skin and with few rounds.
  Random random(29);
  int unresolved = 0;
  for (int trial = 0; trial < 300; ++trial) {
    World crowd;
    std::vector<BodyHandle> handles;
    for (int i = 0; i < 6; ++i) handles.push_back(crowd.add({.shape = random.any(), .transform = random.pose(Real(1.5))}));
    crowd.update();
    const Shape shape = random.convex();
    const Transform from = random.pose(1);
    const Real before = deepest_overlap(crowd, handles, shape, from);
    for (const PushOutOptions& options : {PushOutOptions{}, PushOutOptions{.skin = Real(0.05)}, PushOutOptions{.max_iterations = 2}}) {
      const PushOutResult result = push_out(crowd, shape, from, options);
      if (result.status == PushOutStatus::resolved) continue;
      ++unresolved;
      EXPECT_LE(deepest_overlap(crowd, handles, shape, result.transform), before) << "trial " << trial << " status " << int(result.status);
    }
  }
  EXPECT_GE(unresolved, 200);  // 331 in float
}

TEST(WorldMoverQueries, AgreeWithBruteForceOverEveryBody) {
  Random random(13);
  World world;
  std::vector<BodyHandle> handles;
  for (int i = 0; i < 60; ++i) {
    handles.push_back(world.add({.shape = random.any(), .transform = random.pose(12), .sensor = i % 12 == 0}));
  }
  long casts = 0, hits = 0, planes_checked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Shape shape = random.convex();
    const Transform at = random.pose(14);
    const Vec2 translation{random.uniform(-10, 10), random.uniform(-10, 10)};
    const QueryFilter filter{.ignore = handles[static_cast<std::size_t>(random.below(60))], .include_sensors = trial % 3 == 0};
    std::vector<std::pair<Real, BodyHandle>> expected;
    std::vector<CollisionPlane> expected_planes;
    for (BodyHandle body : handles) {
      const BodyDefinition& definition = *world.find(body);
      if (body == filter.ignore || (definition.sensor && !filter.include_sensors)) continue;
      if (const std::optional<CastHit> hit = shape_cast(definition.shape, definition.transform, shape, at, translation)) {
        expected.emplace_back(hit->time, body);
      }
      std::vector<ChildManifold> manifolds;
      contact_manifolds(definition.shape, definition.transform, shape, at, manifolds, {.speculative_distance = Real(0.3)});
      for (const ChildManifold& child : manifolds) {
        for (int i = 0; i < child.manifold.point_count; ++i) {
          expected_planes.push_back({body, child.child_a, child.manifold.normal, child.manifold.points[std::size_t(i)].point,
                                     child.manifold.points[std::size_t(i)].separation});
        }
      }
    }
    std::stable_sort(expected.begin(), expected.end(), [](const auto& l, const auto& r) { return l.first < r.first; });
    const std::vector<WorldCastHit> found = world.shape_cast_all(shape, at, translation, filter);
    ASSERT_EQ(found.size(), expected.size()) << "trial " << trial;
    for (std::size_t i = 0; i < found.size(); ++i) {
      EXPECT_EQ(found[i].hit.time, expected[i].first) << "trial " << trial;
      EXPECT_EQ(found[i].body, expected[i].second) << "trial " << trial;
    }
    const std::optional<WorldCastHit> first = world.shape_cast_first(shape, at, translation, filter);
    ASSERT_EQ(first.has_value(), !expected.empty());
    if (first) {
      EXPECT_EQ(first->body, expected.front().second);
    }
    const std::vector<CollisionPlane> planes = world.collision_planes(shape, at, Real(0.3), filter);
    ASSERT_EQ(planes.size(), expected_planes.size()) << "trial " << trial;
    for (std::size_t i = 0; i < planes.size(); ++i) {
      EXPECT_EQ(planes[i].body, expected_planes[i].body);
      EXPECT_EQ(planes[i].child, expected_planes[i].child);
      EXPECT_EQ(planes[i].normal, expected_planes[i].normal);
      EXPECT_EQ(planes[i].separation, expected_planes[i].separation);
      EXPECT_LE(planes[i].separation, Real(0.3) + band_at(30));
    }
    casts += 1;
    hits += long(found.size());
    planes_checked += long(planes.size());
  }
  std::printf("checked %ld world casts (%ld hits) and %ld collision planes against every body\n", casts, hits, planes_checked);
  EXPECT_GT(hits, 100);
  EXPECT_GT(planes_checked, 100);
}

TEST(WorldBookkeeping, SensorsReportOverlapsButNeverBlock) {
  World world;
  const BodyHandle floor = world.add({.shape = make_box(5, 1).value(), .transform = {{0, -1}, {}}});
  const BodyHandle sensor = world.add({.shape = make_box(1, 1).value(), .transform = {{0, 2}, {}}, .sensor = true});
  const BodyHandle ball = world.add({.shape = Circle{{}, Real(0.5)}, .transform = {{0, Real(1.5)}, {}}});
  world.update();
  ASSERT_EQ(world.contacts().size(), 1u);
  EXPECT_TRUE(world.contacts()[0].sensor);
  EXPECT_EQ(world.contacts()[0].a, sensor);
  EXPECT_EQ(world.began().size(), 1u);
  // A cast through the sensor meets the floor; with include_sensors it meets the sensor first.
  const Shape probe = Circle{{}, Real(0.25)};
  const std::optional<WorldCastHit> through = world.shape_cast_first(probe, {{0, 5}, {}}, {0, -10}, {.ignore = ball});
  ASSERT_TRUE(through.has_value());
  EXPECT_EQ(through->body, floor);
  const std::optional<WorldCastHit> onto = world.shape_cast_first(probe, {{0, 5}, {}}, {0, -10}, {.ignore = ball, .include_sensors = true});
  ASSERT_TRUE(onto.has_value());
  EXPECT_EQ(onto->body, sensor);
  EXPECT_TRUE(world.set_sensor(sensor, false));
  world.update();
  EXPECT_FALSE(world.contacts()[0].sensor);
}

TEST(WorldBookkeeping, ContactsOfABodyShapeAndUserDataInPlace) {
  World world;
  const BodyHandle floor = world.add({.shape = make_box(5, 1).value(), .transform = {{0, -1}, {}}});
  const BodyHandle left = world.add({.shape = Circle{{}, Real(0.5)}, .transform = {{-2, Real(0.4)}, {}}});
  const BodyHandle right = world.add({.shape = Circle{{}, Real(0.5)}, .transform = {{2, Real(0.4)}, {}}});
  world.update();
  EXPECT_EQ(world.contacts_of(floor).size(), 2u);
  ASSERT_EQ(world.contacts_of(left).size(), 1u);
  EXPECT_EQ(world.contacts_of(left)[0].b, left);
  // A larger circle on the right reaches the left one: same handle, new contacts.
  EXPECT_TRUE(world.set_shape(right, Circle{{}, Real(3.6)}));
  world.update();
  EXPECT_EQ(world.contacts_of(left).size(), 2u);
  EXPECT_EQ(world.find(right)->shape.index(), Shape(Circle{}).index());
  EXPECT_TRUE(world.set_user_data(right, 42));
  EXPECT_EQ(world.find(right)->user_data, 42u);
  EXPECT_TRUE(world.remove(left));
  EXPECT_TRUE(world.contacts_of(left).empty());  // stale handle
  EXPECT_FALSE(world.set_shape(left, Circle{}));
  EXPECT_FALSE(world.set_user_data(left, 1));
  EXPECT_FALSE(world.set_sensor(left, true));
}

TEST(WorldBookkeeping, IntegrateMovesEveryBodyByItsVelocities) {
  World world;
  const BodyHandle moving = world.add({.shape = make_box(1, 1).value(), .transform = {{1, 2}, {}}, .velocity = {3, -1}, .angular_velocity = Real(0.5)});
  const BodyHandle resting = world.add({.shape = Circle{{}, 1}, .transform = {{20, 0}, {}}});
  const BodyHandle target = world.add({.shape = Circle{{}, 1}, .transform = {{10, -1}, {}}});
  world.integrate(Real(0.5));
  EXPECT_NEAR(world.find(moving)->transform.position.x, 2.5, 1e-5);
  EXPECT_NEAR(world.find(moving)->transform.position.y, 1.5, 1e-5);
  EXPECT_NEAR(world.find(moving)->transform.rotation.angle(), 0.25, 1e-5);
  EXPECT_EQ(world.find(resting)->transform.position, (Vec2{20, 0}));
  world.update();
  EXPECT_TRUE(world.contacts().empty());
  world.integrate(Real(2.0));  // the box reaches the circle at (10, -1): centres 8.5 -> 2.5 apart
  world.update();
  ASSERT_EQ(world.contacts().size(), 1u);
  EXPECT_EQ(world.contacts()[0].b, target);
}

namespace {

/// A long static floor with its top face through `surface_point` at `angle` radians.
BodyDefinition slope(Real angle, Vec2 surface_point = {}) {
  const Rot turn = Rot::from_angle(angle);
  return {.shape = make_box(20, 1).value(), .transform = {surface_point - rotate(turn, Vec2{0, 1}), turn}};
}

const Shape mover_box = make_box(Real(0.5), Real(0.5)).value();

}  // namespace

TEST(MoveAndSlide, ComesToRestTheSkinAboveFlatGround) {
  World world;
  const BodyHandle floor = world.add(slope(0));
  const MoveResult result = move_and_slide(world, mover_box, {{0, 3}, {}}, {0, -10});
  EXPECT_NEAR(result.transform.position.y, 0.5 + skin, band_at(24));  // the floor's face is 40 long
  EXPECT_EQ(result.transform.position.x, 0);
  EXPECT_TRUE(result.on_floor);
  EXPECT_FALSE(result.on_wall);
  ASSERT_TRUE(result.floor_normal.has_value());
  EXPECT_NEAR(result.floor_normal->y, 1, 1e-6);
  ASSERT_EQ(result.hits.size(), 1u);
  EXPECT_EQ(result.hits[0].body, floor);
  EXPECT_NEAR(result.hits[0].normal.y, 1, 1e-6);
  EXPECT_NEAR(result.hits[0].point.y, 0, skin);
  EXPECT_NEAR(result.remaining.y, -10 + (3 - result.transform.position.y), 1e-5);
  EXPECT_EQ(result.status, IterationStatus::converged);
}

TEST(MoveAndSlide, StandsStillOnASlopeGentlerThanTheFloorAngle) {
  World world;
  const Real angle = Real(std::numbers::pi / 6);
  world.add(slope(angle));
  const Vec2 start{0, 3};
  const MoveResult once = move_and_slide(world, mover_box, {start, {}}, {0, -5});
  EXPECT_EQ(once.transform.position.x, start.x);  // straight down, no drift along the slope
  EXPECT_TRUE(once.on_floor);
  EXPECT_NEAR(once.floor_normal->x, -std::sin(angle), 1e-5);
  const Real first_gap = gap(world.find(world.bodies()[0])->shape, world.find(world.bodies()[0])->transform, mover_box, once.transform);
  EXPECT_GE(first_gap, skin - band_at(4));
  EXPECT_LE(first_gap, 2 * skin);
  // 1,000 frames of gravity: the vertical speed grows while in the air and is zeroed on a floor.
  Vec2 position = once.transform.position;
  Real fall_speed = 0;
  for (int frame = 0; frame < 1000; ++frame) {
    fall_speed += Real(9.8 / 60);
    const MoveResult step = move_and_slide(world, mover_box, {position, {}}, {0, -fall_speed / 60});
    position = step.transform.position;
    if (step.on_floor) fall_speed = 0;
    ASSERT_TRUE(step.on_floor) << "frame " << frame;
  }
  std::printf("30-degree slope, 1,000 frames of gravity: drift %.3g along x, %.3g along y\n", double(position.x - start.x),
              double(position.y - once.transform.position.y));
  EXPECT_LE(std::abs(position.x - start.x), band_at(4));
  EXPECT_LE(std::abs(position.y - once.transform.position.y), band_at(4));
}

TEST(MoveAndSlide, SlidesDownASlopeSteeperThanTheFloorAngle) {
  World world;
  const Real angle = Real(std::numbers::pi / 3);
  world.add(slope(angle));
  const Vec2 downhill{-std::cos(angle), -std::sin(angle)};
  const Vec2 start{-4, -5};  // above the slope, which rises to the right through the origin
  const Vec2 motion{0, -4};
  const MoveResult result = move_and_slide(world, mover_box, {start, {}}, motion);
  const Vec2 moved = result.transform.position - start;
  ASSERT_FALSE(result.hits.empty());
  EXPECT_NEAR(dot(moved, downhill), dot(motion, downhill), band_at(8));  // all of the motion along the slope is kept
  EXPECT_FALSE(result.on_floor);
  EXPECT_TRUE(result.on_wall);
  const BodyDefinition& ground = *world.find(world.bodies()[0]);
  const Real end_gap = gap(ground.shape, ground.transform, mover_box, result.transform);
  EXPECT_GE(end_gap, skin - band_at(8));
  EXPECT_LE(end_gap, 2 * skin);
}

TEST(MoveAndSlide, KeepsOnlyTheTangentialPartAgainstAWall) {
  World world;
  world.add({.shape = make_box(1, 40).value(), .transform = {{6, 0}, {}}});
  const Shape ball = Circle{{}, Real(0.5)};
  for (int degrees = -80; degrees <= 80; degrees += 10) {
    const Real angle = Real(degrees * std::numbers::pi / 180);
    const Vec2 motion = Real(30) * Vec2{std::cos(angle), std::sin(angle)};  // reaches the wall at every angle
    const MoveResult result = move_and_slide(world, ball, {}, motion);
    EXPECT_NEAR(result.transform.position.x, 5 - 0.5 - skin, band_at(46)) << degrees;  // stopped the skin short of the wall
    EXPECT_NEAR(result.transform.position.y, motion.y, band_at(46)) << degrees;       // all of the tangential part kept
    EXPECT_TRUE(result.on_wall) << degrees;
    EXPECT_NEAR(result.remaining.x, motion.x - result.transform.position.x, 1e-5);
  }
}

TEST(MoveAndSlide, StopsInACorner) {
  World world;
  world.add(slope(0));
  world.add({.shape = make_box(1, 20).value(), .transform = {{6, 0}, {}}});
  const MoveResult result = move_and_slide(world, mover_box, {{0, 2}, {}}, {20, -20});
  EXPECT_NEAR(result.transform.position.x, 5 - 0.5 - skin, band_at(32));
  EXPECT_NEAR(result.transform.position.y, 0.5 + skin, band_at(32));
  EXPECT_TRUE(result.on_floor);
  EXPECT_TRUE(result.on_wall);
}

TEST(MoveAndSlide, AWallMetAfterSlidingAlongASlopeDoesNotLiftTheMoverOffIt) {
  // A ball falling onto a 20-degree slope slides up it into a ball resting on the slope, whose
  // surface there faces slightly down: sliding along that surface alone would lift the mover off
  // the slope (by 0.03 of a 0.5 ball, found with `collide2d move scenes/slope.json`); the slope
  // met earlier keeps carrying it, so it stops on the slope against the ball.
  for (const Real degrees : {Real(10), Real(20), Real(35)}) {
    const Real angle = degrees * Real(std::numbers::pi / 180);
    World world;
    world.add(slope(angle));
    const Vec2 up_slope{std::cos(angle), std::sin(angle)}, normal{-std::sin(angle), std::cos(angle)};
    world.add({.shape = Circle{{}, Real(0.5)}, .transform = {Real(3) * up_slope + Real(0.5) * normal, {}}});
    const Shape ball = Circle{{}, Real(0.5)};
    const MoveResult result = move_and_slide(world, ball, {{-2, 3}, {}}, {8, -10});
    SCOPED_TRACE(degrees);
    // The path: the start, where it lands, where it meets the resting ball, at most a hair more.
    ASSERT_GE(result.path.size(), 3u);
    EXPECT_EQ(result.path.front(), (Vec2{-2, 3}));
    EXPECT_EQ(result.path.back(), result.transform.position);
    ASSERT_EQ(result.hits.size(), 2u);
    EXPECT_EQ(result.hits[1].body.index, 1u);
    EXPECT_TRUE(result.on_floor);
    ASSERT_TRUE(result.floor_normal.has_value());
    EXPECT_NEAR(dot(*result.floor_normal, normal), 1, 1e-5);
    // The skin above the slope, and against the resting ball.
    EXPECT_NEAR(dot(result.transform.position, normal), Real(0.5) + skin, band_at(16));
    EXPECT_GE(distance(ball, result.transform, Circle{{}, Real(0.5)}, {Real(3) * up_slope + Real(0.5) * normal, {}}).distance, skin - band_at(16));
    EXPECT_LE(distance(ball, result.transform, Circle{{}, Real(0.5)}, {Real(3) * up_slope + Real(0.5) * normal, {}}).distance, 2 * skin);
  }
}

TEST(MoveAndSlide, AMoverStartingInOverlapIsPushedOutFirst) {
  // A box placed 0.1 into flat ground and walked 3 to the right: freed straight up to the skin
  // above the ground (reported in pushed_out and as the path's second point), then the whole walk.
  World world;
  world.add(slope(0));
  for (const Real sunk : {Real(0.1), Real(0.45)}) {
    const Vec2 start{0, Real(0.5) - sunk};
    const MoveResult result = move_and_slide(world, mover_box, {start, {}}, {3, 0});
    SCOPED_TRACE(sunk);
    EXPECT_NEAR(result.pushed_out.x, 0, band_at(8));
    EXPECT_NEAR(result.pushed_out.y, sunk + skin, band_at(8));
    EXPECT_NEAR(result.transform.position.x, 3, band_at(8));
    EXPECT_NEAR(result.transform.position.y, Real(0.5) + skin, band_at(8));
    EXPECT_NEAR(length(result.remaining), 0, band_at(8));
    EXPECT_TRUE(result.on_floor);
    EXPECT_EQ(result.status, IterationStatus::converged);
    ASSERT_GE(result.path.size(), 3u);
    EXPECT_EQ(result.path[0], start);
    EXPECT_EQ(result.path[1], start + result.pushed_out);
  }
  // Resting within the skin is not an overlap: nothing is pushed.
  const MoveResult resting = move_and_slide(world, mover_box, {{0, Real(0.5) + skin / 2}, {}}, {1, 0});
  EXPECT_EQ(resting.pushed_out, (Vec2{}));
}

TEST(MoveAndSlide, AMoverSqueezedWithoutItsSkinIsFreedWhenTheSkinFreesIt) {
  // From the mover fuzzer (its numbers, exact in float): a circle 15,000 across placed on a circle
  // of its size (one centre) with a circle 100 across inside them, 3.3e6 from the origin. Without
  // a skin the planes face opposite ways and push_out() finds it squeezed; with the mover's skin
  // of 118,220 they meet within reach and free it. The mover took "squeezed without a skin" for
  // "not overlapping", moved without being pushed and ended 14,777 deep; it now keeps the push
  // the skin finds, and ends overlapping nothing.
  const Transform pose{{-0x1.91ap+21f, -0x1.91ap+21f}, {0x1.e7e64cp-1f, -0x1.367876p-2f}};
  const Shape large = Circle{{-0x1.91ap+11f, -0x1.91ap+11f}, 0x1.cdccp+12f};
  const Shape small = Circle{{-0x1.91ap+4f, -0x1.91ap+4f}, 0x1.cdccp+5f};
  World world;
  world.add({.shape = small, .transform = pose});
  world.add({.shape = large, .transform = pose});
  world.update();
  MoveOptions options;
  options.skin = 0x1.cdccp+16f;
  const PushOutResult with_skin = push_out(world, large, pose, {.skin = options.skin});
  ASSERT_EQ(with_skin.status, PushOutStatus::resolved);
  const MoveResult moved = move_and_slide(world, large, pose, {-0x1.91ap+21f, -0x1.91ap+21f}, options);
  EXPECT_EQ(moved.pushed_out, with_skin.translation);
  for (const Shape* body : {&small, &large}) {
    const std::optional<Penetration> left = penetration(*body, pose, large, moved.transform);
    EXPECT_TRUE(!left || left->depth <= left->tolerance);
  }
}

TEST(MoveAndSlide, NeverTunnelsThroughAThinWallAtAnySpeed) {
  World world;
  world.add({.shape = make_box(Real(0.05), 5).value(), .transform = {{10, 0}, {}}});
  const Shape ball = Circle{{}, Real(0.25)};
  for (Real speed : {Real(20), Real(100), Real(1000), Real(1e5)}) {
    const MoveResult result = move_and_slide(world, ball, {}, {speed, Real(1e-5) * speed});
    EXPECT_LE(result.transform.position.x, Real(10 - 0.05 - 0.25) - skin + band_at(speed)) << speed;
    EXPECT_FALSE(result.hits.empty()) << speed;
  }
}

TEST(MoveAndSlide, ClimbsAStepNoHigherThanTheStepHeight) {
  for (Real step : {Real(0.2), Real(0.45)}) {
    World world;
    world.add(slope(0));
    world.add({.shape = make_box(10, 1).value(), .transform = {{12, step - 1}, {}}});  // from x = 2 on, the ground is `step` higher
    const MoveOptions options{.step_height = Real(0.3)};
    const MoveResult result = move_and_slide(world, mover_box, {{0, Real(0.5) + skin}, {}}, {3, 0}, options);
    if (step < options.step_height) {
      EXPECT_NEAR(result.transform.position.x, 3, band_at(8)) << step;
      EXPECT_NEAR(result.transform.position.y, step + 0.5 + skin, band_at(8)) << step;
      EXPECT_TRUE(result.on_floor);
    } else {
      EXPECT_NEAR(result.transform.position.x, 2 - 0.5 - skin, band_at(8)) << step;  // blocked at the step's face
      EXPECT_NEAR(result.transform.position.y, 0.5 + skin, band_at(8)) << step;
    }
  }
}

TEST(MoveAndSlide, SnapsToAFloorWithinTheSnapDistance) {
  World world;
  const Real angle = Real(-std::numbers::pi / 9);  // 20 degrees, going down to the right
  world.add(slope(angle));
  // The box's upper bottom corner (x = -0.5) rests the skin above the slope.
  const Vec2 start{0, Real(0.5) - Real(0.5) * std::tan(angle) + skin / std::cos(angle)};
  const MoveResult loose = move_and_slide(world, mover_box, {start, {}}, {1, 0});
  EXPECT_FALSE(loose.on_floor);  // walked off the slope into the air
  const MoveResult snapped = move_and_slide(world, mover_box, {start, {}}, {1, 0}, {.snap_distance = Real(0.5)});
  EXPECT_TRUE(snapped.on_floor);
  EXPECT_NEAR(snapped.transform.position.x, 1, 1e-5);
  const BodyDefinition& ground = *world.find(world.bodies()[0]);
  const Real end_gap = gap(ground.shape, ground.transform, mover_box, snapped.transform);
  EXPECT_GE(end_gap, skin - band_at(4));
  EXPECT_LE(end_gap, 2 * skin);
}

TEST(MoveAndSlide, ThePathTurnsWhereTheMoverSnapsDown) {
  // Walking level off a flat top onto a 30-degree slope going down, the mover crosses the edge in
  // the air and snaps down onto the slope: two straight moves. The path must show the turn
  // between them; a straight line from the start to the end cuts through the ground at the edge
  // (found by the mover fuzzer, where a snap after a slide ran 10,000 into a body 1.6e7 across).
  World world;
  const Real drop = std::tan(Real(std::numbers::pi / 6));
  world.add({.shape = make_polygon(std::vector<Vec2>{{-5, -10}, {5, -10}, {5, -5 * drop}, {0, 0}, {-5, 0}}).value()});
  world.update();
  const Vec2 start{-1, Real(0.5) + skin};
  const MoveResult moved = move_and_slide(world, mover_box, {start, {}}, {2, 0}, {.snap_distance = Real(1.5)});
  EXPECT_TRUE(moved.on_floor);
  ASSERT_EQ(moved.path.size(), 3u);
  EXPECT_EQ(moved.path[0], start);
  EXPECT_EQ(moved.path[1], (start + Vec2{2, 0}));  // level across the edge, in the air
  EXPECT_EQ(moved.path[2], moved.transform.position);
  EXPECT_NEAR(moved.path[2].x, 1, band_at(4));  // then straight down onto the slope
  const BodyDefinition& ground = *world.find(world.bodies()[0]);
  EXPECT_NEAR(gap(ground.shape, ground.transform, mover_box, moved.transform), skin, band_at(4));
  for (std::size_t i = 0; i + 1 < moved.path.size(); ++i) {
    for (int sample = 0; sample <= 16; ++sample) {
      const Transform along{moved.path[i] + (Real(sample) / 16) * (moved.path[i + 1] - moved.path[i]), {}};
      EXPECT_GE(gap(ground.shape, ground.transform, mover_box, along), skin - band_at(4)) << i << " " << sample;
    }
  }
}

namespace {

/// The level's surface, left to right: flat, a 20-degree climb, a step up, a 30-degree valley,
/// a ledge dropping 3 units, flat to the end.
std::vector<Vec2> level_surface() {
  const Real climb = Real(10 * std::tan(std::numbers::pi / 9)), valley = Real(5 * std::tan(std::numbers::pi / 6));
  return {{-5, 0}, {20, 0}, {30, climb}, {40, climb}, {40, climb + Real(0.2)}, {50, climb + Real(0.2)}, {55, climb + Real(0.2) - valley},
          {60, climb + Real(0.2)}, {70, climb + Real(0.2)}, {70, climb - Real(2.8)}, {100, climb - Real(2.8)}};
}

/// The surface's height at x (the top of a step or ledge at its x).
Real surface_height(const std::vector<Vec2>& surface, Real x) {
  Real height = -1e30f;
  for (std::size_t i = 0; i + 1 < surface.size(); ++i) {
    const Vec2 p = surface[i], q = surface[i + 1];
    if (x < std::min(p.x, q.x) || x > std::max(p.x, q.x)) continue;
    height = std::max(height, p.x == q.x ? std::max(p.y, q.y) : p.y + (x - p.x) / (q.x - p.x) * (q.y - p.y));
  }
  return height;
}

struct WalkReport {
  int frames = 0;
  double closest_gap = 1e30;   // smallest gap to any body at the end of a frame
  int flat_frames = 0;         // frames walked across flat ground
  int flat_frames_blocked = 0; // ... that did not get the full horizontal motion
  bool reached_end = false;
  Vec2 end;                    // where the walk ended, level frame
};

/// Walks a box across the level at `speed` per frame with gravity, snapping and step climbing.
WalkReport walk(const World& world, Vec2 offset, Real speed) {
  const std::vector<Vec2> surface = level_surface();
  const MoveOptions options{.snap_distance = speed * Real(0.6) + Real(0.05), .step_height = Real(0.3)};
  WalkReport report;
  Vec2 position = offset + Vec2{-2, Real(0.5) + skin};
  Real fall_speed = 0;
  bool on_floor = true;
  for (; report.frames < 20000 && position.x - offset.x < 95; ++report.frames) {
    fall_speed = on_floor ? Real(0) : std::min(fall_speed + Real(0.02), Real(3));
    const Vec2 start = position;
    const MoveResult step = move_and_slide(world, mover_box, {position, {}}, {speed, -fall_speed - Real(0.01)}, options);
    position = step.transform.position;
    on_floor = step.on_floor;
    for (BodyHandle body : world.bodies()) {
      const BodyDefinition& definition = *world.find(body);
      report.closest_gap = std::min(report.closest_gap, double(gap(definition.shape, definition.transform, mover_box, step.transform)));
    }
    // The box's centre is above the surface: it never went through the ground.
    EXPECT_GT(position.y - offset.y, surface_height(surface, position.x - offset.x)) << "frame " << report.frames;
    // Flat stretches away from every feature: the whole horizontal motion is made.
    const Real from = start.x - offset.x, to = position.x - offset.x;
    auto on_flat = [&](Real low, Real high) { return from > low + 1 && to < high - 1; };
    if (on_floor && (on_flat(-5, 20) || on_flat(30, 40) || on_flat(40, 50) || on_flat(60, 70) || on_flat(70, 100)) &&
        std::abs(start.y - position.y) < Real(1e-3)) {
      ++report.flat_frames;
      if (std::abs((to - from) - speed) > band_at(std::abs(offset.x) + 100) + Real(1e-4) * speed) ++report.flat_frames_blocked;
    }
  }
  report.reached_end = position.x - offset.x >= 95;
  report.end = position - offset;
  return report;
}

}  // namespace

TEST(MoveAndSlide, WalksALevelOfSlopesStepsValleysAndLedges) {
  const std::vector<Vec2> surface = level_surface();
  std::vector<Vec2> outline = surface;
  outline.push_back({100, -10});
  outline.push_back({-5, -10});
  const Shape terrain = shape_from_outline(outline).value();
  const Real far = real_is_float ? Real(1000) : Real(1e6);
  for (Vec2 offset : {Vec2{}, Vec2{far, -far}}) {
    World outline_world, tile_world;
    outline_world.add({.shape = terrain, .transform = {offset, {}}});
    for (std::size_t i = 0; i + 1 < surface.size(); ++i) {
      const Vec2 p = surface[i], q = surface[i + 1];
      if (p.x == q.x) continue;  // a step's face is the side of the next tile
      const std::vector<Vec2> tile = {{p.x, -10}, {q.x, -10}, q, p};
      tile_world.add({.shape = make_polygon(tile).value(), .transform = {offset, {}}});
    }
    for (const World* world : {&outline_world, &tile_world}) {
      for (Real speed : {Real(0.05), Real(0.6), Real(3)}) {
        const WalkReport report = walk(*world, offset, speed);
        std::printf("level as %s at (%g, %g), speed %g: %d frames to (%.3f, %.3f), closest gap %.3g (skin %g), %d flat frames, %d of them blocked\n",
                    world == &outline_world ? "one outline" : "tiles", double(offset.x), double(offset.y), double(speed), report.frames,
                    double(report.end.x), double(report.end.y), report.closest_gap, double(skin), report.flat_frames, report.flat_frames_blocked);
        EXPECT_TRUE(report.reached_end);
        EXPECT_GE(report.closest_gap, double(skin) / 2);
        EXPECT_GT(report.flat_frames, 0);
        EXPECT_EQ(report.flat_frames_blocked, 0);
      }
    }
  }
}

TEST(ShapeCastRegression, ACompoundPieceOnlyTheTargetSeparationReachesIsMet) {
  // A concave floor (a U, so a compound); a box 0.012 above its bottom, cast down by 0.004 with a
  // target separation of 0.01: it stops half way. The pieces' boxes were culled against the
  // swept box without the target separation, so the piece was skipped and the cast went on.
  const std::vector<Vec2> outline = {{-5, -2}, {5, -2}, {5, 3}, {4, 3}, {4, 0}, {-4, 0}, {-4, 3}, {-5, 3}};
  const Shape floor = shape_from_outline(outline).value();
  ASSERT_TRUE(std::holds_alternative<Compound>(floor));
  for (Vec2 offset : {Vec2{}, Vec2{1000, -1000}}) {
    const Transform floor_at{offset, {}};
    const Transform box_at{offset + Vec2{0, Real(0.512)}, {}};
    const std::optional<CastHit> hit = shape_cast(floor, floor_at, mover_box, box_at, {0, Real(-0.004)}, {.target_separation = skin});
    ASSERT_TRUE(hit.has_value()) << offset.x;
    EXPECT_NEAR(hit->time, 0.5, 0.05) << offset.x;
  }
}

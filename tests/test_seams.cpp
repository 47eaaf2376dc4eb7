// test_seams.cpp — shapes slide across the seams of compounds without catching.
//
// A box pushed along a flat floor made of many pieces keeps every contact normal within 1 degree
// of the floor's up direction at every step, and a circle rolling down a slope made of pieces
// never gets a normal pointing against its motion. Both are checked for terrain laid out as
// separate pieces and for a single concave outline cut by decompose(), in a turned frame far
// from the origin too. Each test also counts how often the raw per-child manifolds (collide() on
// the children, without the seam correction) break the rule, so the test is known to be able to
// fail: those counts must be positive.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>
#include <vector>

#include "collide2d/collide2d.hpp"

using namespace collide2d;

namespace {

const Real one_degree_cosine = std::cos(Real(std::numbers::pi / 180));
const Real one_degree_sine = std::sin(Real(std::numbers::pi / 180));

/// A floor of `count` rectangular pieces of random widths, laid edge to edge along x from x = 0,
/// each `thickness` deep below y = 0.
Compound piecewise_floor(int count, Real thickness, std::mt19937& random) {
  std::uniform_real_distribution<Real> width(Real(0.3), Real(1.7));
  std::vector<CompoundChild> children;
  Real left = 0;
  for (int i = 0; i < count; ++i) {
    const Real right = left + width(random);
    const Vec2 corners[4] = {{left, -thickness}, {right, -thickness}, {right, 0}, {left, 0}};
    children.push_back({make_polygon(corners).value(), Transform{}});
    left = right;
  }
  return make_compound(std::move(children)).value();
}

/// The right end of a piecewise floor.
Real floor_length(const Compound& floor) { return floor.child_boxes().back().upper.x; }

/// A comb lying on its back: a flat floor at y = 0 from x = 0 to `length` with teeth standing
/// below it, so that decompose() must cut the floor's region into pieces whose cuts end on it.
std::vector<Vec2> comb_outline(int teeth, Real length) {
  std::vector<Vec2> outline;
  const Real pitch = length / Real(teeth);
  outline.push_back({length, 0});
  outline.push_back({0, 0});
  for (int i = 0; i < teeth; ++i) {  // left to right along the bottom: down a tooth, across, up
    const Real x = Real(i) * pitch;
    outline.push_back({x, -1});
    outline.push_back({x + Real(0.5) * pitch, -1});
    outline.push_back({x + Real(0.5) * pitch, Real(-0.5)});
    outline.push_back({x + pitch, Real(-0.5)});
  }
  outline.back() = {length, -1};
  return outline;
}

/// Counts the manifolds whose normal (floor to mover, rotated back into the floor's frame by
/// `frame`) is more than a degree away from the floor's up direction.
int count_tilted(const std::vector<ChildManifold>& manifolds, const Rot& frame) {
  int tilted = 0;
  for (const ChildManifold& child : manifolds) {
    if (inverse_rotate(frame, child.manifold.normal).y < one_degree_cosine) ++tilted;
  }
  return tilted;
}

/// The raw manifolds of every child of `floor` against the mover, without the seam correction.
std::vector<ChildManifold> raw_child_manifolds(const Compound& floor, const Transform& floor_transform, const Shape& mover,
                                               const Transform& mover_transform) {
  std::vector<ChildManifold> raw;
  for (std::size_t i = 0; i < floor.children().size(); ++i) {
    const CompoundChild& child = floor.children()[i];
    std::vector<ChildManifold> one;
    const Shape piece = std::get<Polygon>(child.shape);
    contact_manifolds(piece, compose(floor_transform, child.transform), mover, mover_transform, one);
    for (ChildManifold& manifold : one) raw.push_back({static_cast<int>(i), -1, manifold.manifold});
  }
  return raw;
}

/// Pushes `mover` along the floor (floor frame: from x = start to x = end at height `height`),
/// in `steps` steps, with the floor placed by `floor_transform`; checks every manifold and the
/// penetration normal at every step. Returns how many raw child manifolds were tilted.
int slide_along(const Shape& floor, const Compound& pieces, const Transform& floor_transform, const Shape& mover, Real start, Real end,
                Real height, int steps) {
  int raw_tilted = 0, touching_steps = 0;
  for (int step = 0; step <= steps; ++step) {
    const Real x = start + (end - start) * Real(step) / Real(steps);
    // A little bob up and down, so the depth at the seams varies.
    const Real bob = Real(0.004) * std::sin(Real(step) * Real(0.37));
    const Transform mover_transform = compose(floor_transform, Transform{{x, height + bob}, Rot{}});
    std::vector<ChildManifold> manifolds;
    contact_manifolds(floor, floor_transform, mover, mover_transform, manifolds);
    if (manifolds.empty()) {
      ADD_FAILURE() << "no contact at step " << step << ", x = " << x;
      continue;
    }
    ++touching_steps;
    EXPECT_EQ(count_tilted(manifolds, floor_transform.rotation), 0) << "step " << step << ", x = " << x;
    const std::optional<Penetration> deepest = penetration(floor, floor_transform, mover, mover_transform);
    if (!deepest) {
      ADD_FAILURE() << "no penetration at step " << step;
      continue;
    }
    EXPECT_GE(inverse_rotate(floor_transform.rotation, deepest->normal).y, one_degree_cosine) << "step " << step;
    raw_tilted += count_tilted(raw_child_manifolds(pieces, floor_transform, mover, mover_transform), floor_transform.rotation);
  }
  EXPECT_EQ(touching_steps, steps + 1);
  return raw_tilted;
}

const std::vector<Transform> floor_placements = {Transform{}, Transform::from({Real(35.5), Real(-12.25)}, Real(0.6)),
                                                 Transform::from({Real(900), Real(700)}, Real(-2.2))};

}  // namespace

TEST(Seams, BoxSlidesAlongAFloorOfManyPieces) {
  std::mt19937 random(17);
  const Compound floor = piecewise_floor(40, 1, random);
  const Shape floor_shape = floor;
  int raw_tilted = 0, steps = 0;
  for (const Transform& placement : floor_placements) {
    for (const Real half_width : {Real(0.25), Real(0.5), Real(1.3)}) {
      const Shape box = make_box(half_width, Real(0.5)).value();
      // Resting 0.02 deep: centre at half height minus the depth.
      raw_tilted += slide_along(floor_shape, floor, placement, box, half_width, floor_length(floor) - half_width, Real(0.48), 3000);
      steps += 3001;
    }
  }
  std::printf("box on a floor of 40 pieces: %d steps, %d raw child manifolds more than 1 degree off vertical, 0 after seam correction\n",
              steps, raw_tilted);
  EXPECT_GT(raw_tilted, 0) << "the raw manifolds never snag: this floor does not test the seams";
}

TEST(Seams, CapsuleAndRoundedBoxSlideAlongAFloorOfManyPieces) {
  std::mt19937 random(29);
  const Compound floor = piecewise_floor(25, Real(0.5), random);
  const Shape floor_shape = floor;
  int raw_tilted = 0;
  const Shape capsule = Capsule{{Real(-0.6), 0}, {Real(0.6), 0}, Real(0.3)};
  const Shape rounded_box = make_box(Real(0.4), Real(0.2), {}, Real(0.1)).value();
  for (const Transform& placement : floor_placements) {
    raw_tilted += slide_along(floor_shape, floor, placement, capsule, 1, floor_length(floor) - 1, Real(0.29), 2000);
    raw_tilted += slide_along(floor_shape, floor, placement, rounded_box, 1, floor_length(floor) - 1, Real(0.29), 2000);
  }
  std::printf("capsule and rounded box on 25 pieces: %d raw child manifolds more than 1 degree off vertical\n", raw_tilted);
}

TEST(Seams, BoxSlidesAcrossTheCutsOfOneConcaveOutline) {
  const Real length = 20;
  const Result<Decomposition> cut = decompose(comb_outline(12, length));
  ASSERT_TRUE(cut.has_value()) << cut.error().message;
  const Result<Shape> shape = shape_from_outline(comb_outline(12, length));
  ASSERT_TRUE(shape.has_value());
  const Compound& comb = std::get<Compound>(shape.value());
  ASSERT_GT(comb.children().size(), 6u);
  // The flat top is one edge of the outline, so cuts can meet it only at its two ends, where the
  // teeth's cuts fan out from its corners.
  int seams_meeting_the_top = 0;
  for (std::size_t child = 0; child < comb.children().size(); ++child) {
    const Polygon& piece = std::get<Polygon>(comb.children()[child].shape);
    for (int edge = 0; edge < piece.count(); ++edge) {
      const Vec2 from = piece.vertices()[edge], to = piece.vertices()[(edge + 1) % piece.count()];
      if (comb.is_internal_edge(static_cast<int>(child), edge) && (from.y == 0 || to.y == 0)) ++seams_meeting_the_top;
    }
  }
  EXPECT_GE(seams_meeting_the_top, 2);
  int raw_tilted = 0;
  for (const Transform& placement : floor_placements) {
    for (const Real half_width : {Real(0.3), Real(0.9)}) {
      const Shape box = make_box(half_width, Real(0.5)).value();
      raw_tilted += slide_along(shape.value(), comb, placement, box, half_width, length - half_width, Real(0.48), 2500);
    }
  }
  std::printf("comb outline: %zu pieces for %d reflex vertices, %d seams ending on the top, %d raw tilted manifolds\n",
              comb.children().size(), cut.value().reflex_vertices, seams_meeting_the_top, raw_tilted);
  EXPECT_GT(raw_tilted, 0);
}

namespace {

/// A slope going down to the right: joints at x = 0, 1, 2, ...; the height drops by a little
/// more at each joint (the slope bends downward, never upward), with some joints perfectly
/// straight. Returns the surface points.
std::vector<Vec2> slope_surface(int joints) {
  std::vector<Vec2> surface = {{0, 0}};
  Real drop = Real(0.2);
  for (int i = 1; i <= joints; ++i) {
    if (i % 3 != 0) drop += Real(0.03);  // every third joint is straight
    surface.push_back({Real(i), surface.back().y - drop});
  }
  return surface;
}

/// The slope as columns: one quadrilateral per stretch, from the surface down to y = bottom.
Compound slope_columns(const std::vector<Vec2>& surface, Real bottom) {
  std::vector<CompoundChild> children;
  for (std::size_t i = 0; i + 1 < surface.size(); ++i) {
    const Vec2 corners[4] = {{surface[i].x, bottom}, {surface[i + 1].x, bottom}, surface[i + 1], surface[i]};
    children.push_back({make_polygon(corners).value(), Transform{}});
  }
  return make_compound(std::move(children)).value();
}

/// The slope as one outline: the surface, then down and back along a bottom with a notch under
/// every stretch, so that the outline is concave and decompose() cuts up to the surface joints.
std::vector<Vec2> slope_outline(const std::vector<Vec2>& surface, Real bottom) {
  std::vector<Vec2> outline(surface.rbegin(), surface.rend());
  outline.push_back({surface.front().x, bottom});
  for (std::size_t i = 0; i + 1 < surface.size(); ++i) {  // left to right along the bottom
    const Real x = surface[i].x;
    outline.push_back({x + Real(0.25), bottom});
    outline.push_back({x + Real(0.5), bottom + Real(0.5) * (surface[i].y - bottom)});
    outline.push_back({x + Real(0.75), bottom});
  }
  outline.push_back({surface.back().x, bottom});
  return outline;
}

/// Rolls a circle down the slope and checks that no contact normal points against its motion
/// (the direction of the stretch it is over). Returns how many raw child manifolds did.
int roll_down(const Shape& slope, const Compound& pieces, const std::vector<Vec2>& surface, const Transform& placement, Real radius,
              int steps_per_stretch) {
  const Shape ball = Circle{{}, radius};
  int raw_against = 0;
  const auto against_motion = [&](const std::vector<ChildManifold>& manifolds, Vec2 motion) {
    int count = 0;
    for (const ChildManifold& child : manifolds) {
      if (dot(inverse_rotate(placement.rotation, child.manifold.normal), motion) < -one_degree_sine) ++count;
    }
    return count;
  };
  for (std::size_t stretch = 1; stretch + 2 < surface.size(); ++stretch) {
    const Vec2 start = surface[stretch], end = surface[stretch + 1];
    const Vec2 motion = normalize(end - start);
    const Vec2 up = left_perpendicular(motion);
    for (int step = 0; step < steps_per_stretch; ++step) {
      const Vec2 on_surface = lerp(start, end, Real(step) / Real(steps_per_stretch));
      const Vec2 center = on_surface + (radius - Real(0.01)) * up;  // a hundredth deep
      const Transform ball_transform = compose(placement, Transform{center, Rot{}});
      std::vector<ChildManifold> manifolds;
      contact_manifolds(slope, placement, ball, ball_transform, manifolds);
      if (manifolds.empty()) ADD_FAILURE() << "no contact: stretch " << stretch << " step " << step;
      EXPECT_EQ(against_motion(manifolds, motion), 0) << "stretch " << stretch << " step " << step;
      raw_against += against_motion(raw_child_manifolds(pieces, placement, ball, ball_transform), motion);
    }
  }
  return raw_against;
}

}  // namespace

TEST(Seams, CircleRollsOverTheJointsOfAPiecewiseSlope) {
  const std::vector<Vec2> surface = slope_surface(24);
  const Compound columns = slope_columns(surface, -30);
  const Result<Shape> outline = shape_from_outline(slope_outline(surface, -30));
  ASSERT_TRUE(outline.has_value()) << outline.error().message;
  const Compound& cut = std::get<Compound>(outline.value());
  int raw_columns = 0, raw_cut = 0;
  for (const Transform& placement : floor_placements) {
    for (const Real radius : {Real(0.2), Real(0.6)}) {
      raw_columns += roll_down(columns, columns, surface, placement, radius, 200);
      raw_cut += roll_down(outline.value(), cut, surface, placement, radius, 200);
    }
  }
  std::printf("slope of %zu stretches: raw manifolds against the motion: columns %d, cut outline (%zu pieces) %d\n", surface.size() - 1,
              raw_columns, cut.children().size(), raw_cut);
  EXPECT_GT(raw_columns, 0);  // the cut outline's raw count depends on where the cuts fall (float and double differ)
}

TEST(Seams, CompoundAgainstCompound) {
  // A box made of two halves slides along the piecewise floor: neither side's seams may push.
  std::mt19937 random(5);
  const Compound floor = piecewise_floor(20, 1, random);
  const Compound halves =
      make_compound({{make_box(Real(0.5), Real(0.5)).value(), Transform{{Real(-0.5), 0}, Rot{}}},
                     {make_box(Real(0.5), Real(0.5)).value(), Transform{{Real(0.5), 0}, Rot{}}}})
          .value();
  EXPECT_TRUE(halves.is_internal_edge(0, 1));  // the left half's right side is the seam
  EXPECT_TRUE(halves.is_internal_edge(1, 3));
  EXPECT_FALSE(halves.is_internal_edge(0, 0));
  for (const Transform& placement : floor_placements) {
    for (int step = 0; step <= 2000; ++step) {
      const Real x = 1 + (floor_length(floor) - 2) * Real(step) / 2000;
      const Transform box_transform = compose(placement, Transform{{x, Real(0.48)}, Rot{}});
      std::vector<ChildManifold> manifolds;
      contact_manifolds(floor, placement, halves, box_transform, manifolds);
      ASSERT_FALSE(manifolds.empty());
      EXPECT_EQ(count_tilted(manifolds, placement.rotation), 0) << "step " << step;
      for (std::size_t i = 1; i < manifolds.size(); ++i) {  // sorted by child of A, then of B
        EXPECT_TRUE(manifolds[i - 1].child_a < manifolds[i].child_a ||
                    (manifolds[i - 1].child_a == manifolds[i].child_a && manifolds[i - 1].child_b < manifolds[i].child_b));
      }
    }
  }
}

TEST(Seams, WorldReportsOneContactPerTouchingChildPair) {
  std::mt19937 random(3);
  World world;
  const BodyHandle floor = world.add({piecewise_floor(10, 1, random), {}, {}, 0, 0, {}});
  const BodyHandle box = world.add({make_box(Real(0.5), Real(0.5)).value(), {{2, Real(0.45)}, Rot{}}, {}, 0, 0, {}});
  const BodyHandle far_box = world.add({make_box(Real(0.5), Real(0.5)).value(), {{2, 5}, Rot{}}, {}, 0, 0, {}});
  world.update();
  ASSERT_FALSE(world.contacts().empty());
  for (const ContactPair& contact : world.contacts()) {
    EXPECT_EQ(contact.a, floor);
    EXPECT_EQ(contact.b, box);
    EXPECT_GE(contact.child_a, 0);
    EXPECT_EQ(contact.child_b, -1);
    EXPECT_GE(contact.manifold.normal.y, one_degree_cosine);
  }
  ASSERT_EQ(world.began().size(), 1u);  // one event per body pair, however many children touch
  EXPECT_EQ(world.began()[0], std::pair(floor, box));
  world.set_transform(box, Transform{{2, 3}, Rot{}});
  world.set_transform(far_box, Transform{{Real(4.2), Real(0.4)}, Rot{}});
  world.update();
  ASSERT_EQ(world.ended().size(), 1u);
  EXPECT_EQ(world.ended()[0], std::pair(floor, box));
  ASSERT_EQ(world.began().size(), 1u);
  EXPECT_EQ(world.began()[0], std::pair(floor, far_box));
  EXPECT_EQ(world.query_point({Real(4.5), Real(-0.5)}).size(), 1u);  // inside the floor
  EXPECT_TRUE(world.ray_cast_first({{Real(3.3), 10}, {0, -20}}).has_value());
}

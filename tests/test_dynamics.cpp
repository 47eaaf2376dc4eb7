// test_dynamics.cpp — rigid bodies tested against physics: mass properties against closed forms
// and sampling, motion against the integrator's closed form, friction on a slope against
// g (sin - mu cos), collisions against momentum and energy, stacks that must stand and sleep, a
// bullet that must not pass a thin wall, and bit-identical repeats.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <numbers>
#include <random>
#include <vector>

#include "collide2d/collide2d.hpp"
#include "random_shapes.hpp"

using namespace collide2d;

namespace {

constexpr Real pi = std::numbers::pi_v<Real>;

Polygon box(Real half_width, Real half_height, Real radius = 0) { return make_box(half_width, half_height, {}, radius).value(); }

/// Mass properties by sampling: the fraction of a fine grid over the shape's box that the shape
/// contains, with the first and second moments of the contained cells (an independent oracle).
MassProperties sampled_mass(const Shape& shape, Real density, int cells_per_side) {
  const Aabb bounds = compute_aabb(shape, {});
  const Vec2 size = bounds.upper - bounds.lower;
  const double cell_width = double(size.x) / cells_per_side, cell_height = double(size.y) / cells_per_side;
  double area = 0, first_x = 0, first_y = 0, second = 0;
  for (int i = 0; i < cells_per_side; ++i) {
    for (int j = 0; j < cells_per_side; ++j) {
      const double x = bounds.lower.x + (i + 0.5) * cell_width, y = bounds.lower.y + (j + 0.5) * cell_height;
      if (!contains(shape, Transform{}, Vec2{static_cast<Real>(x), static_cast<Real>(y)})) continue;
      const double cell = cell_width * cell_height;
      area += cell;
      first_x += x * cell;
      first_y += y * cell;
      second += (x * x + y * y + (cell_width * cell_width + cell_height * cell_height) / 12) * cell;
    }
  }
  const double cx = first_x / area, cy = first_y / area;
  return {static_cast<Real>(density * area), {static_cast<Real>(cx), static_cast<Real>(cy)},
          static_cast<Real>(density * (second - area * (cx * cx + cy * cy)))};
}

void expect_near_relative(Real actual, Real expected, Real relative, const char* what) {
  EXPECT_NEAR(actual, expected, relative * std::max(std::abs(expected), Real(1e-6))) << what;
}

/// Kinetic energy of every dynamic body, plus the potential energy of gravity.
double mechanical_energy(const PhysicsWorld& physics) {
  double energy = 0;
  for (BodyHandle body : physics.bodies()) {
    if (physics.type(body) != BodyType::dynamic_body) continue;
    const MassProperties mass = physics.mass(body);
    const Vec2 velocity = physics.velocity(body);
    const double spin = physics.angular_velocity(body);
    energy += 0.5 * mass.mass * length_squared(velocity) + 0.5 * mass.inertia * spin * spin -
              mass.mass * dot(physics.gravity(), physics.center_of_mass(body));
  }
  return energy;
}

Vec2 momentum(const PhysicsWorld& physics) {
  Vec2 total;
  for (BodyHandle body : physics.bodies()) {
    if (physics.type(body) == BodyType::dynamic_body) total = total + physics.mass(body).mass * physics.velocity(body);
  }
  return total;
}

BodyHandle add(PhysicsWorld& physics, const RigidBodyDefinition& definition) { return physics.add(definition).value(); }

/// A static ground box whose top face is y = 0, 200 wide.
BodyHandle add_ground(PhysicsWorld& physics) {
  return add(physics, {.shape = box(100, 1), .transform = {{0, -1}, {}}, .type = BodyType::static_body});
}

}  // namespace

// --- Mass properties ---------------------------------------------------------------------------

TEST(MassProperties, MatchClosedFormsForBoxesCirclesAndCapsules) {
  const Real density = 2.5F;
  const MassProperties rectangle = compute_mass(Shape{box(1.5F, 0.5F)}, density);
  expect_near_relative(rectangle.mass, density * 3 * 1, 1e-5F, "box mass");
  expect_near_relative(rectangle.inertia, rectangle.mass * (3 * 3 + 1 * 1) / 12, 1e-5F, "box inertia");
  EXPECT_NEAR(length(rectangle.center), 0, 1e-6F);

  const MassProperties disc = compute_mass(Shape{Circle{{2, -1}, 0.75F}}, density);
  expect_near_relative(disc.mass, density * pi * 0.75F * 0.75F, 1e-5F, "circle mass");
  expect_near_relative(disc.inertia, disc.mass * 0.75F * 0.75F / 2, 1e-5F, "circle inertia about its centre");
  EXPECT_NEAR(disc.center.x, 2, 1e-5F);
  EXPECT_NEAR(disc.center.y, -1, 1e-5F);

  // A capsule: a 2r x L rectangle and two half discs whose centroids sit 4r / (3 pi) beyond the ends.
  const Real half_length = 1.25F, radius = 0.4F;
  const MassProperties capsule = compute_mass(Shape{Capsule{{-half_length, 0}, {half_length, 0}, radius}}, density);
  const Real length_l = 2 * half_length;
  const Real rectangle_mass = density * length_l * 2 * radius;
  const Real half_disc_mass = density * pi * radius * radius / 2;
  const Real centroid_offset = 4 * radius / (3 * pi);
  const Real half_disc_inertia = half_disc_mass * radius * radius / 2 - half_disc_mass * centroid_offset * centroid_offset +
                                 half_disc_mass * (half_length + centroid_offset) * (half_length + centroid_offset);
  expect_near_relative(capsule.mass, rectangle_mass + 2 * half_disc_mass, 1e-5F, "capsule mass");
  expect_near_relative(capsule.inertia, rectangle_mass * (length_l * length_l + 4 * radius * radius) / 12 + 2 * half_disc_inertia, 1e-5F,
                       "capsule inertia");

  EXPECT_EQ(compute_mass(Shape{Segment{{0, 0}, {1, 0}}}, density).mass, 0);
}

TEST(MassProperties, RoundedPolygonsAndCompoundsAgreeWithSampling) {
  const Real density = 1.5F;
  const std::vector<Vec2> outline{{-1, -0.5F}, {1.5F, -0.25F}, {0.75F, 1.25F}, {-0.5F, 0.75F}};
  const std::vector<Shape> shapes{
      Shape{make_polygon(outline, 0.3F).value()},
      Shape{make_box(0.8F, 0.3F, {{0.5F, 0.25F}, Rot::from_angle(0.4F)}, 0.2F).value()},
      Shape{Capsule{{-0.5F, -0.2F}, {0.7F, 0.6F}, 0.35F}},
      Shape{make_compound({{box(2, 0.5F), {{0, 0}, {}}}, {box(0.5F, 1.5F), {{-1.5F, 2}, {}}}, {Circle{{0, 0}, 0.6F}, {{1.5F, 1.2F}, {}}}})
                .value()},
  };
  for (const Shape& shape : shapes) {
    const MassProperties computed = compute_mass(shape, density);
    const MassProperties sampled = sampled_mass(shape, density, 1200);
    const Real size = length(compute_aabb(shape, {}).half_extents());
    expect_near_relative(computed.mass, sampled.mass, 2e-3F, "mass");
    EXPECT_NEAR(computed.center.x, sampled.center.x, 2e-3F * size);
    EXPECT_NEAR(computed.center.y, sampled.center.y, 2e-3F * size);
    expect_near_relative(computed.inertia, sampled.inertia, 3e-3F, "inertia");
  }
  // A compound of overlapping children would count the overlap twice; one of disjoint boxes is the
  // closed form of an L.
  const MassProperties ell = compute_mass(Shape{make_compound({{box(2, 0.5F), {{0, 0}, {}}}, {box(0.5F, 1), {{-1.5F, 1.5F}, {}}}}).value()}, 1);
  const Real mass_1 = 4 * 1, mass_2 = 1 * 2;
  const Vec2 center = (1 / (mass_1 + mass_2)) * (mass_1 * Vec2{0, 0} + mass_2 * Vec2{-1.5F, 1.5F});
  EXPECT_NEAR(ell.center.x, center.x, 1e-5F);
  EXPECT_NEAR(ell.center.y, center.y, 1e-5F);
  const Real inertia = mass_1 * (16 + 1) / 12 + mass_1 * length_squared(center) + mass_2 * (1 + 4) / 12 +
                       mass_2 * length_squared(Vec2{-1.5F, 1.5F} - center);
  expect_near_relative(ell.inertia, inertia, 1e-5F, "L inertia");
}

// --- Motion without contacts ---------------------------------------------------------------------

TEST(Dynamics, FreeFallAndProjectileFollowTheIntegratorsClosedForm) {
  PhysicsWorld physics({.gravity = {0, -9.75F}});
  const Vec2 start{3, 100}, launch{4, 12};
  const BodyHandle ball = add(physics, {.shape = Circle{{}, 0.5F}, .transform = {start, {}}, .velocity = launch});
  const BodyHandle dropped = add(physics, {.shape = box(0.5F, 0.5F), .transform = {{-30, 50}, {}}});
  const int steps = 90, substeps = 4;
  const Real duration = 1.0F / 60;
  for (int i = 0; i < steps; ++i) physics.step(duration, {.substeps = substeps});
  // Semi-implicit Euler per sub-step h: after M sub-steps v = v0 + M h g and
  // x = x0 + M h v0 + h^2 g M (M + 1) / 2.
  const double h = double(duration) / substeps, m = steps * substeps, g = -9.75;
  const double expected_x = start.x + m * h * launch.x;
  const double expected_y = start.y + m * h * launch.y + h * h * g * m * (m + 1) / 2;
  const Real band = 400 * real_epsilon * 100;
  EXPECT_NEAR(physics.center_of_mass(ball).x, expected_x, band);
  EXPECT_NEAR(physics.center_of_mass(ball).y, expected_y, band);
  EXPECT_NEAR(physics.velocity(ball).y, launch.y + m * h * g, band);
  EXPECT_NEAR(physics.center_of_mass(dropped).y, 50 + h * h * g * m * (m + 1) / 2, band);
  EXPECT_NEAR(physics.center_of_mass(dropped).x, -30, band);
  EXPECT_TRUE(physics.contacts().empty());
}

TEST(Dynamics, ASpinningBodyKeepsItsAngularMomentum) {
  PhysicsWorld physics({.gravity = {0, 0}});
  const BodyHandle body = add(physics, {.shape = make_box(1, 0.25F, {{0.5F, 0.2F}, {}}).value(), .transform = {{0, 0}, {}},
                                        .velocity = {1, 0}, .angular_velocity = 3});
  const MassProperties mass = physics.mass(body);
  const Real momentum_before = mass.inertia * physics.angular_velocity(body);
  for (int i = 0; i < 120; ++i) physics.step(1.0F / 60);
  EXPECT_EQ(mass.inertia * physics.angular_velocity(body), momentum_before);
  EXPECT_NEAR(physics.angle(body), 3 * 2, 1e-4F);
  // It turns about its centre of mass, which moves in a straight line.
  EXPECT_NEAR(physics.center_of_mass(body).x, 0.5F + 2, 1e-4F);
  EXPECT_NEAR(physics.center_of_mass(body).y, 0.2F, 1e-4F);
  const Transform placed = physics.transform(body);
  const Vec2 center_again = transform_point(placed, mass.center);
  EXPECT_NEAR(center_again.x, physics.center_of_mass(body).x, 1e-4F);
  EXPECT_NEAR(center_again.y, physics.center_of_mass(body).y, 1e-4F);
}

TEST(Dynamics, DampingFollowsItsClosedFormAndKinematicBodiesFollowTheirVelocity) {
  PhysicsWorld physics({.gravity = {0, 0}});
  const BodyHandle damped = add(physics, {.shape = Circle{{}, 0.5F}, .transform = {{0, 0}, {}}, .velocity = {8, 0}, .angular_velocity = 4,
                                          .linear_damping = 0.5F, .angular_damping = 2});
  const BodyHandle platform = add(physics, {.shape = box(2, 0.25F), .transform = {{0, -5}, {}}, .type = BodyType::kinematic_body,
                                            .velocity = {1, 0.5F}, .angular_velocity = 0.25F});
  const int steps = 60, substeps = 4;
  for (int i = 0; i < steps; ++i) physics.step(1.0F / 60, {.substeps = substeps});
  // Each sub-step h scales the velocity by 1 / (1 + h c).
  const double h = 1.0 / 60 / substeps, n = steps * substeps;
  EXPECT_NEAR(physics.velocity(damped).x, 8 * std::pow(1 / (1 + h * 0.5), n), 1e-4);
  EXPECT_NEAR(physics.angular_velocity(damped), 4 * std::pow(1 / (1 + h * 2), n), 1e-4);
  // A kinematic body moves by its velocity and turns about its origin, whatever gravity and mass.
  EXPECT_NEAR(physics.transform(platform).position.x, 1, 1e-4);
  EXPECT_NEAR(physics.transform(platform).position.y, -4.5, 1e-4);
  EXPECT_NEAR(physics.angle(platform), 0.25, 1e-5);
  EXPECT_EQ(physics.mass(platform).mass, 0);
}

TEST(Dynamics, AKinematicPlatformCarriesABoxAndContactsMixFrictionAndRestitution) {
  PhysicsWorld physics({.gravity = {0, -10}});
  const BodyHandle platform = add(physics, {.shape = box(4, 0.25F), .transform = {{0, 0}, {}}, .type = BodyType::kinematic_body,
                                            .friction = 0.9F, .restitution = 0.1F, .velocity = {2, 0}});
  const BodyHandle crate = add(physics, {.shape = box(0.5F, 0.5F), .transform = {{0, 0.75F}, {}}, .friction = 0.4F, .restitution = 0.3F});
  for (int i = 0; i < 120; ++i) physics.step(1.0F / 60);
  // Friction accelerates the crate at mu g until it rides at the platform's speed, so it slips
  // back by v^2 / (2 mu g) (mu the mixed friction); it stays on top and awake.
  EXPECT_NEAR(physics.velocity(crate).x, 2, 0.01F);
  const Real slip = 2 * 2 / (2 * std::sqrt(0.9F * 0.4F) * 10);
  EXPECT_NEAR(physics.transform(platform).position.x - physics.center_of_mass(crate).x, slip, 0.03F * slip);
  EXPECT_NEAR(physics.center_of_mass(crate).y, 0.75F, 0.01F);
  EXPECT_TRUE(physics.awake(crate)) << "a moving kinematic body keeps what it carries awake";
  const std::vector<RigidContact> contacts = physics.contacts_of(crate);
  ASSERT_EQ(contacts.size(), 1U);
  EXPECT_NEAR(contacts[0].friction, std::sqrt(0.9F * 0.4F), 1e-6F);  // geometric mean
  EXPECT_EQ(contacts[0].restitution, 0.3F);                            // the larger
  EXPECT_EQ(contacts[0].a, platform);
  EXPECT_NEAR(contacts[0].normal.y, 1, 1e-5F);
  EXPECT_NEAR(dot(contacts[0].tangent, contacts[0].normal), 0, 1e-6F);
}

// --- Friction ------------------------------------------------------------------------------------

namespace {

struct SlopeRun {
  Real slide_acceleration = 0;  // along the slope, downhill positive, measured from 1 s to 2 s
  Real distance = 0;            // travelled along the slope in 2 s
};

SlopeRun run_box_on_slope(Real slope_angle, Real friction) {
  PhysicsWorld physics({.gravity = {0, -10}});
  const Rot tilt = Rot::from_angle(slope_angle);
  add(physics, {.shape = box(50, 0.5F), .transform = {{0, 0}, tilt}, .type = BodyType::static_body, .friction = friction});
  const Vec2 start = rotate(tilt, Vec2{0, 1});  // resting on the slope's top face
  const BodyHandle body = add(physics, {.shape = box(0.5F, 0.5F), .transform = {start, tilt}, .friction = friction, .allow_sleep = false});
  const Vec2 downhill = rotate(tilt, Vec2{-1, 0});
  Real speed_at_one = 0;
  for (int i = 1; i <= 120; ++i) {
    physics.step(1.0F / 60);
    if (i == 60) speed_at_one = dot(physics.velocity(body), downhill);
  }
  return {dot(physics.velocity(body), downhill) - speed_at_one, dot(physics.center_of_mass(body) - start, downhill)};
}

}  // namespace

TEST(Dynamics, ABoxOnASlopeStaysWhenFrictionHoldsAndSlidesWithGTimesSinMinusMuCos) {
  const Real angle = 20 * pi / 180;
  for (const Real friction : {0.4F, 0.6F}) {  // tan 20 degrees is 0.364
    const SlopeRun run = run_box_on_slope(angle, friction);
    EXPECT_LT(std::abs(run.distance), 0.01F) << "friction " << friction;  // under 1% of the box size
  }
  for (const Real friction : {0.0F, 0.1F, 0.25F}) {
    const SlopeRun run = run_box_on_slope(angle, friction);
    const Real expected = 10 * (std::sin(angle) - friction * std::cos(angle));
    std::printf("slope 20 deg, friction %.2f: acceleration %.4f, closed form %.4f\n", double(friction), double(run.slide_acceleration),
                double(expected));
    EXPECT_NEAR(run.slide_acceleration, expected, 0.01F * expected) << "friction " << friction;
  }
}

// --- Collisions ----------------------------------------------------------------------------------

namespace {

struct CollisionRun {
  Vec2 momentum_before, momentum_after;
  double energy_before = 0, energy_after = 0;
  Real approach_speed = 0, separating_speed = 0;  // along the line of centres at the contact
};

CollisionRun collide_circles(Vec2 offset, Real restitution) {
  PhysicsWorld physics({.gravity = {0, 0}});
  const BodyHandle a = add(physics, {.shape = Circle{{}, 0.5F}, .transform = {{-3, 0}, {}}, .friction = 0, .restitution = restitution,
                                     .velocity = {6, 0}});
  const BodyHandle b = add(physics, {.shape = Circle{{}, 0.5F}, .transform = {Vec2{3, 0} + offset, {}}, .density = 2.5F, .friction = 0,
                                     .restitution = restitution, .velocity = {-2, 0}});
  CollisionRun run;
  run.momentum_before = momentum(physics);
  run.energy_before = mechanical_energy(physics);
  Vec2 normal;  // at the impact: the first contact's normal (circles that do not turn slide past each other after it)
  for (int i = 0; i < 90; ++i) {
    physics.step(1.0F / 60);
    if (normal == Vec2{} && !physics.contacts().empty()) normal = physics.contacts()[0].normal;
  }
  run.momentum_after = momentum(physics);
  run.energy_after = mechanical_energy(physics);
  run.approach_speed = dot(Vec2{6, 0} - Vec2{-2, 0}, normal);
  run.separating_speed = dot(physics.velocity(b) - physics.velocity(a), normal);
  return run;
}

}  // namespace

TEST(Dynamics, CirclesCollidingKeepMomentumAndRestitutionSetsTheBounce) {
  for (const Vec2 offset : {Vec2{0, 0}, Vec2{0, 0.45F}, Vec2{0, -0.8F}}) {
    for (const Real restitution : {0.0F, 0.5F, 1.0F}) {
      const CollisionRun run = collide_circles(offset, restitution);
      EXPECT_NEAR(run.momentum_after.x, run.momentum_before.x, 1e-4F * length(run.momentum_before));
      EXPECT_NEAR(run.momentum_after.y, run.momentum_before.y, 1e-4F * length(run.momentum_before));
      ASSERT_GT(run.approach_speed, 0) << "they must have met";
      EXPECT_NEAR(run.separating_speed, restitution * run.approach_speed, 0.01F * run.approach_speed)
          << "offset " << offset.y << " restitution " << restitution;
      if (restitution == 1) {
        EXPECT_NEAR(run.energy_after, run.energy_before, 0.01 * run.energy_before);
      }
      EXPECT_LE(run.energy_after, run.energy_before * (1 + 1e-5));
    }
  }
}

namespace {

/// A closed box (static walls) of 24 boxes, circles and capsules with random velocities and spins.
PhysicsWorld closed_box_of_bouncing_bodies(Vec2 gravity) {
  PhysicsWorld physics({.gravity = gravity});
  add(physics, {.shape = box(6, 0.5F), .transform = {{0, -0.5F}, {}}, .type = BodyType::static_body});
  add(physics, {.shape = box(6, 0.5F), .transform = {{0, 12.5F}, {}}, .type = BodyType::static_body});
  add(physics, {.shape = box(0.5F, 7), .transform = {{-6.5F, 6}, {}}, .type = BodyType::static_body});
  add(physics, {.shape = box(0.5F, 7), .transform = {{6.5F, 6}, {}}, .type = BodyType::static_body});
  std::mt19937 random(7);
  std::uniform_real_distribution<Real> unit(-1, 1);
  for (int i = 0; i < 24; ++i) {
    const Vec2 position{static_cast<Real>(-4.5 + 1.8 * (i % 6)), static_cast<Real>(1.5 + 2.5 * (i / 6))};
    const Shape shape = i % 3 == 0 ? Shape{Circle{{}, 0.45F}} : i % 3 == 1 ? Shape{box(0.45F, 0.3F)} : Shape{Capsule{{-0.3F, 0}, {0.3F, 0}, 0.25F}};
    add(physics, {.shape = shape, .transform = {position, Rot::from_angle(unit(random))}, .restitution = 0.6F,
                  .velocity = {8 * unit(random), 8 * unit(random)}, .angular_velocity = 3 * unit(random)});
  }
  return physics;
}

}  // namespace

TEST(Dynamics, EnergyNeverGrowsInAClosedBoxOfBouncingBodies) {
  // Without gravity the energy is all kinetic: no step may add any, beyond round-off.
  {
    PhysicsWorld physics = closed_box_of_bouncing_bodies({0, 0});
    double energy = mechanical_energy(physics);
    const double start = energy;
    double worst_growth = -start;
    for (int i = 0; i < 600; ++i) {
      physics.step(1.0F / 60);
      const double now = mechanical_energy(physics);
      worst_growth = std::max(worst_growth, now - energy);
      energy = now;
    }
    std::printf("closed box without gravity: kinetic energy %.3f -> %.3f, worst growth in one step %.2e\n", start, energy, worst_growth);
    EXPECT_LE(worst_growth, 64 * real_epsilon * start);
    EXPECT_LT(energy, 0.5 * start);
  }
  // With gravity, pushing a body out of an overlap the discrete step let it sink into lifts it
  // back: a step may gain the potential energy of the overlaps it began with. Beyond that, the
  // push-out's velocity that the relax pass cannot take back (it may only push) may turn into a
  // bounce: measured at most 7e-4 of the energy in one step (double; 0 without restitution or
  // without the push, docs/dynamics.md).
  {
    PhysicsWorld physics = closed_box_of_bouncing_bodies({0, -10});
    double energy = mechanical_energy(physics);
    const double start = energy;
    double worst_excess = -start;
    for (int i = 0; i < 600; ++i) {
      physics.step(1.0F / 60);
      double overlap_energy = 0;
      for (const RigidContact& contact : physics.contacts()) {
        const double masses = physics.mass(contact.a).mass + physics.mass(contact.b).mass;
        for (int k = 0; k < contact.point_count; ++k) {
          overlap_energy += masses * 10 * std::max(-double(contact.points[static_cast<std::size_t>(k)].separation), 0.0);
        }
      }
      const double now = mechanical_energy(physics);
      worst_excess = std::max(worst_excess, now - energy - overlap_energy);
      energy = now;
    }
    std::printf("closed box with gravity: energy %.3f -> %.3f, worst growth beyond the overlaps' potential energy %.2e\n", start, energy,
                worst_excess);
    EXPECT_LE(worst_excess, 1e-3 * start);
    EXPECT_LT(energy, 0.5 * start);
  }
}

// --- Stacking and sleeping -----------------------------------------------------------------------

namespace {

struct StackRun {
  Real settle = 0;  // how far the top box sank while the contacts took the load (first second)
  Real drift = 0;   // how far it moved from its settled place over the next nine seconds
  int awake = 0;
  int bodies = 0;
};

StackRun run_stack(int rows, bool pyramid, const StepOptions& options = {}) {
  PhysicsWorld physics({.gravity = {0, -10}});
  add_ground(physics);
  std::vector<BodyHandle> boxes;
  for (int row = 0; row < rows; ++row) {
    const int count = pyramid ? rows - row : 1;
    for (int column = 0; column < count; ++column) {
      const Real x = pyramid ? static_cast<Real>(column) - static_cast<Real>(count - 1) / 2 : 0;
      boxes.push_back(add(physics, {.shape = box(0.5F, 0.5F), .transform = {{x, 0.5F + static_cast<Real>(row)}, {}}}));
    }
  }
  const BodyHandle top = boxes.back();
  const Vec2 start = physics.center_of_mass(top);
  Vec2 settled;
  StackRun run;
  for (int i = 1; i <= 600; ++i) {
    physics.step(1.0F / 60, options);
    if (i <= 60) run.settle = std::max(run.settle, length(physics.center_of_mass(top) - start));
    if (i == 60) settled = physics.center_of_mass(top);
    if (i > 60) run.drift = std::max(run.drift, length(physics.center_of_mass(top) - settled));
  }
  for (BodyHandle body : boxes) run.awake += physics.awake(body) ? 1 : 0;
  run.bodies = static_cast<int>(boxes.size());
  return run;
}

}  // namespace

TEST(Dynamics, APyramidOfTwentyRowsAndATowerOfTwentyBoxesStandAndFallAsleep) {
  for (const bool pyramid : {true, false}) {
    const StackRun run = run_stack(20, pyramid);
    std::printf("%s of %d boxes: top sank %.4f while settling, then moved %.5f in 9 s; awake after 10 s: %d\n", pyramid ? "pyramid" : "tower",
                run.bodies, double(run.settle), double(run.drift), run.awake);
    EXPECT_LT(run.drift, 0.01F);  // 1% of the box size
    // Soft contacts give under load like stiff springs (docs/dynamics.md): at the default 30 Hz
    // the top of a 20-box tower sinks by about 0.14 while the load arrives, and no further.
    EXPECT_LT(run.settle, 0.15F);
    EXPECT_EQ(run.awake, 0);
  }
  // Stiffer contacts (8 sub-steps at 120 Hz) hold the top within about 1% of a box from the start.
  for (const bool pyramid : {true, false}) {
    const StackRun run = run_stack(20, pyramid, {.substeps = 8, .contact_hertz = 120});
    std::printf("stiff %s: top sank %.4f while settling, then moved %.5f in 9 s; awake after 10 s: %d\n", pyramid ? "pyramid" : "tower",
                double(run.settle), double(run.drift), run.awake);
    EXPECT_LT(run.settle, 0.015F);
    EXPECT_LT(run.drift, 0.01F);
    EXPECT_EQ(run.awake, 0);
  }
}

TEST(Dynamics, SleepingBodiesWakeWhenHitOrTouchedThroughTheApi) {
  PhysicsWorld physics({.gravity = {0, -10}});
  add_ground(physics);
  const BodyHandle resting = add(physics, {.shape = box(0.5F, 0.5F), .transform = {{0, 0.5F}, {}}});
  for (int i = 0; i < 120; ++i) physics.step(1.0F / 60);
  ASSERT_FALSE(physics.awake(resting));
  // A falling box wakes it on contact, through the island.
  const BodyHandle falling = add(physics, {.shape = box(0.5F, 0.5F), .transform = {{0.2F, 3}, {}}});
  bool woke = false;
  for (int i = 0; i < 60; ++i) {
    physics.step(1.0F / 60);
    woke = woke || physics.awake(resting);
  }
  EXPECT_TRUE(woke);
  for (int i = 0; i < 240; ++i) physics.step(1.0F / 60);
  EXPECT_FALSE(physics.awake(resting));
  EXPECT_FALSE(physics.awake(falling));
  // An impulse wakes a sleeping body and moves it.
  ASSERT_TRUE(physics.apply_impulse(falling, {0, 8}, physics.center_of_mass(falling)));
  EXPECT_TRUE(physics.awake(falling));
  physics.step(1.0F / 60);
  EXPECT_GT(physics.velocity(falling).y, 0);
  // A stale handle is refused.
  const BodyHandle gone = falling;
  ASSERT_TRUE(physics.remove(falling));
  EXPECT_FALSE(physics.apply_impulse(gone, {0, 1}, {}));
  EXPECT_FALSE(physics.set_velocity(gone, {1, 0}, 0));
}

TEST(Dynamics, ARestingBoxIsHeldByImpulsesThatSumToItsWeightAndKeepTheirFeatureIds) {
  PhysicsWorld physics({.gravity = {0, -10}});
  add_ground(physics);
  const BodyHandle body = add(physics, {.shape = box(0.5F, 0.5F), .transform = {{0, 0.5F}, {}}, .density = 2, .allow_sleep = false});
  const Real duration = 1.0F / 60;
  std::vector<FeatureId> ids;
  for (int i = 0; i < 120; ++i) {
    physics.step(duration);
    const std::vector<RigidContact> contacts = physics.contacts_of(body);
    ASSERT_EQ(contacts.size(), 1U);
    ASSERT_EQ(contacts[0].point_count, 2);
    std::vector<FeatureId> now{contacts[0].points[0].id, contacts[0].points[1].id};
    if (i > 0) {
      EXPECT_EQ(now, ids) << "step " << i;
    }
    ids = now;
    if (i < 60) continue;
    // The step's impulse balances the weight over the step: m g dt.
    const Real impulse = contacts[0].points[0].total_normal_impulse + contacts[0].points[1].total_normal_impulse;
    EXPECT_NEAR(impulse, physics.mass(body).mass * 10 * duration, 0.01F * physics.mass(body).mass * 10 * duration);
    EXPECT_NEAR(contacts[0].points[0].normal_impulse, contacts[0].points[1].normal_impulse, 0.05F * contacts[0].points[0].normal_impulse);
  }
  EXPECT_NEAR(physics.center_of_mass(body).y, 0.5F, 0.01F);
  EXPECT_NEAR(physics.center_of_mass(body).x, 0, 1e-4F);
}

// --- Continuous collision ------------------------------------------------------------------------

TEST(Dynamics, ABulletAtAThousandUnitsPerSecondNeverPassesAThinWall) {
  for (const bool continuous : {true, false}) {
    int passed = 0, cases = 0;
    for (int shape_kind = 0; shape_kind < 3; ++shape_kind) {
      for (int k = 0; k < 12; ++k) {
        PhysicsWorld physics({.gravity = {0, 0}});
        add(physics, {.shape = box(0.05F, 300), .transform = {{5, 0}, {}}, .type = BodyType::static_body});  // too long to slide off
        const Shape bullet = shape_kind == 0 ? Shape{Circle{{}, 0.05F}} : shape_kind == 1 ? Shape{box(0.1F, 0.05F)} : Shape{Capsule{{-0.1F, 0}, {0.1F, 0}, 0.04F}};
        const Real direction = (static_cast<Real>(k) - 6) * 0.06F;
        const Vec2 velocity = 1000 * Vec2{std::cos(direction), std::sin(direction)};
        const BodyHandle body = add(physics, {.shape = bullet, .transform = {{static_cast<Real>(-k) * 0.37F, 0}, {}}, .velocity = velocity,
                                              .angular_velocity = static_cast<Real>(k) * 5});
        bool through = false;
        for (int i = 0; i < 30; ++i) {
          physics.step(1.0F / 60, {.continuous = continuous});
          through = through || physics.center_of_mass(body).x > 5;
        }
        passed += through ? 1 : 0;
        ++cases;
      }
    }
    std::printf("bullets %s continuous collision: %d of %d passed the wall\n", continuous ? "with" : "without", passed, cases);
    if (continuous) {
      EXPECT_EQ(passed, 0);
    } else {
      EXPECT_GT(passed, 0);  // the sweep is what stops them
    }
  }
}

// --- Random scenes ------------------------------------------------------------------------------

TEST(Dynamics, RandomScenesOfEveryShapeKindStayFiniteAndInsideTheirContainer) {
  // Containers of thick static walls with a static compound and a segment inside, and 40 dynamic
  // bodies of every kind with area (sizes 0.1 to 1, up to 60 units per second, spinning), stepped
  // with varied step lengths: every state stays finite and every body in the container.
  int bodies_checked = 0, swept_stops = 0;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    random_shapes::Generator random(seed);
    PhysicsWorld physics({.gravity = {0, -10}});
    add(physics, {.shape = box(12, 1), .transform = {{0, -1}, {}}, .type = BodyType::static_body});
    add(physics, {.shape = box(12, 1), .transform = {{0, 21}, {}}, .type = BodyType::static_body});
    add(physics, {.shape = box(1, 12), .transform = {{-11, 10}, {}}, .type = BodyType::static_body});
    add(physics, {.shape = box(1, 12), .transform = {{11, 10}, {}}, .type = BodyType::static_body});
    const Compound ell = make_compound({{box(2, Real(0.25)), {{0, 0}, {}}}, {box(Real(0.25), 1), {{Real(-1.75), Real(1.25)}, {}}}}).value();
    add(physics, {.shape = ell, .transform = {{4, 4}, Rot::from_angle(random.angle())}, .type = BodyType::static_body});
    add(physics, {.shape = Segment{{-6, 3}, {-2, 5}}, .type = BodyType::static_body});
    const random_shapes::Kind kinds[] = {random_shapes::Kind::polygon, random_shapes::Kind::box, random_shapes::Kind::rounded_polygon,
                                         random_shapes::Kind::circle, random_shapes::Kind::capsule};
    std::vector<BodyHandle> moving;
    for (int i = 0; i < 40; ++i) {
      const Shape shape = random.shape(kinds[i % 5], random.log_uniform(0.1, 1));
      const Vec2 at{random.uniform(-8, 8), random.uniform(7, 18)};
      moving.push_back(add(physics, {.shape = shape, .transform = {at, Rot::from_angle(random.angle())}, .restitution = random.uniform(0, 0.9),
                                     .velocity = random.uniform(0, 60) * random.direction(), .angular_velocity = random.uniform(-20, 20)}));
    }
    for (int i = 0; i < 240; ++i) {
      physics.step(random.uniform(0.005, 0.03));
      swept_stops += physics.statistics().continuous_hits;
      for (BodyHandle body : moving) {
        const Vec2 at = physics.center_of_mass(body);
        ASSERT_TRUE(is_finite(at) && is_finite(physics.velocity(body)) && std::isfinite(physics.angular_velocity(body)))
            << "seed " << seed << " step " << i;
        // A thin body (a box may be 0.01 thick) may sink into a wall by a few hundredths while an
        // impact is pushed out; passing into or through the 2-unit walls would take it far beyond.
        constexpr Real sink = Real(0.05);
        ASSERT_TRUE(at.x > -10 - sink && at.x < 10 + sink && at.y > -sink && at.y < 20 + sink)
            << "seed " << seed << " step " << i << " body at " << at.x << ", " << at.y;
      }
    }
    bodies_checked += static_cast<int>(moving.size());
  }
  std::printf("random scenes: %d bodies stepped 240 times each, %d swept stops\n", bodies_checked, swept_stops);
}

// --- Events, determinism, refusals ---------------------------------------------------------------

TEST(Dynamics, ContactEventsReportTheLandingAndTheBounce) {
  PhysicsWorld physics({.gravity = {0, -10}});
  const BodyHandle ground = add_ground(physics);
  const BodyHandle ball = add(physics, {.shape = Circle{{}, 0.5F}, .transform = {{0, 3}, {}}, .restitution = 0.8F});
  int begins = 0, ends = 0;
  for (int i = 0; i < 120; ++i) {
    physics.step(1.0F / 60);
    for (const ContactBegin& begin : physics.began()) {
      ++begins;
      EXPECT_EQ(begin.a, ground);
      EXPECT_EQ(begin.b, ball);
      EXPECT_NEAR(begin.normal.y, 1, 1e-5F);
      if (begins == 1) {
        EXPECT_NEAR(begin.approach_speed, std::sqrt(2 * 10 * 2.5F), 0.3F);  // fell 2.5
        EXPECT_GT(begin.normal_impulse, physics.mass(ball).mass * 1.8F * begin.approach_speed * 0.9F);  // stopped and bounced at 0.8
      }
    }
    ends += static_cast<int>(physics.ended().size());
  }
  EXPECT_GE(begins, 2);
  EXPECT_GE(ends, 1);
}

TEST(Dynamics, TheSameSceneAndStepsGiveBitIdenticalStates) {
  auto run = [] {
    PhysicsWorld physics({.gravity = {0, -10}});
    add_ground(physics);
    std::mt19937 random(11);
    std::uniform_real_distribution<Real> unit(-1, 1);
    for (int i = 0; i < 60; ++i) {
      const Shape shape = i % 2 == 0 ? Shape{Circle{{}, 0.3F}} : Shape{box(0.4F, 0.25F)};
      add(physics, {.shape = shape, .transform = {{5 * unit(random), 2 + static_cast<Real>(i) * 0.6F}, Rot::from_angle(unit(random))}});
    }
    for (int i = 0; i < 180; ++i) physics.step(1.0F / 60);
    std::vector<Real> state;
    for (BodyHandle body : physics.bodies()) {
      state.insert(state.end(), {physics.center_of_mass(body).x, physics.center_of_mass(body).y, physics.angle(body), physics.velocity(body).x,
                                 physics.velocity(body).y, physics.angular_velocity(body)});
    }
    return state;
  };
  const std::vector<Real> first = run(), second = run();
  ASSERT_EQ(first.size(), second.size());
  EXPECT_EQ(std::memcmp(first.data(), second.data(), first.size() * sizeof(Real)), 0);
}

TEST(Dynamics, InvalidBodiesAreRefusedSayingWhichField) {
  PhysicsWorld physics;
  auto refusal = [&](const RigidBodyDefinition& definition) {
    const auto result = physics.add(definition);
    EXPECT_FALSE(result.has_value());
    return result.has_value() ? std::string() : result.error().message;
  };
  EXPECT_NE(refusal({.shape = Circle{{}, 1}, .density = -1}).find("density"), std::string::npos);
  EXPECT_NE(refusal({.shape = Segment{{0, 0}, {1, 0}}}).find("mass is 0"), std::string::npos);
  EXPECT_NE(refusal({.shape = Circle{{}, 1}, .friction = std::numeric_limits<Real>::infinity()}).find("friction"), std::string::npos);
  EXPECT_NE(refusal({.shape = Circle{{}, 1}, .velocity = {std::numeric_limits<Real>::quiet_NaN(), 0}}).find("velocity"), std::string::npos);
  EXPECT_NE(refusal({.shape = Circle{{}, -1}}).find("shape"), std::string::npos);
  EXPECT_EQ(physics.size(), 0);
  // A static segment needs no mass.
  EXPECT_TRUE(physics.add({.shape = Segment{{0, 0}, {1, 0}}, .type = BodyType::static_body}).has_value());
}

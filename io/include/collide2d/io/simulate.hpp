// collide2d/io/simulate.hpp — a scene run through a PhysicsWorld for a number of steps: what the
// `simulate` command prints and draws.
#pragma once

#include <string>
#include <vector>

#include "collide2d/dynamics.hpp"
#include "collide2d/io/scene.hpp"

namespace collide2d::io {

/// The most steps one simulation runs (1,667 time units at 60 steps per time unit).
inline constexpr int simulation_step_limit = 100'000;

/// The most points a body's trail keeps: longer runs sample the centre of mass every few steps.
inline constexpr int trail_point_limit = 500;

/// How to run a scene.
struct SimulationOptions {
  int steps = 0;                  ///< steps to run, 0 to simulation_step_limit
  Real time_step = Real(1) / 60;  ///< time units per step (> 0, finite)
  Vec2 gravity{0, -10};           ///< acceleration of dynamic bodies, length units per time unit^2 (finite)
  StepOptions step{};             ///< sub-steps, soft contacts and sleeping, the same for every step
};

/// One body after the last step.
struct SimulatedBody {
  BodyType type = BodyType::static_body;  ///< as the scene gave it
  Transform transform;                    ///< world placement of the body's origin
  Real angle = 0;                         ///< radians, accumulated (not wrapped) from the scene's angle
  Vec2 velocity;                          ///< world velocity of the centre of mass, length units per time unit
  Real angular_velocity = 0;              ///< radians per time unit, counter-clockwise
  bool awake = false;                     ///< false for static and sleeping bodies
  /// World centre of mass at the start, after every trail_interval() steps and after the last
  /// step; empty for static bodies.
  std::vector<Vec2> trail;
};

/// A finished simulation.
struct Simulation {
  int steps = 0;                      ///< steps run
  Real time = 0;                      ///< simulated time: steps x time_step, time units
  std::vector<SimulatedBody> bodies;  ///< in scene order
};

/// Why a scene could not be simulated.
struct SimulationError {
  int body = -1;  ///< index of the body refused (a dynamic body without area, say); -1 for a bad option
  /// What is wrong, without a file location; options are named as the command's flags (--steps, --dt, --gravity).
  std::string message;
};

/// Steps between two trail points of a run of `steps` steps, so a trail keeps at most trail_point_limit points.
int trail_interval(int steps);

/// Runs the scene: each body goes into a PhysicsWorld with its type, density, friction and
/// restitution (the scene's velocity is its origin's, turned into the centre of mass's), then
/// `options.steps` steps of `options.time_step` are taken. Refuses options out of range and
/// bodies the PhysicsWorld refuses.
Result<Simulation, SimulationError> simulate_scene(const Scene& scene, const SimulationOptions& options);

}  // namespace collide2d::io

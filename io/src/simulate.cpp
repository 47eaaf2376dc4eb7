// simulate.cpp — a scene run through a PhysicsWorld, recording each moving body's trail.
#include "collide2d/io/simulate.hpp"

#include <cmath>

namespace collide2d::io {

int trail_interval(int steps) {
  constexpr int between_ends = trail_point_limit - 2;  // the start and the last step are always kept
  return steps <= between_ends ? 1 : (steps + between_ends - 1) / between_ends;
}

Result<Simulation, SimulationError> simulate_scene(const Scene& scene, const SimulationOptions& options) {
  if (options.steps < 0 || options.steps > simulation_step_limit) {
    return SimulationError{-1, "--steps must be from 0 to " + std::to_string(simulation_step_limit) + " (the limit of one simulation), got " +
                                   std::to_string(options.steps)};
  }
  if (!(options.time_step > 0) || !std::isfinite(options.time_step)) {
    return SimulationError{-1, "--dt must be a positive finite number of time units"};
  }
  if (!is_finite(options.gravity)) return SimulationError{-1, "--gravity must be two finite numbers"};

  PhysicsWorld world({.gravity = options.gravity});
  std::vector<BodyHandle> handles;
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    const Body& body = scene.bodies[i];
    RigidBodyDefinition definition;
    definition.shape = body.shape;
    definition.transform = body.transform;
    definition.type = body.type;
    definition.density = body.density;
    definition.friction = body.friction;
    definition.restitution = body.restitution;
    Result<BodyHandle, BodyError> added = world.add(definition);
    if (!added) return SimulationError{static_cast<int>(i), added.error().message};
    handles.push_back(added.value());
    // The scene gives the velocity of the body's origin; the world takes that of the centre of
    // mass (the origin for static and kinematic bodies, whose mass is zero).
    if (body.type != BodyType::static_body) {
      const Vec2 offset = rotate(body.transform.rotation, world.mass(added.value()).center);
      if (!world.set_velocity(added.value(), body.velocity + body.angular_velocity * left_perpendicular(offset), body.angular_velocity)) {
        return SimulationError{static_cast<int>(i), "velocity: must be finite"};
      }
    }
  }

  Simulation simulation;
  simulation.steps = options.steps;
  simulation.bodies.resize(scene.bodies.size());
  auto record_trails = [&] {
    for (std::size_t i = 0; i < handles.size(); ++i) {
      if (scene.bodies[i].type != BodyType::static_body) simulation.bodies[i].trail.push_back(world.center_of_mass(handles[i]));
    }
  };
  record_trails();
  const int interval = trail_interval(options.steps);
  for (int step = 1; step <= options.steps; ++step) {
    world.step(options.time_step, options.step);
    if (step % interval == 0 || step == options.steps) record_trails();
  }
  simulation.time = static_cast<Real>(options.steps) * options.time_step;
  for (std::size_t i = 0; i < handles.size(); ++i) {
    SimulatedBody& simulated = simulation.bodies[i];
    simulated.type = scene.bodies[i].type;
    simulated.transform = world.transform(handles[i]);
    simulated.angle = world.angle(handles[i]);
    simulated.velocity = world.velocity(handles[i]);
    simulated.angular_velocity = world.angular_velocity(handles[i]);
    simulated.awake = world.awake(handles[i]);
  }
  return simulation;
}

}  // namespace collide2d::io

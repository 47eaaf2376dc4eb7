// bench_dynamics.cpp — the physics step: the same scenes built in our PhysicsWorld, Box2D 2.4.1's
// b2World and Chipmunk 7's cpSpace, stepped at 1/60 with gravity (0, -10).
//
// Scenes (every body has density 1, friction 0.6 and restitution 0):
//   pyramid20, pyramid100 — 20 or 100 rows of unit boxes (210 or 5,050), each row offset by half a
//     box, boxes touching their neighbours and the row below, on a static ground box.
//   rain — a container (static ground and two walls, 44 wide inside, 40 high) and 2,000 shapes in
//     a 40 x 50 grid above its floor, falling together: boxes, circles, capsules and random convex
//     polygons of 3 to 8 vertices in turn, about 1 across, randomly turned (the same seeded draws for
//     every engine).
//
// Engines, with what each needs to simulate the same bodies:
//   ours — PhysicsWorld, default StepOptions (4 sub-steps, 1 relax iteration, sleeping on).
//   box2d — b2World::Step with 8 velocity and 3 position iterations (its defaults), sleeping on.
//     Box2D rounds every polygon by its skin b2_polygonRadius (0.01), so each polygon's core is our
//     polygon with every edge moved in by the skin: the rounded outline is ours. It has no capsule:
//     a capsule is a rounded polygon, a core rectangle 0.01 thick along the segment rounded by the
//     capsule's radius less 0.005 (flat-ended by 0.01 across, otherwise the capsule).
//   chipmunk — cpSpace with 10 iterations, sleep time threshold 0.5 s, idle speed threshold 0.05
//     (our sleep speed), collision slop 0.005 (ours and Box2D's linear slop). Capsules are rounded
//     segment shapes. Chipmunk multiplies the two frictions of a pair where we and Box2D take the
//     geometric mean, so its shapes get sqrt(0.6).
// Box2D and Chipmunk bodies are given our mass, centre of mass and inertia (Box2D counts only a
// polygon's core, which for a capsule would be almost nothing).
//
// Timing: each timed step is one iteration; a window of steps from the first after building is
// timed on a freshly built scene (building runs with the timer paused), one or more windows a run.
// The pyramids time steps 1 to 30: every engine needs 0.5 s at rest before a body may sleep, so no
// body sleeps inside the window and all of them are simulated every step (how soon each engine
// lets the pyramid sleep is shown by the stability figures instead). Rain times steps 1 to 180,
// the fall and the pile-up; nothing rests long enough to sleep before the last shapes land.
//
// Stability, from one untimed 600-step (10 s) run per scene and engine, reported as counters on
// every run: settle (how far the tracked body, the pyramid's top box or the highest rain shape,
// sank in the first second), drift (how far it moved from 1 s to 10 s), last_second_motion (how far
// it moved from 9 s to 10 s: rain's tracked shape falls into the pile, so its drift says little and
// this says whether it came to rest), awake_10s (dynamic bodies awake after 10 s) and escaped_10s
// (dynamic bodies whose origin left the container region).
#include <box2d/box2d.h>
#include <chipmunk/chipmunk.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <stdexcept>
#include <variant>

#include "bench_support.hpp"
#include "peers.hpp"

namespace collide2d_bench {
namespace {

constexpr Real time_step = Real(1) / 60;
constexpr Vec2 gravity{0, -10};
constexpr int steps_per_second = 60;
constexpr int stability_steps = 600;
constexpr Real body_density = 1;
constexpr Real body_friction = Real(0.6);
constexpr std::uint32_t rain_seed = 14;

constexpr int box2d_velocity_iterations = 8;
constexpr int box2d_position_iterations = 3;
/// Half the thickness of the core rectangle of a capsule in Box2D (a polygon needs an area).
constexpr Real box2d_capsule_core_half_thickness = Real(0.005);

constexpr int chipmunk_iterations = 10;
constexpr double chipmunk_sleep_time_threshold = 0.5;
constexpr double chipmunk_idle_speed_threshold = 0.05;
constexpr double chipmunk_collision_slop = 0.005;

template <class... Visitors>
struct Overloaded : Visitors... {
  using Visitors::operator()...;
};

/// One body of a scene, in our types; each engine converts it.
struct SceneBody {
  collide2d::ConvexShape shape;
  Transform transform;
  bool is_static = false;
};

struct Scene {
  std::vector<SceneBody> bodies;
  int tracked_body = -1;      // the body whose settle and drift are reported
  collide2d::Aabb container;  // a dynamic body whose origin ends outside this region escaped
};

Scene make_pyramid(int rows) {
  Scene scene;
  const Real ground_half_width = Real(0.5) * Real(rows) + 10;
  scene.bodies.push_back({collide2d::make_box(ground_half_width, Real(0.5)).value(), Transform::from({0, Real(-0.5)}, 0), true});
  const Polygon unit_box = collide2d::make_box(Real(0.5), Real(0.5)).value();
  for (int row = 0; row < rows; ++row) {
    const int boxes_in_row = rows - row;
    for (int column = 0; column < boxes_in_row; ++column) {
      const Real x = Real(column) - Real(0.5) * Real(boxes_in_row - 1);
      const Real y = Real(0.5) + Real(row);
      scene.bodies.push_back({unit_box, Transform::from({x, y}, 0), false});
    }
  }
  scene.tracked_body = static_cast<int>(scene.bodies.size()) - 1;
  scene.container = {{-ground_half_width, 0}, {ground_half_width, Real(rows) + 1}};
  return scene;
}

/// A random convex polygon of 3 to 8 vertices, half the size of random_polygon's (0.5 to 1 across).
Polygon small_random_polygon(RandomSource& random) {
  const int vertex_count = static_cast<int>(random.uniform(3, 9));
  const Polygon large = random_polygon(random, vertex_count, 0);
  std::vector<Vec2> points;
  for (Vec2 vertex : large.vertices()) points.push_back(Real(0.5) * vertex);
  return collide2d::make_polygon(points).value();
}

Scene make_rain() {
  constexpr Real inner_half_width = 22, wall_height = 40;
  constexpr int columns = 40, rows = 50;
  constexpr Real spacing = Real(1.1);  // every shape fits in a disc of radius 0.5 about its origin
  Scene scene;
  scene.bodies.push_back({collide2d::make_box(inner_half_width + 1, Real(0.5)).value(), Transform::from({0, Real(-0.5)}, 0), true});
  const Polygon wall = collide2d::make_box(Real(0.5), Real(0.5) * wall_height).value();
  for (const Real side : {Real(-1), Real(1)}) {
    scene.bodies.push_back({wall, Transform::from({side * (inner_half_width + Real(0.5)), Real(0.5) * wall_height}, 0), true});
  }
  RandomSource random(rain_seed);
  for (int row = 0; row < rows; ++row) {
    for (int column = 0; column < columns; ++column) {
      collide2d::ConvexShape shape;
      switch ((row * columns + column) % 4) {
        case 0: {
          const Real half_width = random.uniform_real(0.15, 0.35);
          const Real half_height = random.uniform_real(0.15, 0.35);
          shape = collide2d::make_box(half_width, half_height).value();
          break;
        }
        case 1:
          shape = Circle{{0, 0}, random.uniform_real(0.2, 0.5)};
          break;
        case 2: {
          const Real half_length = random.uniform_real(0.15, 0.3);
          shape = collide2d::Capsule{{-half_length, 0}, {half_length, 0}, random.uniform_real(0.1, 0.2)};
          break;
        }
        default:
          shape = small_random_polygon(random);
          break;
      }
      const Vec2 position{spacing * (Real(column) - Real(0.5) * Real(columns - 1)), Real(1) + spacing * Real(row)};
      scene.bodies.push_back({std::move(shape), Transform::from(position, random.angle()), false});
    }
  }
  scene.tracked_body = static_cast<int>(scene.bodies.size()) - 1;
  scene.container = {{-inner_half_width, 0}, {inner_half_width, 2 * wall_height}};
  return scene;
}

// ---- the engines --------------------------------------------------------------------------------

/// One engine's copy of a scene, stepped at time_step.
class Simulation {
 public:
  Simulation() = default;
  virtual ~Simulation() = default;
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  virtual void step() = 0;
  /// World position of body `index`'s origin (its index in the scene).
  virtual Vec2 position(int index) const = 0;
  /// Dynamic bodies awake.
  virtual int awake_bodies() const = 0;
};

class OursSimulation final : public Simulation {
 public:
  explicit OursSimulation(const Scene& scene) : world_(options()) {
    for (const SceneBody& body : scene.bodies) {
      collide2d::RigidBodyDefinition definition;
      definition.shape = std::visit([](const auto& shape) -> collide2d::Shape { return shape; }, body.shape);
      definition.transform = body.transform;
      definition.type = body.is_static ? collide2d::BodyType::static_body : collide2d::BodyType::dynamic_body;
      definition.density = body_density;
      definition.friction = body_friction;
      handles_.push_back(world_.add(definition).value());
    }
  }
  void step() override { world_.step(time_step); }
  Vec2 position(int index) const override { return world_.transform(handles_[static_cast<std::size_t>(index)]).position; }
  int awake_bodies() const override {
    return static_cast<int>(std::count_if(handles_.begin(), handles_.end(), [&](collide2d::BodyHandle body) {
      return world_.type(body) == collide2d::BodyType::dynamic_body && world_.awake(body);
    }));
  }

 private:
  static collide2d::PhysicsWorldOptions options() {
    collide2d::PhysicsWorldOptions options;
    options.gravity = gravity;
    return options;
  }
  collide2d::PhysicsWorld world_;
  std::vector<collide2d::BodyHandle> handles_;
};

/// Our polygon with every edge moved in by Box2D's skin, as Box2D's polygon (rounded by the skin).
b2PolygonShape box2d_polygon_inside_skin(const Polygon& polygon) {
  const auto vertices = polygon.vertices();
  const auto normals = polygon.normals();
  const std::size_t count = vertices.size();
  std::vector<Vec2> core;
  for (std::size_t i = 0; i < count; ++i) {
    // Vertex i ends edge i - 1 and starts edge i: the moved vertex is d away from it with
    // dot(normal, d) = -skin for both edges.
    const Vec2 previous_normal = normals[(i + count - 1) % count];
    const Vec2 next_normal = normals[i];
    const Real determinant = collide2d::cross(previous_normal, next_normal);
    const Vec2 offset{next_normal.y - previous_normal.y, previous_normal.x - next_normal.x};
    core.push_back(vertices[i] - (b2_polygonRadius / determinant) * offset);
  }
  b2PolygonShape converted = to_box2d(collide2d::make_polygon(core).value());
  converted.m_radius = b2_polygonRadius;
  return converted;
}

/// A capsule as Box2D's rounded polygon: a thin core rectangle along the segment.
b2PolygonShape box2d_capsule(const collide2d::Capsule& capsule) {
  const Vec2 axis = capsule.b - capsule.a;
  b2PolygonShape converted;
  converted.SetAsBox(Real(0.5) * collide2d::length(axis), box2d_capsule_core_half_thickness, to_box2d(Real(0.5) * (capsule.a + capsule.b)),
                     std::atan2(axis.y, axis.x));
  converted.m_radius = capsule.radius - box2d_capsule_core_half_thickness;
  return converted;
}

class Box2dSimulation final : public Simulation {
 public:
  explicit Box2dSimulation(const Scene& scene) : world_(to_box2d(gravity)) {
    for (const SceneBody& body : scene.bodies) {
      b2BodyDef body_definition;
      body_definition.type = body.is_static ? b2_staticBody : b2_dynamicBody;
      body_definition.position = to_box2d(body.transform.position);
      body_definition.angle = body.transform.rotation.angle();
      b2Body* created = world_.CreateBody(&body_definition);
      add_fixture(created, body.shape);
      if (!body.is_static) {
        const collide2d::MassProperties mass = collide2d::compute_mass(body.shape, body_density);
        b2MassData mass_data;
        mass_data.mass = mass.mass;
        mass_data.center = to_box2d(mass.center);
        mass_data.I = mass.inertia + mass.mass * collide2d::dot(mass.center, mass.center);  // Box2D's is about the origin
        created->SetMassData(&mass_data);
      }
      bodies_.push_back(created);
    }
  }
  void step() override { world_.Step(time_step, box2d_velocity_iterations, box2d_position_iterations); }
  Vec2 position(int index) const override {
    const b2Vec2 origin = bodies_[static_cast<std::size_t>(index)]->GetPosition();
    return {origin.x, origin.y};
  }
  int awake_bodies() const override {
    return static_cast<int>(
        std::count_if(bodies_.begin(), bodies_.end(), [](const b2Body* body) { return body->GetType() == b2_dynamicBody && body->IsAwake(); }));
  }

 private:
  static void add_fixture(b2Body* body, const collide2d::ConvexShape& shape) {
    const auto attach = [body](const b2Shape& converted) {
      b2FixtureDef fixture;
      fixture.shape = &converted;
      fixture.density = body_density;
      fixture.friction = body_friction;
      body->CreateFixture(&fixture);
    };
    std::visit(Overloaded{[&](const Circle& circle) { attach(to_box2d(circle)); },
                          [&](const collide2d::Capsule& capsule) { attach(box2d_capsule(capsule)); },
                          [&](const Polygon& polygon) { attach(box2d_polygon_inside_skin(polygon)); },
                          [](const collide2d::Segment&) { throw std::invalid_argument("the dynamics scenes have no segments"); }},
               shape);
  }
  b2World world_;
  std::vector<b2Body*> bodies_;
};

class ChipmunkSimulation final : public Simulation {
 public:
  explicit ChipmunkSimulation(const Scene& scene) : space_(cpSpaceNew()) {
    cpSpaceSetGravity(space_, to_chipmunk(gravity));
    cpSpaceSetIterations(space_, chipmunk_iterations);
    cpSpaceSetSleepTimeThreshold(space_, chipmunk_sleep_time_threshold);
    cpSpaceSetIdleSpeedThreshold(space_, chipmunk_idle_speed_threshold);
    cpSpaceSetCollisionSlop(space_, chipmunk_collision_slop);
    for (const SceneBody& body : scene.bodies) {
      cpBody* created = nullptr;
      if (body.is_static) {
        created = cpBodyNewStatic();
      } else {
        const collide2d::MassProperties mass = collide2d::compute_mass(body.shape, body_density);
        created = cpBodyNew(mass.mass, mass.inertia);
        cpBodySetCenterOfGravity(created, to_chipmunk(mass.center));
      }
      // The angle first: cpBodySetPosition places the origin through the current rotation.
      cpBodySetAngle(created, body.transform.rotation.angle());
      cpBodySetPosition(created, to_chipmunk(body.transform.position));
      cpSpaceAddBody(space_, created);
      cpShape* shape = make_shape(created, body.shape);
      cpShapeSetFriction(shape, std::sqrt(double(body_friction)));
      cpSpaceAddShape(space_, shape);
      bodies_.push_back(created);
      shapes_.push_back(shape);
    }
  }
  // cpSpaceFree frees neither the bodies nor the shapes; once the space is gone they are free-standing.
  ~ChipmunkSimulation() override {
    cpSpaceFree(space_);
    for (cpShape* shape : shapes_) cpShapeFree(shape);
    for (cpBody* body : bodies_) cpBodyFree(body);
  }
  void step() override { cpSpaceStep(space_, time_step); }
  Vec2 position(int index) const override {
    const cpVect origin = cpBodyGetPosition(bodies_[static_cast<std::size_t>(index)]);
    return {static_cast<Real>(origin.x), static_cast<Real>(origin.y)};
  }
  int awake_bodies() const override {
    return static_cast<int>(std::count_if(bodies_.begin(), bodies_.end(), [](cpBody* body) {
      return cpBodyGetType(body) == CP_BODY_TYPE_DYNAMIC && !cpBodyIsSleeping(body);
    }));
  }

 private:
  static cpShape* make_shape(cpBody* body, const collide2d::ConvexShape& shape) {
    return std::visit(Overloaded{[&](const Circle& circle) { return cpCircleShapeNew(body, circle.radius, to_chipmunk(circle.center)); },
                                 [&](const collide2d::Capsule& capsule) {
                                   return cpSegmentShapeNew(body, to_chipmunk(capsule.a), to_chipmunk(capsule.b), capsule.radius);
                                 },
                                 [&](const Polygon& polygon) {
                                   std::vector<cpVect> points;
                                   for (Vec2 vertex : polygon.vertices()) points.push_back(to_chipmunk(vertex));
                                   return cpPolyShapeNewRaw(body, polygon.count(), points.data(), polygon.radius());
                                 },
                                 [](const collide2d::Segment&) -> cpShape* {
                                   throw std::invalid_argument("the dynamics scenes have no segments");
                                 }},
                      shape);
  }
  cpSpace* space_;
  std::vector<cpBody*> bodies_;
  std::vector<cpShape*> shapes_;
};

enum class Engine { ours, box2d, chipmunk };

const char* engine_name(Engine engine) {
  switch (engine) {
    case Engine::ours:
      return "ours";
    case Engine::box2d:
      return "box2d";
    case Engine::chipmunk:
      return "chipmunk";
  }
  return "unknown";
}

std::unique_ptr<Simulation> make_simulation(Engine engine, const Scene& scene) {
  switch (engine) {
    case Engine::ours:
      return std::make_unique<OursSimulation>(scene);
    case Engine::box2d:
      return std::make_unique<Box2dSimulation>(scene);
    case Engine::chipmunk:
      return std::make_unique<ChipmunkSimulation>(scene);
  }
  throw std::invalid_argument("unknown engine");
}

// ---- stability and timing -----------------------------------------------------------------------

struct Stability {
  double settle = 0;  // how far the tracked body sank in the first second
  double drift = 0;   // how far it moved from 1 s to 10 s
  double last_second_motion = 0;  // how far it moved from 9 s to 10 s (still falling or jittering, or at rest)
  int awake = 0;      // dynamic bodies awake after 10 s
  int escaped = 0;    // dynamic bodies outside the container region after 10 s
};

Stability measure_stability(Engine engine, const Scene& scene) {
  const std::unique_ptr<Simulation> simulation = make_simulation(engine, scene);
  const Vec2 start = simulation->position(scene.tracked_body);
  for (int step = 1; step <= steps_per_second; ++step) simulation->step();
  const Vec2 after_one_second = simulation->position(scene.tracked_body);
  for (int step = steps_per_second + 1; step <= stability_steps - steps_per_second; ++step) simulation->step();
  const Vec2 one_second_before_end = simulation->position(scene.tracked_body);
  for (int step = stability_steps - steps_per_second + 1; step <= stability_steps; ++step) simulation->step();
  const Vec2 end = simulation->position(scene.tracked_body);
  Stability stability;
  stability.settle = double(start.y) - double(after_one_second.y);
  stability.drift = double(collide2d::length(end - after_one_second));
  stability.last_second_motion = double(collide2d::length(end - one_second_before_end));
  stability.awake = simulation->awake_bodies();
  for (std::size_t index = 0; index < scene.bodies.size(); ++index) {
    if (scene.bodies[index].is_static) continue;
    const Vec2 origin = simulation->position(static_cast<int>(index));
    const bool inside = origin.x >= scene.container.lower.x && origin.x <= scene.container.upper.x && origin.y >= scene.container.lower.y &&
                        origin.y <= scene.container.upper.y;
    if (!inside) ++stability.escaped;
  }
  return stability;
}

/// Which steps are timed: steps 1 to `timed_steps` after building, in `windows` windows each on a
/// freshly built scene.
struct TimingPlan {
  int timed_steps = 0;
  int windows = 1;
};

void run_steps(benchmark::State& state, const std::string& name, Engine engine, const Scene& scene, const TimingPlan& plan) {
  static std::map<std::string, Stability> stabilities;
  if (!stabilities.contains(name)) stabilities[name] = measure_stability(engine, scene);
  const Stability stability = stabilities[name];

  std::unique_ptr<Simulation> simulation;
  int steps_in_window = plan.timed_steps;  // the first iteration builds the scene
  for (auto _ : state) {
    if (steps_in_window == plan.timed_steps) {
      state.PauseTiming();
      simulation = make_simulation(engine, scene);
      steps_in_window = 0;
      state.ResumeTiming();
    }
    simulation->step();
    ++steps_in_window;
  }
  state.counters["bodies"] = double(std::count_if(scene.bodies.begin(), scene.bodies.end(), [](const SceneBody& body) { return !body.is_static; }));
  state.counters["awake_window_end"] = double(simulation->awake_bodies());
  state.counters["settle"] = stability.settle;
  state.counters["drift"] = stability.drift;
  state.counters["last_second_motion"] = stability.last_second_motion;
  state.counters["awake_10s"] = double(stability.awake);
  state.counters["escaped_10s"] = double(stability.escaped);
}

}  // namespace

void register_dynamics_benchmarks() {
  struct SceneEntry {
    const char* name;
    std::shared_ptr<Lazy<Scene>> scene;
    TimingPlan plan;
  };
  const SceneEntry scenes[] = {
      {"pyramid20", make_lazy<Scene>([] { return make_pyramid(20); }), {30, 10}},
      {"pyramid100", make_lazy<Scene>([] { return make_pyramid(100); }), {30, 2}},
      {"rain", make_lazy<Scene>(make_rain), {180, 1}},
  };
  for (const SceneEntry& entry : scenes) {
    for (const Engine engine : {Engine::ours, Engine::box2d, Engine::chipmunk}) {
      const std::string name = benchmark_name("step", entry.name, engine_name(engine));
      benchmark::RegisterBenchmark(name.c_str(),
                                   [name, engine, scene = entry.scene, plan = entry.plan](benchmark::State& state) {
                                     run_steps(state, name, engine, scene->get(), plan);
                                   })
          ->Iterations(entry.plan.timed_steps * entry.plan.windows)
          ->Unit(benchmark::kMillisecond);
    }
  }
}

}  // namespace collide2d_bench

// dynamics.cpp — the rigid-body step: soft contacts solved by sequential impulses with sub-steps.
//
// Outline of PhysicsWorld::step(duration), after Catto's "Solver2D" soft step (Box2D v3, 2024):
//  1. Contacts: the collision world's broad phase gives candidate pairs (boxes grown by the
//     speculative distance); a pair with a dynamic body that is awake gets contact_manifolds()
//     within the speculative distance, a pair at rest keeps last step's contacts. Impulses of
//     last step's points carry over to points with the same feature id, or failing that to the
//     nearest point within the speculative distance (warm starting).
//  2. Islands: union-find over touching pairs of dynamic bodies; an island with an awake body
//     (or touched by a moving kinematic body) is awake as a whole.
//  3. Prepare each contact point: anchors from each centre of mass, effective masses along the
//     normal and tangent, the separation minus the anchors' part (so the current separation is
//     recomputed from the bodies' motion without new geometry), the closing speed for restitution.
//  4. For each of `substeps` sub-steps h: integrate velocities (gravity, damping); warm start
//     (apply the accumulated impulses); solve with position bias: a point still apart may close
//     its gap in this sub-step (speculative), an overlap beyond the slop is pushed out by a soft
//     constraint (spring of contact_hertz and damping ratio: bias rate, mass and impulse scales,
//     stiffer against static bodies) no faster than max_push_speed; friction clamped by the
//     normal impulse (Coulomb); integrate positions; relax: solve again without bias, so the
//     push-out leaves no velocity behind (no energy added).
//  5. Restitution: points that closed faster than the threshold and pushed get a last impulse
//     making the separating speed restitution x the closing speed.
//  6. Continuous collision: a dynamic body that moved farther than half its smallest extent is
//     swept (time_of_impact) against the static bodies along its motion and stopped at the
//     first contact, keeping its velocity; next step's speculative contact then meets it. A body
//     touching an obstacle at the start sweeps its core (a small circle at its centre of mass)
//     instead, so turning or sliding along the contact cannot carry it through; a core that
//     touches and closes in at the start keeps the body where the step began.
//  7. Sleep: an island whose bodies all stayed below the sleep speeds for time_to_sleep falls
//     asleep (velocities zeroed); touching pairs give the began and ended events.
// Soft constraint coefficients for stiffness omega = 2 pi hertz, damping ratio zeta and step h
// (Catto, "Soft constraints", GDC 2011): bias rate omega / (2 zeta + h omega), mass scale
// h omega (2 zeta + h omega) / (1 + h omega (2 zeta + h omega)), impulse scale 1 / (1 + ...).
#include "collide2d/dynamics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <numeric>
#include <variant>

#include "collide2d/shape_cast.hpp"

namespace collide2d {

struct PhysicsWorld::BodyState {
  BodyType type = BodyType::static_body;
  Real friction = 0;
  Real restitution = 0;
  Real linear_damping = 0;
  Real angular_damping = 0;
  Real gravity_scale = 1;
  MassProperties mass;        // local centre of mass; mass and inertia for dynamic bodies
  Real inverse_mass = 0;
  Real inverse_inertia = 0;
  Real min_extent = 0;        // smallest distance from the centre of mass to the surface, roughly
  Vec2 center;                // world centre of mass
  Real angle = 0;             // accumulated angle, radians
  Rot rotation;               // rotation of the body frame
  Vec2 velocity;
  Real angular_velocity = 0;
  Real sleep_time = 0;
  bool allow_sleep = true;
  bool awake = true;
  int solver_index = 0;       // this step's solver body (0: the fixed body)
};

namespace {

/// How far the dynamic tree's boxes reach beyond a body (length units) unless the options say:
/// bodies moving less than this per step cost the broad phase nothing (Box2D's margin).
constexpr Real physics_tree_margin = Real(0.1);

/// The state the solver works on; entry 0 is a fixed body standing for every static (and
/// sleeping) body, with zero inverse mass so impulses never change it. Kept small and in one
/// place (as Box2D v3's body state): a solver pass reads all of it for both bodies of a contact.
struct SolverBody {
  Vec2 velocity;
  Real angular_velocity = 0;
  Real inverse_mass = 0;
  Real inverse_inertia = 0;
  Vec2 delta_position;  // motion of the centre of mass since the start of the step
  Rot delta_rotation;   // rotation since the start of the step
};

/// What one sub-step's velocity integration does to a solver body: gravity's velocity change,
/// then the damping factors (gravity 0 and factors 1 for kinematic bodies).
struct BodyIntegration {
  Vec2 gravity_velocity;   // gravity x gravity scale x sub-step
  Real linear_scale = 1;   // 1 / (1 + sub-step x linear damping)
  Real angular_scale = 1;  // 1 / (1 + sub-step x angular damping)
};

/// A solver body's placement during the sub-steps (written back to its state after them).
struct BodyPlacement {
  Vec2 center;     // centre of mass, world frame
  Real angle = 0;  // accumulated angle, radians
  Rot rotation;    // of the angle
};


struct SoftConstraint {
  Real bias_rate = 0;
  Real mass_scale = 1;
  Real impulse_scale = 0;
};

SoftConstraint make_soft(Real hertz, Real damping_ratio, Real substep) {
  if (hertz <= 0) return {};
  const Real omega = 2 * std::numbers::pi_v<Real> * hertz;
  const Real a1 = 2 * damping_ratio + substep * omega;
  const Real a2 = substep * omega * a1;
  const Real a3 = 1 / (1 + a2);
  return {omega / a1, a2 * a3, a3};
}

struct ConstraintPoint {
  Vec2 anchor_a, anchor_b;      // from each centre of mass to the contact point, world frame at the step's start
  Real normal_arm_a = 0, normal_arm_b = 0;    // cross(anchor, normal): how a spin moves the point along the normal
  Real tangent_arm_a = 0, tangent_arm_b = 0;  // cross(anchor, tangent)
  Real base_separation = 0;     // separation minus (anchor_b - anchor_a).normal
  Real normal_mass = 0, tangent_mass = 0;
  Real normal_impulse = 0, tangent_impulse = 0, total_normal_impulse = 0, max_normal_impulse = 0;
};

/// What every solver pass reads of a contact, kept small: the passes stream through all of them
/// a dozen times a step. The tangent is the normal turned clockwise.
struct ContactConstraint {
  int body_a = 0, body_b = 0;   // solver bodies
  Vec2 normal;
  Real friction = 0;
  std::array<ConstraintPoint, 2> points{};
  int point_count = 0;
  bool against_fixed = false;   // body a or b cannot move: the stiffer soft constraint applies
};

/// What only the restitution pass and the write-back read of a constraint (same index).
struct ConstraintSource {
  int contact = 0;              // index in contacts_
  Real restitution = 0;
  std::array<Real, 2> closing_velocity{};  // normal relative velocity of each point at the step's start (< 0 closing)
};

/// The soft constraints of a step: between two moving bodies, and against a fixed one.
struct SoftConstraints {
  SoftConstraint between_moving;
  SoftConstraint against_fixed;
};

/// How fast B's contact point moves away from A's along a unit direction; the arms are
/// cross(anchor, direction) of each body, so a spin w moves its point along it at w x arm.
[[gnu::always_inline]] inline Real speed_along(const SolverBody& a, const SolverBody& b, Vec2 direction, Real arm_a, Real arm_b) {
  return dot(b.velocity - a.velocity, direction) + b.angular_velocity * arm_b - a.angular_velocity * arm_a;
}

/// Applies `impulse` along a unit direction at the contact point: to B, and its opposite to A.
[[gnu::always_inline]] inline void apply_impulse(SolverBody& a, SolverBody& b, Vec2 direction, Real arm_a, Real arm_b, Real impulse) {
  a.velocity = a.velocity - (a.inverse_mass * impulse) * direction;
  a.angular_velocity -= a.inverse_inertia * impulse * arm_a;
  b.velocity = b.velocity + (b.inverse_mass * impulse) * direction;
  b.angular_velocity += b.inverse_inertia * impulse * arm_b;
}

/// How many colours colour_order hands out before the rest go to one last group.
constexpr int constraint_colours = 12;

/// The order to solve contacts in, by colour (Box2D v3's constraint graph colouring, done
/// greedily in the contacts' order): no two contacts of a colour share a moving body, so a solver
/// pass through one colour never waits for the impulse it just applied before starting on the
/// next contact, and the processor overlaps them. The fixed body (solver entry 0) belongs to no
/// colour, as its velocity never changes. Contacts that find no free colour among the first
/// `constraint_colours` go last, in their order. `solver_bodies` holds each contact's two solver
/// bodies; `order` receives indices into it. The order depends only on the contacts, so the step
/// stays deterministic. `used` is scratch kept between steps.
void colour_order(const std::vector<std::pair<int, int>>& solver_bodies, std::size_t body_count, std::vector<std::uint64_t>& used,
                  std::vector<int>& colour_of, std::vector<int>& order) {
  const std::size_t words = (body_count + 63) / 64;
  used.assign(words * constraint_colours, 0);
  colour_of.resize(solver_bodies.size());
  std::array<std::size_t, constraint_colours + 2> starts{};
  for (std::size_t i = 0; i < solver_bodies.size(); ++i) {
    const auto a = static_cast<std::size_t>(solver_bodies[i].first);
    const auto b = static_cast<std::size_t>(solver_bodies[i].second);
    int colour = 0;
    for (; colour < constraint_colours; ++colour) {
      std::uint64_t* holds = used.data() + static_cast<std::size_t>(colour) * words;
      const bool a_taken = a != 0 && (holds[a / 64] >> (a % 64) & 1) != 0;
      const bool b_taken = b != 0 && (holds[b / 64] >> (b % 64) & 1) != 0;
      if (a_taken || b_taken) continue;
      if (a != 0) holds[a / 64] |= std::uint64_t{1} << (a % 64);
      if (b != 0) holds[b / 64] |= std::uint64_t{1} << (b % 64);
      break;
    }
    colour_of[i] = colour;
    ++starts[static_cast<std::size_t>(colour) + 1];
  }
  for (std::size_t colour = 1; colour < starts.size(); ++colour) starts[colour] += starts[colour - 1];
  order.resize(solver_bodies.size());
  for (std::size_t i = 0; i < solver_bodies.size(); ++i) order[starts[static_cast<std::size_t>(colour_of[i])]++] = static_cast<int>(i);
}

/// Writes a local copy's velocities back (its masses never change, so they are not stored).
[[gnu::always_inline]] inline void store_velocities(SolverBody& body, const SolverBody& copy) {
  body.velocity = copy.velocity;
  body.angular_velocity = copy.angular_velocity;
}

void warm_start(std::vector<ContactConstraint>& constraints, std::vector<SolverBody>& bodies) {
  for (ContactConstraint& constraint : constraints) {
    // Local copies keep the two bodies' velocities in registers through the points.
    SolverBody a = bodies[static_cast<std::size_t>(constraint.body_a)];
    SolverBody b = bodies[static_cast<std::size_t>(constraint.body_b)];
    for (int i = 0; i < constraint.point_count; ++i) {
      ConstraintPoint& point = constraint.points[static_cast<std::size_t>(i)];
      apply_impulse(a, b, constraint.normal, point.normal_arm_a, point.normal_arm_b, point.normal_impulse);
      apply_impulse(a, b, right_perpendicular(constraint.normal), point.tangent_arm_a, point.tangent_arm_b, point.tangent_impulse);
      point.total_normal_impulse += point.normal_impulse;
    }
    store_velocities(bodies[static_cast<std::size_t>(constraint.body_a)], a);
    store_velocities(bodies[static_cast<std::size_t>(constraint.body_b)], b);
  }
}

/// One pass over the contacts: non-penetration (with the position bias when `use_bias`), then friction.
void solve_contacts(std::vector<ContactConstraint>& constraints, std::vector<SolverBody>& bodies,
                    const SoftConstraints& softness, Real inverse_substep, Real max_push_speed, bool use_bias) {
  for (ContactConstraint& constraint : constraints) {
    const Vec2 tangent = right_perpendicular(constraint.normal);
    // Local copies keep the two bodies' velocities in registers through the points.
    SolverBody a = bodies[static_cast<std::size_t>(constraint.body_a)];
    SolverBody b = bodies[static_cast<std::size_t>(constraint.body_b)];
    const Real approach = dot(b.delta_position - a.delta_position, constraint.normal);
    for (int i = 0; i < constraint.point_count; ++i) {
      ConstraintPoint& point = constraint.points[static_cast<std::size_t>(i)];
      // The current separation from the bodies' motion since the step began.
      const Real separation = approach + dot(rotate(b.delta_rotation, point.anchor_b) - rotate(a.delta_rotation, point.anchor_a),
                                             constraint.normal) + point.base_separation;
      Real bias = 0, mass_scale = 1, impulse_scale = 0;
      if (separation > 0) {
        bias = separation * inverse_substep;  // may close the gap within this sub-step, no further
      } else if (use_bias) {
        const SoftConstraint& soft = constraint.against_fixed ? softness.against_fixed : softness.between_moving;
        bias = std::max(soft.bias_rate * separation, -max_push_speed);
        mass_scale = soft.mass_scale;
        impulse_scale = soft.impulse_scale;
      }
      const Real normal_speed = speed_along(a, b, constraint.normal, point.normal_arm_a, point.normal_arm_b);
      const Real impulse = -point.normal_mass * mass_scale * (normal_speed + bias) - impulse_scale * point.normal_impulse;
      const Real accumulated = std::max(point.normal_impulse + impulse, Real{0});
      const Real applied = accumulated - point.normal_impulse;
      point.normal_impulse = accumulated;
      point.max_normal_impulse = std::max(point.max_normal_impulse, applied);
      point.total_normal_impulse += applied;
      apply_impulse(a, b, constraint.normal, point.normal_arm_a, point.normal_arm_b, applied);
    }
    for (int i = 0; i < constraint.point_count; ++i) {
      ConstraintPoint& point = constraint.points[static_cast<std::size_t>(i)];
      const Real tangent_speed = speed_along(a, b, tangent, point.tangent_arm_a, point.tangent_arm_b);
      const Real limit = constraint.friction * point.normal_impulse;
      const Real accumulated = std::clamp(point.tangent_impulse - point.tangent_mass * tangent_speed, -limit, limit);
      const Real applied = accumulated - point.tangent_impulse;
      point.tangent_impulse = accumulated;
      apply_impulse(a, b, tangent, point.tangent_arm_a, point.tangent_arm_b, applied);
    }
    store_velocities(bodies[static_cast<std::size_t>(constraint.body_a)], a);
    store_velocities(bodies[static_cast<std::size_t>(constraint.body_b)], b);
  }
}

void apply_restitution(std::vector<ContactConstraint>& constraints, const std::vector<ConstraintSource>& sources, std::vector<SolverBody>& bodies,
                       Real threshold) {
  for (std::size_t k = 0; k < constraints.size(); ++k) {
    ContactConstraint& constraint = constraints[k];
    const ConstraintSource& source = sources[k];
    if (source.restitution == 0) continue;
    // Local copies keep the two bodies' velocities in registers through the points.
    SolverBody a = bodies[static_cast<std::size_t>(constraint.body_a)];
    SolverBody b = bodies[static_cast<std::size_t>(constraint.body_b)];
    for (int i = 0; i < constraint.point_count; ++i) {
      ConstraintPoint& point = constraint.points[static_cast<std::size_t>(i)];
      const Real closing_velocity = source.closing_velocity[static_cast<std::size_t>(i)];
      if (closing_velocity > -threshold || point.max_normal_impulse == 0) continue;
      const Real normal_speed = speed_along(a, b, constraint.normal, point.normal_arm_a, point.normal_arm_b);
      const Real impulse = -point.normal_mass * (normal_speed + source.restitution * closing_velocity);
      const Real accumulated = std::max(point.normal_impulse + impulse, Real{0});
      const Real applied = accumulated - point.normal_impulse;
      point.normal_impulse = accumulated;
      point.total_normal_impulse += applied;
      apply_impulse(a, b, constraint.normal, point.normal_arm_a, point.normal_arm_b, applied);
    }
    store_velocities(bodies[static_cast<std::size_t>(constraint.body_a)], a);
    store_velocities(bodies[static_cast<std::size_t>(constraint.body_b)], b);
  }
}

/// Roughly the smallest distance from `center` to the surface of a convex shape (local frame):
/// how far the body may move in one step before a sweep is needed.
Real smallest_extent(const ConvexShape& shape, Vec2 center) {
  return std::visit(
      [center](const auto& convex) -> Real {
        using S = std::decay_t<decltype(convex)>;
        if constexpr (std::is_same_v<S, Circle>) {
          return convex.radius;
        } else if constexpr (std::is_same_v<S, Capsule>) {
          return convex.radius;
        } else if constexpr (std::is_same_v<S, Segment>) {
          return 0;
        } else {
          Real smallest = std::numeric_limits<Real>::max();
          for (int i = 0; i < convex.count(); ++i) {
            const auto index = static_cast<std::size_t>(i);
            smallest = std::min(smallest, dot(convex.normals()[index], convex.vertices()[index] - center));
          }
          return std::max(smallest, Real{0}) + convex.radius();
        }
      },
      shape);
}

Real smallest_extent(const Shape& shape, Vec2 center) {
  if (const auto* compound = std::get_if<Compound>(&shape)) {
    Real smallest = std::numeric_limits<Real>::max();
    for (const CompoundChild& child : compound->children()) {
      smallest = std::min(smallest, smallest_extent(child.shape, inverse_transform_point(child.transform, center)));
    }
    return smallest;
  }
  return std::visit(
      [center](const auto& convex) -> Real {
        if constexpr (std::is_same_v<std::decay_t<decltype(convex)>, Compound>) {
          return 0;
        } else {
          return smallest_extent(ConvexShape{convex}, center);
        }
      },
      shape);
}

/// Union-find over body slots, for islands.
struct Islands {
  std::vector<std::uint32_t> parent;
  std::uint32_t root(std::uint32_t index) {
    while (parent[index] != index) {
      parent[index] = parent[parent[index]];
      index = parent[index];
    }
    return index;
  }
  void join(std::uint32_t first, std::uint32_t second) {
    first = root(first);
    second = root(second);
    if (first != second) parent[std::max(first, second)] = std::min(first, second);
  }
};

bool finite_non_negative(Real value) { return std::isfinite(value) && value >= 0; }

/// Warm starting: each point of `now` takes the impulses of the point of `before` (the same pair
/// of children, last step) with the same feature id. A point without one takes those of the
/// nearest unclaimed old point within `reach`: when two nearly parallel faces swap the reference
/// role as the bodies rock, the ids change but the contact stays where it was.
void carry_impulses(const RigidContact& before, RigidContact& now, Real reach) {
  std::array<bool, 2> claimed{};
  std::array<bool, 2> matched{};
  for (int i = 0; i < now.point_count; ++i) {
    for (int k = 0; k < before.point_count; ++k) {
      if (claimed[static_cast<std::size_t>(k)] || before.points[static_cast<std::size_t>(k)].id != now.points[static_cast<std::size_t>(i)].id) continue;
      claimed[static_cast<std::size_t>(k)] = matched[static_cast<std::size_t>(i)] = true;
      now.points[static_cast<std::size_t>(i)].normal_impulse = before.points[static_cast<std::size_t>(k)].normal_impulse;
      now.points[static_cast<std::size_t>(i)].tangent_impulse = before.points[static_cast<std::size_t>(k)].tangent_impulse;
    }
  }
  for (int i = 0; i < now.point_count; ++i) {
    if (matched[static_cast<std::size_t>(i)]) continue;
    RigidContactPoint& point = now.points[static_cast<std::size_t>(i)];
    int nearest = -1;
    Real nearest_distance = reach * reach;
    for (int k = 0; k < before.point_count; ++k) {
      const Real squared = length_squared(before.points[static_cast<std::size_t>(k)].point - point.point);
      if (!claimed[static_cast<std::size_t>(k)] && squared <= nearest_distance) {
        nearest = k;
        nearest_distance = squared;
      }
    }
    if (nearest < 0 || dot(before.normal, now.normal) < Real(0.99)) continue;
    claimed[static_cast<std::size_t>(nearest)] = true;
    point.normal_impulse = before.points[static_cast<std::size_t>(nearest)].normal_impulse;
    point.tangent_impulse = before.points[static_cast<std::size_t>(nearest)].tangent_impulse;
  }
}

}  // namespace

/// The step's working arrays, kept from step to step so that a step allocates nothing once the
/// world has reached its size.
struct PhysicsWorld::StepScratch {
  std::vector<RigidContact> previous_contacts;  // last step's contacts, for warm starting
  Islands islands;
  std::vector<char> island_awake;               // by island root: does it hold an awake body
  std::vector<SolverBody> bodies;               // entry 0: the fixed body
  std::vector<BodyHandle> live;                 // every body, in slot order
  std::vector<BodyHandle> solved;               // the body of solver entry i + 1
  std::vector<ContactConstraint> constraints;
  std::vector<ConstraintSource> sources;        // by constraint
  std::vector<std::pair<int, int>> solver_bodies_of;  // the solver bodies of each contact that gets a constraint
  std::vector<int> constrained;                 // the contact of each entry of solver_bodies_of
  std::vector<std::uint64_t> colour_bodies;     // by colour: a bit for each solver body it holds
  std::vector<int> colour_of;                   // by entry of solver_bodies_of
  std::vector<int> solve_order;                 // entries of solver_bodies_of in colour order
  std::vector<Real> closing_velocity;           // by contact: its first point's, at the step's start
  std::vector<Vec2> start_center;               // by solved body
  std::vector<Real> start_angle;
  std::vector<Rot> start_rotation;
  std::vector<BodyPlacement> placements;        // by solved body, during the sub-steps
  std::vector<BodyIntegration> integration;     // by solved body
  std::vector<Real> island_rest;                // by island root: the least time at rest of its bodies
  std::vector<std::pair<BodyHandle, BodyHandle>> touching;  // this step's touching pairs
};

PhysicsWorld::PhysicsWorld(const PhysicsWorldOptions& options)
    : world_([&] {
        WorldOptions world_options = options.world;
        world_options.contact_margin = std::max(options.speculative_distance, Real{0});
        if (world_options.broad_phase == BroadPhaseKind::dynamic_tree && world_options.broad_phase_options.margin_or_cell == 0) {
          world_options.broad_phase_options.margin_or_cell = physics_tree_margin;
        }
        return world_options;
      }()),
      gravity_(options.gravity),
      scratch_(std::make_unique<StepScratch>()),
      speculative_distance_(std::max(options.speculative_distance, Real{0})) {}

PhysicsWorld::PhysicsWorld(PhysicsWorld&&) noexcept = default;
PhysicsWorld& PhysicsWorld::operator=(PhysicsWorld&&) noexcept = default;
PhysicsWorld::~PhysicsWorld() = default;

PhysicsWorld::BodyState* PhysicsWorld::live_state(BodyHandle body) {
  return world_.contains(body) ? &states_[body.index] : nullptr;
}
const PhysicsWorld::BodyState* PhysicsWorld::live_state(BodyHandle body) const {
  return world_.contains(body) ? &states_[body.index] : nullptr;
}

Result<BodyHandle, BodyError> PhysicsWorld::add(const RigidBodyDefinition& definition) {
  if (const std::optional<ShapeError> error = validate(definition.shape, definition.transform)) {
    return BodyError{"shape: " + error->message};
  }
  const std::pair<const char*, Real> amounts[] = {{"density", definition.density},
                                                  {"friction", definition.friction},
                                                  {"restitution", definition.restitution},
                                                  {"linear_damping", definition.linear_damping},
                                                  {"angular_damping", definition.angular_damping}};
  for (const auto& [name, value] : amounts) {
    if (!finite_non_negative(value)) return BodyError{std::string(name) + ": must be finite and at least 0"};
  }
  if (!std::isfinite(definition.gravity_scale)) return BodyError{"gravity_scale: must be finite"};
  if (!is_finite(definition.velocity) || !std::isfinite(definition.angular_velocity)) {
    return BodyError{"velocity: must be finite"};
  }
  BodyState state;
  state.type = definition.type;
  state.friction = definition.friction;
  state.restitution = definition.restitution;
  state.linear_damping = definition.linear_damping;
  state.angular_damping = definition.angular_damping;
  state.gravity_scale = definition.gravity_scale;
  state.allow_sleep = definition.allow_sleep;
  if (definition.type == BodyType::dynamic_body) {
    state.mass = compute_mass(definition.shape, definition.density);
    if (!(state.mass.mass > 0) || !std::isfinite(state.mass.mass)) {
      return BodyError{"density: a dynamic body needs a shape with area and a positive density (its mass is 0)"};
    }
    state.inverse_mass = 1 / state.mass.mass;
    state.inverse_inertia = definition.fixed_rotation || !(state.mass.inertia > 0) ? 0 : 1 / state.mass.inertia;
    state.min_extent = smallest_extent(definition.shape, state.mass.center);
  }
  const bool moves = definition.type != BodyType::static_body;
  state.velocity = moves ? definition.velocity : Vec2{};
  // Kinematic bodies turn as told; a dynamic body turns unless it cannot (fixed rotation, no inertia).
  const bool turns = definition.type == BodyType::kinematic_body || (definition.type == BodyType::dynamic_body && state.inverse_inertia != 0);
  state.angular_velocity = turns ? definition.angular_velocity : 0;
  state.rotation = definition.transform.rotation;
  state.angle = definition.transform.rotation.angle();
  state.center = transform_point(definition.transform, state.mass.center);
  state.awake = moves && definition.awake;

  BodyDefinition collision;
  collision.shape = definition.shape;
  collision.transform = definition.transform;
  collision.filter = definition.filter;
  collision.user_data = definition.user_data;
  const BodyHandle handle = world_.add(std::move(collision));
  if (states_.size() <= handle.index) states_.resize(handle.index + 1);
  states_[handle.index] = state;
  return handle;
}

bool PhysicsWorld::remove(BodyHandle body) {
  if (live_state(body) == nullptr) return false;
  // Bodies resting on it wake up: they are about to lose a support.
  for (const RigidContact& contact : contacts_) {
    if (contact.a == body) wake(contact.b);
    if (contact.b == body) wake(contact.a);
  }
  world_.remove(body);
  return true;
}

bool PhysicsWorld::contains(BodyHandle body) const { return live_state(body) != nullptr; }

Transform PhysicsWorld::transform(BodyHandle body) const {
  const BodyDefinition* definition = world_.find(body);
  return definition == nullptr ? Transform{} : definition->transform;
}
template <class Field>
Field PhysicsWorld::state_or(BodyHandle body, Field BodyState::*field, Field fallback) const {
  const BodyState* state = live_state(body);
  return state == nullptr ? fallback : state->*field;
}

Real PhysicsWorld::angle(BodyHandle body) const { return state_or(body, &BodyState::angle, Real{0}); }
Vec2 PhysicsWorld::velocity(BodyHandle body) const { return state_or(body, &BodyState::velocity, Vec2{}); }
Real PhysicsWorld::angular_velocity(BodyHandle body) const { return state_or(body, &BodyState::angular_velocity, Real{0}); }
Vec2 PhysicsWorld::center_of_mass(BodyHandle body) const { return state_or(body, &BodyState::center, Vec2{}); }
MassProperties PhysicsWorld::mass(BodyHandle body) const { return state_or(body, &BodyState::mass, MassProperties{}); }
BodyType PhysicsWorld::type(BodyHandle body) const { return state_or(body, &BodyState::type, BodyType::static_body); }
bool PhysicsWorld::awake(BodyHandle body) const {
  const BodyState* state = live_state(body);
  return state != nullptr && state->awake;
}

void PhysicsWorld::wake(BodyHandle body) {
  BodyState* state = live_state(body);
  if (state == nullptr || state->type == BodyType::static_body) return;
  state->awake = true;
  state->sleep_time = 0;
}

bool PhysicsWorld::set_transform(BodyHandle body, const Transform& transform) {
  BodyState* state = live_state(body);
  if (state == nullptr || !is_finite(transform.position) || !within_coordinate_limit(transform.position)) return false;
  world_.set_transform(body, transform);
  state->rotation = transform.rotation;
  state->angle = transform.rotation.angle();
  state->center = transform_point(transform, state->mass.center);
  wake(body);
  return true;
}

bool PhysicsWorld::set_velocity(BodyHandle body, Vec2 velocity, Real angular_velocity) {
  BodyState* state = live_state(body);
  if (state == nullptr || state->type == BodyType::static_body || !is_finite(velocity) || !std::isfinite(angular_velocity)) return false;
  state->velocity = velocity;
  state->angular_velocity = state->type == BodyType::dynamic_body && state->inverse_inertia == 0 ? 0 : angular_velocity;
  wake(body);
  return true;
}

bool PhysicsWorld::apply_impulse(BodyHandle body, Vec2 impulse, Vec2 world_point) {
  BodyState* state = live_state(body);
  if (state == nullptr || state->type != BodyType::dynamic_body || !is_finite(impulse) || !is_finite(world_point)) return false;
  state->velocity = state->velocity + state->inverse_mass * impulse;
  state->angular_velocity += state->inverse_inertia * cross(world_point - state->center, impulse);
  wake(body);
  return true;
}

bool PhysicsWorld::set_awake(BodyHandle body, bool awake) {
  BodyState* state = live_state(body);
  if (state == nullptr || state->type == BodyType::static_body) return false;
  if (awake) {
    wake(body);
  } else {
    state->awake = false;
    state->sleep_time = 0;
    state->velocity = {};
    state->angular_velocity = 0;
  }
  return true;
}

void PhysicsWorld::set_gravity(Vec2 gravity) {
  if (is_finite(gravity)) gravity_ = gravity;
}
Vec2 PhysicsWorld::gravity() const { return gravity_; }

const std::vector<RigidContact>& PhysicsWorld::contacts() const { return contacts_; }
std::vector<RigidContact> PhysicsWorld::contacts_of(BodyHandle body) const {
  std::vector<RigidContact> found;
  if (!contains(body)) return found;
  for (const RigidContact& contact : contacts_) {
    if (contact.a == body || contact.b == body) found.push_back(contact);
  }
  return found;
}
const std::vector<ContactBegin>& PhysicsWorld::began() const { return began_; }
const std::vector<std::pair<BodyHandle, BodyHandle>>& PhysicsWorld::ended() const { return ended_; }
const StepStatistics& PhysicsWorld::statistics() const { return statistics_; }
const World& PhysicsWorld::world() const { return world_; }
std::vector<BodyHandle> PhysicsWorld::bodies() const { return world_.bodies(); }
int PhysicsWorld::size() const { return world_.size(); }

void PhysicsWorld::step(Real duration, const StepOptions& options) {
  if (!(duration > 0) || !std::isfinite(duration)) return;
  const int substeps = std::max(options.substeps, 1);
  const Real substep = duration / static_cast<Real>(substeps);
  const Real inverse_substep = 1 / substep;
  statistics_ = {};

  // 1. Contacts. A pair is solved when it holds a dynamic body and something in it moves;
  //    a pair of bodies at rest keeps last step's contacts (neither moved since).
  auto moving = [&](const BodyState& state) {
    return state.awake && (state.type == BodyType::dynamic_body || state.velocity != Vec2{} || state.angular_velocity != 0);
  };
  world_.candidate_pairs(candidate_pairs_);
  StepScratch& scratch = *scratch_;
  std::vector<RigidContact>& previous = scratch.previous_contacts;
  previous.swap(contacts_);  // both keep their capacity from step to step
  contacts_.clear();
  std::size_t cursor = 0;  // into `previous`, sorted like candidate_pairs_
  for (const auto& [handle_a, handle_b] : candidate_pairs_) {
    const BodyState& a = states_[handle_a.index];
    const BodyState& b = states_[handle_b.index];
    if (a.type != BodyType::dynamic_body && b.type != BodyType::dynamic_body) continue;
    while (cursor < previous.size() && (previous[cursor].a != handle_a ? previous[cursor].a < handle_a : previous[cursor].b < handle_b)) ++cursor;
    std::size_t first_previous = cursor, end_previous = cursor;
    while (end_previous < previous.size() && previous[end_previous].a == handle_a && previous[end_previous].b == handle_b) ++end_previous;
    if (!moving(a) && !moving(b)) {
      contacts_.insert(contacts_.end(), previous.begin() + static_cast<std::ptrdiff_t>(first_previous),
                       previous.begin() + static_cast<std::ptrdiff_t>(end_previous));
      continue;
    }
    const BodyDefinition& body_a = *world_.find(handle_a);
    const BodyDefinition& body_b = *world_.find(handle_b);
    child_manifolds_.clear();
    contact_manifolds(body_a.shape, body_a.transform, body_b.shape, body_b.transform, child_manifolds_,
                      {.speculative_distance = speculative_distance_, .reference_face_hysteresis = Real(0.1) * options.linear_slop});
    for (const ChildManifold& child : child_manifolds_) {
      RigidContact contact;
      contact.a = handle_a;
      contact.b = handle_b;
      contact.child_a = child.child_a;
      contact.child_b = child.child_b;
      contact.normal = child.manifold.normal;
      contact.tangent = right_perpendicular(child.manifold.normal);
      contact.point_count = child.manifold.point_count;
      contact.friction = std::sqrt(a.friction * b.friction);
      contact.restitution = std::max(a.restitution, b.restitution);
      const RigidContact* old = nullptr;
      for (std::size_t k = first_previous; k < end_previous; ++k) {
        if (previous[k].child_a == child.child_a && previous[k].child_b == child.child_b) old = &previous[k];
      }
      for (int i = 0; i < contact.point_count; ++i) {
        const ManifoldPoint& source = child.manifold.points[static_cast<std::size_t>(i)];
        RigidContactPoint& point = contact.points[static_cast<std::size_t>(i)];
        point.point = source.point;
        point.separation = source.separation;
        point.id = source.id;
      }
      if (old != nullptr) carry_impulses(*old, contact, speculative_distance_);
      contacts_.push_back(contact);
    }
  }

  // 2. Islands of touching dynamic bodies; one awake member (or a moving kinematic body
  //    touching one) wakes the island.
  Islands& islands = scratch.islands;
  islands.parent.resize(states_.size());
  std::iota(islands.parent.begin(), islands.parent.end(), std::uint32_t{0});
  std::vector<char>& island_awake = scratch.island_awake;
  island_awake.assign(states_.size(), 0);
  std::vector<BodyHandle>& live = scratch.live;
  world_.bodies(live);
  for (const RigidContact& contact : contacts_) {
    BodyState& a = states_[contact.a.index];
    BodyState& b = states_[contact.b.index];
    if (a.type == BodyType::dynamic_body && b.type == BodyType::dynamic_body) {
      islands.join(contact.a.index, contact.b.index);
    } else if (a.type == BodyType::kinematic_body && moving(a)) {
      b.awake = true;
      b.sleep_time = 0;
    } else if (b.type == BodyType::kinematic_body && moving(b)) {
      a.awake = true;
      a.sleep_time = 0;
    }
  }
  for (BodyHandle body : live) {
    const BodyState& state = states_[body.index];
    if (state.type == BodyType::dynamic_body && state.awake) island_awake[islands.root(body.index)] = 1;
  }
  for (BodyHandle body : live) {
    BodyState& state = states_[body.index];
    if (state.type != BodyType::dynamic_body || !island_awake[islands.root(body.index)] || state.awake) continue;
    state.awake = true;
    state.sleep_time = 0;
  }

  // 3. Solver bodies (entry 0 is the fixed body) and prepared contact constraints.
  std::vector<SolverBody>& bodies = scratch.bodies;
  bodies.assign(1, SolverBody{});
  std::vector<BodyHandle>& solved = scratch.solved;  // the body of each solver entry from 1 on
  solved.clear();
  for (BodyHandle body : live) {
    BodyState& state = states_[body.index];
    state.solver_index = 0;
    if (state.type == BodyType::static_body || !state.awake) continue;
    state.solver_index = static_cast<int>(bodies.size());
    bodies.push_back({state.velocity, state.angular_velocity, state.inverse_mass, state.inverse_inertia, Vec2{}, Rot{}});
    solved.push_back(body);
  }
  statistics_.awake_bodies = static_cast<int>(solved.size());

  const Real contact_hertz = std::min(options.contact_hertz, Real(0.25) * inverse_substep);
  const SoftConstraints softness{make_soft(contact_hertz, options.contact_damping_ratio, substep),
                                 make_soft(2 * contact_hertz, options.contact_damping_ratio, substep)};
  std::vector<ContactConstraint>& constraints = scratch.constraints;
  std::vector<ConstraintSource>& sources = scratch.sources;
  constraints.clear();
  sources.clear();
  std::vector<Real>& closing_velocity = scratch.closing_velocity;  // of each contact's first point, at the step's start
  closing_velocity.assign(contacts_.size(), 0);
  scratch.solver_bodies_of.clear();
  scratch.constrained.clear();
  for (std::size_t index = 0; index < contacts_.size(); ++index) {
    const int a = states_[contacts_[index].a.index].solver_index;
    const int b = states_[contacts_[index].b.index].solver_index;
    if (a == 0 && b == 0) continue;
    scratch.solver_bodies_of.emplace_back(a, b);
    scratch.constrained.push_back(static_cast<int>(index));
  }
  colour_order(scratch.solver_bodies_of, bodies.size(), scratch.colour_bodies, scratch.colour_of, scratch.solve_order);
  for (const int entry : scratch.solve_order) {
    const auto index = static_cast<std::size_t>(scratch.constrained[static_cast<std::size_t>(entry)]);
    const RigidContact& contact = contacts_[index];
    const BodyState& a = states_[contact.a.index];
    const BodyState& b = states_[contact.b.index];
    ContactConstraint constraint;
    constraint.body_a = a.solver_index;
    constraint.body_b = b.solver_index;
    constraint.normal = contact.normal;
    constraint.friction = contact.friction;
    constraint.against_fixed = a.inverse_mass == 0 || b.inverse_mass == 0;
    constraint.point_count = contact.point_count;
    ConstraintSource constraint_source;
    constraint_source.contact = static_cast<int>(index);
    constraint_source.restitution = contact.restitution;
    const SolverBody& solver_a = bodies[static_cast<std::size_t>(a.solver_index)];
    const SolverBody& solver_b = bodies[static_cast<std::size_t>(b.solver_index)];
    for (int i = 0; i < contact.point_count; ++i) {
      const RigidContactPoint& source = contact.points[static_cast<std::size_t>(i)];
      ConstraintPoint& point = constraint.points[static_cast<std::size_t>(i)];
      point.anchor_a = source.point - a.center;
      point.anchor_b = source.point - b.center;
      point.base_separation = source.separation - dot(point.anchor_b - point.anchor_a, contact.normal);
      point.normal_arm_a = cross(point.anchor_a, contact.normal);
      point.normal_arm_b = cross(point.anchor_b, contact.normal);
      point.tangent_arm_a = cross(point.anchor_a, contact.tangent);
      point.tangent_arm_b = cross(point.anchor_b, contact.tangent);
      const Real normal_inverse = a.inverse_mass + b.inverse_mass + a.inverse_inertia * point.normal_arm_a * point.normal_arm_a +
                                  b.inverse_inertia * point.normal_arm_b * point.normal_arm_b;
      const Real tangent_inverse = a.inverse_mass + b.inverse_mass + a.inverse_inertia * point.tangent_arm_a * point.tangent_arm_a +
                                   b.inverse_inertia * point.tangent_arm_b * point.tangent_arm_b;
      point.normal_mass = normal_inverse > 0 ? 1 / normal_inverse : 0;
      point.tangent_mass = tangent_inverse > 0 ? 1 / tangent_inverse : 0;
      point.normal_impulse = source.normal_impulse;
      point.tangent_impulse = source.tangent_impulse;
      constraint_source.closing_velocity[static_cast<std::size_t>(i)] =
          speed_along(solver_a, solver_b, contact.normal, point.normal_arm_a, point.normal_arm_b);
    }
    closing_velocity[index] = constraint_source.closing_velocity[0];
    constraints.push_back(constraint);
    sources.push_back(constraint_source);
  }
  statistics_.contacts = static_cast<int>(constraints.size());

  // 4. Sub-steps.
  std::vector<Vec2>& start_center = scratch.start_center;
  std::vector<Real>& start_angle = scratch.start_angle;
  std::vector<Rot>& start_rotation = scratch.start_rotation;
  std::vector<BodyPlacement>& placements = scratch.placements;
  std::vector<BodyIntegration>& integration = scratch.integration;
  start_center.resize(solved.size());
  start_angle.resize(solved.size());
  start_rotation.resize(solved.size());
  placements.resize(solved.size());
  integration.resize(solved.size());
  for (std::size_t i = 0; i < solved.size(); ++i) {
    const BodyState& state = states_[solved[i].index];
    start_center[i] = state.center;
    start_angle[i] = state.angle;
    start_rotation[i] = state.rotation;
    placements[i] = {state.center, state.angle, state.rotation};
    integration[i] = state.type == BodyType::dynamic_body
                         ? BodyIntegration{(substep * state.gravity_scale) * gravity_, 1 / (1 + substep * state.linear_damping),
                                           1 / (1 + substep * state.angular_damping)}
                         : BodyIntegration{};
  }
  for (int sub = 0; sub < substeps; ++sub) {
    for (std::size_t i = 0; i < solved.size(); ++i) {
      const BodyIntegration& rule = integration[i];
      SolverBody& body = bodies[i + 1];
      body.velocity = rule.linear_scale * (body.velocity + rule.gravity_velocity);
      body.angular_velocity *= rule.angular_scale;
    }
    warm_start(constraints, bodies);
    solve_contacts(constraints, bodies, softness, inverse_substep, options.max_push_speed, true);
    for (std::size_t i = 0; i < solved.size(); ++i) {
      BodyPlacement& placement = placements[i];
      SolverBody& body = bodies[i + 1];
      body.delta_position = body.delta_position + substep * body.velocity;
      placement.center = placement.center + substep * body.velocity;
      if (body.angular_velocity != 0) {
        placement.angle += substep * body.angular_velocity;
        placement.rotation = Rot::from_angle(placement.angle);
        body.delta_rotation = inverse_compose(start_rotation[i], placement.rotation);
      }
    }
    for (int relax = 0; relax < options.relax_iterations; ++relax) {
      solve_contacts(constraints, bodies, softness, inverse_substep, options.max_push_speed, false);
    }
  }

  // The placements go back to the bodies.
  for (std::size_t i = 0; i < solved.size(); ++i) {
    BodyState& state = states_[solved[i].index];
    state.center = placements[i].center;
    state.angle = placements[i].angle;
    state.rotation = placements[i].rotation;
  }

  // 5. Restitution, then the impulses go back to the contacts for the next step's warm start.
  apply_restitution(constraints, sources, bodies, options.restitution_threshold);
  for (std::size_t k = 0; k < constraints.size(); ++k) {
    const ContactConstraint& constraint = constraints[k];
    RigidContact& contact = contacts_[static_cast<std::size_t>(sources[k].contact)];
    for (int i = 0; i < constraint.point_count; ++i) {
      const ConstraintPoint& source = constraint.points[static_cast<std::size_t>(i)];
      RigidContactPoint& point = contact.points[static_cast<std::size_t>(i)];
      point.normal_impulse = source.normal_impulse;
      point.tangent_impulse = source.tangent_impulse;
      point.total_normal_impulse = source.total_normal_impulse;
    }
  }

  // 6. Velocities back to the bodies; fast bodies swept against static ones; placements to the world.
  std::vector<BodyHandle> candidates;
  for (std::size_t i = 0; i < solved.size(); ++i) {
    BodyState& state = states_[solved[i].index];
    const SolverBody& body = bodies[i + 1];
    state.velocity = body.velocity;
    state.angular_velocity = body.angular_velocity;
    const BodyDefinition& definition = *world_.find(solved[i]);
    const Vec2 motion = state.center - start_center[i];
    if (options.continuous && state.type == BodyType::dynamic_body && length_squared(motion) > 0.25F * state.min_extent * state.min_extent) {
      const Sweep sweep{state.mass.center, start_center[i], state.center, start_angle[i], state.angle};
      const Transform start{start_center[i] - rotate(start_rotation[i], state.mass.center), start_rotation[i]};
      const Transform end{state.center - rotate(state.rotation, state.mass.center), state.rotation};
      const Aabb swept = compute_aabb(definition.shape, start).merged(compute_aabb(definition.shape, end));
      Real first_time = 1;
      for (BodyHandle other : world_.query_aabb(swept, definition.filter)) {
        const BodyState& other_state = states_[other.index];
        if (other_state.type != BodyType::static_body) continue;
        const BodyDefinition& obstacle = *world_.find(other);
        const Sweep still{{}, obstacle.transform.position, obstacle.transform.position, obstacle.transform.rotation.angle(),
                          obstacle.transform.rotation.angle()};
        std::optional<CastHit> hit = time_of_impact(definition.shape, sweep, obstacle.shape, still, {.target_separation = options.linear_slop});
        if (hit && hit->initially_touching) {
          // Touching at the start is the solver's contact, but the body may still turn or slide
          // through: sweep its core, a circle a quarter of its smallest extent around the centre
          // of mass, which meets the obstacle only when the body would go deep into it.
          const Shape core = Circle{state.mass.center, Real(0.25) * state.min_extent};
          // A core already touching and closing in means the body is deep in the obstacle: it
          // stays where the step began (time 0).
          hit = time_of_impact(core, sweep, obstacle.shape, still, {});
        }
        if (!hit) continue;
        if (hit->status == IterationStatus::iteration_cap) ++statistics_.continuous_iteration_caps;
        first_time = std::min(first_time, hit->time);
      }
      if (first_time < 1) {
        ++statistics_.continuous_hits;
        state.center = lerp(start_center[i], state.center, first_time);
        state.angle = start_angle[i] + first_time * (state.angle - start_angle[i]);
        if (state.angle != start_angle[i]) state.rotation = Rot::from_angle(state.angle);
      }
    }
    world_.set_transform(solved[i], {state.center - rotate(state.rotation, state.mass.center), state.rotation});
  }

  // 7. Sleep: an island sleeps when its slowest-to-settle body has been at rest long enough.
  std::vector<Real>& island_rest = scratch.island_rest;
  island_rest.assign(states_.size(), std::numeric_limits<Real>::max());
  for (BodyHandle body : solved) {
    BodyState& state = states_[body.index];
    if (state.type != BodyType::dynamic_body) continue;
    const bool at_rest = state.allow_sleep && length_squared(state.velocity) <= options.sleep_linear_speed * options.sleep_linear_speed &&
                         std::abs(state.angular_velocity) <= options.sleep_angular_speed;
    state.sleep_time = at_rest ? state.sleep_time + duration : 0;
  }
  for (const RigidContact& contact : contacts_) {
    // A moving kinematic body keeps what it touches awake.
    const BodyState& a = states_[contact.a.index];
    const BodyState& b = states_[contact.b.index];
    if (a.type == BodyType::kinematic_body && moving(a)) states_[contact.b.index].sleep_time = 0;
    if (b.type == BodyType::kinematic_body && moving(b)) states_[contact.a.index].sleep_time = 0;
  }
  for (BodyHandle body : solved) {
    const BodyState& state = states_[body.index];
    if (state.type != BodyType::dynamic_body) continue;
    Real& rest = island_rest[islands.root(body.index)];
    if (rest == std::numeric_limits<Real>::max()) ++statistics_.islands;
    rest = std::min(rest, state.sleep_time);
  }
  if (options.sleep) {
    for (BodyHandle body : solved) {
      BodyState& state = states_[body.index];
      if (state.type != BodyType::dynamic_body || island_rest[islands.root(body.index)] < options.time_to_sleep) continue;
      state.awake = false;
      state.velocity = {};
      state.angular_velocity = 0;
    }
  }

  // Events: a pair touches when one of its points is within the slop. A pair that touches now
  //    and did not after the previous step began; one that did and does not (or lost a body) ended.
  std::vector<std::pair<BodyHandle, BodyHandle>>& touching = scratch.touching;
  touching.clear();
  began_.clear();
  std::size_t before = 0;  // into touching_, sorted like contacts_
  for (std::size_t first = 0; first < contacts_.size();) {
    std::size_t end = first;
    bool touches = false;
    Real impulse = 0;
    for (; end < contacts_.size() && contacts_[end].a == contacts_[first].a && contacts_[end].b == contacts_[first].b; ++end) {
      const RigidContact& contact = contacts_[end];
      for (int i = 0; i < contact.point_count; ++i) {
        const RigidContactPoint& point = contact.points[static_cast<std::size_t>(i)];
        touches = touches || point.separation <= options.linear_slop;
        impulse += point.total_normal_impulse;
      }
    }
    const RigidContact& contact = contacts_[first];
    if (touches) {
      touching.emplace_back(contact.a, contact.b);
      while (before < touching_.size() && touching_[before] < touching.back()) ++before;
      if (before == touching_.size() || touching_[before] != touching.back()) {
        began_.push_back({contact.a, contact.b, contact.points[0].point, contact.normal, -closing_velocity[first], impulse});
      }
    }
    first = end;
  }
  ended_.clear();
  std::set_difference(touching_.begin(), touching_.end(), touching.begin(), touching.end(), std::back_inserter(ended_));
  touching_.swap(touching);
}

}  // namespace collide2d

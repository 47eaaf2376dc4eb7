// collide2d/dynamics.hpp — rigid bodies: mass properties from shapes, and a physics step with
// sequential impulses (soft contacts, sub-steps, friction, restitution), warm starting through
// manifold feature ids, continuous collision against static bodies, islands and sleeping.
//
// A PhysicsWorld keeps a collision World (world()) holding every body's shape and placement, so
// every World query (rays, casts, points, boxes) works on the simulated bodies; the dynamic state
// (mass, velocity, sleep) lives beside it. docs/dynamics.md explains the step.
//
// The default tolerances (slop, speculative distance, push-out speed, sleep speeds, restitution
// threshold) are in length units and are tuned, like Box2D's, for bodies about 0.1 to 10 units
// across; scale them with your units (StepOptions).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "collide2d/manifold.hpp"
#include "collide2d/math.hpp"
#include "collide2d/result.hpp"
#include "collide2d/shapes.hpp"
#include "collide2d/world.hpp"

namespace collide2d {

/// Mass, centre of mass and rotational inertia of a shape of uniform density.
struct MassProperties {
  Real mass = 0;     ///< density x area (mass units); 0 for shapes without area (segments, zero radius points)
  Vec2 center;       ///< centre of mass, in the shape's local frame (the origin when the mass is 0)
  Real inertia = 0;  ///< rotational inertia about `center`, mass x length^2
};

/// The mass properties of a convex shape of the given density (mass per unit area, >= 0).
/// Rounded shapes (capsules, rounded polygons, circles) count their rounding exactly: the core,
/// a rectangle along each edge and a circular sector at each vertex.
MassProperties compute_mass(const ConvexShape& shape, Real density);
/// The mass properties of any shape; a compound sums its children placed by their transforms.
MassProperties compute_mass(const Shape& shape, Real density);

/// How a body moves.
enum class BodyType {
  static_body,     ///< never moves; infinite mass
  kinematic_body,  ///< moves by its velocity, unaffected by forces and contacts; infinite mass
  dynamic_body,    ///< moved by gravity, impulses and contacts; mass from its shape and density
};

/// Everything a rigid body is made of.
struct RigidBodyDefinition {
  Shape shape{};                  ///< the shape (convex or compound), in the body's local frame
  Transform transform{};          ///< world placement of the body's origin
  BodyType type = BodyType::dynamic_body;  ///< static, kinematic or dynamic
  Real density = 1;               ///< mass per unit area (>= 0); a dynamic body needs a positive mass
  Real friction = 0.6F;           ///< Coulomb friction coefficient (>= 0); a pair uses sqrt(friction_a x friction_b)
  Real restitution = 0;           ///< bounciness (>= 0, 1 keeps the closing speed); a pair uses the larger
  Vec2 velocity{};                ///< world velocity of the centre of mass, length units per time unit
  Real angular_velocity = 0;      ///< radians per time unit, counter-clockwise
  Real linear_damping = 0;        ///< per time unit (>= 0): velocity is scaled by 1 / (1 + h x damping) each sub-step h
  Real angular_damping = 0;       ///< per time unit (>= 0), the same for the angular velocity
  Real gravity_scale = 1;         ///< multiplies the world's gravity for this body
  bool fixed_rotation = false;    ///< a dynamic body that never turns (infinite rotational inertia)
  bool allow_sleep = true;        ///< false keeps the body (and its island) awake
  bool awake = true;              ///< starts awake; a dynamic body added asleep wakes when touched
  CollisionFilter filter{};       ///< category and mask bits (a pair needs both to allow it)
  std::uint64_t user_data = 0;    ///< anything the caller wants back
};

/// Why a body could not be added.
struct BodyError {
  std::string message;  ///< one sentence naming the field and the problem
};

/// Options for PhysicsWorld::step. Length defaults suit bodies about 0.1 to 10 units across.
struct StepOptions {
  int substeps = 4;                    ///< sub-steps per step (>= 1): each integrates, solves and relaxes
  int relax_iterations = 1;            ///< velocity iterations without position bias after each sub-step (>= 0)
  Real contact_hertz = 30;             ///< stiffness of the soft contact (per time unit), capped at a quarter of the sub-step rate
  Real contact_damping_ratio = 10;     ///< damping of the soft contact (dimensionless)
  Real max_push_speed = 3;             ///< length units per time unit: the fastest an overlap is pushed out
  Real linear_slop = 0.005F;           ///< length units: a pair this close touches (events); a swept body stops this far short
  Real restitution_threshold = 1;      ///< length units per time unit: closing speeds below this do not bounce
  bool continuous = true;              ///< sweep fast dynamic bodies against static ones so they cannot pass through
  bool sleep = true;                   ///< let islands at rest fall asleep
  Real time_to_sleep = 0.5F;           ///< time units an island must stay slow before it sleeps
  Real sleep_linear_speed = 0.05F;     ///< length units per time unit below which a body counts as at rest
  Real sleep_angular_speed = 0.0349F;  ///< radians per time unit (2 degrees) below which a body counts as at rest
};

/// One contact point of a RigidContact, with the impulses the last step applied at it.
struct RigidContactPoint {
  Vec2 point;                 ///< world point midway between the surfaces, at the start of the step
  Real separation = 0;        ///< gap along the normal at the start of the step: < 0 overlapping, length units
  Real normal_impulse = 0;    ///< accumulated normal impulse of the last sub-step (mass x length / time), >= 0
  Real tangent_impulse = 0;   ///< accumulated friction impulse of the last sub-step, along the tangent
  Real total_normal_impulse = 0;  ///< every normal impulse applied during the step at this point, summed
  FeatureId id = 0;           ///< the manifold feature id that carries the impulses to the next step
};

/// A pair of bodies in contact (or within the speculative distance), one per touching child pair.
struct RigidContact {
  BodyHandle a;          ///< the body with the smaller index
  BodyHandle b;          ///< the body with the larger index
  int child_a = -1;      ///< the child of a's compound, or -1 when a is convex
  int child_b = -1;      ///< the child of b's compound, or -1 when b is convex
  Vec2 normal;           ///< world unit normal from a to b
  Vec2 tangent;          ///< world unit tangent, the normal turned clockwise (friction impulses point along it)
  std::array<RigidContactPoint, 2> points{};  ///< the first point_count are in use
  int point_count = 0;   ///< 1 or 2
  Real friction = 0;     ///< the pair's mixed friction
  Real restitution = 0;  ///< the pair's mixed restitution
};

/// A pair that began touching in the last step.
struct ContactBegin {
  BodyHandle a;                ///< the body with the smaller index
  BodyHandle b;                ///< the body with the larger index
  Vec2 point;                  ///< world point of the first contact point
  Vec2 normal;                 ///< world unit normal from a to b
  Real approach_speed = 0;     ///< closing speed along the normal at the start of the step (> 0 approaching)
  Real normal_impulse = 0;     ///< the normal impulse the step applied between them (every point, every sub-step)
};

/// What the last step did.
struct StepStatistics {
  int awake_bodies = 0;      ///< dynamic and kinematic bodies simulated
  int contacts = 0;          ///< contact pairs solved
  int islands = 0;           ///< groups of touching dynamic bodies found for sleeping
  int continuous_hits = 0;   ///< fast bodies a sweep stopped before a static body
  int continuous_iteration_caps = 0;  ///< sweeps that ended at their iteration cap (their time is a safe, early estimate)
};

/// Options for a PhysicsWorld.
struct PhysicsWorldOptions {
  Vec2 gravity{0, -10};   ///< acceleration of every dynamic body (times its gravity_scale), length units per time unit^2
  /// Length units (>= 0): contact points are found this far apart (the broad phase's contact
  /// margin too), so bodies approaching slower than this per sub-step stop at contact.
  Real speculative_distance = 0.02F;
  /// The collision world's broad phase. Its contact_margin is set from speculative_distance; a
  /// dynamic tree's margin left at 0 becomes 0.1 length units.
  WorldOptions world{};
};

/// Rigid bodies stepped in time. Not thread-safe; movable, not copyable. The same calls give
/// bit-identical states in the same build.
class PhysicsWorld {
 public:
  explicit PhysicsWorld(const PhysicsWorldOptions& options = {});
  PhysicsWorld(PhysicsWorld&&) noexcept;
  PhysicsWorld& operator=(PhysicsWorld&&) noexcept;
  ~PhysicsWorld();

  /// Adds a body. Refuses (saying which field) an invalid shape (validate()), a non-finite or
  /// negative density, friction, restitution or damping, a non-finite velocity, and a dynamic
  /// body whose shape has no mass.
  Result<BodyHandle, BodyError> add(const RigidBodyDefinition& definition);
  /// Removes a body and its contacts (they end at the next step); false when the handle is stale.
  bool remove(BodyHandle body);
  /// True when the handle refers to a body still in the world.
  bool contains(BodyHandle body) const;

  /// The body's world placement (of its origin); identity for a stale handle.
  Transform transform(BodyHandle body) const;
  /// The body's angle in radians, accumulated (not wrapped) since it was added; 0 for a stale handle.
  Real angle(BodyHandle body) const;
  /// World velocity of the body's centre of mass; zero for a stale handle.
  Vec2 velocity(BodyHandle body) const;
  /// Angular velocity, radians per time unit; 0 for a stale handle.
  Real angular_velocity(BodyHandle body) const;
  /// World position of the centre of mass; zero for a stale handle.
  Vec2 center_of_mass(BodyHandle body) const;
  /// Mass, local centre of mass and inertia (zero for static and kinematic bodies and stale handles).
  MassProperties mass(BodyHandle body) const;
  /// The body's type; static for a stale handle.
  BodyType type(BodyHandle body) const;
  /// False for a sleeping (or static, or stale) body.
  bool awake(BodyHandle body) const;

  /// Places the body (wakes it and its island); false for a stale handle.
  bool set_transform(BodyHandle body, const Transform& transform);
  /// Sets the velocities of the centre of mass (wakes the body); false for a stale or static body.
  bool set_velocity(BodyHandle body, Vec2 velocity, Real angular_velocity);
  /// Applies a world impulse at a world point of a dynamic body (wakes it); false otherwise.
  bool apply_impulse(BodyHandle body, Vec2 impulse, Vec2 world_point);
  /// Wakes a sleeping body (its island follows at the next step) or, with false, puts it to sleep
  /// (velocities zeroed); false for a stale or static body.
  bool set_awake(BodyHandle body, bool awake);
  /// Changes the gravity.
  void set_gravity(Vec2 gravity);
  /// The gravity in use.
  Vec2 gravity() const;

  /// Advances the simulation by `duration` time units (> 0): finds contacts (broad phase, manifolds
  /// within the speculative distance, impulses carried over from the previous step by feature id),
  /// then per sub-step integrates velocities, solves the soft contacts, integrates positions and
  /// relaxes; applies restitution, sweeps fast bodies against static ones, and puts islands at
  /// rest to sleep. A non-positive or non-finite duration does nothing.
  void step(Real duration, const StepOptions& options = {});

  /// The contacts the last step solved or kept (sleeping pairs), in (a.index, b.index, child) order.
  const std::vector<RigidContact>& contacts() const;
  /// The contacts of the last step that involve `body`.
  std::vector<RigidContact> contacts_of(BodyHandle body) const;
  /// Pairs that began touching (a point within the linear slop) in the last step, in (a, b) order.
  const std::vector<ContactBegin>& began() const;
  /// Pairs that stopped touching in the last step (or lost a body), in (a, b) order.
  const std::vector<std::pair<BodyHandle, BodyHandle>>& ended() const;
  /// What the last step did.
  const StepStatistics& statistics() const;

  /// The collision world: every body's shape and placement (kept current by step()), for queries.
  const World& world() const;
  /// Handles of every body, in slot order.
  std::vector<BodyHandle> bodies() const;
  /// Number of bodies.
  int size() const;

 private:
  struct BodyState;
  struct StepScratch;
  BodyState* live_state(BodyHandle body);
  const BodyState* live_state(BodyHandle body) const;
  /// A field of a live body's state, or `fallback` for a stale handle.
  template <class Field>
  Field state_or(BodyHandle body, Field BodyState::*field, Field fallback) const;
  void wake(BodyHandle body);

  World world_;
  Vec2 gravity_;
  std::unique_ptr<StepScratch> scratch_;
  std::vector<BodyState> states_;  // by slot index, parallel to the world's slots
  std::vector<RigidContact> contacts_;
  std::vector<ContactBegin> began_;
  std::vector<std::pair<BodyHandle, BodyHandle>> ended_;
  std::vector<std::pair<BodyHandle, BodyHandle>> touching_;  // sorted: the touching pairs of the last step
  std::vector<std::pair<BodyHandle, BodyHandle>> candidate_pairs_;  // scratch
  std::vector<ChildManifold> child_manifolds_;  // scratch
  StepStatistics statistics_;
  Real speculative_distance_ = 0;
};

}  // namespace collide2d

// collide2d/world.hpp — a world of bodies: stable handles, a broad phase, contact pairs with
// their manifolds and begin/end events, and point, box, ray and shape queries.
#pragma once

#include <compare>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "collide2d/broad_phase.hpp"
#include "collide2d/manifold.hpp"
#include "collide2d/raycast.hpp"
#include "collide2d/shape_cast.hpp"
#include "collide2d/shapes.hpp"

namespace collide2d {

/// A stable reference to a body: a slot index and the slot's generation when the body was added.
/// Once the body is removed the handle is stale and every World function rejects it.
struct BodyHandle {
  std::uint32_t index = 0xFFFFFFFFu;  ///< slot in the world's body array
  std::uint32_t generation = 0;       ///< bumped each time the slot is freed
  friend constexpr bool operator==(BodyHandle, BodyHandle) = default;
  /// Orders by index, then generation (one 64-bit comparison).
  friend constexpr std::strong_ordering operator<=>(BodyHandle a, BodyHandle b) {
    return (std::uint64_t{a.index} << 32 | a.generation) <=> (std::uint64_t{b.index} << 32 | b.generation);
  }
};

/// Which bodies may touch: a pair is considered when (a.category & b.mask) and (b.category & a.mask)
/// are both non-zero. Queries take a filter too, tested against each body the same way.
struct CollisionFilter {
  std::uint32_t category = 1;            ///< the groups this body belongs to (bits)
  std::uint32_t mask = 0xFFFFFFFFu;      ///< the groups this body touches (bits)
};

/// Everything a body is made of.
struct BodyDefinition {
  Shape shape{};                 ///< the shape (convex or compound), in the body's local frame
  Transform transform{};         ///< world placement
  Vec2 velocity{};               ///< linear velocity of the body's origin, world units per time unit; World::integrate moves by it
  Real angular_velocity = 0;     ///< radians per time unit, counter-clockwise about the body's origin; World::integrate turns by it
  std::uint64_t user_data = 0;   ///< anything the caller wants back
  CollisionFilter filter{};      ///< category and mask bits
  /// A sensor reports its overlaps (update() lists them as contacts marked `sensor`, with began
  /// and ended events) but never blocks: casts, collision planes and push-outs pass through it.
  bool sensor = false;
};

/// Which bodies a mover's query (shape casts, collision planes, push-out) considers.
struct QueryFilter {
  CollisionFilter filter{};      ///< category and mask, tested against each body as for a pair
  BodyHandle ignore{};           ///< a body to leave out (the mover's own body, when it is in the world)
  bool include_sensors = false;  ///< sensors never block unless this is set
};

/// A pair of bodies that overlap or touch, with one contact manifold (normal from a to b). A body
/// that is a compound has one ContactPair per touching child pair.
struct ContactPair {
  BodyHandle a;       ///< the body with the smaller index
  BodyHandle b;       ///< the body with the larger index
  Manifold manifold;  ///< world-space manifold, at least one point
  int child_a = -1;   ///< the child of a's compound that touches, or -1 when a is convex
  int child_b = -1;   ///< the child of b's compound that touches, or -1 when b is convex
  bool sensor = false;  ///< a or b is a sensor: an overlap to report, not a contact to respond to
};

/// A body a world ray cast hits.
struct WorldRayHit {
  BodyHandle body;  ///< the body hit
  RayHit hit;       ///< where, at which fraction, with which surface normal
};

/// A body a world shape cast hits.
struct WorldCastHit {
  BodyHandle body;  ///< the body hit
  CastHit hit;      ///< when (fraction of the motion), where, and the normal from the body toward the moving shape
};

/// A surface near a shape: one contact point of a body within the skin distance, as a plane the
/// shape should not cross.
struct CollisionPlane {
  BodyHandle body;       ///< the body the surface belongs to
  int child = -1;        ///< the child of the body's compound, or -1 when it is convex
  Vec2 normal;           ///< world unit normal from the body toward the shape
  Vec2 point;            ///< world contact point, midway between the surfaces
  Real separation = 0;   ///< signed gap along the normal: < 0 overlapping, length units
};

/// Options for a World.
struct WorldOptions {
  BroadPhaseKind broad_phase = BroadPhaseKind::dynamic_tree;  ///< which broad phase finds candidate pairs
  BroadPhaseOptions broad_phase_options;                      ///< its tuning
  /// Length units (>= 0) added around every body's bounding box in the broad phase, so pairs up to
  /// this far apart become candidates (a PhysicsWorld sets its speculative distance here). Answers
  /// do not change: every query and update() still tests the shapes themselves; query_aabb()
  /// reports the bodies whose grown boxes overlap the region. Every box is also grown by the
  /// touching band of its coordinates (docs/conventions.md), so that bodies touching within their
  /// pair's band are always candidates.
  Real contact_margin = 0;
};

/// Bodies, their contacts and queries over them. Not thread-safe; cheap to move, not copyable.
class World {
 public:
  explicit World(const WorldOptions& options = {});
  World(World&&) noexcept;
  World& operator=(World&&) noexcept;
  ~World();

  /// Adds a body and returns its handle. Slots of removed bodies are reused with a new generation.
  BodyHandle add(BodyDefinition definition);
  /// Removes a body; false (and nothing changes) when the handle is stale.
  bool remove(BodyHandle body);
  /// True when the handle refers to a body still in the world.
  bool contains(BodyHandle body) const;
  /// The body's definition, or nullptr for a stale handle. Valid until the next add or remove.
  const BodyDefinition* find(BodyHandle body) const;
  /// Moves a body; false for a stale handle.
  bool set_transform(BodyHandle body, const Transform& transform);
  /// Sets a body's velocities; false for a stale handle.
  bool set_velocity(BodyHandle body, Vec2 velocity, Real angular_velocity);
  /// Changes a body's filter; false for a stale handle.
  bool set_filter(BodyHandle body, const CollisionFilter& filter);
  /// Replaces a body's shape in place (its handle, transform and contacts' identity stay); false for a stale handle.
  bool set_shape(BodyHandle body, Shape shape);
  /// Replaces a body's user data; false for a stale handle.
  bool set_user_data(BodyHandle body, std::uint64_t user_data);
  /// Makes a body a sensor or a solid; false for a stale handle.
  bool set_sensor(BodyHandle body, bool sensor);
  /// Moves every body by its velocity and angular velocity for `duration` time units (turning
  /// about its origin): kinematic motion, no response. update() then finds the new contacts.
  void integrate(Real duration);
  /// Number of bodies in the world.
  int size() const;
  /// Handles of every body, in slot order.
  std::vector<BodyHandle> bodies() const;
  /// The same into `handles`, which is replaced (and keeps its capacity from call to call).
  void bodies(std::vector<BodyHandle>& handles) const;

  /// The pairs of bodies whose bounding boxes overlap or touch and whose filters allow them, as
  /// (smaller index, larger index), ascending: the candidates update() runs the narrow phase on.
  /// `pairs` is replaced.
  void candidate_pairs(std::vector<std::pair<BodyHandle, BodyHandle>>& pairs);
  /// Finds every pair of bodies that overlap or touch (allowed by their filters) with its
  /// manifolds, in order of (a.index, b.index, child_a, child_b), and which pairs began and ended touching since the
  /// previous update (a removed body's pairs end at the next update, with its now-stale handle).
  void update();
  /// The pairs found by the last update.
  const std::vector<ContactPair>& contacts() const;
  /// Pairs (a, b) that touch now and did not at the previous update, in (a.index, b.index) order.
  const std::vector<std::pair<BodyHandle, BodyHandle>>& began() const;
  /// Pairs that touched at the previous update and do not now, in (a.index, b.index) order.
  const std::vector<std::pair<BodyHandle, BodyHandle>>& ended() const;
  /// The contacts of the last update that involve `body` (as a or b), in the order of contacts().
  std::vector<ContactPair> contacts_of(BodyHandle body) const;

  /// Bodies whose shape contains the world point (surface included), in slot order.
  std::vector<BodyHandle> query_point(Vec2 point, const CollisionFilter& filter = {}) const;
  /// Bodies whose bounding box, grown by contact_margin and the touching band of its coordinates,
  /// overlaps the box, in slot order.
  std::vector<BodyHandle> query_aabb(const Aabb& region, const CollisionFilter& filter = {}) const;
  /// Bodies whose shape overlaps or touches `shape` placed by `transform`, in slot order.
  std::vector<BodyHandle> query_shape(const Shape& shape, const Transform& transform, const CollisionFilter& filter = {}) const;
  /// The first body the ray hits (smallest fraction; ties to the smaller slot), or empty.
  std::optional<WorldRayHit> ray_cast_first(const Ray& ray, const CollisionFilter& filter = {}) const;
  /// Every body the ray hits, by fraction (ties by slot).
  std::vector<WorldRayHit> ray_cast_all(const Ray& ray, const CollisionFilter& filter = {}) const;

  /// The first body `shape`, starting at `transform`, meets while moving by `translation` (world):
  /// the smallest time, ties to the smaller slot; empty when it meets none. A body the shape already
  /// overlaps, or touches while the motion closes the gap, is met at time 0; one it touches and
  /// moves away from or along is not (shape_cast()). options.target_separation stops it short.
  std::optional<WorldCastHit> shape_cast_first(const Shape& shape, const Transform& transform, Vec2 translation,
                                               const QueryFilter& filter = {}, const CastOptions& options = {}) const;
  /// Every body the moving shape meets, by time (ties by slot).
  std::vector<WorldCastHit> shape_cast_all(const Shape& shape, const Transform& transform, Vec2 translation,
                                           const QueryFilter& filter = {}, const CastOptions& options = {}) const;
  /// The surfaces within `skin` (length units, >= 0) of `shape` placed by `transform`: every
  /// contact point of contact_manifolds() with that speculative distance, as planes, in slot order.
  std::vector<CollisionPlane> collision_planes(const Shape& shape, const Transform& transform, Real skin,
                                               const QueryFilter& filter = {}) const;

  /// The broad phase in use (for validation and statistics).
  const BroadPhase& broad_phase() const;

 private:
  struct Slot;
  const Slot* live_slot(BodyHandle body) const;
  /// The box the broad phase keeps for a body: its bounding box grown by the contact margin.
  Aabb proxy_box(const Shape& shape, const Transform& transform) const;
  Slot* live_slot(BodyHandle body);
  /// The live bodies whose boxes overlap `region` and that the query filter lets through, in slot order.
  std::vector<BodyHandle> blocking_candidates(const Aabb& region, const QueryFilter& filter) const;

  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_slots_;
  /// What candidate_pairs needs of a live proxy's body, kept small and indexed by proxy id.
  struct ProxyOwner {
    std::uint32_t slot = 0;        ///< the body's slot
    std::uint32_t generation = 0;  ///< the slot's generation
    CollisionFilter filter;        ///< the body's filter (set_filter updates it)
  };
  std::vector<ProxyOwner> proxy_owners_;  ///< by proxy id
  std::unique_ptr<BroadPhase> broad_phase_;
  std::vector<ContactPair> contacts_;
  std::vector<std::pair<BodyHandle, BodyHandle>> began_;
  std::vector<std::pair<BodyHandle, BodyHandle>> ended_;
  std::vector<std::pair<BodyHandle, BodyHandle>> touching_;  // sorted: the pairs of the last update
  std::vector<std::pair<BodyHandle, BodyHandle>> touching_now_;  // scratch for update: this update's pairs
  std::vector<std::pair<int, int>> proxy_pairs_;              // scratch for find_pairs
  std::vector<std::pair<BodyHandle, BodyHandle>> candidates_; // scratch for update
  std::vector<ChildManifold> child_manifolds_;                // scratch for contact_manifolds
  Real contact_margin_ = 0;
  int count_ = 0;
};

}  // namespace collide2d

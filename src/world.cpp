// world.cpp — bodies behind generation-checked handles, over a broad phase.
//
// Outline of update(): the broad phase reports every pair of proxies whose bounding boxes
// overlap; pairs the filters forbid are dropped (candidate_pairs); each remaining pair gets contact_manifolds()
// (one manifold per touching child pair when a body is a compound), and a pair with at least one
// manifold is touching. The pairs are sorted by slot, then compared
// with the previous update's sorted list (a merge) to produce the began and ended events.
#include "collide2d/world.hpp"

#include <algorithm>
#include <tuple>

#include "collide2d/overlap.hpp"
#include "collide2d/point_query.hpp"
#include "culling.hpp"
#include "prefetch.hpp"

namespace collide2d {

struct World::Slot {
  BodyDefinition definition;
  std::uint32_t generation = 0;
  int proxy = -1;      // broad-phase proxy while alive
  bool alive = false;
};

namespace {

bool filters_allow(const CollisionFilter& a, const CollisionFilter& b) {
  return (a.category & b.mask) != 0 && (b.category & a.mask) != 0;
}

}  // namespace

World::World(const WorldOptions& options)
    : broad_phase_(make_broad_phase(options.broad_phase, options.broad_phase_options)), contact_margin_(std::max(options.contact_margin, Real{0})) {}
World::World(World&&) noexcept = default;
World& World::operator=(World&&) noexcept = default;
World::~World() = default;

Aabb World::proxy_box(const Shape& shape, const Transform& transform) const {
  // Widened by the touching band of its coordinates as well (detail::culling_region): two bodies
  // whose boxes miss by less than their pair's band may still touch.
  return detail::culling_region(shape, transform, contact_margin_);
}

const World::Slot* World::live_slot(BodyHandle body) const {
  if (body.index >= slots_.size()) return nullptr;
  const Slot& slot = slots_[body.index];
  return slot.alive && slot.generation == body.generation ? &slot : nullptr;
}
World::Slot* World::live_slot(BodyHandle body) { return const_cast<Slot*>(std::as_const(*this).live_slot(body)); }

BodyHandle World::add(BodyDefinition definition) {
  std::uint32_t index;
  if (!free_slots_.empty()) {
    index = free_slots_.back();
    free_slots_.pop_back();
  } else {
    index = static_cast<std::uint32_t>(slots_.size());
    slots_.emplace_back();
  }
  Slot& slot = slots_[index];
  slot.proxy = broad_phase_->insert(proxy_box(definition.shape, definition.transform));
  slot.definition = std::move(definition);
  slot.alive = true;
  if (proxy_owners_.size() <= static_cast<std::size_t>(slot.proxy)) proxy_owners_.resize(static_cast<std::size_t>(slot.proxy) + 1);
  proxy_owners_[static_cast<std::size_t>(slot.proxy)] = {index, slot.generation, slot.definition.filter};
  ++count_;
  return {index, slot.generation};
}

bool World::remove(BodyHandle body) {
  Slot* slot = live_slot(body);
  if (slot == nullptr) return false;
  broad_phase_->remove(slot->proxy);
  slot->proxy = -1;
  slot->alive = false;
  slot->definition = {};
  ++slot->generation;
  free_slots_.push_back(body.index);
  --count_;
  return true;
}

bool World::contains(BodyHandle body) const { return live_slot(body) != nullptr; }

const BodyDefinition* World::find(BodyHandle body) const {
  const Slot* slot = live_slot(body);
  return slot == nullptr ? nullptr : &slot->definition;
}

bool World::set_transform(BodyHandle body, const Transform& transform) {
  Slot* slot = live_slot(body);
  if (slot == nullptr) return false;
  slot->definition.transform = transform;
  broad_phase_->move(slot->proxy, proxy_box(slot->definition.shape, transform));
  return true;
}

bool World::set_velocity(BodyHandle body, Vec2 velocity, Real angular_velocity) {
  Slot* slot = live_slot(body);
  if (slot == nullptr) return false;
  slot->definition.velocity = velocity;
  slot->definition.angular_velocity = angular_velocity;
  return true;
}

bool World::set_filter(BodyHandle body, const CollisionFilter& filter) {
  Slot* slot = live_slot(body);
  if (slot == nullptr) return false;
  slot->definition.filter = filter;
  proxy_owners_[static_cast<std::size_t>(slot->proxy)].filter = filter;
  return true;
}

bool World::set_shape(BodyHandle body, Shape shape) {
  Slot* slot = live_slot(body);
  if (slot == nullptr) return false;
  slot->definition.shape = std::move(shape);
  broad_phase_->move(slot->proxy, proxy_box(slot->definition.shape, slot->definition.transform));
  return true;
}

bool World::set_user_data(BodyHandle body, std::uint64_t user_data) {
  Slot* slot = live_slot(body);
  if (slot == nullptr) return false;
  slot->definition.user_data = user_data;
  return true;
}

bool World::set_sensor(BodyHandle body, bool sensor) {
  Slot* slot = live_slot(body);
  if (slot == nullptr) return false;
  slot->definition.sensor = sensor;
  return true;
}

void World::integrate(Real duration) {
  for (Slot& slot : slots_) {
    if (!slot.alive) continue;
    BodyDefinition& body = slot.definition;
    if (body.velocity == Vec2{} && body.angular_velocity == 0) continue;
    const Rot turn = body.angular_velocity == 0 ? body.transform.rotation
                                                : Rot::from_angle(body.transform.rotation.angle() + duration * body.angular_velocity);
    body.transform = {body.transform.position + duration * body.velocity, turn};
    broad_phase_->move(slot.proxy, proxy_box(body.shape, body.transform));
  }
}

int World::size() const { return count_; }

std::vector<BodyHandle> World::bodies() const {
  std::vector<BodyHandle> handles;
  bodies(handles);
  return handles;
}

void World::bodies(std::vector<BodyHandle>& handles) const {
  handles.clear();
  for (std::uint32_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].alive) handles.push_back({i, slots_[i].generation});
  }
}

void World::candidate_pairs(std::vector<std::pair<BodyHandle, BodyHandle>>& pairs) {
  broad_phase_->find_pairs(proxy_pairs_);
  pairs.clear();
  for (const auto& [first_proxy, second_proxy] : proxy_pairs_) {
    const ProxyOwner* a = &proxy_owners_[static_cast<std::size_t>(first_proxy)];
    const ProxyOwner* b = &proxy_owners_[static_cast<std::size_t>(second_proxy)];
    if (a->slot > b->slot) std::swap(a, b);
    if (filters_allow(a->filter, b->filter)) pairs.push_back({{a->slot, a->generation}, {b->slot, b->generation}});
  }
  // Proxies are handed out in the order bodies are added, so the pairs are usually in slot order
  // already: checking is linear, sorting is not.
  if (!std::is_sorted(pairs.begin(), pairs.end())) std::sort(pairs.begin(), pairs.end());
}

void World::update() {
  candidate_pairs(candidates_);
  contacts_.clear();
  // A pair's second body is anywhere in memory, and its shape spans several cache lines (a small
  // polygon keeps its vertices and normals inline): the pair a few places ahead is asked for while
  // this one is computed, so its loads do not stall the narrow phase.
  constexpr std::size_t prefetch_ahead = 8;
  for (std::size_t i = 0; i < candidates_.size(); ++i) {
    if (i + prefetch_ahead < candidates_.size()) detail::prefetch(slots_[candidates_[i + prefetch_ahead].second.index].definition);
    const auto& [first, second] = candidates_[i];
    const Slot& a = slots_[first.index];
    const Slot& b = slots_[second.index];
    child_manifolds_.clear();
    contact_manifolds(a.definition.shape, a.definition.transform, b.definition.shape, b.definition.transform, child_manifolds_);
    const bool sensor = a.definition.sensor || b.definition.sensor;
    for (const ChildManifold& child : child_manifolds_) {
      contacts_.push_back({first, second, child.manifold, child.child_a, child.child_b, sensor});
    }
  }
  // The candidates come in (a, b) order and each pair's manifolds in (child_a, child_b) order, so
  // contacts_ is already sorted as documented.

  std::vector<std::pair<BodyHandle, BodyHandle>>& touching = touching_now_;
  touching.clear();
  for (const ContactPair& contact : contacts_) {
    if (touching.empty() || touching.back() != std::pair(contact.a, contact.b)) touching.emplace_back(contact.a, contact.b);
  }
  began_.clear();
  ended_.clear();
  std::set_difference(touching.begin(), touching.end(), touching_.begin(), touching_.end(), std::back_inserter(began_));
  std::set_difference(touching_.begin(), touching_.end(), touching.begin(), touching.end(), std::back_inserter(ended_));
  touching_.swap(touching);
}

const std::vector<ContactPair>& World::contacts() const { return contacts_; }
const std::vector<std::pair<BodyHandle, BodyHandle>>& World::began() const { return began_; }
const std::vector<std::pair<BodyHandle, BodyHandle>>& World::ended() const { return ended_; }

std::vector<ContactPair> World::contacts_of(BodyHandle body) const {
  std::vector<ContactPair> found;
  if (live_slot(body) == nullptr) return found;
  for (const ContactPair& contact : contacts_) {
    if (contact.a == body || contact.b == body) found.push_back(contact);
  }
  return found;
}

std::vector<BodyHandle> World::query_aabb(const Aabb& region, const CollisionFilter& filter) const {
  std::vector<int> proxies;
  broad_phase_->query(region, proxies);
  std::vector<BodyHandle> found;
  for (int proxy : proxies) {
    const std::uint32_t index = proxy_owners_[static_cast<std::size_t>(proxy)].slot;
    if (filters_allow(filter, slots_[index].definition.filter)) found.push_back({index, slots_[index].generation});
  }
  std::sort(found.begin(), found.end());
  return found;
}

std::vector<BodyHandle> World::query_point(Vec2 point, const CollisionFilter& filter) const {
  std::vector<BodyHandle> found;
  for (BodyHandle body : query_aabb({point, point}, filter)) {
    const BodyDefinition& definition = slots_[body.index].definition;
    if (collide2d::contains(definition.shape, definition.transform, point)) found.push_back(body);
  }
  return found;
}

std::vector<BodyHandle> World::query_shape(const Shape& shape, const Transform& transform, const CollisionFilter& filter) const {
  std::vector<BodyHandle> found;
  for (BodyHandle body : query_aabb(detail::culling_region(shape, transform), filter)) {
    const BodyDefinition& definition = slots_[body.index].definition;
    if (overlap(shape, transform, definition.shape, definition.transform)) found.push_back(body);
  }
  return found;
}

std::vector<WorldRayHit> World::ray_cast_all(const Ray& ray, const CollisionFilter& filter) const {
  std::vector<int> proxies;
  broad_phase_->ray_query(ray.origin, ray.translation, ray.max_fraction, proxies);
  std::vector<WorldRayHit> hits;
  for (int proxy : proxies) {
    const std::uint32_t index = proxy_owners_[static_cast<std::size_t>(proxy)].slot;
    const Slot& slot = slots_[index];
    if (!filters_allow(filter, slot.definition.filter)) continue;
    if (const std::optional<RayHit> hit = raycast(slot.definition.shape, slot.definition.transform, ray)) {
      hits.push_back({{index, slot.generation}, *hit});
    }
  }
  std::sort(hits.begin(), hits.end(), [](const WorldRayHit& left, const WorldRayHit& right) {
    return left.hit.fraction < right.hit.fraction || (left.hit.fraction == right.hit.fraction && left.body < right.body);
  });
  return hits;
}

std::optional<WorldRayHit> World::ray_cast_first(const Ray& ray, const CollisionFilter& filter) const {
  std::vector<WorldRayHit> hits = ray_cast_all(ray, filter);
  if (hits.empty()) return std::nullopt;
  return hits.front();
}

std::vector<BodyHandle> World::blocking_candidates(const Aabb& region, const QueryFilter& filter) const {
  std::vector<BodyHandle> found = query_aabb(region, filter.filter);
  std::erase_if(found, [&](BodyHandle body) { return body == filter.ignore || (slots_[body.index].definition.sensor && !filter.include_sensors); });
  return found;
}

std::vector<WorldCastHit> World::shape_cast_all(const Shape& shape, const Transform& transform, Vec2 translation, const QueryFilter& filter,
                                                const CastOptions& options) const {
  const Aabb start = compute_aabb(shape, transform);
  const Aabb swept = start.merged({start.lower + translation, start.upper + translation});
  const Real margin = detail::culling_margin(detail::box_magnitude(swept) + detail::own_frame_magnitude(shape)) + options.target_separation;
  std::vector<WorldCastHit> hits;
  for (BodyHandle body : blocking_candidates(swept.expanded(margin), filter)) {
    const BodyDefinition& definition = slots_[body.index].definition;
    if (const std::optional<CastHit> hit = shape_cast(definition.shape, definition.transform, shape, transform, translation, options)) {
      hits.push_back({body, *hit});
    }
  }
  std::stable_sort(hits.begin(), hits.end(), [](const WorldCastHit& left, const WorldCastHit& right) { return left.hit.time < right.hit.time; });
  return hits;
}

std::optional<WorldCastHit> World::shape_cast_first(const Shape& shape, const Transform& transform, Vec2 translation, const QueryFilter& filter,
                                                    const CastOptions& options) const {
  std::vector<WorldCastHit> hits = shape_cast_all(shape, transform, translation, filter, options);
  if (hits.empty()) return std::nullopt;
  return hits.front();
}

std::vector<CollisionPlane> World::collision_planes(const Shape& shape, const Transform& transform, Real skin, const QueryFilter& filter) const {
  std::vector<CollisionPlane> planes;
  std::vector<ChildManifold> manifolds;
  for (BodyHandle body : blocking_candidates(detail::culling_region(shape, transform, skin), filter)) {
    const BodyDefinition& definition = slots_[body.index].definition;
    manifolds.clear();
    contact_manifolds(definition.shape, definition.transform, shape, transform, manifolds, {.speculative_distance = skin});
    for (const ChildManifold& child : manifolds) {
      for (int i = 0; i < child.manifold.point_count; ++i) {
        const ManifoldPoint& point = child.manifold.points[static_cast<std::size_t>(i)];
        planes.push_back({body, child.child_a, child.manifold.normal, point.point, point.separation});
      }
    }
  }
  return planes;
}

const BroadPhase& World::broad_phase() const { return *broad_phase_; }

}  // namespace collide2d

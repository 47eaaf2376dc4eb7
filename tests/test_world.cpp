// World: handles, update() against brute force for every broad phase, began/ended events,
// filters, the queries against brute force, and determinism (bit-identical reports).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <set>

#include "collide2d/collide2d.hpp"
#include "collide2d/world.hpp"

using namespace collide2d;

namespace {

constexpr BroadPhaseKind every_kind[] = {BroadPhaseKind::dynamic_tree, BroadPhaseKind::sweep_and_prune, BroadPhaseKind::uniform_grid,
                                         BroadPhaseKind::brute_force};

class Random {
 public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}
  Real uniform(double low, double high) { return static_cast<Real>(std::uniform_real_distribution<double>(low, high)(engine_)); }
  int below(int count) { return static_cast<int>(std::uniform_int_distribution<int>(0, count - 1)(engine_)); }

  Shape shape() {
    switch (below(4)) {
      case 0: return Circle{{uniform(-0.2, 0.2), 0}, uniform(0.2, 1.0)};
      case 1: return Capsule{{uniform(-1, 0), 0}, {uniform(0, 1), uniform(-0.3, 0.3)}, uniform(0.05, 0.4)};
      case 2: return Segment{{uniform(-1, 0), uniform(-1, 1)}, {uniform(0, 1), uniform(-1, 1)}};
      default: return make_box(uniform(0.1, 1.0), uniform(0.1, 1.0), {}, below(3) == 0 ? uniform(0, 0.2) : Real(0)).value();
    }
  }
  Transform pose(Real extent) { return Transform::from({uniform(-extent, extent), uniform(-extent, extent)}, uniform(-3.2, 3.2)); }

 private:
  std::mt19937_64 engine_;
};

using PairKey = std::pair<BodyHandle, BodyHandle>;

/// Every allowed pair whose manifold is non-empty, by brute force.
std::vector<PairKey> brute_force_pairs(const World& world) {
  std::vector<PairKey> pairs;
  const std::vector<BodyHandle> handles = world.bodies();
  for (std::size_t i = 0; i < handles.size(); ++i) {
    for (std::size_t j = i + 1; j < handles.size(); ++j) {
      const BodyDefinition& a = *world.find(handles[i]);
      const BodyDefinition& b = *world.find(handles[j]);
      const bool allowed = (a.filter.category & b.filter.mask) != 0 && (b.filter.category & a.filter.mask) != 0;
      std::vector<ChildManifold> manifolds;
      if (allowed) contact_manifolds(a.shape, a.transform, b.shape, b.transform, manifolds);
      if (!manifolds.empty()) pairs.emplace_back(handles[i], handles[j]);
    }
  }
  return pairs;
}

}  // namespace

TEST(World, HandlesAreStableAndStaleOnesAreRejected) {
  World world;
  const BodyHandle first = world.add({Circle{{0, 0}, 1}, {}, {}, 0, 7, {}});
  const BodyHandle second = world.add({Circle{{0, 0}, 1}, Transform::from({5, 0}, 0), {}, 0, 8, {}});
  EXPECT_EQ(world.size(), 2);
  EXPECT_EQ(world.find(first)->user_data, 7u);
  EXPECT_TRUE(world.remove(first));
  EXPECT_FALSE(world.remove(first));
  EXPECT_FALSE(world.contains(first));
  EXPECT_EQ(world.find(first), nullptr);
  EXPECT_FALSE(world.set_transform(first, {}));
  EXPECT_FALSE(world.set_velocity(first, {1, 0}, 0));
  EXPECT_FALSE(world.set_filter(first, {}));
  const BodyHandle reused = world.add({Circle{{0, 0}, 1}, {}, {}, 0, 9, {}});
  EXPECT_EQ(reused.index, first.index);  // the slot comes back with a new generation
  EXPECT_NE(reused.generation, first.generation);
  EXPECT_FALSE(world.contains(first));
  EXPECT_EQ(world.find(reused)->user_data, 9u);
  EXPECT_EQ(world.find(second)->user_data, 8u);
  EXPECT_FALSE(world.contains(BodyHandle{}));
  EXPECT_FALSE(world.contains(BodyHandle{1000, 0}));
}

TEST(World, UpdateMatchesBruteForceWithEventsForEveryBroadPhase) {
  int steps = 0, pairs_checked = 0;
  for (BroadPhaseKind kind : every_kind) {
    Random random(42);
    World world({.broad_phase = kind, .broad_phase_options = {}});
    std::vector<BodyHandle> alive;
    for (int i = 0; i < 120; ++i) alive.push_back(world.add({random.shape(), random.pose(12), {}, 0, 0, {}}));
    std::vector<PairKey> previous;
    for (int step = 0; step < 100; ++step) {
      for (int change = 0; change < 20; ++change) {
        const int action = random.below(10);
        if (action < 7 && !alive.empty()) {  // small move, or now and then a jump
          const BodyHandle body = alive[static_cast<std::size_t>(random.below(static_cast<int>(alive.size())))];
          Transform transform = world.find(body)->transform;
          if (random.below(10) == 0) {
            transform = random.pose(12);
          } else {
            transform = Transform::from(transform.position + Vec2{random.uniform(-0.3, 0.3), random.uniform(-0.3, 0.3)},
                                        transform.rotation.angle() + random.uniform(-0.2, 0.2));
          }
          ASSERT_TRUE(world.set_transform(body, transform));
        } else if (action < 8 && !alive.empty()) {
          const std::size_t which = static_cast<std::size_t>(random.below(static_cast<int>(alive.size())));
          ASSERT_TRUE(world.remove(alive[which]));
          alive.erase(alive.begin() + static_cast<std::ptrdiff_t>(which));
        } else if (action < 9) {
          alive.push_back(world.add({random.shape(), random.pose(12), {}, 0, 0, {}}));
        } else if (!alive.empty()) {
          const BodyHandle body = alive[static_cast<std::size_t>(random.below(static_cast<int>(alive.size())))];
          ASSERT_TRUE(world.set_filter(body, {static_cast<std::uint32_t>(1 << random.below(3)), random.below(2) ? 0xFFFFFFFFu : 0x5u}));
        }
      }
      world.update();
      ASSERT_TRUE(world.broad_phase().validate());
      const std::vector<PairKey> expected = brute_force_pairs(world);
      std::vector<PairKey> found;
      for (const ContactPair& contact : world.contacts()) {
        EXPECT_LT(contact.a.index, contact.b.index);
        EXPECT_GT(contact.manifold.point_count, 0);
        found.emplace_back(contact.a, contact.b);
      }
      ASSERT_EQ(found, expected) << "step " << step;  // same pairs, same (deterministic) order
      std::vector<PairKey> began, ended;
      std::set_difference(expected.begin(), expected.end(), previous.begin(), previous.end(), std::back_inserter(began));
      std::set_difference(previous.begin(), previous.end(), expected.begin(), expected.end(), std::back_inserter(ended));
      EXPECT_EQ(world.began(), began);
      EXPECT_EQ(world.ended(), ended);
      previous = expected;
      pairs_checked += static_cast<int>(expected.size());
      ++steps;
    }
  }
  std::printf("checked %d world updates, %d contact pairs, against brute force\n", steps, pairs_checked);
}

TEST(World, BoxesRestingOneRoundingApartAreAContactForEveryBroadPhase) {
  // Two 2 x 2 boxes, one resting on the other: the upper one's position is the lower one's plus 2
  // rounded up by one unit in the last place, so its box's bottom lies a rounding or two above the
  // lower box's top while the pair's gap (about 1e-6 in float) is well within its touching band
  // (contact_tolerance of the coordinates in the lower box's frame, a few units). The broad phase
  // compared the two boxes as computed and found no candidate: no contact, and query_shape() left
  // the lower box out. Oracle: the gap between the faces in long double, touching within half the
  // band; the test counts the poses whose boxes miss, so that it exercises the case.
  const Shape box = make_box(1, 1).value();
  const Real band = contact_tolerance(4);
  int boxes_miss = 0, touching = 0;
  std::mt19937 random(7);
  std::uniform_real_distribution<double> uniform(-1e4, 1e4);
  for (BroadPhaseKind kind : every_kind) {
    for (int trial = 0; trial < 200; ++trial) {
      const Vec2 lower_at{Real(uniform(random)), Real(uniform(random) / 1000)};
      const Vec2 upper_at{lower_at.x + Real(uniform(random) / 1e4), std::nextafter(lower_at.y + 2, std::numeric_limits<Real>::max())};
      const long double gap = (static_cast<long double>(upper_at.y) - 1) - (static_cast<long double>(lower_at.y) + 1);
      if (gap > static_cast<long double>(band) / 2) continue;
      ++touching;
      const Transform lower_pose{lower_at, {}}, upper_pose{upper_at, {}};
      if (compute_aabb(box, upper_pose).lower.y > compute_aabb(box, lower_pose).upper.y) ++boxes_miss;
      World world({.broad_phase = kind, .broad_phase_options = {}});
      const BodyHandle lower = world.add({box, lower_pose, {}, 0, 0, {}});
      world.add({box, upper_pose, {}, 0, 0, {}});
      world.update();
      EXPECT_EQ(world.contacts().size(), 1u) << "trial " << trial << ", gap " << static_cast<double>(gap);
      const std::vector<BodyHandle> found = world.query_shape(box, upper_pose);
      EXPECT_TRUE(std::find(found.begin(), found.end(), lower) != found.end()) << "trial " << trial;
    }
  }
  EXPECT_GT(touching, 600);
  EXPECT_GT(boxes_miss, 40);
}

TEST(World, FiltersKeepPairsApart) {
  World world;
  const BodyHandle a = world.add({Circle{{0, 0}, 1}, {}, {}, 0, 0, {0x1, 0x2}});
  const BodyHandle b = world.add({Circle{{0, 0}, 1}, Transform::from({1, 0}, 0), {}, 0, 0, {0x1, 0x2}});
  const BodyHandle c = world.add({Circle{{0, 0}, 1}, Transform::from({0.5f, 0.5f}, 0), {}, 0, 0, {0x2, 0x1}});
  world.update();
  std::vector<PairKey> found;
  for (const ContactPair& contact : world.contacts()) found.emplace_back(contact.a, contact.b);
  EXPECT_EQ(found, (std::vector<PairKey>{{a, c}, {b, c}}));  // a and b share a category but do not accept it
  EXPECT_EQ(world.query_point({0.5f, 0}, {0x2, 0x1}), std::vector<BodyHandle>({a, b}));
  EXPECT_EQ(world.query_point({0.5f, 0}, {0x1, 0x2}), std::vector<BodyHandle>({c}));
}

TEST(World, QueriesMatchBruteForce) {
  int checked = 0;
  for (BroadPhaseKind kind : every_kind) {
    Random random(7);
    World world({.broad_phase = kind, .broad_phase_options = {}});
    for (int i = 0; i < 200; ++i) world.add({random.shape(), random.pose(15), {}, 0, 0, {}});
    const std::vector<BodyHandle> handles = world.bodies();
    for (int query = 0; query < 300; ++query) {
      const Vec2 point{random.uniform(-16, 16), random.uniform(-16, 16)};
      std::vector<BodyHandle> inside, in_box, near_box, touching;
      const Aabb region{point, point + Vec2{random.uniform(0, 4), random.uniform(0, 4)}};
      const Shape probe = random.shape();
      const Transform probe_at = Transform::from(point, random.uniform(-3, 3));
      for (BodyHandle body : handles) {
        const BodyDefinition& definition = *world.find(body);
        if (contains(definition.shape, definition.transform, point)) inside.push_back(body);
        const Aabb box = compute_aabb(definition.shape, definition.transform);
        if (box.overlaps(region)) in_box.push_back(body);
        // A body's box grows by the touching band of its coordinates (world.hpp; docs/conventions.md:
        // 8 bands of its farthest corner plus twice its reach), here by a quarter more for rounding.
        const Real farthest = std::max(std::abs(box.lower.x), std::abs(box.upper.x)) + std::max(std::abs(box.lower.y), std::abs(box.upper.y));
        if (box.expanded(Real(1.25) * contact_tolerance(8 * (farthest + 2 * size_scale(definition.shape)))).overlaps(region)) near_box.push_back(body);
        if (overlap(probe, probe_at, definition.shape, definition.transform)) touching.push_back(body);
      }
      EXPECT_EQ(world.query_point(point), inside);
      // Every body whose box overlaps the region, and none farther off than its box's band.
      const std::vector<BodyHandle> found_in_box = world.query_aabb(region);
      EXPECT_TRUE(std::includes(found_in_box.begin(), found_in_box.end(), in_box.begin(), in_box.end()));
      EXPECT_TRUE(std::includes(near_box.begin(), near_box.end(), found_in_box.begin(), found_in_box.end()));
      EXPECT_EQ(world.query_shape(probe, probe_at), touching);

      const Ray ray{point, {random.uniform(-20, 20), random.uniform(-20, 20)}, random.uniform(0.2, 1)};
      std::vector<WorldRayHit> expected;
      for (BodyHandle body : handles) {
        const BodyDefinition& definition = *world.find(body);
        if (const auto hit = raycast(definition.shape, definition.transform, ray)) expected.push_back({body, *hit});
      }
      std::stable_sort(expected.begin(), expected.end(),
                       [](const WorldRayHit& left, const WorldRayHit& right) { return left.hit.fraction < right.hit.fraction; });
      const std::vector<WorldRayHit> all = world.ray_cast_all(ray);
      ASSERT_EQ(all.size(), expected.size());
      for (std::size_t i = 0; i < all.size(); ++i) {
        EXPECT_EQ(all[i].body, expected[i].body);
        EXPECT_EQ(all[i].hit.fraction, expected[i].hit.fraction);
      }
      const std::optional<WorldRayHit> first = world.ray_cast_first(ray);
      ASSERT_EQ(first.has_value(), !expected.empty());
      if (first) {
        EXPECT_EQ(first->body, expected.front().body);
        EXPECT_EQ(first->hit.fraction, expected.front().hit.fraction);
      }
      checked += 5;
    }
  }
  std::printf("checked %d world queries against brute force\n", checked);
}

/// A fingerprint of everything update() reported, bit for bit: FNV-1a over the handles, children,
/// sensor flags and every used manifold field's bytes, then the began and ended lists.
std::uint64_t fingerprint(const World& world) {
  std::uint64_t hash = 14695981039346656037ull;
  auto mix = [&](const auto& value) {
    unsigned char bytes[sizeof value];
    std::memcpy(bytes, &value, sizeof value);
    for (unsigned char byte : bytes) hash = (hash ^ byte) * 1099511628211ull;
  };
  for (const ContactPair& contact : world.contacts()) {
    mix(contact.a.index), mix(contact.a.generation), mix(contact.b.index), mix(contact.b.generation);
    mix(contact.child_a), mix(contact.child_b), mix(contact.sensor);
    mix(contact.manifold.normal.x), mix(contact.manifold.normal.y), mix(contact.manifold.point_count);
    for (int i = 0; i < contact.manifold.point_count; ++i) {
      const ManifoldPoint& point = contact.manifold.points[static_cast<std::size_t>(i)];
      mix(point.point.x), mix(point.point.y), mix(point.separation), mix(point.id);
    }
  }
  for (const auto& [a, b] : world.began()) mix(a.index), mix(b.index);
  for (const auto& [a, b] : world.ended()) mix(a.index), mix(b.index);
  return hash;
}

TEST(World, SameInputsGiveBitIdenticalContactsAcrossRunsAndBroadPhases) {
  // Determinism: the same bodies and moves, run twice with each broad phase, give the same
  // contacts, manifolds (every bit of every float) and events at every step; and every broad
  // phase gives the same as every other (they only propose candidates; the order is by handle).
  auto run = [](BroadPhaseKind kind) {
    Random random(7);
    World world({.broad_phase = kind, .broad_phase_options = {}});
    std::vector<BodyHandle> alive;
    for (int i = 0; i < 200; ++i) alive.push_back(world.add({random.shape(), random.pose(10), {}, 0, 0, {}}));
    std::vector<std::uint64_t> steps;
    for (int step = 0; step < 60; ++step) {
      for (BodyHandle body : alive) {
        const Transform& transform = world.find(body)->transform;
        world.set_transform(body, Transform::from(transform.position + Vec2{random.uniform(-0.2, 0.2), random.uniform(-0.2, 0.2)},
                                                  transform.rotation.angle() + random.uniform(-0.1, 0.1)));
      }
      if (step % 10 == 5) {
        world.remove(alive.back());
        alive.pop_back();
        alive.push_back(world.add({random.shape(), random.pose(10), {}, 0, 0, {}}));
      }
      world.update();
      steps.push_back(fingerprint(world));
    }
    return steps;
  };
  const std::vector<std::uint64_t> reference = run(BroadPhaseKind::dynamic_tree);
  for (BroadPhaseKind kind : every_kind) {
    EXPECT_EQ(run(kind), reference) << "broad phase " << static_cast<int>(kind);
    EXPECT_EQ(run(kind), run(kind)) << "broad phase " << static_cast<int>(kind);
  }
}

TEST(World, HundredThousandMovingBodiesUpdate) {
  Random random(99);
  World world;
  std::vector<BodyHandle> handles;
  // Constant density: 100,000 boxes about 1 unit wide in a 600 x 600 square.
  for (int i = 0; i < 100000; ++i) {
    handles.push_back(world.add({make_box(random.uniform(0.2, 0.6), random.uniform(0.2, 0.6)).value(), random.pose(300), {}, 0, 0, {}}));
  }
  world.update();
  const std::size_t first_contacts = world.contacts().size();
  for (int frame = 0; frame < 3; ++frame) {
    for (BodyHandle body : handles) {
      const Transform& transform = world.find(body)->transform;
      world.set_transform(body, Transform::from(transform.position + Vec2{random.uniform(-0.05, 0.05), random.uniform(-0.05, 0.05)},
                                                transform.rotation.angle()));
    }
    world.update();
  }
  EXPECT_TRUE(world.broad_phase().validate());
  EXPECT_GT(first_contacts, 0u);
  std::printf("100000 bodies: %zu contacts at the first update, %zu after 3 frames of motion\n", first_contacts, world.contacts().size());
}

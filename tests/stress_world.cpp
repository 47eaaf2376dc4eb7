// stress_world.cpp — the reliability run's big world: a million bodies (boxes, circles, capsules,
// segments and rounded polygons at constant density) integrated by their velocities and updated
// for 100 frames, with removals and additions every frame. Built outside `make test`
// (EXCLUDE_FROM_ALL); `make stress` runs it under ASan and UBSan. It checks, and fails with a
// message on: the broad phase's own invariants after the last frame; every reported contact
// against the narrow phase run directly on that pair; and, for 2,000 sampled bodies, that every
// body overlapping them by the world's own query is reported as a contact (nothing lost).
// Arguments: [bodies] [frames] (defaults 1000000 and 100).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "collide2d/collide2d.hpp"

using namespace collide2d;

namespace {

int failures = 0;

void require(bool holds, const std::string& what) {
  if (holds) return;
  if (++failures <= 20) std::fprintf(stderr, "stress_world: %s\n", what.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  const int body_count = argc > 1 ? std::atoi(argv[1]) : 1000000;
  const int frame_count = argc > 2 ? std::atoi(argv[2]) : 100;
  if (body_count < 1 || frame_count < 1) {
    std::fprintf(stderr, "usage: stress_world [bodies >= 1] [frames >= 1]\n");
    return 2;
  }
  std::mt19937_64 engine(2026);
  auto uniform = [&](double low, double high) { return static_cast<Real>(std::uniform_real_distribution<double>(low, high)(engine)); };
  // About one body per 1.5 x 1.5 square, like a crowded level.
  const Real extent = Real(0.75) * std::sqrt(Real(body_count));
  auto random_body = [&]() {
    BodyDefinition definition;
    switch (std::uniform_int_distribution<int>(0, 4)(engine)) {
      case 0: definition.shape = Circle{{}, uniform(0.1, 0.5)}; break;
      case 1: definition.shape = Capsule{{uniform(-0.5, 0), 0}, {uniform(0, 0.5), 0}, uniform(0.05, 0.2)}; break;
      case 2: definition.shape = Segment{{uniform(-0.5, 0), uniform(-0.5, 0.5)}, {uniform(0, 0.5), uniform(-0.5, 0.5)}}; break;
      case 3: definition.shape = make_box(uniform(0.1, 0.5), uniform(0.1, 0.5)).value(); break;
      default: definition.shape = make_box(uniform(0.1, 0.4), uniform(0.1, 0.4), {}, uniform(0, 0.1)).value(); break;
    }
    definition.transform = Transform::from({uniform(-extent, extent), uniform(-extent, extent)}, uniform(-3.2, 3.2));
    definition.velocity = {uniform(-1, 1), uniform(-1, 1)};
    definition.angular_velocity = uniform(-1, 1);
    return definition;
  };
  const auto start = std::chrono::steady_clock::now();
  World world;
  std::vector<BodyHandle> alive;
  alive.reserve(static_cast<std::size_t>(body_count));
  for (int i = 0; i < body_count; ++i) alive.push_back(world.add(random_body()));
  std::size_t most_contacts = 0;
  for (int frame = 0; frame < frame_count; ++frame) {
    world.integrate(Real(1) / 60);
    for (int change = 0; change < 100; ++change) {  // a hundred bodies leave and arrive each frame
      const std::size_t which = std::uniform_int_distribution<std::size_t>(0, alive.size() - 1)(engine);
      require(world.remove(alive[which]), "a live handle is refused by remove()");
      alive[which] = world.add(random_body());
    }
    world.update();
    most_contacts = std::max(most_contacts, world.contacts().size());
  }
  require(world.broad_phase().validate(), "the broad phase fails its own validation");
  // Every contact reported is one the narrow phase confirms on its own.
  std::size_t confirmed = 0;
  for (const ContactPair& contact : world.contacts()) {
    const BodyDefinition &a = *world.find(contact.a), &b = *world.find(contact.b);
    std::vector<ChildManifold> manifolds;
    contact_manifolds(a.shape, a.transform, b.shape, b.transform, manifolds);
    require(!manifolds.empty(), "a reported contact has no manifold when its pair is collided directly");
    confirmed += !manifolds.empty();
  }
  // Nothing lost: for sampled bodies, every other body the direct narrow phase finds touching it
  // (among those the world's box query proposes) is among its reported contacts.
  std::size_t sampled_pairs = 0;
  for (int sample = 0; sample < 2000; ++sample) {
    const BodyHandle body = alive[std::uniform_int_distribution<std::size_t>(0, alive.size() - 1)(engine)];
    const BodyDefinition& definition = *world.find(body);
    std::set<BodyHandle> reported;
    for (const ContactPair& contact : world.contacts_of(body)) reported.insert(contact.a == body ? contact.b : contact.a);
    for (BodyHandle other : world.query_aabb(compute_aabb(definition.shape, definition.transform))) {
      if (other == body) continue;
      const BodyDefinition& neighbour = *world.find(other);
      std::vector<ChildManifold> manifolds;
      contact_manifolds(definition.shape, definition.transform, neighbour.shape, neighbour.transform, manifolds);
      if (manifolds.empty()) continue;
      ++sampled_pairs;
      require(reported.count(other) == 1, "a touching pair is missing from the contacts");
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("stress_world: %d bodies, %d frames (100 removed and added each), %zu contacts at the end (%zu confirmed), at most %zu; "
              "%zu sampled touching pairs all reported; %.1f s; %d failures\n",
              body_count, frame_count, world.contacts().size(), confirmed, most_contacts, sampled_pairs, seconds, failures);
  return failures == 0 ? 0 : 1;
}

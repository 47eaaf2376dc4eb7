// fuzz_world.cpp — a sequence of World operations (add, remove, move, update, box query) against
// brute force over the same bodies: after each update, the pairs the world reports are exactly
// the pairs overlap() finds, except pairs within the touching band; each box query returns
// exactly the bodies whose bounding box overlaps the region. Every broad phase is exercised.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <vector>

#include "collide2d/collide2d.hpp"
#include "fuzz_check.hpp"
#include "fuzz_input.hpp"

namespace {

using namespace collide2d;

/// Overlap decided outside the touching band, or nothing when the pair is too close to call.
std::optional<bool> decided_overlap(const fuzz::Placed& a, const fuzz::Placed& b) {
  const Real band = 64 * contact_tolerance(fuzz::reach(a.shape, a.transform) + fuzz::reach(b.shape, b.transform));
  if (const std::optional<Penetration> depth = penetration(a.shape, a.transform, b.shape, b.transform)) {
    if (depth->depth <= band) return std::nullopt;
    return true;
  }
  if (distance(a.shape, a.transform, b.shape, b.transform).distance <= band) return std::nullopt;
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider input(data, size);
  WorldOptions options;
  options.broad_phase = static_cast<BroadPhaseKind>(input.ConsumeIntegralInRange<int>(0, 3));
  World world(options);
  std::map<BodyHandle, fuzz::Placed> bodies;  // the brute-force copy
  const Real unit = fuzz::scale(input);
  for (int step = 0; step < 64 && input.remaining_bytes() > 0; ++step) {
    std::vector<BodyHandle> handles;
    for (const auto& [handle, body] : bodies) handles.push_back(handle);
    const int operation = input.ConsumeIntegralInRange<int>(0, 4);
    if (operation == 0 || handles.empty()) {  // add
      std::optional<fuzz::Placed> placed = fuzz::placed_shape(input, unit);
      if (!placed) continue;
      const BodyHandle handle = fuzz::add_body(world, *placed);
      fuzz::check(!bodies.contains(handle), "a new body has a new handle");
      bodies.emplace(handle, std::move(*placed));
      continue;
    }
    const BodyHandle chosen = handles[input.ConsumeIntegralInRange<std::size_t>(0, handles.size() - 1)];
    if (operation == 1) {  // remove
      fuzz::check(world.remove(chosen), "removing a live body succeeds");
      fuzz::check(!world.remove(chosen), "removing it again fails");
      bodies.erase(chosen);
    } else if (operation == 2) {  // move
      const Transform transform = fuzz::pose(input, unit);
      fuzz::check(world.set_transform(chosen, transform), "moving a live body succeeds");
      bodies.at(chosen).transform = transform;
    } else if (operation == 3) {  // update, then every pair against brute force
      world.update();
      std::set<std::pair<BodyHandle, BodyHandle>> reported;
      for (const ContactPair& pair : world.contacts()) reported.insert({pair.a, pair.b});
      for (auto first = bodies.begin(); first != bodies.end(); ++first) {
        for (auto second = std::next(first); second != bodies.end(); ++second) {
          const std::pair<BodyHandle, BodyHandle> key{std::min(first->first, second->first), std::max(first->first, second->first)};
          const std::optional<bool> touching = decided_overlap(first->second, second->second);
          if (touching) fuzz::check(*touching == reported.contains(key), "the world's pairs are brute force's");
        }
      }
    } else {  // box query
      const Vec2 corner = fuzz::point(input, unit), other = fuzz::point(input, unit);
      const Aabb region{min(corner, other), max(corner, other)};
      std::vector<BodyHandle> found = world.query_aabb(region);
      std::sort(found.begin(), found.end());
      // Every body whose box overlaps the region, and others only as far off as the touching band
      // its box grows by (world.hpp; docs/conventions.md: 8 bands of the box's farthest corner
      // plus twice the shape's reach), widened here by a quarter against rounding.
      std::vector<BodyHandle> expected, allowed;
      for (const auto& [handle, body] : bodies) {
        const Aabb box = compute_aabb(body.shape, body.transform);
        if (box.overlaps(region)) expected.push_back(handle);
        const Real farthest = std::max(std::abs(box.lower.x), std::abs(box.upper.x)) + std::max(std::abs(box.lower.y), std::abs(box.upper.y));
        if (box.expanded(Real(1.25) * contact_tolerance(8 * (farthest + 2 * size_scale(body.shape)))).overlaps(region)) allowed.push_back(handle);
      }
      fuzz::check(std::includes(found.begin(), found.end(), expected.begin(), expected.end()), "a box query finds the bodies whose boxes overlap the region");
      fuzz::check(std::includes(allowed.begin(), allowed.end(), found.begin(), found.end()), "a box query finds no body farther off than its box's band");
    }
  }
  fuzz::check(world.size() == static_cast<int>(bodies.size()), "the world holds the bodies added and not removed");
  return 0;
}

// fuzz_mover.cpp — push_out() and move_and_slide() in a world of up to eight bodies of any shape
// and scale, checked against penetration() of the mover at every pose that matters.
// Invariants: every number returned is finite and the rotation is unchanged; push_out() that
// reports `resolved` leaves the shape overlapping no body beyond the touching band; a move that
// starts free (or that push_out() can free) ends overlapping nothing beyond the band, and never
// passes through a body on the way (each segment of its path sampled at 16 poses, the lifted
// path of a step climb excepted); the motion is accounted for (the displacement made plus
// `remaining` is the motion, the push out aside); the path starts at the start and ends at the
// end; every hit normal is a unit vector; a floor_normal comes with on_floor; the rounds stay
// within the cap.
#include <algorithm>
#include <cmath>
#include <vector>

#include "collide2d/collide2d.hpp"
#include "fuzz_check.hpp"
#include "fuzz_input.hpp"

namespace {

using namespace collide2d;

bool finite(Vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); }

/// This file's touching band of the mover at `transform` and `body`: that of both shapes' whole
/// reach.
Real reach_band(const Shape& mover, const Transform& transform, const fuzz::Placed& body) {
  return contact_tolerance(fuzz::reach(mover, transform) + fuzz::reach(body.shape, body.transform));
}

/// Whether the mover at `transform` overlaps `body` by more than `bands` touching bands of the
/// pair's magnitudes.
bool overlaps_beyond(const Shape& mover, const Transform& transform, const fuzz::Placed& body, Real bands) {
  const Real band = bands * reach_band(mover, transform, body);
  const std::optional<Penetration> depth = penetration(mover, transform, body.shape, body.transform);
  return depth && depth->depth > band;
}

/// An overlap the checks hold against: beyond 64 bands (as fuzz_world decides overlap), so the
/// cases too close to call pass.
bool overlaps_any(const Shape& mover, const Transform& transform, const std::vector<fuzz::Placed>& bodies) {
  return std::any_of(bodies.begin(), bodies.end(), [&](const fuzz::Placed& body) { return overlaps_beyond(mover, transform, body, 64); });
}

/// A start that is free for certain: nothing overlaps it beyond one band, nor beyond the band
/// penetration() reports (the pair's own, which the push goes by: narrower than this file's band
/// of both shapes' whole reach where a small shape lies near the origin of a huge compound's
/// piece). One overlapping by more, though within the 64 the checks allow, is a real overlap the
/// push may find squeezed (38 into a compound whose band is 45, with a capsule beside it whose
/// band is 0.05; 67 into a piece whose pair band is 52, where this file's is 181).
bool clearly_free(const Shape& mover, const Transform& transform, const std::vector<fuzz::Placed>& bodies) {
  return std::none_of(bodies.begin(), bodies.end(), [&](const fuzz::Placed& body) {
    const std::optional<Penetration> depth = penetration(mover, transform, body.shape, body.transform);
    return depth && depth->depth > std::min(reach_band(mover, transform, body), depth->tolerance);
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider input(data, size);
  World world;
  std::vector<fuzz::Placed> bodies;
  const int body_count = input.ConsumeIntegralInRange<int>(1, 8);
  const Real unit = fuzz::scale(input);
  for (int i = 0; i < body_count; ++i) {
    std::optional<fuzz::Placed> placed = fuzz::placed_shape(input, unit);
    if (!placed) continue;
    fuzz::add_body(world, *placed);
    bodies.push_back(std::move(*placed));
  }
  world.update();
  std::optional<Shape> made = fuzz::shape(input);
  if (!made) return 0;
  const Shape mover = std::move(*made);
  const Transform start = fuzz::pose(input, unit);
  const Vec2 motion = fuzz::point(input, unit);
  const Real skin = input.ConsumeBool() ? fuzz::radius(input, unit) / 64 : Real(0);

  const PushOutResult pushed = push_out(world, mover, start, {.skin = skin});
  fuzz::check(finite(pushed.transform.position) && finite(pushed.translation), "push_out's answer is finite");
  fuzz::check(pushed.transform.rotation == start.rotation, "push_out keeps the rotation");
  if (pushed.status == PushOutStatus::resolved) {
    fuzz::check(!overlaps_any(mover, pushed.transform, bodies), "push_out that resolved leaves nothing overlapping");
  }
  const bool starts_free = clearly_free(mover, start, bodies);
  if (!starts_free && pushed.status != PushOutStatus::resolved) return 0;  // nothing promised for a squeezed start

  MoveOptions options;
  const Rot up = fuzz::rotation(input);
  options.up = {up.cosine, up.sine};
  options.skin = skin;
  options.max_floor_angle = Real(input.ConsumeIntegralInRange<int>(0, 90)) * Real(0.0174532925);
  options.snap_distance = input.ConsumeBool() ? fuzz::radius(input, unit) / 16 : Real(0);
  options.step_height = input.ConsumeBool() ? fuzz::radius(input, unit) / 16 : Real(0);
  const MoveResult moved = move_and_slide(world, mover, start, motion, options);

  fuzz::check(finite(moved.transform.position) && finite(moved.remaining) && finite(moved.pushed_out), "move_and_slide's answer is finite");
  fuzz::check(moved.transform.rotation == start.rotation, "move_and_slide keeps the rotation");
  fuzz::check(moved.iterations >= 0 && moved.iterations <= options.max_iterations, "the rounds stay within the cap");
  fuzz::check(!moved.path.empty() && moved.path.front() == start.position && moved.path.back() == moved.transform.position,
              "the path runs from the start to the end");
  for (const MoveHit& hit : moved.hits) {
    fuzz::check(finite(hit.point) && std::abs(length(hit.normal) - 1) <= 4 * direction_tolerance, "a hit's normal is a unit vector");
  }
  fuzz::check(!moved.floor_normal || moved.on_floor, "a floor normal comes with on_floor");
  // Snapping down to a floor and climbing a step move the mover beyond the motion it was given.
  if (options.snap_distance == 0 && options.step_height == 0) {
    // Round-off of the positions the move went through: the start, the pushed-out one, the end.
    const Real magnitude = coordinate_magnitude(start.position) + coordinate_magnitude(moved.pushed_out) + coordinate_magnitude(motion) +
                           coordinate_magnitude(moved.transform.position);
    const Real accounting_band = 64 * contact_tolerance(magnitude);
    const Vec2 made_good = moved.transform.position - start.position - moved.pushed_out;
    const Vec2 unaccounted = made_good + moved.remaining - motion;
    fuzz::check(std::abs(unaccounted.x) + std::abs(unaccounted.y) <= accounting_band, "the displacement and the remaining motion add up to the motion");
  }
  fuzz::check(!overlaps_any(mover, moved.transform, bodies), "the mover ends overlapping nothing");
  if (options.step_height == 0) {
    // The first segment of a mover that was pushed out runs through what it overlapped.
    const std::size_t first = moved.pushed_out == Vec2{} ? 0 : 1;
    for (std::size_t i = first; i + 1 < moved.path.size(); ++i) {
      for (int sample = 1; sample < 16; ++sample) {
        const Real t = Real(sample) / 16;
        const Transform along{moved.path[i] + t * (moved.path[i + 1] - moved.path[i]), start.rotation};
        fuzz::check(!overlaps_any(mover, along, bodies), "the mover never passes through a body");
      }
    }
  }
  return 0;
}

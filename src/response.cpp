// response.cpp — separating shapes, pushing a shape out of a world, and the character mover.
//
// push_out outline: each body within the skin gives one plane n.t >= depth + skin, from its
// penetration() (the translation that frees the shape from the whole body, a compound included)
// or, when apart, from its closest points (n.t >= skin - gap); solve for the shortest t
// satisfying all of them at once (src/plane_solver.cpp, exact for two unknowns); apply it and
// repeat, because a plane is only a linearisation of the surface, until nothing is within the
// skin or the cap. One body alone is freed by its penetration exactly. A translation longer than
// the shape and the bodies it meets are wide is no way out (nearly opposed planes, as of circles
// nested on one centre, meet far away): the shape is squeezed, as between opposed planes. A push
// that does not free the shape (squeezed, or at the cap) ends at the pose it reached with the
// least overlap (deepest penetration beyond its pair's band), the start when no round helped.
//
// move_and_slide outline (the cast-and-slide loop of Box2D v3's mover, b2World_CastMover with
// b2SolvePlanes, and of Godot's move_and_slide):
//   1. cast the motion left, stopping `skin` short of the first body met; move there;
//   2. keep the normal of what it met, with those met before at the same position (a corner);
//   3. the rest of the motion becomes the motion closest to it that moves into none of those
//      surfaces (so it slides along them), with two rules for characters: on a floor the part of
//      the rest going down is dropped (the floor carries the weight, so a mover does not creep down
//      a gentle slope), and against a wall the result may not climb higher than the rest did (a
//      slope steeper than the floor angle cannot be walked up);
//   4. repeat until the motion is used up or the cap; optionally climb a step when a wall blocks,
//      and snap back onto a floor within snap_distance at the end.
// Every step is a cast, so the mover cannot tunnel, and the casts keep it the skin away. The
// surfaces slid along are the ones the casts met, with the casts' closest-point normals, not the
// speculative contacts near the mover: those give a tile's side face as a wall where two tiles
// meet edge to edge (a ghost the mover would snag on), while a cast only meets what is in its way.
#include "collide2d/response.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "collide2d/distance.hpp"
#include "collide2d/tolerance.hpp"
#include "plane_solver.hpp"

namespace collide2d {

Separation separate(const Penetration& contact, Real inverse_mass_a, Real inverse_mass_b, Real extra) {
  const Real total = inverse_mass_a + inverse_mass_b;
  if (total <= 0) return {};
  const Vec2 push = (contact.depth + extra) * contact.normal;
  return {(-inverse_mass_a / total) * push, (inverse_mass_b / total) * push};
}

namespace {

Transform placed_at(const Transform& transform, Vec2 position) { return {position, transform.rotation}; }

/// The shortest change of `desired` that satisfies every constraint n.x >= offset, or nothing
/// when opposed constraints leave no such motion.
std::optional<Vec2> closest_allowed(Vec2 desired, std::vector<detail::ContactPlane> constraints, Real tolerance) {
  for (detail::ContactPlane& constraint : constraints) constraint.offset -= dot(constraint.normal, desired);
  const std::optional<Vec2> change = detail::shortest_translation(constraints, tolerance);
  if (!change) return std::nullopt;
  return desired + *change;
}

enum class SurfaceKind { floor, wall, ceiling };

}  // namespace

PushOutResult push_out(const World& world, const Shape& shape, const Transform& transform, const PushOutOptions& options) {
  PushOutResult result{transform, {}, 0, PushOutStatus::resolved};
  const Real reach = size_scale(shape);
  // The pose reached with the least overlap: a push that cannot free the shape ends there, never
  // deeper than it started (a round's push out of one body may go deeper into another).
  Transform best_transform = transform;
  Vec2 best_translation{};
  Real best_overlap = std::numeric_limits<Real>::infinity();
  auto end_at_best = [&](PushOutStatus status) {
    result.status = best_overlap > 0 ? status : PushOutStatus::resolved;  // a pose on the way was free: it ends there
    result.transform = best_transform;
    result.translation = best_translation;
    return result;
  };
  for (;;) {
    // One plane per body within the skin: its penetration (the translation that frees the shape
    // from the whole body, compounds included) or, apart, its closest points. Each plane holds
    // within its own pair's band and the shape's: one large body's band must not hide the
    // overlaps of small ones beside it.
    const Aabb box = compute_aabb(shape, result.transform).expanded(options.skin);
    std::vector<detail::ContactPlane> constraints;
    const Real band = contact_tolerance(reach + options.skin);
    Real widest_band = band;
    bool overlapping = false;
    Real overlap = 0;  // the deepest penetration beyond its pair's band
    Aabb met = box;  // the shape and every body within its skin
    for (BodyHandle body : world.query_aabb(box.expanded(band), options.filter.filter)) {
      const BodyDefinition& definition = *world.find(body);
      if (body == options.filter.ignore || (definition.sensor && !options.filter.include_sensors)) continue;
      met = met.merged(compute_aabb(definition.shape, definition.transform));
      if (const std::optional<Penetration> contact = penetration(definition.shape, definition.transform, shape, result.transform)) {
        widest_band = std::max(widest_band, contact->tolerance);
        overlapping = overlapping || contact->depth > contact->tolerance;
        overlap = std::max(overlap, contact->depth - contact->tolerance);
        constraints.push_back({contact->normal, contact->depth + options.skin, contact->tolerance});
        continue;
      }
      const DistanceResult apart = distance(definition.shape, definition.transform, shape, result.transform);
      if (apart.distance < options.skin) constraints.push_back({apart.normal, options.skin - apart.distance});
    }
    const bool within_skin = std::any_of(constraints.begin(), constraints.end(),
                                         [&](const detail::ContactPlane& plane) { return plane.offset > std::max(band, plane.tolerance); });
    if (!within_skin) return result;
    if (overlap < best_overlap) {
      best_overlap = overlap;
      best_transform = result.transform;
      best_translation = result.translation;
    }
    if (result.iterations >= options.max_iterations) return overlapping ? end_at_best(PushOutStatus::iteration_cap) : result;
    const std::optional<Vec2> translation = detail::shortest_translation(constraints, band);
    if (!translation || length(*translation) > length(met.upper - met.lower) + options.skin + widest_band) {
      return overlapping ? end_at_best(PushOutStatus::squeezed) : result;
    }
    ++result.iterations;
    result.transform.position += *translation;
    result.translation += *translation;
  }
}

MoveResult move_and_slide(const World& world, const Shape& shape, const Transform& transform, Vec2 motion, const MoveOptions& options) {
  MoveResult result;
  result.transform = transform;
  const Real floor_cosine = std::cos(options.max_floor_angle);
  const Real skin = options.skin;
  const Real reach = size_scale(shape);
  const CastOptions cast_options{.target_separation = skin};
  auto kind_of = [&](Vec2 normal) {
    const Real upness = dot(normal, options.up);
    if (upness >= floor_cosine - direction_tolerance) return SurfaceKind::floor;
    if (-upness >= floor_cosine - direction_tolerance) return SurfaceKind::ceiling;
    return SurfaceKind::wall;
  };
  // A motion shorter than the round-off of the mover's coordinates (or a ten-thousandth of the
  // skin) is used up.
  auto negligible = [&](Vec2 position, Vec2 step) {
    return length(step) <= std::max(Real(1e-4) * skin, round_off(coordinate_magnitude(position) + reach));
  };
  auto planes_at = [&](Vec2 position) { return world.collision_planes(shape, placed_at(transform, position), 2 * skin, options.filter); };
  auto has_floor = [&](const std::vector<CollisionPlane>& planes) {
    return std::any_of(planes.begin(), planes.end(), [&](const CollisionPlane& plane) { return kind_of(plane.normal) == SurfaceKind::floor; });
  };
  // Step 3 of the outline: the rest of the motion, slid along the surfaces met at this position
  // (their cast normals). Never toward one of them, and away by the round-off of the motion, so
  // the next cast sees the mover leave or slide along it rather than close in.
  auto slide = [&](const std::vector<Vec2>& normals, Vec2 rest) -> std::optional<Vec2> {
    Vec2 desired = rest;
    const bool floor = std::any_of(normals.begin(), normals.end(), [&](Vec2 normal) { return kind_of(normal) == SurfaceKind::floor; });
    const bool wall = std::any_of(normals.begin(), normals.end(), [&](Vec2 normal) { return kind_of(normal) == SurfaceKind::wall; });
    if (floor && dot(desired, options.up) < 0) desired -= dot(desired, options.up) * options.up;
    const Real away = round_off(coordinate_magnitude(desired));
    std::vector<detail::ContactPlane> constraints;
    for (Vec2 normal : normals) {
      constraints.push_back({normal, away});
      // Against a wall, a floor is not left unless the motion itself leaves it (a jump): sliding
      // along a wall met on a floor keeps the mover on the floor rather than lifting it.
      if (wall && kind_of(normal) == SurfaceKind::floor) constraints.push_back({-normal, -std::max(away, dot(desired, normal))});
    }
    if (wall) constraints.push_back({-options.up, -std::max(Real(0), dot(desired, options.up))});
    return closest_allowed(desired, std::move(constraints), round_off(coordinate_magnitude(rest) + skin));
  };
  // Climbing a step: lift by step_height, move the horizontal rest, come down onto a floor.
  auto step_up = [&](Vec2 position, Vec2 rest) -> std::optional<std::pair<Vec2, Vec2>> {
    const Vec2 horizontal = rest - dot(rest, options.up) * options.up;
    if (negligible(position, horizontal)) return std::nullopt;
    const Vec2 lift = options.step_height * options.up;
    const std::optional<WorldCastHit> above = world.shape_cast_first(shape, placed_at(transform, position), lift, options.filter, cast_options);
    const Vec2 lifted = position + (above ? above->hit.time : Real(1)) * lift;
    const std::optional<WorldCastHit> ahead = world.shape_cast_first(shape, placed_at(transform, lifted), horizontal, options.filter, cast_options);
    const Real along = ahead ? ahead->hit.time : Real(1);
    if (negligible(lifted, along * horizontal)) return std::nullopt;
    const Vec2 across = lifted + along * horizontal;
    const Vec2 drop = (position - lifted) - skin * options.up;
    const std::optional<WorldCastHit> below = world.shape_cast_first(shape, placed_at(transform, across), drop, options.filter, cast_options);
    if (!below || below->hit.initially_touching || kind_of(below->hit.normal) != SurfaceKind::floor) return std::nullopt;
    return std::pair{across + below->hit.time * drop, (1 - along) * horizontal};
  };

  // A mover starting in overlap is freed first (with the skin), so every cast starts free.
  Vec2 start = transform.position;
  PushOutOptions push_options{.skin = 0, .max_iterations = options.max_iterations, .filter = options.filter};
  // Overlapping when a push with no skin moves it or finds it squeezed (the skin may still find a
  // way out there: planes moved out by it meet elsewhere).
  if (const PushOutResult freed = push_out(world, shape, transform, push_options); freed.iterations > 0 || freed.status != PushOutStatus::resolved) {
    push_options.skin = skin;
    result.pushed_out = push_out(world, shape, transform, push_options).translation;
    if (result.pushed_out != Vec2{}) {
      result.path.push_back(start);
      start += result.pushed_out;
    }
  }
  const bool started_on_floor = has_floor(planes_at(start));
  Vec2 position = start, left = motion;
  std::vector<Vec2> met;  // normals of the surfaces met since the mover last made headway
  bool stepped = false;
  std::optional<Vec2> last_floor;  // the normal of the latest floor a cast met
  result.path.push_back(start);
  auto record = [&] {
    if (position != result.path.back()) result.path.push_back(position);
  };
  while (!negligible(position, left)) {
    record();
    if (result.iterations >= options.max_iterations) {
      result.status = IterationStatus::iteration_cap;
      break;
    }
    ++result.iterations;
    const std::optional<WorldCastHit> cast = world.shape_cast_first(shape, placed_at(transform, position), left, options.filter, cast_options);
    if (!cast) {
      position += left;
      left = {};
      break;
    }
    if (!negligible(position, cast->hit.time * left)) met.clear();
    position += cast->hit.time * left;
    met.push_back(cast->hit.normal);
    result.hits.push_back({cast->body, cast->hit.point, cast->hit.normal});
    const SurfaceKind kind = kind_of(cast->hit.normal);
    result.on_wall = result.on_wall || kind == SurfaceKind::wall;
    result.on_ceiling = result.on_ceiling || kind == SurfaceKind::ceiling;
    const Vec2 rest = (1 - cast->hit.time) * left;
    if (options.step_height > 0 && kind == SurfaceKind::wall && !stepped && (started_on_floor || has_floor(planes_at(position)))) {
      if (const auto climbed = step_up(position, rest)) {
        position = climbed->first;
        left = climbed->second;
        met.clear();
        stepped = true;
        continue;
      }
    }
    // A floor met earlier in this move still carries the mover while it stands on it, so a wall
    // met after sliding along that floor (a crate on a slope) cannot lift it off.
    if (kind == SurfaceKind::floor) last_floor = cast->hit.normal;
    if (last_floor && std::find(met.begin(), met.end(), *last_floor) == met.end() && has_floor(planes_at(position))) met.push_back(*last_floor);
    const std::optional<Vec2> slid = slide(met, rest);
    left = slid ? *slid : Vec2{};
  }
  if (options.snap_distance > 0 && started_on_floor && dot(motion, options.up) <= 0 && !has_floor(planes_at(position))) {
    const Vec2 drop = -options.snap_distance * options.up;
    const std::optional<WorldCastHit> below = world.shape_cast_first(shape, placed_at(transform, position), drop, options.filter, cast_options);
    if (below && kind_of(below->hit.normal) == SurfaceKind::floor) {
      record();  // the snap is a move of its own: the path turns here
      position += below->hit.time * drop;
    }
  }
  record();
  for (const CollisionPlane& plane : planes_at(position)) {
    switch (kind_of(plane.normal)) {
      case SurfaceKind::floor:
        result.on_floor = true;
        if (!result.floor_normal || dot(plane.normal, options.up) > dot(*result.floor_normal, options.up)) result.floor_normal = plane.normal;
        break;
      case SurfaceKind::wall: result.on_wall = true; break;
      case SurfaceKind::ceiling: result.on_ceiling = true; break;
    }
  }
  result.transform.position = position;
  result.remaining = motion - (position - start);
  return result;
}

}  // namespace collide2d

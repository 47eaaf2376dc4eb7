// collide2d/shape_cast.hpp — when do moving shapes first touch: shape_cast under translation,
// time_of_impact under translation and rotation.
//
// Both use conservative advancement (B. Mirtich, "Impulse-based dynamic simulation of rigid body
// systems", 1996; for pure translation it is G. van den Bergen's GJK ray cast, "Ray casting against
// general convex objects with application to continuous collision detection", 2004): GJK gives
// the distance d and normal n at the current time; no point can close the gap along n faster than
// a bound mu (the relative velocity along n, plus |angular velocity| x reach for rotating shapes),
// so nothing touches before t + d / mu. Step there and repeat until the gap is within the
// tolerance. Every step is safe, so the time found is never later than the first contact and a thin
// or fast shape cannot tunnel; the iteration cap is reported.
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>

#include "collide2d/algorithms.hpp"
#include "collide2d/tolerance.hpp"

namespace collide2d {

/// Options for shape_cast() and time_of_impact().
struct CastOptions {
  /// The physical slop (length units, >= 0): the cast stops when the gap is down to this, so a
  /// mover can keep a skin. 0 stops at touching: the pose at the time returned then leaves a gap
  /// between 0 and the touching band of the features in contact (GjkResult::tolerance), never an
  /// overlap.
  Real target_separation = 0;
  int max_iterations = 1024;  ///< cap on advancement steps; hitting it is reported
};

/// The first contact of two moving shapes.
struct CastHit {
  Real time = 0;        ///< fraction of the motion, in [0, 1], at which they first touch
  Vec2 point;           ///< world contact point at that time, midway between the surfaces
  Vec2 normal;          ///< world unit normal from A to B at that time
  /// They already overlapped at time 0, or touched (within target_separation and the touching
  /// band) while the motion closed the gap; time is 0 then. A pair that only touches at time 0 and
  /// moves apart or along the contact reports no hit from that contact.
  bool initially_touching = false;
  int iterations = 0;   ///< advancement steps taken
  IterationStatus status = IterationStatus::converged;  ///< iteration_cap: `time` is a safe (early) estimate
};

/// A linear and angular motion over the unit time interval, the way a body moves in one step:
/// its rotation centre `local_center` (body frame) travels from center_start to center_end while
/// the body turns from angle_start to angle_end, both at constant rates.
struct Sweep {
  Vec2 local_center;     ///< point the body turns about, in the body's local frame
  Vec2 center_start;     ///< world position of local_center at t = 0
  Vec2 center_end;       ///< world position of local_center at t = 1
  Real angle_start = 0;  ///< body angle at t = 0, radians
  Real angle_end = 0;    ///< body angle at t = 1, radians

  /// The body's transform at time t in [0, 1].
  Transform at(Real t) const {
    const Rot rotation = Rot::from_angle(angle_start + t * (angle_end - angle_start));
    return {lerp(center_start, center_end, t) - rotate(rotation, local_center), rotation};
  }
  /// The sweep of a body at `start` moving with `velocity` and `angular_velocity` for `duration`,
  /// turning about its local origin.
  static Sweep from_motion(const Transform& start, Vec2 velocity, Real angular_velocity, Real duration) {
    const Real angle = start.rotation.angle();
    return {{}, start.position, start.position + duration * velocity, angle, angle + duration * angular_velocity};
  }
};

namespace detail {

/// An upper bound on how far any point of the shape lies from `center` (local frame): the far
/// corner of the shape's bounding box (support_bounds, rounding radius included).
template <ConvexSupport S>
Real reach_about(const S& shape, Vec2 center) {
  const Aabb box = support_bounds(shape, Transform{});
  return length(max(box.upper - center, center - box.lower));
}

/// Advancement steps taken before advance() also probes ahead for a contact to bisect to.
inline constexpr int steps_before_probing = 8;

/// Conservative advancement over t in [0, 1]. `pose(t)` gives (transform A, transform B) in the
/// world; `closing_bound(normal_world)` bounds how fast the gap along that normal can shrink.
/// Contact is the gap down to target_separation plus the touching band of the features GJK ends
/// on; each step aims at half a band above target_separation, so the pose returned never overlaps.
/// Where the bound is loose (turning shapes, grazing contacts) the steps crawl. After a few steps,
/// a probe 8 steps ahead that finds contact gives a bracket [t, late]; it is narrowed by bisection
/// that stays safe: a midpoint in contact becomes `late`, and one apart moves t only when its
/// backward certificate (the gap over `opening_bound`, how fast the gap can shrink going back in
/// time) reaches back to t, to the midpoint plus its forward step; otherwise t takes an ordinary
/// step. So every time before t is proven free of contact, and t ends a hair before the crossing.
/// A graze that keeps the gap within a hair of touching for longer than any certificate covers can
/// still reach the iteration cap; the time reported then is safe (no contact before it).
/// `motion_speed` bounds how fast any point moves relative to the other shape (0: no motion at
/// all, and then a touching pair touches throughout).
template <ConvexSupport A, ConvexSupport B, class Pose, class ClosingBound, class OpeningBound>
std::optional<CastHit> advance(const A& a, const B& b, Pose pose, ClosingBound closing_bound, OpeningBound opening_bound, Real motion_speed,
                               const CastOptions& options) {
  const Real radius_a = a.rounding_radius(), radius_b = b.rounding_radius();
  SimplexCache cache;
  CastHit hit;
  struct State {
    Transform transform_a;
    GjkResult cores;
    Real gap;  // between the surfaces
  };
  auto state_at = [&](Real s) {
    const auto [transform_a, transform_b] = pose(s);
    const GjkResult cores = gjk(a, b, inverse_compose(transform_a, transform_b), {.cache = &cache});
    return State{transform_a, cores, cores.distance - radius_a - radius_b};
  };
  auto in_contact = [&](const State& state) { return state.cores.overlapping || state.gap <= options.target_separation + state.cores.tolerance; };
  // The hit at time s from the cores' closest points (apart) or EPA (overlapping, only at s = 0).
  auto hit_at = [&](Real s, const State& state) {
    Vec2 normal = state.cores.normal, point_a = state.cores.point_a, point_b = state.cores.point_b;
    if (state.cores.overlapping) {
      const auto [transform_a, transform_b] = pose(s);
      const EpaResult expansion = epa(a, b, inverse_compose(transform_a, transform_b), state.cores.simplex);
      normal = expansion.normal;
      point_a = expansion.point_a;
      point_b = expansion.point_b;
    }
    hit.time = s;
    hit.initially_touching = s == 0;
    hit.normal = rotate(state.transform_a.rotation, normal);
    hit.point = transform_point(state.transform_a, Real(0.5) * (point_a + radius_a * normal + point_b - radius_b * normal));
    return hit;
  };
  Real late = 2;  // a time known to be in contact, once a probe found one (2: none yet)
  Real look_ahead = steps_before_probing;  // how many steps ahead the next probe looks
  Real t = 0;
  for (;;) {
    const State state = state_at(t);
    if (in_contact(state)) {
      if (t == 0 && motion_speed > 0) {
        // A pair that only touches (or sits within the target separation) and moves apart or
        // along the contact (to within direction_tolerance of the motion) never gets closer on a
        // straight motion (the gap is a convex function of time, and the normal bounds it from
        // below): no hit from this contact.
        const CastHit start = hit_at(0, state);
        const Real depth = state.cores.overlapping ? epa(a, b, inverse_compose(pose(0).first, pose(0).second), state.cores.simplex).depth +
                                                         radius_a + radius_b
                                                   : -state.gap;
        if (depth <= state.cores.tolerance && closing_bound(start.normal) <= direction_tolerance * motion_speed) return std::nullopt;
        return start;
      }
      return hit_at(t, state);
    }
    if (hit.iterations >= options.max_iterations) {
      hit.status = IterationStatus::iteration_cap;
      hit.time = t;
      hit.normal = rotate(state.transform_a.rotation, state.cores.normal);
      hit.point = transform_point(state.transform_a, Real(0.5) * (state.cores.point_a + state.cores.point_b));
      return hit;
    }
    // The forward step: no contact before t + step(state).
    auto step_of = [&](const State& at) {
      const Real closing = closing_bound(rotate(at.transform_a.rotation, at.cores.normal));
      return closing > 0 ? (at.gap - options.target_separation - Real(0.5) * at.cores.tolerance) / closing : std::numeric_limits<Real>::max();
    };
    const Real step = step_of(state);
    if (step == std::numeric_limits<Real>::max()) return std::nullopt;  // the gap along this normal never shrinks: no contact ahead
    ++hit.iterations;
    if (late > 1 && t + step > 1) return std::nullopt;
    // The backward certificate: no contact in [s - back_of(s), s].
    auto back_of = [&](const State& at) {
      const Real opening = opening_bound(rotate(at.transform_a.rotation, at.cores.normal));
      return opening > 0 ? (at.gap - options.target_separation - at.cores.tolerance) / opening : std::numeric_limits<Real>::max();
    };
    if (late > 1 && hit.iterations >= steps_before_probing) {
      // Probe ahead: contact there brackets the crossing; a probe whose backward certificate
      // reaches back to t + step proves everything up to it free, and t jumps past it.
      const Real probe = std::min(Real(1), t + look_ahead * step);
      const State at_probe = state_at(probe);
      if (in_contact(at_probe)) {
        late = probe;
      } else if (probe - back_of(at_probe) <= t + step) {
        const Real next = probe + step_of(at_probe);
        if (probe >= 1 || next > 1) return std::nullopt;
        t = next;
        look_ahead *= 2;
        continue;
      } else {
        look_ahead = std::max(Real(steps_before_probing), Real(0.5) * look_ahead);
      }
    }
    if (late <= 1) {
      if (late - t <= 4 * real_epsilon * late) return hit_at(t, state);  // a hair before the crossing: touching, never overlapping
      const Real middle = Real(0.5) * (t + late);
      const State at_middle = state_at(middle);
      if (in_contact(at_middle)) {
        late = middle;
        continue;
      }
      if (middle - back_of(at_middle) <= t + step) {  // [t, middle] is proven free: jump past the midpoint
        t = std::min(middle + step_of(at_middle), late);
        continue;
      }
    }
    t += step;
  }
}

}  // namespace detail

/// The first time in [0, 1] at which B, moving by translation_b (world) while A stays put, comes
/// within options.target_separation of A (touching, for the default 0); empty when it never does.
/// A pair already overlapping reports time 0 with `initially_touching`; so does a pair already
/// touching when the motion closes the gap, while a touching pair moving apart or sliding along
/// the contact reports no hit, so a cast-and-slide loop never stalls. Works for any
/// ConvexSupport shapes.
template <ConvexSupport A, ConvexSupport B>
[[nodiscard]] std::optional<CastHit> shape_cast(const A& a, const Transform& transform_a, const B& b, const Transform& transform_b,
                                                Vec2 translation_b, const CastOptions& options = {}) {
  auto pose = [&](Real t) {
    return std::pair<Transform, Transform>{transform_a, {transform_b.position + t * translation_b, transform_b.rotation}};
  };
  auto closing = [&](Vec2 normal) { return -dot(normal, translation_b); };
  auto opening = [&](Vec2 normal) { return dot(normal, translation_b); };
  return detail::advance(a, b, pose, closing, opening, length(translation_b), options);
}

/// The first time in [0, 1] at which A and B, each following its sweep (translation and
/// rotation), touch; empty when they never do. Never later than the first contact a fine sampling
/// of the motion finds; touching within the tolerance at the time returned.
template <ConvexSupport A, ConvexSupport B>
[[nodiscard]] std::optional<CastHit> time_of_impact(const A& a, const Sweep& sweep_a, const B& b, const Sweep& sweep_b,
                                                    const CastOptions& options = {}) {
  const Real reach_a = detail::reach_about(a, sweep_a.local_center), reach_b = detail::reach_about(b, sweep_b.local_center);
  const Vec2 relative_velocity = (sweep_a.center_end - sweep_a.center_start) - (sweep_b.center_end - sweep_b.center_start);
  const Real turning = std::abs(sweep_a.angle_end - sweep_a.angle_start) * reach_a +
                       std::abs(sweep_b.angle_end - sweep_b.angle_start) * reach_b;
  auto pose = [&](Real t) { return std::pair<Transform, Transform>{sweep_a.at(t), sweep_b.at(t)}; };
  auto closing = [&](Vec2 normal) { return dot(normal, relative_velocity) + turning; };
  auto opening = [&](Vec2 normal) { return turning - dot(normal, relative_velocity); };
  return detail::advance(a, b, pose, closing, opening, length(relative_velocity) + turning, options);
}

/// shape_cast() for any pair of shapes held in the Shape variant. With a compound, the earliest
/// hit over its children; children whose swept boxes miss the other shape are skipped.
[[nodiscard]] std::optional<CastHit> shape_cast(const Shape& a, const Transform& transform_a, const Shape& b, const Transform& transform_b,
                                                Vec2 translation_b, const CastOptions& options = {});

/// time_of_impact() for any pair of shapes held in the Shape variant. With a compound, the
/// earliest impact over its children (each child follows its body's sweep); children whose swept
/// boxes miss are skipped.
[[nodiscard]] std::optional<CastHit> time_of_impact(const Shape& a, const Sweep& sweep_a, const Shape& b, const Sweep& sweep_b,
                                                    const CastOptions& options = {});

}  // namespace collide2d

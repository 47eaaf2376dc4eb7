// collide2d/shape_cast.hpp — when do moving shapes first touch: shape_cast under translation,
// time_of_impact under translation and rotation.
//
// Both advance conservatively (B. Mirtich, "Impulse-based dynamic simulation of rigid body
// systems", 1996): GJK gives the distance d and normal n at the current time; no point can close
// the gap along n faster than a bound mu (the relative velocity along n, plus |angular velocity| x
// reach for rotating shapes), so nothing touches before t + d / mu. Step there and repeat until the
// gap is within the tolerance. Every step is safe, so the time found is never later than the first
// contact and a thin or fast shape cannot tunnel; the iteration cap is reported. time_of_impact
// runs a converged GJK at every step (advance()); shape_cast, a pure translation, takes the same
// steps inside one GJK loop (G. van den Bergen, "Ray casting against general convex objects with
// application to continuous collision detection", 2004; gjk_ray_cast()).
#pragma once

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <type_traits>

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
  /// Cap on advancement steps; hitting it is reported. GJK's own cap (64 support evaluations)
  /// reached inside a cast ends it the same way, at the time reached.
  int max_iterations = 1024;
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

/// An upper bound on how far any point of the shape lies from `center` (local frame): for a
/// shape given only by its support function, the far corner of its bounding box (support_bounds,
/// rounding radius included).
template <ConvexSupport S>
Real reach_about(const S& shape, Vec2 center) {
  const Aabb box = support_bounds(shape, Transform{});
  return length(max(box.upper - center, center - box.lower));
}
/// For the library's shapes, the farthest distance itself: the farthest vertex (a capsule's or a
/// segment's farther end, a circle's centre) plus the rounding radius. The bounding box's corner
/// can be sqrt(2) farther, and the reach scales time_of_impact()'s bound on what turning adds.
inline Real reach_about(const Polygon& shape, Vec2 center) {
  // The vertices are compared by squared distance, taken in double as length() takes its root in
  // a float build (nothing over- or underflows), and one root is taken, for the farthest.
  Vec2 farthest;
  double farthest_squared = 0;
  for (const Vec2 vertex : shape.vertices()) {
    const Vec2 offset = vertex - center;
    const double squared = double(offset.x) * double(offset.x) + double(offset.y) * double(offset.y);
    if (squared > farthest_squared) {
      farthest_squared = squared;
      farthest = offset;
    }
  }
  return length(farthest) + shape.radius();
}
inline Real reach_about(const Circle& shape, Vec2 center) { return length(shape.center - center) + shape.radius; }
inline Real reach_about(const Segment& shape, Vec2 center) { return std::max(length(shape.a - center), length(shape.b - center)); }
inline Real reach_about(const Capsule& shape, Vec2 center) { return reach_about(Segment{shape.a, shape.b}, center) + shape.radius; }

/// How two shapes move over a cast's unit time interval, as advance() bounds it: each turns about
/// its rotation centre at a constant rate while the centre travels at a constant velocity.
struct CastMotion {
  Vec2 velocity_a;             ///< world velocity of A's rotation centre, length units per unit time
  Vec2 velocity_b;             ///< world velocity of B's rotation centre
  Real angular_velocity_a = 0;  ///< radians per unit time, counter-clockwise
  Real angular_velocity_b = 0;  ///< likewise for B
  Vec2 local_center_a;         ///< A's rotation centre, A's local frame
  Vec2 local_center_b;         ///< B's rotation centre, B's local frame
  Real reach_a = 0;            ///< bound on the distance of A's points from its rotation centre
  Real reach_b = 0;            ///< likewise for B

  /// Does either shape turn? Without turning the separation along a fixed axis is linear in time.
  bool turns() const { return angular_velocity_a != 0 || angular_velocity_b != 0; }
  /// A bound on how fast the gap along the world unit normal A -> B can shrink at any time.
  Real closing_bound(Vec2 normal) const {
    return dot(normal, velocity_a - velocity_b) + std::abs(angular_velocity_a) * reach_a + std::abs(angular_velocity_b) * reach_b;
  }
  /// A bound on how fast any point of one shape moves relative to the other.
  Real speed_bound() const {
    return length(velocity_a - velocity_b) + std::abs(angular_velocity_a) * reach_a + std::abs(angular_velocity_b) * reach_b;
  }
};

/// Advancement steps taken before advance() also probes ahead for a contact to bisect to.
inline constexpr int steps_before_probing = 8;
/// Halvings of the angle advance() spends turning a touching pair's axis towards the motion.
inline constexpr int opening_axis_halvings = 24;
/// Separation-bound evaluations one safe step may spend narrowing its root (advance()).
inline constexpr int step_search_evaluations = 8;

/// Writes a contact at `time` into `hit`: the normal (A's frame, from A to B) turned into the
/// world, and the point midway between the surfaces, from the closest core points `point_a` and
/// `point_b` (A's frame) pushed out by the radii and placed by `transform_a`.
inline CastHit& place_contact(CastHit& hit, Real time, const Transform& transform_a, Vec2 normal, Vec2 point_a, Vec2 point_b,
                              Real radius_a, Real radius_b) {
  hit.time = time;
  hit.normal = rotate(transform_a.rotation, normal);
  hit.point = transform_point(transform_a, Real(0.5) * (point_a + radius_a * normal + point_b - radius_b * normal));
  return hit;
}

/// Conservative advancement over t in [0, 1]. `pose(t)` gives (transform A, transform B) in the
/// world; `motion` says how they move. Contact is the gap down to target_separation plus the
/// touching band of the features GJK ends on.
///
/// Safe steps come from a lower bound on the separation, h later, along GJK's normal n turning at a
/// rate s (a second-order Taylor model of the motion, in the spirit of Zhang, Redon, Lee and
/// Manocha, "Continuous collision detection for articulated models using Taylor models and
/// temporal culling", 2007). Against an axis turning with it, a shape turns at w - s: a point at
/// lever arm r from its rotation centre turns to R(h (w - s)) r, which is r + h (w - s) perp(r) up
/// to (h (w - s))^2 |r| / 2, so n.p over a whole shape is bounded by one support point along
/// n - h (w - s) perp(n) plus that remainder. The centres' offset D + h (v_b - v_a) projects on the
/// turning axis as D.n + h ((v_b - v_a).n + s D.perp(n)) up to h^2 (|s| |(v_b - v_a).perp(n)| +
/// (|D| + |v_b - v_a|) s^2 / 2) (|h| <= 1). Together:
///   F(h) = (p_b - p_a).n - h (w_b - s) (p_b - c_b).perp(n) + h (w_a - s) (p_a - c_a).perp(n)
///          + h ((v_b - v_a).n + s D.perp(n)) - radii - h^2 K,
///   K = |s| |(v_b - v_a).perp(n)| + (|D| + |v_b - v_a|) s^2 / 2 + ((w_a - s)^2 reach_a + (w_b - s)^2 reach_b) / 2,
/// with p_a = A's support along n - h (w_a - s) perp(n) and p_b = B's along -(n - h (w_b - s) perp(n)).
/// Any s gives a bound; each state takes the turning rate of the shape whose face GJK's closest
/// features lie on (0 at a vertex against a vertex), so that face stays square to the axis: along
/// a fixed axis a vertex closing on a turning face is bounded by the face's turning end and each
/// step proves only a fraction of the gap (a tenth, on the benchmark's polygons). F is a
/// concave function of h (support functions are convex, the remainder a downward parabola) and
/// F(0) is the gap, so the times where F stays above a level form one interval around 0: any h
/// with F(h) above the level proves all of [0, h] (or [h, 0] going back) free of contact. A step
/// looks first where the support points found at h = 0, held, reach the level (held, they bound F
/// from above by a parabola, so F is there by then), and narrows the level's crossing from there
/// by false position, whose chord lies below a concave F, in its
/// Illinois form (an end kept twice counts half, so the bracket closes from both sides), within
/// step_search_evaluations, and stops once the bracket is within an eighth of the step: past that a
/// new state's GJK gains more than further bounds. The first-order term makes a shape turning about its centre close at
/// the speed of its contact point, not at angular speed x reach, so steps stay long where a
/// Lipschitz bound crawls; without rotation F is linear and the step is exact in one division.
///
/// Each step aims at three quarters of a band above target_separation and accepts anything above
/// half a band, so the pose returned never overlaps. After a few steps, a probe 8 steps ahead that
/// finds contact gives a bracket [t, late]; bisection narrows it, a midpoint in contact becoming
/// `late` and one apart moving t only when its backward certificate reaches back to t's step. A
/// graze that keeps the gap within a hair of touching for longer than any certificate covers can
/// still reach the iteration cap; the time reported then is safe (no contact before it).
template <ConvexSupport A, ConvexSupport B, class Pose>
std::optional<CastHit> advance(const A& a, const B& b, Pose pose, const CastMotion& motion, const CastOptions& options) {
  const Real radius_a = a.rounding_radius(), radius_b = b.rounding_radius();
  const Real motion_speed = motion.speed_bound();
  SimplexCache cache;
  CastHit hit;
  struct State {
    Transform transform_a;
    Transform b_to_a;
    GjkResult cores;
    Real gap = 0;            // between the surfaces
    Real normal_speed = 0;   // how fast the centres' motion opens the gap along the axis at h = 0 (A's frame)
    Real axis_spin = 0;      // how fast the bounds' axis turns (radians per unit time): 0, or with the shape whose face is nearest
    Real curvature = 0;      // the bound's h^2 coefficient (turning pairs)
    Real turning_start = 0;  // turning_bound at h = 0, what separation_bound measures from (turning pairs)
    Real turning_slope = 0;  // its slope at h = 0 with the support points found there held (turning pairs)
  };
  // F(h) above for a turning pair: the separation along the state's normal, fixed, h later
  // (h < 0: earlier), bounded below; F(0) is the separation along the normal (the gap, up to how
  // far GJK's normal is from the best axis). With it, the slope in h of the same expression with
  // the support points found at h held.
  struct TurningBound {
    Real value;
    Real slope;
  };
  auto turning_bound = [&](const State& at, Real h) {
    const Vec2 normal = at.cores.normal, tangent = left_perpendicular(normal);
    const Real spin_a = motion.angular_velocity_a - at.axis_spin, spin_b = motion.angular_velocity_b - at.axis_spin;  // each shape's turn against the axis
    const Real turn_a = h * spin_a, turn_b = h * spin_b;
    const Vec2 point_a = a.support(normal - turn_a * tangent);
    const Vec2 point_b = transformed_support(b, at.b_to_a, turn_b * tangent - normal);
    const Vec2 center_b = transform_point(at.b_to_a, motion.local_center_b);
    const Real lever_b = dot(point_b - center_b, tangent), lever_a = dot(point_a - motion.local_center_a, tangent);
    return TurningBound{dot(point_b - point_a, normal) - turn_b * lever_b + turn_a * lever_a + h * at.normal_speed - radius_a - radius_b -
                            h * h * at.curvature,
                        -spin_b * lever_b + spin_a * lever_a + at.normal_speed - 2 * h * at.curvature};
  };
  // Built in place: GJK's result goes straight into the state, and what every bound on the state
  // shares is worked out once.
  auto state_at = [&](Real s) {
    const auto [transform_a, transform_b] = pose(s);
    const Transform b_to_a = inverse_compose(transform_a, transform_b);
    State state{transform_a, b_to_a, gjk(a, b, b_to_a, {.cache = &cache})};
    state.gap = state.cores.distance - radius_a - radius_b;
    const Vec2 relative_velocity = inverse_rotate(transform_a.rotation, motion.velocity_b - motion.velocity_a);  // of B's centre, A's frame
    state.normal_speed = dot(relative_velocity, state.cores.normal);
    if (motion.turns()) {
      // The axis turns with the shape whose face GJK's closest features lie on (of a simplex
      // edge, the shape whose two support points lie farther apart: a warm start's points carry
      // round-off, so a shared vertex can differ in its last bits): that face then stays square
      // to the axis, where a fixed axis meets the face's turning end and proves only a fraction of
      // the gap a step. Any turning rate gives a valid bound; this one gives long steps.
      const Simplex& features = state.cores.simplex;
      if (features.count == 2) {
        const MinkowskiVertex &first = features.vertices[0], &second = features.vertices[1];
        const bool face_of_a = length_squared(second.point_a - first.point_a) > length_squared(second.point_b - first.point_b);
        state.axis_spin = face_of_a ? motion.angular_velocity_a : motion.angular_velocity_b;
      }
      const Vec2 tangent = left_perpendicular(state.cores.normal);
      const Vec2 centers = transform_point(b_to_a, motion.local_center_b) - motion.local_center_a;  // A's rotation centre to B's
      const Real spin = state.axis_spin, spin_a = motion.angular_velocity_a - spin, spin_b = motion.angular_velocity_b - spin;
      state.normal_speed += spin * dot(centers, tangent);
      state.curvature = std::abs(spin) * std::abs(dot(relative_velocity, tangent)) +
                        Real(0.5) * ((length(centers) + length(relative_velocity)) * spin * spin + spin_a * spin_a * motion.reach_a +
                                     spin_b * spin_b * motion.reach_b);
      const TurningBound start = turning_bound(state, 0);
      state.turning_start = start.value;
      state.turning_slope = start.slope;
    }
    return state;
  };
  auto in_contact = [&](const State& state) { return state.cores.overlapping || state.gap <= options.target_separation + state.cores.tolerance; };
  // F(h) measured from the gap GJK found, so the axis's round-off does not count against a step.
  auto separation_bound = [&](const State& at, Real h) {
    if (!motion.turns()) return at.gap + h * at.normal_speed;
    return at.gap + (turning_bound(at, h).value - at.turning_start);
  };
  auto accept_level = [&](const State& at) { return options.target_separation + Real(0.5) * at.cores.tolerance; };
  // Is [-span, 0] before the state proven free of contact?
  auto free_back = [&](const State& at, Real span) { return separation_bound(at, -span) > accept_level(at); };
  // The longest step in (0, horizon] proven free of contact from the state; horizon itself when
  // the whole of it is.
  auto step_from = [&](const State& at, Real horizon) {
    const Real accept = accept_level(at), aim = options.target_separation + Real(0.75) * at.cores.tolerance;
    Real low = 0, above_low = at.gap - aim;
    // Where to look first: the horizon, or for a turning pair the time where the supports found at
    // the state, held, fall to the aim. Held, they bound F from above (F takes the best support
    // points at each h), by the parabola gap + slope h - curvature h^2, so F has reached the aim by
    // that time; it is the step itself while the same support points stay the nearest, and a
    // bracket's end otherwise. Its root is taken as 2 c / (root - slope), with no cancellation.
    Real first = horizon;
    if (motion.turns()) {
      const Real root = std::sqrt(at.turning_slope * at.turning_slope + 4 * at.curvature * above_low), denominator = root - at.turning_slope;
      if (denominator > 0 && 2 * above_low < horizon * denominator) first = 2 * above_low / denominator;
    }
    const Real at_first = separation_bound(at, first);
    if (at_first > accept) return first;
    Real high = first, above_high = at_first - aim;
    int kept_high = 0;  // evaluations in a row that moved `low` and kept `high`
    for (int evaluation = 0; evaluation < step_search_evaluations && above_low > 0 && above_high < 0; ++evaluation) {
      const Real h = low + above_low * (high - low) / (above_low - above_high);
      if (!(h > low && h < high)) break;
      const Real bound = separation_bound(at, h);
      if (bound > aim) {
        low = h;
        above_low = bound - aim;
        // Illinois: `high` kept twice counts half, so the next chord reaches past the crossing and
        // the bracket closes from both sides (plain false position on a concave F only creeps up).
        if (++kept_high >= 2) above_high *= Real(0.5);
      } else if (bound > accept) {
        return h;  // within the quarter band below the aim: as far as a step needs to go
      } else {
        high = h;
        above_high = bound - aim;
        kept_high = 0;
      }
      if (!motion.turns()) break;  // F is linear: the first chord is its root
      if (high - low <= Real(0.125) * low) break;  // within an eighth of the step: the next state's GJK does better than more bounds
    }
    return low;
  };
  // The hit at time s from the cores' closest points (apart) or EPA (overlapping, only at s = 0).
  auto hit_at = [&](Real s, const State& state) {
    Vec2 normal = state.cores.normal, point_a = state.cores.point_a, point_b = state.cores.point_b;
    if (state.cores.overlapping) {
      const EpaResult expansion = epa(a, b, state.b_to_a, state.cores.simplex);
      normal = expansion.normal;
      point_a = expansion.point_a;
      point_b = expansion.point_b;
    }
    hit.initially_touching = s == 0;
    return place_contact(hit, s, state.transform_a, normal, point_a, point_b, radius_a, radius_b);
  };
  // Separation of the shapes along a unit axis of A's frame (pointing from A to B).
  auto separation_along = [&](const State& at, Vec2 axis) {
    return dot(transformed_support(b, at.b_to_a, -axis) - a.support(axis), axis) - radius_a - radius_b;
  };
  // For a pair touching at the state (or within the target separation): of the axes along which
  // the supports confirm the pair's gap to within the tolerance (the normal cone of the contact;
  // an axis that only shows the pair touching would let a pair 0.01 apart close to 0), the one
  // nearest the relative motion, so closing the least; empty when no seed is confirmed. Seeds: the contact normal, the
  // motion's direction and 16 directions around; then bisection of the angle from the best seed
  // towards the motion (the confirmed axes form one arc, so they meet that path in one interval).
  auto opening_axis = [&](const State& at, Vec2 normal) -> std::optional<Vec2> {
    const Real level = std::max(at.gap, Real(0)) - at.cores.tolerance;
    auto confirmed = [&](Vec2 axis) { return separation_along(at, axis) >= level; };
    const Vec2 relative = inverse_rotate(at.transform_a.rotation, motion.velocity_b - motion.velocity_a);
    const Real relative_speed = length(relative);
    if (!(relative_speed > 0)) return confirmed(normal) ? std::optional<Vec2>(normal) : std::nullopt;
    const Vec2 away = (1 / relative_speed) * relative;
    std::optional<Vec2> best;
    auto consider = [&](Vec2 axis) {
      if ((!best || dot(axis, away) > dot(*best, away)) && confirmed(axis)) best = axis;
    };
    consider(normal);
    consider(away);
    constexpr int seeds = 16;
    for (int seed = 0; seed < seeds; ++seed) {
      const Rot around = Rot::from_angle(Real(2 * std::numbers::pi) * Real(seed) / seeds);
      consider({around.cosine, around.sine});
    }
    if (!best || dot(*best, away) >= 1) return best;
    // Turn from the best seed towards the motion by the largest confirmed angle.
    const Real towards = cross(*best, away) >= 0 ? Real(1) : Real(-1);
    Real confirmed_angle = 0, refuted_angle = std::acos(std::clamp(dot(*best, away), Real(-1), Real(1)));
    const Vec2 from = *best;
    for (int halving = 0; halving < opening_axis_halvings; ++halving) {
      const Real middle = Real(0.5) * (confirmed_angle + refuted_angle);
      if (confirmed(rotate(Rot::from_angle(towards * middle), from))) confirmed_angle = middle;
      else refuted_angle = middle;
    }
    return rotate(Rot::from_angle(towards * confirmed_angle), from);
  };
  Real late = 2;  // a time known to be in contact, once a probe found one (2: none yet)
  // The state found in contact there, valid once `late` <= 1. Raw storage rather than an
  // optional, which GCC clears in full (a State is some 200 bytes) on every call.
  union StateStorage {
    StateStorage() {}
    State value;
  } at_late;
  // The state at `t`, kept while t stays (a midpoint found in contact only moves `late`).
  StateStorage at_t;
  Real state_time = -1;  // the time at_t holds (-1: none yet)
  Real look_ahead = steps_before_probing;  // how many steps ahead the next probe looks
  Real t = 0;
  // The answer when GJK hit its own cap at a state: its distance bounds the gap only from above,
  // so nothing after `t` is proven; t itself is (every step to it was), and is reported as capped.
  auto capped_at = [&](const State& state) {
    hit.status = IterationStatus::iteration_cap;
    hit.time = t;
    hit.normal = rotate(state.transform_a.rotation, state.cores.normal);
    hit.point = transform_point(state.transform_a, Real(0.5) * (state.cores.point_a + state.cores.point_b));
    return hit;
  };
  auto gjk_capped = [](const State& state) { return state.cores.status == IterationStatus::iteration_cap; };
  for (;;) {
    if (t != state_time) {
      at_t.value = state_at(t);
      state_time = t;
    }
    const State& state = at_t.value;
    if (gjk_capped(state) && !state.cores.overlapping) return capped_at(state);
    if (in_contact(state)) {
      if (t == 0 && motion_speed > 0) {
        // A pair that only touches (or sits within the target separation) and moves apart or
        // along the contact (to within direction_tolerance of the motion) never gets closer on a
        // straight motion: the separation along a fixed axis bounds the gap from below. The axis
        // must be one the shapes' supports confirm (at a shared corner, gap 0, GJK's and EPA's
        // normals can be any direction) and the one closing least: see opening_axis(). No such
        // axis gives the hit at time 0 (conservative: a contact is never missed).
        const CastHit start = hit_at(0, state);
        const std::optional<Vec2> axis = opening_axis(state, inverse_rotate(state.transform_a.rotation, start.normal));
        if (axis && motion.closing_bound(rotate(state.transform_a.rotation, *axis)) <= direction_tolerance * motion_speed) return std::nullopt;
        return start;
      }
      return hit_at(t, state);
    }
    if (hit.iterations >= options.max_iterations) return capped_at(state);
    ++hit.iterations;
    // The forward step: no contact before t + step. Proven free up to the end of the motion (or
    // up to `late`, found in contact): no hit, or the contact at `late`.
    const Real horizon = std::min(late, Real(1)) - t;
    const Real step = step_from(state, horizon);
    if (step >= horizon) {
      if (late <= 1) return hit_at(late, at_late.value);
      // Free to the end by the bound, which starts from GJK's gap: that gap may be off by up to a
      // band, so an end the bound puts within the band is asked of GJK itself (a segment run 10
      // to 0.05 from a piece 1e5 from its frame's origin, float, was found 0.21 away at the end
      // from a gap 0.15 too long, and missed within the band of 0.38).
      if (separation_bound(state, horizon) > options.target_separation + state.cores.tolerance) return std::nullopt;
      const State at_end = state_at(1);
      if (gjk_capped(at_end)) return capped_at(state);
      if (!in_contact(at_end)) return std::nullopt;
      late = 1;
      at_late.value = at_end;
      continue;
    }
    if (late > 1 && hit.iterations >= steps_before_probing) {
      // Probe ahead: contact there brackets the crossing; a probe whose backward certificate
      // reaches back to t + step proves everything up to it free, and t jumps past it.
      const Real probe = std::min(Real(1), t + look_ahead * step);
      const State at_probe = state_at(probe);
      if (gjk_capped(at_probe)) return capped_at(state);
      if (in_contact(at_probe)) {
        late = probe;
        at_late.value = at_probe;
      } else if (free_back(at_probe, probe - (t + step))) {
        if (probe >= 1) return std::nullopt;
        const Real rest = 1 - probe, next = step_from(at_probe, rest);
        if (next >= rest) return std::nullopt;
        t = probe + next;
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
      if (gjk_capped(at_middle)) return capped_at(state);
      if (in_contact(at_middle)) {
        late = middle;
        at_late.value = at_middle;
        // The step from t stays proven: take it when it ends short of the new `late` (within the
        // band the two can meet: t then stays, and the bisection goes on).
        if (t + step < late) t += step;
        continue;
      }
      if (free_back(at_middle, middle - (t + step))) {  // [t, middle] is proven free: jump past the midpoint
        t = std::min(middle + step_from(at_middle, late - middle), late);
        continue;
      }
    }
    t += step;
  }
}

/// shape_cast()'s answer for a pair within the touching band at time 0 (B moving by
/// translation_b, A still): a hit at time 0 flagged initially_touching when the motion closes the
/// gap, none when it opens it or slides along the contact; advance() from t = 0 decides.
template <ConvexSupport A, ConvexSupport B>
std::optional<CastHit> cast_from_touching(const A& a, const Transform& transform_a, const B& b, const Transform& transform_b, Vec2 translation_b,
                                          const CastOptions& options) {
  auto pose = [&](Real t) {
    return std::pair<Transform, Transform>{transform_a, {transform_b.position + t * translation_b, transform_b.rotation}};
  };
  return advance(a, b, pose, {.velocity_a = {}, .velocity_b = translation_b, .local_center_a = {}, .local_center_b = {}}, options);
}

/// GJK ray cast for a pure translation (van den Bergen 2004): one GJK loop whose simplex moves
/// with the motion, instead of a converged GJK at every step. In A's frame, with D = B - A at the
/// current time t (D slides by t x B's motion) and the stop distance = radii + target_separation:
///   1. reduce the simplex to its point v nearest the origin, take D's support point w along -v;
///      w.v/|v| bounds D's distance from the origin along v from below;
///   2. GJK converged (gjk()'s test) within the stop distance plus the touching band: contact at t;
///   3. the bound along v above the stop distance plus three quarters of a band (the level
///      advance() aims at): t moves to where the motion closes it to that level; converged above
///      the band, t moves by the distance itself, as advance() does with GJK's answer. Nothing
///      closing along v, or not before t = 1: no hit;
///   4. otherwise w joins the simplex, as in GJK. The simplex is kept across a move (its points
///      move with D and all lie beyond the level), so it warm-starts the next step. A point added
///      without a move that the next reduction drops means GJK has converged (reduce_simplex).
/// Contact before the first move, a pair touching at t = 0, is decided by `touching_at_start`
/// (advance() from t = 0, which knows whether the motion closes it). Moves are capped by
/// options.max_iterations; GJK's refinements between two moves by gjk()'s own cap, which ends
/// the cast with iteration_cap at the time reached (safe) unless the support plane still proves
/// a move.
/// `search_b` is B's support as the searches take it: B itself (placed by b_to_a at each search),
/// or a PlacedPolygonSupport of it, placed in A's frame at the start (by the caller) and again at
/// each move. EPA takes B itself.
template <ConvexSupport A, ConvexSupport B, ConvexSupport SearchB, class TouchingAtStart>
std::optional<CastHit> gjk_ray_cast(const A& a, const Transform& transform_a, const B& b, SearchB& search_b, const Transform& transform_b,
                                    Vec2 translation_b, const CastOptions& options, TouchingAtStart touching_at_start) {
  const Real radius_a = a.rounding_radius(), radius_b = b.rounding_radius(), radii = radius_a + radius_b;
  const Real stop_distance = radii + options.target_separation;
  const Transform start = inverse_compose(transform_a, transform_b);
  const Vec2 motion = inverse_rotate(transform_a.rotation, translation_b);  // B's whole motion, A's frame
  Transform b_to_a = start;
  // Left unset, as gjk()'s: cleared, its 88 bytes took a string store (rep stos) at every cast.
  UninitializedArray<MeasuredSimplex, 1> simplex_storage;  // every vertex below `count` is written before it is read
  MeasuredSimplex& simplex = simplex_storage[0];
  const Vec2 toward_origin = length_squared(start.position) > 0 ? -start.position : Vec2{1, 0};
  minkowski_support(a, search_b, b_to_a, toward_origin, simplex.vertices[0]);
  simplex.measure(0, PlacementRoundOff(b_to_a));
  simplex.count = 1;
  BarycentricWeights weights;
  CastHit hit;
  Real time = 0;
  int refinements = 0;  // support evaluations since the last move
  bool refined = false;  // the last refinement added a support point (the simplex's last vertex) and nothing moved since
  const int refinement_cap = GjkOptions{}.max_iterations;
  // The hit at `time` from the simplex's closest points along `normal` (A's frame, A to B).
  auto hit_here = [&](Vec2 normal) {
    Vec2 point_a, point_b;
    for (int i = 0; i < simplex.count; ++i) {
      point_a += weights[i] * simplex.vertices[i].point_a;
      point_b += weights[i] * simplex.vertices[i].point_b;
    }
    return place_contact(hit, time, transform_a, normal, point_a, point_b, radius_a, radius_b);
  };
  for (;;) {
    const bool kept_newest = reduce_simplex(simplex, weights);
    const Real band = simplex_tolerance(simplex, radii);
    // Lengths along the search direction are compared scaled by its length, as gjk() does, so the
    // loop divides only for the step.
    const SearchDirection toward = simplex.count == 3 ? SearchDirection{} : direction_to_simplex(simplex);
    const Real search_length = simplex.count == 3 ? Real(0) : toward.length();
    if (simplex.count == 3 || toward.within(band, search_length)) {  // the cores touch: EPA gives the normal
      if (time == 0) return touching_at_start();
      const EpaResult expansion = epa(a, b, b_to_a, simplex.plain());
      return place_contact(hit, time, transform_a, expansion.normal, expansion.point_a, expansion.point_b, radius_a, radius_b);
    }
    MeasuredVertex& next = simplex.vertices[simplex.count];
    minkowski_support(a, search_b, b_to_a, -toward.search, next);
    ++refinements;
    const Real scaled_lower = dot(next.point, toward.search);
    const bool repeated = holds_point(simplex, next.point);
    const bool converged = repeated || (refined && !kept_newest) ||
                           toward.scaled_distance - scaled_lower <= std::max(band * search_length, round_off(toward.scaled_distance));
    // GJK's cap between two moves: |v| still bounds the distance from above (so a contact found is
    // one) but not from below (so no move may trust it); the answer is then reported as capped.
    const bool capped = !converged && refinements >= refinement_cap;
    auto unit = [&] {
      Vec2 direction;
      Real distance;
      toward.unit_and_distance(simplex.vertices[0].point, search_length, direction, distance);
      return direction;
    };
    if ((converged || capped) && toward.scaled_distance <= (stop_distance + band) * search_length) {
      if (time == 0 && !capped) return touching_at_start();
      if (capped) hit.status = IterationStatus::iteration_cap;
      return hit_here(unit());
    }
    const Real scaled_aim = (stop_distance + Real(0.75) * band) * search_length;
    Real scaled_separation;  // along the search direction, what the move closes down to the aim
    if (scaled_lower > scaled_aim) scaled_separation = scaled_lower;
    else if (converged) scaled_separation = toward.scaled_distance;
    else if (capped) {  // a safe, early time: nothing proven beyond it
      hit.status = IterationStatus::iteration_cap;
      return hit_here(unit());
    } else {
      simplex.measure(simplex.count, PlacementRoundOff(b_to_a));
      ++simplex.count;
      refined = true;
      continue;
    }
    const Real scaled_closing = -dot(motion, toward.search);  // how fast the motion closes the separation
    if (!(scaled_closing > 0)) return std::nullopt;
    const Real step = (scaled_separation - scaled_aim) / scaled_closing;
    if (step >= 1 - time) return std::nullopt;
    if (hit.iterations >= options.max_iterations) {
      hit.status = IterationStatus::iteration_cap;
      return hit_here(unit());
    }
    ++hit.iterations;
    refinements = 0;
    refined = false;  // the simplex moves with D: the reduction may drop any of its points
    time += step;
    b_to_a.position = start.position + time * motion;
    if constexpr (requires { SearchB::placed; }) search_b.place(b_to_a);
    if (!repeated) ++simplex.count;  // a new support point joins the moved simplex
    const Vec2 shift = step * motion;
    const PlacementRoundOff placement(b_to_a);
    for (int i = 0; i < simplex.count; ++i) {
      simplex.vertices[i].point_b += shift;
      simplex.vertices[i].point += shift;
      simplex.measure(i, placement);
    }
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
  auto touching_at_start = [&] { return detail::cast_from_touching(a, transform_a, b, transform_b, translation_b, options); };
  if constexpr (std::is_same_v<B, Polygon>) {
    if (b.count() <= polygon_inline_capacity) {
      detail::PlacedPolygonSupport placed_b(b, inverse_compose(transform_a, transform_b));
      return detail::gjk_ray_cast(a, transform_a, b, placed_b, transform_b, translation_b, options, touching_at_start);
    }
  }
  return detail::gjk_ray_cast(a, transform_a, b, b, transform_b, translation_b, options, touching_at_start);
}

/// shape_cast() with a circle on either side, in closed form: the circle's centre travels along a
/// ray, and the pair's gap is the centre's distance from the other shape's core (a polygon, a
/// capsule's or segment's segment, the other circle's centre) less the radii, so the first
/// contact is where that ray meets the core swept by the radii and target_separation. No steps
/// are taken (iterations is 0, and the iteration cap cannot be reached); the time is where the
/// gap is half a touching band, never an overlap. A pair within the band at time 0 is decided as
/// for any other shapes.
[[nodiscard]] std::optional<CastHit> shape_cast(const Circle& a, const Transform& transform_a, const Circle& b, const Transform& transform_b,
                                                Vec2 translation_b, const CastOptions& options = {});
[[nodiscard]] std::optional<CastHit> shape_cast(const Circle& a, const Transform& transform_a, const Capsule& b, const Transform& transform_b,
                                                Vec2 translation_b, const CastOptions& options = {});
[[nodiscard]] std::optional<CastHit> shape_cast(const Circle& a, const Transform& transform_a, const Segment& b, const Transform& transform_b,
                                                Vec2 translation_b, const CastOptions& options = {});
[[nodiscard]] std::optional<CastHit> shape_cast(const Circle& a, const Transform& transform_a, const Polygon& b, const Transform& transform_b,
                                                Vec2 translation_b, const CastOptions& options = {});
[[nodiscard]] std::optional<CastHit> shape_cast(const Capsule& a, const Transform& transform_a, const Circle& b, const Transform& transform_b,
                                                Vec2 translation_b, const CastOptions& options = {});
[[nodiscard]] std::optional<CastHit> shape_cast(const Segment& a, const Transform& transform_a, const Circle& b, const Transform& transform_b,
                                                Vec2 translation_b, const CastOptions& options = {});
[[nodiscard]] std::optional<CastHit> shape_cast(const Polygon& a, const Transform& transform_a, const Circle& b, const Transform& transform_b,
                                                Vec2 translation_b, const CastOptions& options = {});

/// The first time in [0, 1] at which A and B, each following its sweep (translation and
/// rotation), touch; empty when they never do. Never later than the first contact a fine sampling
/// of the motion finds; touching within the tolerance at the time returned.
template <ConvexSupport A, ConvexSupport B>
[[nodiscard]] std::optional<CastHit> time_of_impact(const A& a, const Sweep& sweep_a, const B& b, const Sweep& sweep_b,
                                                    const CastOptions& options = {}) {
  const detail::CastMotion motion{.velocity_a = sweep_a.center_end - sweep_a.center_start,
                                  .velocity_b = sweep_b.center_end - sweep_b.center_start,
                                  .angular_velocity_a = sweep_a.angle_end - sweep_a.angle_start,
                                  .angular_velocity_b = sweep_b.angle_end - sweep_b.angle_start,
                                  .local_center_a = sweep_a.local_center,
                                  .local_center_b = sweep_b.local_center,
                                  .reach_a = detail::reach_about(a, sweep_a.local_center),
                                  .reach_b = detail::reach_about(b, sweep_b.local_center)};
  auto pose = [&](Real t) { return std::pair<Transform, Transform>{sweep_a.at(t), sweep_b.at(t)}; };
  return detail::advance(a, b, pose, motion, options);
}

/// shape_cast() for any pair of shapes held in the Shape variant. With a compound, the earliest
/// hit over its children; a compound and a convex shape are cast with the compound first,
/// whichever side it is on, and two compounds with the one reaching farther from its origin first
/// (docs/conventions.md), so swapping A and B, with B's motion reversed, gives exactly the same
/// time, the mirrored normal and the point moved by time x translation_b. Children whose swept
/// boxes miss the other shape are skipped.
[[nodiscard]] std::optional<CastHit> shape_cast(const Shape& a, const Transform& transform_a, const Shape& b, const Transform& transform_b,
                                                Vec2 translation_b, const CastOptions& options = {});

/// time_of_impact() for any pair of shapes held in the Shape variant. With a compound, the
/// earliest impact over its children (each child follows its body's sweep); a compound and a
/// convex shape are judged with the compound first, whichever side it is on, and two compounds
/// with the one reaching farther from its origin first (docs/conventions.md), so swapping them
/// and their sweeps gives exactly the same time and point and the mirrored normal; children whose
/// swept boxes miss are skipped.
[[nodiscard]] std::optional<CastHit> time_of_impact(const Shape& a, const Sweep& sweep_a, const Shape& b, const Sweep& sweep_b,
                                                    const CastOptions& options = {});

}  // namespace collide2d

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

namespace collide2d {

/// Options for shape_cast() and time_of_impact().
struct CastOptions {
  /// Contact is declared when the gap is at most this (length units); 0 picks
  /// 8 x relative_tolerance x (size of A + size of B), about 6e-5 of the sizes in float and 1e-13
  /// in double. Never below 4x GJK's own tolerance. The time returned leaves a gap of about half of it.
  Real tolerance = 0;
  int max_iterations = 256;  ///< cap on advancement steps; hitting it is reported
};

/// The first contact of two moving shapes.
struct CastHit {
  Real time = 0;        ///< fraction of the motion, in [0, 1], at which they first touch
  Vec2 point;           ///< world contact point at that time, midway between the surfaces
  Vec2 normal;          ///< world unit normal from A to B at that time
  bool initially_touching = false;  ///< they already touched or overlapped at time 0 (time is 0)
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
/// corner of the core's bounding box from four supports, plus the rounding radius.
template <ConvexSupport S>
Real reach_about(const S& shape, Vec2 center) {
  const Vec2 lower{shape.support(Vec2{-1, 0}).x, shape.support(Vec2{0, -1}).y};
  const Vec2 upper{shape.support(Vec2{1, 0}).x, shape.support(Vec2{0, 1}).y};
  const Vec2 far{std::max(std::abs(lower.x - center.x), std::abs(upper.x - center.x)),
                 std::max(std::abs(lower.y - center.y), std::abs(upper.y - center.y))};
  return length(far) + shape.rounding_radius();
}

/// The cast tolerance: the caller's, or 8 relative tolerances of the sizes, never below 4x GJK's own.
inline Real cast_tolerance(const CastOptions& options, Real size_a, Real size_b, Real gjk_tolerance) {
  const Real automatic = 8 * relative_tolerance * (size_a + size_b);
  return std::max(options.tolerance > 0 ? options.tolerance : automatic, 4 * gjk_tolerance);
}

/// Conservative advancement over t in [0, 1]. `pose(t)` gives (transform A, transform B) in the
/// world; `closing_bound(normal_world)` bounds how fast the gap along that normal can shrink.
template <ConvexSupport A, ConvexSupport B, class Pose, class ClosingBound>
std::optional<CastHit> advance(const A& a, const B& b, Pose pose, ClosingBound closing_bound, Real size_a, Real size_b,
                               const CastOptions& options) {
  const Real radii = a.rounding_radius() + b.rounding_radius();
  SimplexCache cache;
  CastHit hit;
  Real t = 0;
  for (;;) {
    const auto [transform_a, transform_b] = pose(t);
    const Transform b_to_a = inverse_compose(transform_a, transform_b);
    const GjkResult cores = gjk(a, b, b_to_a, {.cache = &cache});
    const Real tolerance = cast_tolerance(options, size_a, size_b, cores.tolerance);
    const Real gap = cores.distance - radii;
    if (cores.overlapping || gap <= tolerance) {
      hit.time = t;
      hit.initially_touching = t == 0;
      Vec2 normal = cores.normal, point_a = cores.point_a, point_b = cores.point_b;
      if (cores.overlapping) {  // only possible at t = 0: take the penetration normal
        const EpaResult expansion = epa(a, b, b_to_a, cores.simplex);
        normal = expansion.normal;
        point_a = expansion.point_a;
        point_b = expansion.point_b;
      }
      hit.normal = rotate(transform_a.rotation, normal);
      hit.point = transform_point(transform_a, Real(0.5) * (point_a + a.rounding_radius() * normal + point_b - b.rounding_radius() * normal));
      return hit;
    }
    if (hit.iterations >= options.max_iterations) {
      hit.status = IterationStatus::iteration_cap;
      hit.time = t;
      hit.normal = rotate(transform_a.rotation, cores.normal);
      hit.point = transform_point(transform_a, Real(0.5) * (cores.point_a + cores.point_b));
      return hit;
    }
    const Real closing = closing_bound(rotate(transform_a.rotation, cores.normal));
    if (!(closing > 0)) return std::nullopt;  // the gap along this normal never shrinks: no contact ahead
    t += (gap - Real(0.5) * tolerance) / closing;
    ++hit.iterations;
    if (t > 1) return std::nullopt;
  }
}

}  // namespace detail

/// The first time in [0, 1] at which B, moving by translation_b (world) while A stays put, touches
/// A; empty when they never touch. A pair already touching or overlapping reports time 0 with
/// `initially_touching`. Works for any ConvexSupport shapes.
template <ConvexSupport A, ConvexSupport B>
[[nodiscard]] std::optional<CastHit> shape_cast(const A& a, const Transform& transform_a, const B& b, const Transform& transform_b,
                                                Vec2 translation_b, const CastOptions& options = {}) {
  auto pose = [&](Real t) {
    return std::pair<Transform, Transform>{transform_a, {transform_b.position + t * translation_b, transform_b.rotation}};
  };
  auto closing = [&](Vec2 normal) { return -dot(normal, translation_b); };
  return detail::advance(a, b, pose, closing, detail::reach_about(a, {}), detail::reach_about(b, {}), options);
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
  return detail::advance(a, b, pose, closing, reach_a, reach_b, options);
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

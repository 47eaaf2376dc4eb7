// collide2d/algorithms.hpp — the named algorithms, usable on their own: GJK, EPA, SAT and the
// brute-force Minkowski difference. Each can record its intermediate steps (simplices, polytope
// expansions, axes tried) for pictures, the demo and the docs.
//
// Frame and sign conventions: every algorithm works in A's local frame, with B placed by
// `b_to_a` (see inverse_compose in math.hpp). The Minkowski difference is D = B - A = {b - a}:
// the shapes overlap exactly when D contains the origin, and the closest point of D to the
// origin is `distance * normal` with the normal pointing from A to B. GJK and EPA work on the
// shapes' cores; the callers (penetration.hpp, distance.hpp) add the rounding radii. The one
// exception is minkowski_exit, which takes world-frame poses and a world-frame motion like the
// queries, so the frame of the motion is never left to the caller to get right.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "collide2d/math.hpp"
#include "collide2d/result.hpp"
#include "collide2d/shapes.hpp"
#include "collide2d/support.hpp"

namespace collide2d {

/// How an iterative algorithm stopped.
enum class IterationStatus {
  converged,       ///< it reached its answer within tolerance
  iteration_cap,   ///< it hit its iteration or storage cap; the answer is its best estimate so far
};

/// One vertex of a GJK simplex or EPA polytope on the Minkowski difference B - A (A's frame).
struct MinkowskiVertex {
  Vec2 point_a;  ///< support point of A's core, A's frame
  Vec2 point_b;  ///< support point of B's core, A's frame
  Vec2 point;    ///< point_b - point_a, a point of the Minkowski difference
};

/// A GJK simplex: a point, a segment or a triangle of the Minkowski difference.
struct Simplex {
  std::array<MinkowskiVertex, 3> vertices{};  ///< the first `count` are in use
  int count = 0;                              ///< 0 (empty) to 3
};

/// Warm-start memory for repeated GJK queries on the same pair: the final simplex's support
/// points, each in its own shape's local frame, so it stays valid when the shapes move.
struct SimplexCache {
  std::array<Vec2, 3> local_a{};  ///< support points of A's core, A's local frame
  std::array<Vec2, 3> local_b{};  ///< support points of B's core, B's local frame
  int count = 0;                  ///< 0 means cold: nothing cached yet
};

/// Options for gjk(). Designated initialisers: gjk(a, b, b_to_a, {.cache = &cache}).
struct GjkOptions {
  int max_iterations = 64;                  ///< cap on support evaluations; hitting it is reported
  SimplexCache* cache = nullptr;            ///< read as a warm start and written back, when given
  std::vector<Simplex>* trace = nullptr;    ///< when given, receives the simplex after each step
  /// Stop as soon as the cores are proven farther apart than this (the boolean overlap query
  /// passes the radii sum); negative means never stop early.
  Real separation_limit = -1;
};

/// What GJK found between the cores of A and B.
struct GjkResult {
  Real distance = 0;        ///< distance between the cores (>= 0, 0 when they overlap or touch)
  Vec2 point_a;             ///< closest point on A's core, A's frame
  Vec2 point_b;             ///< closest point on B's core, A's frame
  Vec2 normal;              ///< unit vector from point_a to point_b; zero when overlapping
  bool overlapping = false; ///< the cores share a point (distance within the tolerance of 0)
  bool stopped_early = false; ///< stopped at options.separation_limit; distance is a lower bound then
  Simplex simplex;          ///< the final simplex, the starting point for EPA
  Real tolerance = 0;       ///< the touching band used: contact_tolerance of the final simplex's support points plus the radii (length units)
  int iterations = 0;       ///< support evaluations made
  IterationStatus status = IterationStatus::converged;
};

/// GJK distance between the cores of A and B (Gilbert, Johnson, Keerthi 1988, with the
/// barycentric simplex solver of Ericson's "Real-Time Collision Detection" §9.5). Stops when a
/// step makes no progress, when the simplex encloses the origin, at the separation limit, or
/// at the iteration cap (reported in `status`).
template <ConvexSupport A, ConvexSupport B>
GjkResult gjk(const A& a, const B& b, const Transform& b_to_a, const GjkOptions& options = {});

/// Options for epa().
struct EpaOptions {
  int max_iterations = 256;                         ///< cap on expansions; hitting it is reported
  std::vector<std::vector<Vec2>>* trace = nullptr;  ///< when given, receives the polytope after each expansion
};

/// The penetration of A's and B's cores that EPA found.
struct EpaResult {
  /// Core penetration depth, length units: moving B by depth * normal makes the cores touch.
  /// Negative where the cores GJK handed over as within its band are apart: minus their distance.
  Real depth = 0;
  Vec2 normal{1, 0};   ///< unit vector from A to B, A's frame; +x when the difference has no area
  Vec2 point_a;        ///< deepest point of A's core inside B's core, A's frame
  Vec2 point_b;        ///< deepest point of B's core inside A's core, A's frame; point_a - point_b = depth * normal
  int iterations = 0;  ///< expansions made
  IterationStatus status = IterationStatus::converged;
  /// The magnitude behind the answer's round-off: the largest coordinate_magnitude of the support
  /// points of B - A the answer comes from (the final edge's ends, and the far end of a
  /// neighbouring edge as near the origin within its band; each with what placing B's point in
  /// A's frame rounded). contact_tolerance(feature_magnitude + radii) is the touching band of the
  /// features in contact, as GjkResult::tolerance is of GJK's simplex.
  Real feature_magnitude = 0;
};

/// Largest polytope EPA keeps (vertices); reaching it ends the expansion with iteration_cap.
inline constexpr int epa_max_vertices = 256;
/// Points within the tolerance of EPA's nearest edge it still inserts to make that edge an edge of the difference.
inline constexpr int epa_refinements = 8;

/// EPA, the expanding polytope algorithm (van den Bergen 2001), in 2D. Starts from GJK's final
/// simplex in whatever state it ended (a point, a segment or a triangle, touching or deep) by
/// first growing it into a polygon with support points along fixed and edge-normal directions;
/// then repeatedly pushes out the polytope edge nearest the origin until the support point along
/// its normal adds less than the tolerance. Convexity is restored after each insertion, so the
/// polytope always contains the origin it started with. Where the origin lies outside the
/// difference (cores GJK called touching within its band, though apart), the edge pushed out is
/// the one separating the origin most, and the answer is the cores' distance, negated, and their
/// closest points. Terminates on every input.
template <ConvexSupport A, ConvexSupport B>
EpaResult epa(const A& a, const B& b, const Transform& b_to_a, const Simplex& start, const EpaOptions& options = {});

/// One axis SAT tried.
struct SatAxis {
  Real separation = 0; ///< core separation along the axis: > 0 apart, < 0 overlapping by -separation
  Vec2 normal;         ///< unit axis, A's frame, pointing from the reference shape to the other
  int shape = 0;       ///< 0 when the axis is A's edge normal, 1 when it is B's
  int edge = 0;        ///< the edge of that shape whose normal it is
};

/// The separating axis test for convex polygon cores: the edge normal of A or B with the
/// largest separation (the minimum-overlap axis when they overlap). Radii are not included:
/// subtract a.radius() + b.radius() from the separation. `trace` receives every axis tried: A's
/// normals, then B's, in edge order.
SatAxis sat(const Polygon& a, const Polygon& b, const Transform& b_to_a, std::vector<SatAxis>* trace = nullptr);

/// The Minkowski difference B - A by brute force, for learners and as a cross-check.
struct MinkowskiDifference {
  std::vector<Vec2> all_points;   ///< every difference b_j - a_i of core vertices, A's frame
  std::vector<Vec2> hull;         ///< their convex hull, counter-clockwise (1 or 2 points when degenerate)
  Real radius = 0;                ///< the sum of the rounding radii: the true difference is `hull` swept by it
  bool contains_origin = false;   ///< the origin is inside or on the boundary (the shapes overlap or touch)
  Real signed_distance = 0;       ///< distance from the origin to the boundary: > 0 outside, < 0 inside (-depth)
  Vec2 closest_point;             ///< the boundary point nearest the origin
  Vec2 normal{1, 0};              ///< unit normal from A to B: the direction B must move to separate or stay apart
};

/// The Minkowski difference of two shapes' cores (vertex lists: a circle's centre, a segment's
/// or capsule's two ends, a polygon's vertices), with B placed by b_to_a. O(n m log(n m)).
MinkowskiDifference minkowski_difference(const ConvexShape& a, const ConvexShape& b, const Transform& b_to_a);

/// Why minkowski_exit() gives no exit.
enum class ExitRefusalKind {
  zero_motion,         ///< the motion is zero: there is no line to back out along
  apart,               ///< B does not overlap A after the motion: there is nothing to undo
  overlapping_before,  ///< B moved back by the whole motion still overlaps A: the motion does not explain the overlap
};

/// A refusal of minkowski_exit(): which case and a readable sentence.
struct ExitRefusal {
  ExitRefusalKind kind = ExitRefusalKind::zero_motion;  ///< the case
  std::string message;                                  ///< one sentence naming the problem
};

/// How to undo the part of a motion that drove B into A, and what of it is left to slide with.
/// Every vector is in the world frame, in length units.
struct MinkowskiExit {
  Real fraction = 0;   ///< s in [0, 1]: B moved back by s * motion touches A; the last s of the motion came after the contact
  Vec2 translation_b;  ///< -fraction * motion: add it to B's position and B touches A (a gap within the cast tolerance, never an overlap)
  Vec2 normal;         ///< unit contact normal from A to B at the touching pose
  Vec2 slide;          ///< the blocked remainder fraction * motion with its component along `normal` removed: the move left along the surface
  IterationStatus status = IterationStatus::converged;  ///< iteration_cap: `fraction` is too large (B backs out to a gap), never too small
};

/// B, at `transform_b` after moving by `motion_b`, overlaps A: the smallest s in [0, 1] such that
/// B moved back by s * motion_b touches A, the contact normal there, and the blocked remainder
/// s * motion_b projected on the contact surface — the push-out-and-slide method game programmers
/// use on slopes. It is the ray from the origin along the motion through the Minkowski difference
/// at B's final pose, computed by shape_cast() from B's pose before the move, so it needs no
/// difference built and agrees with minkowski_difference(). Every input is in the world frame.
/// Refuses a zero motion, a B that does not overlap A after the motion, and a B that overlapped A
/// before the motion by more than the contact tolerance (the motion does not explain the overlap).
Result<MinkowskiExit, ExitRefusal> minkowski_exit(const ConvexShape& a, const Transform& transform_a, const ConvexShape& b,
                                                  const Transform& transform_b, Vec2 motion_b);

/// minkowski_exit() for any pair of shapes held in the Shape variant: with a compound (a concave
/// outline), the motion backed out to its first contact with any piece, and that piece's normal.
Result<MinkowskiExit, ExitRefusal> minkowski_exit(const Shape& a, const Transform& transform_a, const Shape& b, const Transform& transform_b,
                                                  Vec2 motion_b);

}  // namespace collide2d

#include "collide2d/detail/gjk_epa.hpp"

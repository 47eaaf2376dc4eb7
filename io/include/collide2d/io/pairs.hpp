// collide2d/io/pairs.hpp — the scene-wide reports the collide2d command prints: which pairs of
// bodies overlap, touch or are apart, how far apart every pair is, what a ray hits, when
// moving bodies first touch, and where a body moved by move_and_slide() ends.
#pragma once

#include <vector>

#include "collide2d/io/scene.hpp"
#include "collide2d/manifold.hpp"
#include "collide2d/raycast.hpp"
#include "collide2d/response.hpp"
#include "collide2d/shape_cast.hpp"

namespace collide2d::io {

/// How a pair of bodies stands.
enum class PairStatus {
  overlap,   ///< they overlap by more than the pair tolerance
  touching,  ///< they share boundary points only (depth within the pair tolerance of 0)
  separate,  ///< they are apart
};

/// One pair of bodies, a < b (indices into Scene::bodies).
struct PairReport {
  int a = 0;                             ///< index of the first body
  int b = 0;                             ///< index of the second body, > a
  PairStatus status = PairStatus::separate;
  /// Length units: the largest -separation of `contacts` (> 0 for overlap; 0 touching and separate).
  /// With a compound it is the deepest child contact's, not the translation that frees b from the
  /// whole compound (penetration() gives that).
  Real depth = 0;
  Vec2 normal;                           ///< world unit normal from a to b of the manifold holding the deepest contact; zero for separate pairs
  std::vector<ManifoldPoint> contacts;   ///< contact_manifolds() points, world (of every touching child pair of a compound); empty for separate pairs
};

/// Every pair that overlaps or touches, ordered by (a, b); with `all`, every pair. Candidate
/// pairs come from the world's dynamic tree; depth, normal and status come from the same
/// manifolds as the contacts.
std::vector<PairReport> find_pairs(const Scene& scene, bool all);

/// The distance between one pair of bodies.
struct DistanceReport {
  int a = 0;           ///< index of the first body
  int b = 0;           ///< index of the second body, > a
  Real distance = 0;   ///< gap between the surfaces; 0 when they overlap or touch
  Vec2 normal;         ///< world unit normal from a to b; zero when they overlap or touch
  Vec2 point_a;        ///< world point on a closest to b
  Vec2 point_b;        ///< world point on b closest to a
};

/// The distance of every pair of bodies, ordered by (a, b).
std::vector<DistanceReport> all_distances(const Scene& scene);

/// One body a ray hits.
struct RayReport {
  int body = 0;  ///< index of the body hit
  RayHit hit;    ///< where (world) and at which fraction of the ray
};

/// The bodies the ray hits, in order of fraction (ties in body order); without `all`, only the first.
std::vector<RayReport> cast_ray(const Scene& scene, const Ray& ray, bool all);

/// The first contact of a pair of moving bodies.
struct ImpactReport {
  int a = 0;       ///< index of the first body
  int b = 0;       ///< index of the second body, > a
  Real time = 0;   ///< absolute time of first contact, in [0, duration]
  CastHit hit;     ///< contact point and normal (a to b) at that time; hit.time is the fraction of duration
};

/// Every pair (a < b) of bodies that comes into contact while each moves with its velocity and
/// angular velocity (turning about its origin) for `duration`; pairs touching at the start have time 0.
std::vector<ImpactReport> find_impacts(const Scene& scene, Real duration);

/// Moves body `mover` of the scene by `motion` (world) with move_and_slide(), every other body
/// fixed in a world (options.filter.ignore is set to the mover). The hits' body handles carry the
/// scene indices of the bodies met. `mover` must be a valid index.
MoveResult move_body(const Scene& scene, int mover, Vec2 motion, MoveOptions options);

/// Text name of a status: "overlap", "touching" or "separate".
const char* status_name(PairStatus status);

}  // namespace collide2d::io

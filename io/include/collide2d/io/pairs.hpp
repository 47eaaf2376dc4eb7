// collide2d/io/pairs.hpp — the scene-wide reports the collide2d command prints: which pairs of
// bodies overlap, touch or are apart, and how far apart every pair is.
#pragma once

#include <vector>

#include "collide2d/io/scene.hpp"
#include "collide2d/manifold.hpp"

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
  Real depth = 0;                        ///< penetration depth (> 0 for overlap, 0 touching and separate)
  Vec2 normal;                           ///< world unit normal from a to b; zero for separate pairs
  std::vector<ManifoldPoint> contacts;   ///< manifold points in world coordinates; empty for separate pairs
};

/// Every pair that overlaps or touches, ordered by (a, b); with `all`, every pair. Candidate
/// pairs come from a sweep over the bodies' bounding boxes sorted along x.
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

/// Text name of a status: "overlap", "touching" or "separate".
const char* status_name(PairStatus status);

}  // namespace collide2d::io

// collide2d/broad_phase.hpp — finding candidate pairs among many bounding boxes: one interface,
// four implementations (DynamicTree, SweepAndPrune, UniformGrid, BruteForce).
//
// A proxy is a bounding box the caller inserted; the broad phase hands back the proxy's id, a
// small non-negative integer that stays valid until the proxy is removed (ids of removed proxies
// are reused). Every implementation reports exactly the same answers for the same boxes:
// overlap is judged on the tight boxes the caller gave, touching counts, and pairs come back
// as (smaller id, larger id) sorted ascending. Implementations may keep enlarged ("fat") boxes
// internally so that small moves cost nothing, but never let them change an answer.
// Every implementation hands out ids the same way (the most recently removed id first, otherwise
// the next unused one), so the same calls give the same ids whichever broad phase is used.
// The const queries of SweepAndPrune and UniformGrid may tidy their structure first (re-sort,
// rebuild the grid), so no broad phase may be queried from two threads at once.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "collide2d/math.hpp"

namespace collide2d {

/// Which broad phase to build.
enum class BroadPhaseKind {
  dynamic_tree,     ///< bounding-volume tree of fattened boxes, insertion by surface area, rotations (Box2D-style)
  sweep_and_prune,  ///< boxes kept sorted along x, re-sorted incrementally by insertion sort after moves
  uniform_grid,     ///< hash grid of fixed cells; best when bodies are of similar size
  brute_force,      ///< every pair tested: the reference the others are checked against
};

/// The common interface of the broad phases.
class BroadPhase {
 public:
  virtual ~BroadPhase() = default;

  /// Adds a box and returns its proxy id.
  virtual int insert(const Aabb& box) = 0;
  /// Removes a proxy; its id may be handed out again by a later insert.
  virtual void remove(int proxy) = 0;
  /// Gives a proxy a new box.
  virtual void move(int proxy, const Aabb& box) = 0;
  /// The box last given for a proxy.
  virtual Aabb box(int proxy) const = 0;
  /// Number of proxies.
  virtual int size() const = 0;

  /// Every pair of proxies whose boxes overlap or touch, as (smaller id, larger id), sorted; `pairs` is replaced.
  virtual void find_pairs(std::vector<std::pair<int, int>>& pairs) = 0;
  /// The proxies whose boxes overlap or touch `region`, sorted ascending; `proxies` is replaced.
  virtual void query(const Aabb& region, std::vector<int>& proxies) const = 0;
  /// The proxies whose boxes the segment from `origin` to `origin + max_fraction * translation`
  /// meets (a zero-length segment is a point query), sorted ascending; `proxies` is replaced.
  virtual void ray_query(Vec2 origin, Vec2 translation, Real max_fraction, std::vector<int>& proxies) const = 0;

  /// Checks the internal invariants (for the dynamic tree: parent links, enclosing boxes,
  /// heights, balance); true when all hold. The tests call it after every step.
  virtual bool validate() const = 0;
};

/// Options for make_broad_phase.
struct BroadPhaseOptions {
  /// Dynamic tree: how far fat boxes extend beyond the tight box on each side (length units);
  /// 0 picks a fifth of the first box's larger half extent. Uniform grid: the cell size; 0 picks twice
  /// the average box extent of the boxes present at the first find_pairs (and re-picks after
  /// the box count has doubled or halved).
  Real margin_or_cell = 0;
};

/// A new, empty broad phase of the given kind.
std::unique_ptr<BroadPhase> make_broad_phase(BroadPhaseKind kind, const BroadPhaseOptions& options = {});

}  // namespace collide2d

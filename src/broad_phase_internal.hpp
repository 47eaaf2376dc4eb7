// broad_phase_internal.hpp — private pieces shared by the broad-phase implementations: the id
// allocator every implementation uses (so all of them hand out the same ids for the same
// sequence of inserts and removes), a linear-time pair sorter, and the factory functions that
// make_broad_phase dispatches to.
#pragma once

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "collide2d/broad_phase.hpp"
#include "collide2d/tolerance.hpp"

namespace collide2d::detail {

/// Hands out proxy ids: the most recently released id first, otherwise the next unused one.
class ProxyIds {
 public:
  /// A free id.
  int acquire() {
    if (!released_.empty()) {
      const int id = released_.back();
      released_.pop_back();
      return id;
    }
    return bound_++;
  }
  /// Gives an id back for reuse.
  void release(int id) { released_.push_back(id); }
  /// One past the largest id ever handed out.
  int bound() const { return bound_; }
  /// Ids currently released (for validation).
  const std::vector<int>& released() const { return released_; }

 private:
  std::vector<int> released_;
  int bound_ = 0;
};

/// Sorts pairs whose first members lie in [0, id_bound): a counting sort by first member, then
/// each group by second member. Linear in pairs + id_bound when the groups are small.
class PairSorter {
 public:
  void sort(std::vector<std::pair<int, int>>& pairs, int id_bound) {
    if (pairs.size() < 2) return;
    starts_.assign(static_cast<std::size_t>(id_bound) + 1, 0);
    for (const auto& pair : pairs) ++starts_[static_cast<std::size_t>(pair.first) + 1];
    for (std::size_t i = 1; i < starts_.size(); ++i) starts_[i] += starts_[i - 1];
    scratch_.resize(pairs.size());
    for (const auto& pair : pairs) scratch_[static_cast<std::size_t>(starts_[static_cast<std::size_t>(pair.first)]++)] = pair;
    // starts_[k] now holds the end of group k; group k begins where group k - 1 ended.
    std::size_t begin = 0;
    for (std::size_t k = 0; k + 1 < starts_.size(); ++k) {
      const auto end = static_cast<std::size_t>(starts_[k]);
      if (end - begin > 1) {
        auto first = scratch_.begin() + static_cast<std::ptrdiff_t>(begin);
        auto last = scratch_.begin() + static_cast<std::ptrdiff_t>(end);
        if (end - begin <= 16) {
          for (auto it = first + 1; it != last; ++it) {
            const auto value = *it;
            auto hole = it;
            while (hole != first && (hole - 1)->second > value.second) {
              *hole = *(hole - 1);
              --hole;
            }
            *hole = value;
          }
        } else {
          std::sort(first, last);
        }
      }
      begin = end;
    }
    pairs.swap(scratch_);
  }

 private:
  std::vector<int> starts_;
  std::vector<std::pair<int, int>> scratch_;
};

/// The pair (smaller, larger).
inline std::pair<int, int> ordered_pair(int a, int b) { return a < b ? std::pair{a, b} : std::pair{b, a}; }

/// True when `inner` lies inside `outer` (boundaries may coincide).
inline bool encloses(const Aabb& outer, const Aabb& inner) {
  return outer.lower.x <= inner.lower.x && outer.lower.y <= inner.lower.y && inner.upper.x <= outer.upper.x &&
         inner.upper.y <= outer.upper.y;
}

/// The bounding box of a segment, grown by the round-off of its ends' coordinates so that every
/// box the slab test (segment_meets_box) accepts overlaps it.
inline Aabb segment_bounds(Vec2 origin, Vec2 translation, Real max_fraction) {
  const Vec2 end = origin + max_fraction * translation;
  const Aabb bounds{min(origin, end), max(origin, end)};
  return bounds.expanded(round_off(coordinate_magnitude(origin) + coordinate_magnitude(end)));
}

std::unique_ptr<BroadPhase> make_dynamic_tree(const BroadPhaseOptions& options);
std::unique_ptr<BroadPhase> make_sweep_and_prune(const BroadPhaseOptions& options);
std::unique_ptr<BroadPhase> make_uniform_grid(const BroadPhaseOptions& options);
std::unique_ptr<BroadPhase> make_brute_force(const BroadPhaseOptions& options);

}  // namespace collide2d::detail

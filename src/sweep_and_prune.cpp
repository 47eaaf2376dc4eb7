// sweep_and_prune.cpp — the sweep-and-prune (sort and sweep) broad phase along x.
//
// Outline (Baraff, "Dynamic simulation of non-penetrating rigid bodies", PhD thesis, Cornell
// 1992, ch. 6; Cohen, Lin, Manocha & Ponamgi, I-COLLIDE, 1995):
// - Every proxy is an entry {box, id} in one array sorted by box.lower.x; an id -> position table
//   finds an entry for move(). insert() appends, remove() leaves a tombstone, move() rewrites the
//   box in place; all three mark the order stale.
// - Before any answer the array is tidied: tombstones are squeezed out (keeping order), then an
//   insertion sort restores the order. Bodies that moved a little are only a few places from
//   where they were, so this costs O(n + swaps) — near linear for coherent motion. If the swaps
//   pass a budget of a few per entry (teleports, a fresh scene) the sort switches to std::sort.
// - find_pairs sweeps: for each entry, the later entries whose lower x does not pass its upper x
//   overlap it on x; those that also overlap on y form pairs (touching counts). The sweep reads a
//   copy of the sorted bounds it tests, one array per bound, lane_count entries at a time (their
//   x and y tests in vector lanes, one branch per group rather than per entry); the copy is
//   padded with NaN, for which no comparison holds, so a group may run past the last entry.
// - query and ray_query scan only the entries whose lower x lies in [region lower x - widest
//   box, region upper x], found by binary search.
// Queries are const but may tidy the order (the members they touch are `mutable`): calling
// them concurrently on one object is not safe.
#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <limits>

#include "broad_phase_internal.hpp"
#include "lanes.hpp"

namespace collide2d::detail {
namespace {

// Bit i set for every lane i.
constexpr unsigned every_lane = (1u << lane_count) - 1;

class SweepAndPrune final : public BroadPhase {
 public:
  int insert(const Aabb& box) override {
    const int id = ids_.acquire();
    if (id >= static_cast<int>(position_.size())) position_.resize(static_cast<std::size_t>(id) + 1, -1);
    position_[index(id)] = static_cast<int>(entries_.size());
    entries_.push_back({box, id});
    stale_ = true;
    ++count_;
    return id;
  }

  void remove(int proxy) override {
    assert(is_alive(proxy));
    entries_[index(position_[index(proxy)])].id = -1;
    position_[index(proxy)] = -1;
    ids_.release(proxy);
    stale_ = true;
    --count_;
  }

  void move(int proxy, const Aabb& box) override {
    assert(is_alive(proxy));
    entries_[index(position_[index(proxy)])].box = box;
    stale_ = true;
  }

  Aabb box(int proxy) const override {
    assert(is_alive(proxy));
    return entries_[index(position_[index(proxy)])].box;
  }

  int size() const override { return count_; }

  void find_pairs(std::vector<std::pair<int, int>>& pairs) override {
    tidy();
    pairs.clear();
    const std::size_t n = entries_.size();
    // Held in locals: the pushes below write memory, which would otherwise make the compiler read
    // the arrays' addresses and a's bounds again for every group.
    const Entry* entries = entries_.data();
    const Real *lower_x = sweep_lower_x_.data(), *lower_y = sweep_lower_y_.data(), *upper_y = sweep_upper_y_.data();
    for (std::size_t i = 0; i < n; ++i) {
      const Aabb a = entries[i].box;
      const int id = entries[i].id;
      // Sorted by lower x, the later entries within a's x range come first: the lanes that pass
      // the x test are a prefix of each group, and a group with a lane that fails ends the sweep.
      for (std::size_t j = i + 1;; j += lane_count) {
        RealLanes lower_x_lanes, lower_y_lanes, upper_y_lanes;
        load_lanes(lower_x_lanes, lower_x + j);
        load_lanes(lower_y_lanes, lower_y + j);
        load_lanes(upper_y_lanes, upper_y + j);
        const LaneMask within_x = lower_x_lanes <= a.upper.x;
        const LaneMask meets = within_x & (lower_y_lanes <= a.upper.y) & (upper_y_lanes >= a.lower.y);
        for (unsigned hits = lane_bits(meets); hits != 0; hits &= hits - 1) {
          pairs.push_back(ordered_pair(id, entries[j + static_cast<unsigned>(std::countr_zero(hits))].id));
        }
        if (lane_bits(within_x) != every_lane) break;
      }
    }
    sorter_.sort(pairs, ids_.bound());
  }

  void query(const Aabb& region, std::vector<int>& proxies) const override {
    proxies.clear();
    scan(region, [&](const Aabb& box) { return box.overlaps(region); }, proxies);
  }

  void ray_query(Vec2 origin, Vec2 translation, Real max_fraction, std::vector<int>& proxies) const override {
    proxies.clear();
    scan(segment_bounds(origin, translation, max_fraction),
         [&](const Aabb& box) { return segment_meets_box(origin, translation, max_fraction, box); }, proxies);
  }

  bool validate() const override {
    int live = 0;
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      const Entry& entry = entries_[i];
      if (entry.id < 0) continue;
      ++live;
      if (entry.id >= static_cast<int>(position_.size()) || position_[index(entry.id)] != static_cast<int>(i)) return false;
      if (!stale_ && i > 0 && entries_[i - 1].box.lower.x > entry.box.lower.x) return false;
      if (!stale_ && entry.box.upper.x - entry.box.lower.x > widest_) return false;
    }
    int mapped = 0;
    for (int position : position_) mapped += position >= 0 ? 1 : 0;
    return live == count_ && mapped == count_ && count_ + static_cast<int>(ids_.released().size()) == ids_.bound();
  }

 private:
  struct Entry {
    Aabb box;
    int id;  ///< -1 for a removed entry awaiting the next tidy
  };

  static std::size_t index(int i) { return static_cast<std::size_t>(i); }

  bool is_alive(int proxy) const {
    return proxy >= 0 && proxy < static_cast<int>(position_.size()) && position_[index(proxy)] >= 0;
  }

  /// Drops tombstones, restores the order by lower x and refreshes the position table.
  void tidy() const {
    if (!stale_) return;
    stale_ = false;
    std::erase_if(entries_, [](const Entry& entry) { return entry.id < 0; });
    const auto lower_x_less = [](const Entry& a, const Entry& b) { return a.box.lower.x < b.box.lower.x; };
    // Insertion sort with a budget on element shifts; past it, fall back to a full sort.
    const std::size_t budget = 8 * entries_.size() + 64;
    std::size_t shifts = 0;
    for (std::size_t i = 1; i < entries_.size() && shifts <= budget; ++i) {
      if (!lower_x_less(entries_[i], entries_[i - 1])) continue;
      const Entry value = entries_[i];
      std::size_t hole = i;
      while (hole > 0 && lower_x_less(value, entries_[hole - 1])) {
        entries_[hole] = entries_[hole - 1];
        --hole;
        ++shifts;
      }
      entries_[hole] = value;
    }
    if (shifts > budget) std::sort(entries_.begin(), entries_.end(), lower_x_less);
    widest_ = 0;
    const std::size_t padded = entries_.size() + lane_count;
    sweep_lower_x_.resize(padded);
    sweep_lower_y_.resize(padded);
    sweep_upper_y_.resize(padded);
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      const Aabb& box = entries_[i].box;
      position_[index(entries_[i].id)] = static_cast<int>(i);
      widest_ = std::max(widest_, box.upper.x - box.lower.x);
      sweep_lower_x_[i] = box.lower.x;
      sweep_lower_y_[i] = box.lower.y;
      sweep_upper_y_[i] = box.upper.y;
    }
    constexpr Real padding = std::numeric_limits<Real>::quiet_NaN();
    for (std::size_t i = entries_.size(); i < padded; ++i) sweep_lower_x_[i] = sweep_lower_y_[i] = sweep_upper_y_[i] = padding;
  }

  /// Calls `accepts` on every entry whose x range can meet `bounds` and collects the accepted ids, sorted.
  template <class Accepts>
  void scan(const Aabb& bounds, const Accepts& accepts, std::vector<int>& proxies) const {
    tidy();
    // An entry overlapping bounds on x has lower.x in [bounds.lower.x - widest, bounds.upper.x].
    // The slack covers round-off in the widths and in the subtraction.
    const Real slack = round_off(std::abs(bounds.lower.x) + widest_);
    const Real from = bounds.lower.x - widest_ - slack;
    auto it = std::lower_bound(entries_.begin(), entries_.end(), from,
                               [](const Entry& entry, Real x) { return entry.box.lower.x < x; });
    for (; it != entries_.end() && it->box.lower.x <= bounds.upper.x; ++it) {
      if (accepts(it->box)) proxies.push_back(it->id);
    }
    std::sort(proxies.begin(), proxies.end());
  }

  mutable std::vector<Entry> entries_;
  mutable std::vector<int> position_;  ///< proxy id -> index in entries_, -1 when the id is free
  /// The sorted entries' lower x, lower y and upper y, for find_pairs' sweep, then lane_count NaNs;
  /// valid when the order is not stale.
  mutable std::vector<Real> sweep_lower_x_, sweep_lower_y_, sweep_upper_y_;
  mutable Real widest_ = 0;            ///< the largest x extent, valid when the order is not stale
  mutable bool stale_ = false;
  ProxyIds ids_;
  int count_ = 0;
  PairSorter sorter_;
};

}  // namespace

std::unique_ptr<BroadPhase> make_sweep_and_prune(const BroadPhaseOptions&) { return std::make_unique<SweepAndPrune>(); }

}  // namespace collide2d::detail

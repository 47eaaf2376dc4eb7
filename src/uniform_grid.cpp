// uniform_grid.cpp — the uniform (hashed) grid broad phase.
//
// Outline (spatial hashing: Turk, "Interactive collision detection for molecular graphics",
// UNC TR90-014, 1990; Teschner et al., "Optimized spatial hashing for collision detection of
// deformable objects", VMV 2003; Ericson, "Real-Time Collision Detection", 2005, 7.1):
// - Space is cut into square cells of one size; cell (i, j) covers [i, i + 1) x [j, j + 1) cells
//   widths. The cells a box covers are those from the cell of its lower corner to the cell of its
//   upper corner. Cells are hashed into a power-of-two bucket table, so the grid is unbounded.
// - insert / remove / move only record the box; the grid is rebuilt from scratch before the next
//   answer: one pass lists (cell, box) entries, a counting sort groups them by bucket. That is
//   O(n) per rebuild with no per-cell allocation, which beats incremental cell updates when most
//   bodies move every frame.
// - find_pairs tests the boxes sharing a bucket (skipping entries of other cells that hashed
//   there), walking the entries' runs of one bucket each, not the table. A pair whose boxes share
//   several cells is reported only from the one cell holding the lower corner of their
//   intersection, max(lower a, lower b); since the cell index is monotone that cell is (max of the
//   two first-cell x, max of the two first-cell y), so no pair set is needed to remove duplicates. query and ray_query use the same rule against the region.
// - Boxes covering more than `large_cells` cells are kept out of the grid and tested against
//   every box, so one huge box next to tiny ones does not flood the table.
// - The cell size comes from the options, or is twice the average extent ((width + height) / 2)
//   of the boxes present at the first rebuild, picked again when the count has doubled or
//   halved since. Answers never depend on the cell size, only the speed does.
// Queries are const but may rebuild the grid (the members they touch are `mutable`): calling
// them concurrently on one object is not safe.
#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>

#include "broad_phase_internal.hpp"

namespace collide2d::detail {
namespace {

class UniformGrid final : public BroadPhase {
 public:
  explicit UniformGrid(const BroadPhaseOptions& options) : fixed_cell_(options.margin_or_cell > 0 ? options.margin_or_cell : Real(0)) {}

  int insert(const Aabb& box) override {
    const int id = ids_.acquire();
    if (id >= static_cast<int>(boxes_.size())) {
      boxes_.resize(static_cast<std::size_t>(id) + 1);
      alive_.resize(static_cast<std::size_t>(id) + 1, 0);
    }
    boxes_[index(id)] = box;
    alive_[index(id)] = 1;
    ++count_;
    built_ = false;
    return id;
  }

  void remove(int proxy) override {
    assert(is_alive(proxy));
    alive_[index(proxy)] = 0;
    ids_.release(proxy);
    --count_;
    built_ = false;
  }

  void move(int proxy, const Aabb& box) override {
    assert(is_alive(proxy));
    boxes_[index(proxy)] = box;
    built_ = false;
  }

  Aabb box(int proxy) const override {
    assert(is_alive(proxy));
    return boxes_[index(proxy)];
  }

  int size() const override { return count_; }

  void find_pairs(std::vector<std::pair<int, int>>& pairs) override {
    build();
    pairs.clear();
    // The entries run bucket by bucket: each is tested against those after it in its bucket's run
    // (the empty buckets, most of the table, are never visited).
    const std::size_t entry_count = entries_.size();
    for (std::size_t i = 0; i + 1 < entry_count; ++i) {
      const Entry& a = entries_[i];
      for (std::size_t j = i + 1; j < entry_count && entries_[j].bucket == a.bucket; ++j) {
        const Entry& b = entries_[j];
        if (a.cell_x != b.cell_x || a.cell_y != b.cell_y || !a.box.overlaps(b.box)) continue;
        if (std::max(a.first_x, b.first_x) != a.cell_x || std::max(a.first_y, b.first_y) != a.cell_y) continue;
        pairs.push_back(ordered_pair(a.id, b.id));
      }
    }
    for (int big : large_) {
      const Aabb& big_box = boxes_[index(big)];
      for (std::size_t other = 0; other < boxes_.size(); ++other) {
        if (!alive_[other] || static_cast<int>(other) == big) continue;
        if (is_large_[other] && static_cast<int>(other) < big) continue;  // that one reports the pair
        if (big_box.overlaps(boxes_[other])) pairs.push_back(ordered_pair(big, static_cast<int>(other)));
      }
    }
    sorter_.sort(pairs, ids_.bound());
  }

  void query(const Aabb& region, std::vector<int>& proxies) const override {
    collect(region, [&](const Aabb& box) { return box.overlaps(region); }, proxies);
  }

  void ray_query(Vec2 origin, Vec2 translation, Real max_fraction, std::vector<int>& proxies) const override {
    collect(segment_bounds(origin, translation, max_fraction),
            [&](const Aabb& box) { return segment_meets_box(origin, translation, max_fraction, box); }, proxies);
  }

  bool validate() const override {
    int live = 0;
    for (char flag : alive_) live += flag ? 1 : 0;
    if (live != count_ || count_ + static_cast<int>(ids_.released().size()) != ids_.bound()) return false;
    if (!built_) return true;
    if (!(cell_ > 0) || bucket_starts_.empty() || static_cast<std::size_t>(bucket_starts_.back()) != entries_.size()) return false;
    // Every entry is a live, non-large box registered in a cell it covers, in the right bucket.
    std::size_t expected = 0;
    for (std::size_t id = 0; id < boxes_.size(); ++id) {
      if (!alive_[id] || is_large_[id]) continue;
      const CellRange range = cells_of(boxes_[id]);
      expected += static_cast<std::size_t>(range.x1 - range.x0 + 1) * static_cast<std::size_t>(range.y1 - range.y0 + 1);
    }
    if (expected != entries_.size()) return false;
    for (std::size_t bucket = 0; bucket + 1 < bucket_starts_.size(); ++bucket) {
      for (auto i = static_cast<std::size_t>(bucket_starts_[bucket]); i < static_cast<std::size_t>(bucket_starts_[bucket + 1]); ++i) {
        const Entry& entry = entries_[i];
        if (entry.id < 0 || entry.id >= static_cast<int>(boxes_.size()) || !alive_[index(entry.id)]) return false;
        if (!(entry.box == boxes_[index(entry.id)]) || bucket_of(entry.cell_x, entry.cell_y) != bucket || entry.bucket != bucket) return false;
        const CellRange range = cells_of(entry.box);
        if (entry.cell_x < range.x0 || entry.cell_x > range.x1 || entry.cell_y < range.y0 || entry.cell_y > range.y1) return false;
        if (entry.first_x != range.x0 || entry.first_y != range.y0) return false;
      }
    }
    for (int big : large_) {
      if (!alive_[index(big)] || !is_large_[index(big)]) return false;
    }
    return true;
  }

 private:
  /// A box registered in one cell, with a copy of the box for locality.
  struct Entry {
    Aabb box;
    int id;
    int cell_x, cell_y;    ///< the cell this entry is in
    int first_x, first_y;  ///< the cell of the box's lower corner
    std::uint32_t bucket;  ///< the bucket of (cell_x, cell_y)
  };
  struct CellRange {
    int x0, y0, x1, y1;
  };

  /// Boxes covering more cells than this skip the grid and are tested against everything.
  static constexpr std::int64_t large_cells = 64;
  /// Cell indices are clamped to +-2^30 so that far-away boxes still map to valid integers.
  static constexpr Real index_limit = Real(1 << 30);

  static std::size_t index(int i) { return static_cast<std::size_t>(i); }

  bool is_alive(int proxy) const {
    return proxy >= 0 && proxy < static_cast<int>(alive_.size()) && alive_[index(proxy)];
  }

  /// The cell index of coordinate x: monotone in x (so max commutes with it).
  int cell_index(Real x) const {
    const Real scaled = std::floor(x * inverse_cell_);
    return static_cast<int>(std::clamp(scaled, -index_limit, index_limit));
  }

  CellRange cells_of(const Aabb& box) const {
    return {cell_index(box.lower.x), cell_index(box.lower.y), cell_index(box.upper.x), cell_index(box.upper.y)};
  }

  std::size_t bucket_of(int x, int y) const {
    std::uint32_t hash = static_cast<std::uint32_t>(x) * 0x9E3779B1u ^ static_cast<std::uint32_t>(y) * 0x85EBCA77u;
    hash ^= hash >> 15;
    return static_cast<std::size_t>(hash) & bucket_mask_;
  }

  void pick_cell() const {
    if (fixed_cell_ > 0) {
      cell_ = fixed_cell_;
    } else if (!picked_ || count_ >= 2 * count_at_pick_ || 2 * count_ <= count_at_pick_) {
      picked_ = true;
      count_at_pick_ = count_;
      double extent_sum = 0;
      Aabb bounds{};
      bool first = true;
      for (std::size_t id = 0; id < boxes_.size(); ++id) {
        if (!alive_[id]) continue;
        const Aabb& box = boxes_[id];
        extent_sum += 0.5 * (double(box.upper.x) - double(box.lower.x) + double(box.upper.y) - double(box.lower.y));
        bounds = first ? box : bounds.merged(box);
        first = false;
      }
      double cell = count_ > 0 ? 2 * extent_sum / count_ : 0;
      if (!(cell > 0) && count_ > 0) {  // only points: spread them about one per cell
        cell = std::max(double(bounds.upper.x) - double(bounds.lower.x), double(bounds.upper.y) - double(bounds.lower.y)) /
               std::sqrt(double(count_));
      }
      cell_ = std::isfinite(cell) && cell > 0 ? static_cast<Real>(cell) : Real(1);
      if (!(cell_ > 0)) cell_ = 1;  // underflow to zero in float
    }
    inverse_cell_ = 1 / cell_;
    if (!std::isfinite(inverse_cell_)) {  // a denormal cell size
      cell_ = std::numeric_limits<Real>::min();
      inverse_cell_ = 1 / cell_;
    }
  }

  /// Rebuilds the grid when anything changed since the last build.
  void build() const {
    if (built_) return;
    built_ = true;
    pick_cell();
    unsorted_.clear();
    large_.clear();
    is_large_.assign(boxes_.size(), 0);
    for (std::size_t id = 0; id < boxes_.size(); ++id) {
      if (!alive_[id]) continue;
      const Aabb& box = boxes_[id];
      const CellRange range = cells_of(box);
      const std::int64_t covered = (std::int64_t(range.x1) - range.x0 + 1) * (std::int64_t(range.y1) - range.y0 + 1);
      if (covered > large_cells) {
        large_.push_back(static_cast<int>(id));
        is_large_[id] = 1;
        continue;
      }
      for (int y = range.y0; y <= range.y1; ++y) {
        for (int x = range.x0; x <= range.x1; ++x) unsorted_.push_back({box, static_cast<int>(id), x, y, range.x0, range.y0, 0});
      }
    }
    std::size_t bucket_count = 64;
    while (bucket_count < 2 * unsorted_.size()) bucket_count *= 2;
    bucket_mask_ = bucket_count - 1;
    bucket_starts_.assign(bucket_count + 1, 0);
    for (Entry& entry : unsorted_) {
      entry.bucket = static_cast<std::uint32_t>(bucket_of(entry.cell_x, entry.cell_y));
      ++bucket_starts_[entry.bucket + 1];
    }
    for (std::size_t b = 1; b <= bucket_count; ++b) bucket_starts_[b] += bucket_starts_[b - 1];
    entries_.resize(unsorted_.size());
    // Place with a moving cursor per bucket, then shift the starts back.
    for (const Entry& entry : unsorted_) entries_[static_cast<std::size_t>(bucket_starts_[entry.bucket]++)] = entry;
    for (std::size_t b = bucket_count; b > 0; --b) bucket_starts_[b] = bucket_starts_[b - 1];
    bucket_starts_[0] = 0;
  }

  /// The proxies whose boxes overlap `bounds` and satisfy `accepts`, sorted.
  template <class Accepts>
  void collect(const Aabb& bounds, const Accepts& accepts, std::vector<int>& proxies) const {
    build();
    proxies.clear();
    const CellRange range = cells_of(bounds);
    const std::int64_t covered = (std::int64_t(range.x1) - range.x0 + 1) * (std::int64_t(range.y1) - range.y0 + 1);
    if (covered > static_cast<std::int64_t>(bucket_starts_.size())) {
      // A region wider than the table: scanning every box is cheaper than walking its cells.
      for (std::size_t id = 0; id < boxes_.size(); ++id) {
        if (alive_[id] && boxes_[id].overlaps(bounds) && accepts(boxes_[id])) proxies.push_back(static_cast<int>(id));
      }
      return;
    }
    for (int y = range.y0; y <= range.y1; ++y) {
      for (int x = range.x0; x <= range.x1; ++x) {
        const std::size_t bucket = bucket_of(x, y);
        for (auto i = static_cast<std::size_t>(bucket_starts_[bucket]); i < static_cast<std::size_t>(bucket_starts_[bucket + 1]); ++i) {
          const Entry& entry = entries_[i];
          if (entry.cell_x != x || entry.cell_y != y) continue;
          if (std::max(entry.first_x, range.x0) != x || std::max(entry.first_y, range.y0) != y) continue;
          if (entry.box.overlaps(bounds) && accepts(entry.box)) proxies.push_back(entry.id);
        }
      }
    }
    for (int big : large_) {
      if (boxes_[index(big)].overlaps(bounds) && accepts(boxes_[index(big)])) proxies.push_back(big);
    }
    std::sort(proxies.begin(), proxies.end());
  }

  std::vector<Aabb> boxes_;
  std::vector<char> alive_;
  ProxyIds ids_;
  int count_ = 0;
  Real fixed_cell_;
  PairSorter sorter_;

  // The grid, rebuilt lazily.
  mutable bool built_ = false;
  mutable bool picked_ = false;
  mutable int count_at_pick_ = 0;
  mutable Real cell_ = 1;
  mutable Real inverse_cell_ = 1;
  mutable std::vector<Entry> unsorted_;
  mutable std::vector<Entry> entries_;           ///< grouped by bucket
  mutable std::vector<int> bucket_starts_;       ///< bucket b holds entries_[starts[b], starts[b + 1])
  mutable std::size_t bucket_mask_ = 0;
  mutable std::vector<int> large_;               ///< ids of boxes kept out of the grid
  mutable std::vector<char> is_large_;           ///< per id
};

}  // namespace

std::unique_ptr<BroadPhase> make_uniform_grid(const BroadPhaseOptions& options) { return std::make_unique<UniformGrid>(options); }

}  // namespace collide2d::detail

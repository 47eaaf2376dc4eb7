// dynamic_tree.cpp — the dynamic bounding-volume tree broad phase.
//
// Outline (after Erin Catto's b2DynamicTree in Box2D 2.4 and his GDC 2019 talk "Dynamic
// Bounding Volume Hierarchies"; Goldsmith & Salmon 1987 for cost-guided insertion):
// - Nodes live in one array with a free list threaded through the `parent` field of free nodes.
//   Leaves hold one proxy each and its fat box: the proxy's tight box (the caller's, kept in an
//   array by proxy id) grown by a margin on every side. Internal nodes hold the union of their
//   children's fat boxes.
// - Insertion walks down from the root. At each internal node it compares the cost of making
//   the new leaf a sibling of the whole node (twice the perimeter of the union, the 2D surface
//   area) against the cost of descending into either child (the perimeter that child would gain,
//   plus what every ancestor already gains), and stops when pairing here is cheapest — but only
//   at a node of height 1 or a leaf, so that the new parent is itself balanced (Box2D may stop
//   higher and accepts the imbalance). The leaf and the node it stopped at get a new parent.
// - On the way back up every ancestor is refitted and rebalanced with an AVL-style rotation:
//   when one child is taller than the other by 2, the taller child is promoted, keeping its own
//   taller child and handing its shorter child to the demoted node. After any single insert or
//   remove no node is off by more than 2 before the rotation, and the rotation leaves every node
//   off by at most 1, so the tree keeps AVL balance (|height(left) - height(right)| <= 1), which
//   validate() checks. The walk stops at the first ancestor whose box and height come out
//   unchanged: the nodes above see the same child, so they are already fitted and balanced.
// - move() only updates the tight box while it stays inside the fat box (tested against a copy
//   of the fat boxes kept by proxy id, so a move that stays inside reads no tree node). When it
//   leaves, a small tree (up to small_tree_leaves, which stays in the cache) removes and
//   reinserts the leaf with a new fat box; a large one gives the leaf its new fat box where it is
//   and grows its ancestors to hold it (up to the first that already does, as Box2D v3's
//   enlarged nodes), leaving the reinsertion to find_pairs. Either way every internal box holds
//   its subtree, so queries between moves stay exact. Every answer is decided on tight boxes;
//   fat and internal boxes only prune the search (a region that meets a tight box meets every
//   box enclosing it, and the slab test is monotone under rounding).
// - find_pairs keeps the pairs of leaves whose fat boxes overlap from one call to the next and
//   answers with those whose tight boxes overlap (a tight box lies inside its fat box, so none is
//   missed). Fat boxes change only when a leaf is inserted, moved out of its fat box or removed;
//   those leaves are marked, their old pairs dropped, and each is queried against the tree for
//   its new ones (Box2D's move buffer and UpdatePairs), after the leaves left in place are
//   reinserted, in the order of their places in the tree so that consecutive walks share their
//   paths in the cache.
// - In a small tree, when more than half the leaves are marked the pairs are rebuilt by walking
//   the tree against itself (each node with itself, sibling subtrees with each other, descending
//   the larger node while fat boxes overlap), which meets every overlapping pair of leaves
//   exactly once: about half the node visits of querying with every leaf (1,000 moving boxes:
//   84 us a frame against 96 from an eighth).
// - In a large tree every reinsertion and query misses the cache at each level, and the benchmark's
//   boxes, all set moving at once, leave their fat boxes in waves (half of 100,000 in one frame,
//   a few hundred in the next). When more than an eighth of the leaves are marked, the whole tree
//   is built anew from its fat boxes (rebuild_tree: leaves sorted along a Z-order curve, split at
//   the middle, nodes numbered depth-first so a subtree's nodes are neighbours in memory), and
//   the marked leaves are queried in its order. At 100,000 boxes a frame of 50,000 marked leaves
//   took 4.5 ms to build and 33 ms to query, where the reinsertions alone had taken about 50 ms
//   (a walk of the rebuilt tree against itself, skipping pairs of unmarked subtrees, was level
//   with the queries; rebuilding from a thirty-second or a 128th of the leaves marked bought
//   nothing more).
// - The fat margin comes from the options, or is a fifth of the larger half extent of the first
//   box with a non-zero size (0.1 for a unit box, Box2D's aabbExtension): 1,000 moving unit
//   boxes took 86-93 us a frame with it against 103-104 with a tenth (b2BroadPhase 95), as fewer
//   leave their fat boxes, and 10,000 took 7-15% more (more fat pairs to keep). A box that leaves
//   its fat box is also stretched ahead of its motion by four times the displacement of that
//   move (as Box2D's b2_aabbMultiplier), so a body moving steadily gets a new fat box every few
//   moves instead of every move.
#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <limits>

#include "broad_phase_internal.hpp"
#include "prefetch.hpp"

namespace collide2d::detail {
namespace {

/// The most leaves a tree may hold for find_pairs to treat it as one that stays in the cache
/// (2 x 16,384 nodes of 32 bytes: 1 MiB, the L2 cache of the machines measured).
constexpr int small_tree_leaves = 16384;

/// The 2D "surface area" of a box: its perimeter.
Real perimeter(const Aabb& box) { return 2 * ((box.upper.x - box.lower.x) + (box.upper.y - box.lower.y)); }

class DynamicTree final : public BroadPhase {
 public:
  explicit DynamicTree(const BroadPhaseOptions& options)
      : margin_(options.margin_or_cell > 0 ? options.margin_or_cell : Real(0)), margin_chosen_(options.margin_or_cell > 0) {}

  int insert(const Aabb& box) override {
    if (!margin_chosen_) {
      const Vec2 half = box.half_extents();
      const Real largest = std::max(half.x, half.y);
      if (largest > 0) {
        margin_ = largest / 5;
        margin_chosen_ = true;
      }
    }
    const int id = ids_.acquire();
    if (id >= static_cast<int>(leaf_of_proxy_.size())) leaf_of_proxy_.resize(static_cast<std::size_t>(id) + 1, -1);
    const int leaf = allocate_node();
    Node& node = nodes_[index(leaf)];
    node.fat = fatten(box);
    node.height = 0;
    node.first = -1;
    node.second = id;
    leaf_of_proxy_[index(id)] = leaf;
    if (id >= static_cast<int>(tight_of_proxy_.size())) {
      tight_of_proxy_.resize(static_cast<std::size_t>(id) + 1);
      fat_of_proxy_.resize(static_cast<std::size_t>(id) + 1);
    }
    tight_of_proxy_[index(id)] = box;
    fat_of_proxy_[index(id)] = node.fat;
    insert_leaf(leaf);
    ++count_;
    mark_refattened(id);
    return id;
  }

  void remove(int proxy) override {
    assert(is_alive(proxy));
    const int leaf = leaf_of_proxy_[index(proxy)];
    remove_leaf(leaf);
    free_node(leaf);
    leaf_of_proxy_[index(proxy)] = -1;
    ids_.release(proxy);
    --count_;
    mark_refattened(proxy);
  }

  void move(int proxy, const Aabb& box) override {
    assert(is_alive(proxy));
    const Vec2 displacement = box.center() - tight_of_proxy_[index(proxy)].center();
    tight_of_proxy_[index(proxy)] = box;
    if (encloses(fat_of_proxy_[index(proxy)], box)) return;  // read in proxy order: no tree node is touched
    // Stretched ahead of the motion, so a body that keeps moving stays inside for several moves.
    Aabb fat = fatten(box);
    const Vec2 ahead = motion_stretch * displacement;
    (ahead.x < 0 ? fat.lower.x : fat.upper.x) += ahead.x;
    (ahead.y < 0 ? fat.lower.y : fat.upper.y) += ahead.y;
    const int leaf = leaf_of_proxy_[index(proxy)];
    Node& node = nodes_[index(leaf)];
    node.fat = fat;
    fat_of_proxy_[index(proxy)] = fat;
    mark_refattened(proxy);
    if (count_ <= small_tree_leaves) {  // in the cache: reinserted at once
      remove_leaf(leaf);
      insert_leaf(leaf);
      return;
    }
    // A large tree's leaf keeps its place and its ancestors grow to hold the new fat box (up to
    // the first that already does), so every box still holds its subtree and queries stay exact;
    // find_pairs reinserts the leaf, or rebuilds the tree when many have moved.
    for (int above = node.parent; above >= 0 && !encloses(nodes_[index(above)].fat, fat); above = nodes_[index(above)].parent) {
      nodes_[index(above)].fat = nodes_[index(above)].fat.merged(fat);
    }
    refattened_[index(proxy)] = grown_in_place;
    any_grown_in_place_ = true;
  }

  Aabb box(int proxy) const override {
    assert(is_alive(proxy));
    return tight_of_proxy_[index(proxy)];
  }

  int size() const override { return count_; }

  void find_pairs(std::vector<std::pair<int, int>>& pairs) override {
    pairs.clear();
    const std::size_t marked = refattened_list_.size(), leaves = static_cast<std::size_t>(count_);
    if (count_ > small_tree_leaves && 8 * marked > leaves) {
      // A large tree with many leaves marked: built anew, the marked leaves queried in its order.
      // The build numbers the leaves in that order, so one pass over the nodes gives what
      // order_marks_by_leaf would sort for.
      rebuild_tree();
      ordered_marks_.clear();
      for (const Node& node : nodes_) {
        if (node.is_leaf() && refattened_[index(node.proxy())]) ordered_marks_.push_back(node.proxy());
      }
      query_marked_leaves(ordered_marks_);
      merge_new_pairs();
    } else {
      const std::vector<int>* queried = &refattened_list_;
      if (count_ > small_tree_leaves || any_grown_in_place_) {
        order_marks_by_leaf();
        queried = &ordered_marks_;
        for (const int proxy : ordered_marks_) {  // the leaves move() left in place
          if (refattened_[index(proxy)] != grown_in_place) continue;
          remove_leaf(leaf_of_proxy_[index(proxy)]);
          insert_leaf(leaf_of_proxy_[index(proxy)]);
        }
      }
      if (count_ <= small_tree_leaves && 2 * marked > leaves) {
        // A small tree stays in the cache, where the walk of the tree against itself beats the
        // queries from half the leaves marked.
        rebuild_fat_pairs();
      } else {
        query_marked_leaves(*queried);
        merge_new_pairs();
      }
    }
    any_grown_in_place_ = false;
    keep_tight_overlaps(pairs);
    for (const int proxy : refattened_list_) refattened_[index(proxy)] = 0;
    refattened_list_.clear();
  }

  void query(const Aabb& region, std::vector<int>& proxies) const override {
    proxies.clear();
    visit([&](const Aabb& box) { return box.overlaps(region); }, proxies);
    std::sort(proxies.begin(), proxies.end());
  }

  void ray_query(Vec2 origin, Vec2 translation, Real max_fraction, std::vector<int>& proxies) const override {
    proxies.clear();
    visit([&](const Aabb& box) { return segment_meets_box(origin, translation, max_fraction, box); }, proxies);
    std::sort(proxies.begin(), proxies.end());
  }

  bool validate() const override {
    // Walk the tree from the root, checking each node, then account for every array slot.
    std::vector<char> seen(nodes_.size(), 0);
    int reachable = 0, leaves = 0;
    if (root_ >= 0) {
      if (root_ >= static_cast<int>(nodes_.size()) || nodes_[index(root_)].parent != -1) return false;
      std::vector<int> pending{root_};
      while (!pending.empty()) {
        const int current = pending.back();
        pending.pop_back();
        if (current < 0 || current >= static_cast<int>(nodes_.size()) || seen[index(current)]) return false;
        seen[index(current)] = 1;
        ++reachable;
        const Node& node = nodes_[index(current)];
        if (node.height < 0) return false;  // a free node linked into the tree
        if (node.is_leaf()) {
          ++leaves;
          if (node.height != 0 || node.proxy() < 0 || node.proxy() >= static_cast<int>(leaf_of_proxy_.size()) ||
              leaf_of_proxy_[index(node.proxy())] != current || !encloses(node.fat, tight_of_proxy_[index(node.proxy())]) ||
              fat_of_proxy_[index(node.proxy())] != node.fat)
            return false;
          continue;
        }
        if (node.second < 0 || node.second >= static_cast<int>(nodes_.size())) return false;
        const Node& first = nodes_[index(node.first)];
        const Node& second = nodes_[index(node.second)];
        if (first.parent != current || second.parent != current) return false;
        if (node.height != 1 + std::max(first.height, second.height)) return false;
        if (std::abs(first.height - second.height) > 1) return false;
        if (!encloses(node.fat, first.fat) || !encloses(node.fat, second.fat)) return false;
        pending.push_back(node.first);
        pending.push_back(node.second);
      }
    }
    int free_count = 0;
    for (int current = free_list_; current >= 0; current = nodes_[index(current)].parent) {
      if (current >= static_cast<int>(nodes_.size()) || seen[index(current)] || nodes_[index(current)].height != -1) return false;
      seen[index(current)] = 1;
      if (++free_count > static_cast<int>(nodes_.size())) return false;
    }
    if (reachable + free_count != static_cast<int>(nodes_.size())) return false;
    if (leaves != count_) return false;
    int mapped = 0;
    for (int leaf : leaf_of_proxy_) mapped += leaf >= 0 ? 1 : 0;
    return mapped == count_ && count_ + static_cast<int>(ids_.released().size()) == ids_.bound();
  }

 private:
  /// 32 bytes in float, two to a cache line: a leaf keeps its proxy id where a node keeps its
  /// second child.
  struct Node {
    Aabb fat;         ///< leaf: its proxy's tight box grown by the margin; internal: union of the children's fat boxes
    int parent = -1;  ///< parent node, -1 for the root; for a free node, the next free node
    int first = -1;   ///< first child, -1 for a leaf
    int second = -1;  ///< second child; for a leaf, its proxy id
    int height = 0;   ///< 0 for a leaf, 1 + the taller child's height otherwise, -1 when free
    bool is_leaf() const { return first < 0; }
    int proxy() const { return second; }  ///< a leaf's proxy id
  };

  static std::size_t index(int i) { return static_cast<std::size_t>(i); }

  /// A leaf waiting to be placed by rebuild_tree.
  struct BuildLeaf {
    Aabb fat;   ///< its fat box
    int proxy;  ///< its proxy id
  };

  bool is_alive(int proxy) const {
    return proxy >= 0 && proxy < static_cast<int>(leaf_of_proxy_.size()) && leaf_of_proxy_[index(proxy)] >= 0;
  }

  static constexpr char grown_in_place = 2;  // refattened_ of a leaf move() left in place under grown ancestors
  static constexpr Real motion_stretch = 4;  // fat boxes reach this many moves' displacement ahead
  Aabb fatten(const Aabb& box) const { return box.expanded(margin_); }

  /// Depth-first search pruned by `accepts` on fat boxes; leaves are decided on tight boxes.
  template <class Accepts>
  void visit(const Accepts& accepts, std::vector<int>& proxies) const {
    if (root_ < 0) return;
    std::vector<int> pending;
    pending.reserve(64);
    pending.push_back(root_);
    while (!pending.empty()) {
      const Node& node = nodes_[index(pending.back())];
      pending.pop_back();
      if (!accepts(node.fat)) continue;
      if (node.is_leaf()) {
        if (accepts(tight_of_proxy_[index(node.proxy())])) proxies.push_back(node.proxy());
      } else {
        pending.push_back(node.first);
        pending.push_back(node.second);
      }
    }
  }

  /// Notes that a proxy's fat box changed (or the proxy came or went) since the last find_pairs.
  void mark_refattened(int proxy) {
    if (index(proxy) >= refattened_.size()) refattened_.resize(index(proxy) + 1, 0);
    if (refattened_[index(proxy)]) return;
    refattened_[index(proxy)] = 1;
    refattened_list_.push_back(proxy);
  }

  /// ordered_marks_: the marked proxies still present, by their leaves' node numbers (after a
  /// rebuild, the order of the tree: neighbours in the plane one after the other), so that the
  /// reinsertions and queries that follow walk much the same paths in turn.
  void order_marks_by_leaf() {
    leaf_order_keys_.clear();
    for (const int proxy : refattened_list_) {
      if (is_alive(proxy)) leaf_order_keys_.push_back(std::uint64_t(leaf_of_proxy_[index(proxy)]) << 32 | std::uint32_t(proxy));
    }
    std::sort(leaf_order_keys_.begin(), leaf_order_keys_.end());
    ordered_marks_.clear();
    for (const std::uint64_t key : leaf_order_keys_) ordered_marks_.push_back(static_cast<int>(key & 0xFFFFFFFFu));
  }

  /// Builds the tree anew from its leaves' fat boxes (Lauterbach et al., "Fast BVH Construction
  /// on GPUs", 2009, the linear BVH): the leaves are sorted along a Z-order curve by their boxes'
  /// centres (Morton codes of 16 bits an axis over the leaves' bounds, one scale for both axes, a
  /// radix sort), and each range of them is split at its middle, so neighbours along the curve,
  /// near each other in the plane, share subtrees. Halves differ by at most one leaf, so the tree
  /// is balanced as the AVL rotations keep it; nodes are numbered in depth-first order (a node,
  /// its first subtree, its second), so a subtree's nodes are neighbours in memory for the
  /// queries that follow. O(n), with no walk down the tree per leaf: far cheaper than reinserting
  /// a large share of the leaves one by one, each a cache miss per level.
  void rebuild_tree() {
    build_leaves_.clear();
    Aabb bounds{{std::numeric_limits<Real>::max(), std::numeric_limits<Real>::max()},
                {-std::numeric_limits<Real>::max(), -std::numeric_limits<Real>::max()}};
    for (std::size_t proxy = 0; proxy < leaf_of_proxy_.size(); ++proxy) {
      const int leaf = leaf_of_proxy_[proxy];
      if (leaf < 0) continue;
      build_leaves_.push_back({fat_of_proxy_[proxy], static_cast<int>(proxy)});
      bounds = bounds.merged(fat_of_proxy_[proxy]);
    }
    nodes_.clear();
    free_list_ = -1;
    root_ = -1;
    if (build_leaves_.empty()) return;
    sort_along_curve(bounds);
    nodes_.resize(2 * build_leaves_.size() - 1);
    int next = 0;
    root_ = build_subtree(0, build_leaves_.size(), -1, next);
  }

  /// Orders build_leaves_ by the Morton codes of their centres within `bounds` (ties keep their
  /// order): codes and positions packed into 64-bit keys, sorted by the code's four bytes, least
  /// significant first (a stable counting sort each).
  void sort_along_curve(const Aabb& bounds) {
    const double extent = std::max(double(bounds.upper.x) - double(bounds.lower.x), double(bounds.upper.y) - double(bounds.lower.y));
    // Boxes of no extent, or bounds too wide for a double, all get code 0: still a valid tree.
    const double scale = extent > 0 && std::isfinite(extent) ? 65535 / extent : 0;
    const auto quantize = [&](Real lower, Real upper, Real origin) {
      const double offset = (0.5 * (double(lower) + double(upper)) - double(origin)) * scale;
      return static_cast<std::uint64_t>(offset >= 0 ? std::min(offset, 65535.0) : 0.0);  // NaN (an infinite box's) to 0
    };
    const auto spread = [](std::uint64_t bits) {  // 16 bits to the even positions of 32
      bits = (bits | (bits << 8)) & 0x00FF00FFu;
      bits = (bits | (bits << 4)) & 0x0F0F0F0Fu;
      bits = (bits | (bits << 2)) & 0x33333333u;
      return (bits | (bits << 1)) & 0x55555555u;
    };
    curve_keys_.resize(build_leaves_.size());
    for (std::size_t i = 0; i < build_leaves_.size(); ++i) {
      const Aabb& fat = build_leaves_[i].fat;
      const std::uint64_t code = spread(quantize(fat.lower.x, fat.upper.x, bounds.lower.x)) |
                                 spread(quantize(fat.lower.y, fat.upper.y, bounds.lower.y)) << 1;
      curve_keys_[i] = code << 32 | i;
    }
    curve_scratch_.resize(curve_keys_.size());
    for (int shift = 32; shift < 64; shift += 8) {
      std::array<std::size_t, 257> starts{};
      for (const std::uint64_t key : curve_keys_) ++starts[((key >> shift) & 0xFF) + 1];
      for (std::size_t digit = 1; digit < starts.size(); ++digit) starts[digit] += starts[digit - 1];
      for (const std::uint64_t key : curve_keys_) curve_scratch_[starts[(key >> shift) & 0xFF]++] = key;
      curve_keys_.swap(curve_scratch_);
    }
    sorted_leaves_.resize(build_leaves_.size());
    for (std::size_t i = 0; i < curve_keys_.size(); ++i) sorted_leaves_[i] = build_leaves_[curve_keys_[i] & 0xFFFFFFFFu];
    build_leaves_.swap(sorted_leaves_);
  }

  /// The subtree over build_leaves_[begin, end), its nodes numbered from `next` on; returns its
  /// root. The recursion is as deep as the tree is tall (about log2 of the leaf count).
  int build_subtree(std::size_t begin, std::size_t end, int parent, int& next) {
    const int node = next++;
    if (end - begin == 1) {
      const BuildLeaf& leaf = build_leaves_[begin];
      nodes_[index(node)] = {leaf.fat, parent, -1, leaf.proxy, 0};
      leaf_of_proxy_[index(leaf.proxy)] = node;
      return node;
    }
    const std::size_t middle = begin + (end - begin) / 2;
    const int first = build_subtree(begin, middle, node, next);
    const int second = build_subtree(middle, end, node, next);
    nodes_[index(node)] = {nodes_[index(first)].fat.merged(nodes_[index(second)].fat), parent, first, second,
                           1 + std::max(nodes_[index(first)].height, nodes_[index(second)].height)};
    return node;
  }

  /// fat_pairs_ from scratch: the tree against itself. A node pairs with itself (its two
  /// subtrees against each other and each against itself) or with a disjoint node (descend the
  /// larger while the fat boxes overlap). Every leaf pair is reached along exactly one path.
  void rebuild_fat_pairs() {
    fat_pairs_.clear();
    if (root_ < 0) return;
    pending_pairs_.clear();
    pending_pairs_.emplace_back(root_, root_);
    while (!pending_pairs_.empty()) {
      const auto [a, b] = pending_pairs_.back();
      pending_pairs_.pop_back();
      const Node& first = nodes_[index(a)];
      if (a == b) {
        if (first.is_leaf()) continue;
        pending_pairs_.emplace_back(first.first, first.first);
        pending_pairs_.emplace_back(first.second, first.second);
        pending_pairs_.emplace_back(first.first, first.second);
        continue;
      }
      const Node& second = nodes_[index(b)];
      if (!first.fat.overlaps(second.fat)) continue;
      if (first.is_leaf() && second.is_leaf()) {
        fat_pairs_.push_back(ordered_pair(first.proxy(), second.proxy()));
      } else if (second.is_leaf() || (!first.is_leaf() && perimeter(first.fat) >= perimeter(second.fat))) {
        pending_pairs_.emplace_back(first.first, b);
        pending_pairs_.emplace_back(first.second, b);
      } else {
        pending_pairs_.emplace_back(a, second.first);
        pending_pairs_.emplace_back(a, second.second);
      }
    }
    sorter_.sort(fat_pairs_, ids_.bound());
  }

  /// `pairs` given the pairs of fat_pairs_ whose tight boxes overlap, in order. Each pair is
  /// written and the count advanced by the test's answer, with no branch: whether two boxes close
  /// enough for their fat boxes to meet overlap goes either way at random.
  void keep_tight_overlaps(std::vector<std::pair<int, int>>& pairs) const {
    pairs.resize(fat_pairs_.size());
    std::pair<int, int>* kept = pairs.data();
    const Aabb* tight = tight_of_proxy_.data();
    std::size_t count = 0;
    for (const auto& pair : fat_pairs_) {
      kept[count] = pair;
      count += tight[index(pair.first)].overlaps(tight[index(pair.second)]) ? 1 : 0;
    }
    pairs.resize(count);
  }

  /// new_pairs_: each marked proxy in `queried` still present is queried for the leaves its new
  /// fat box overlaps (a pair of two marked proxies is kept from the smaller one's query only).
  void query_marked_leaves(const std::vector<int>& queried) {
    new_pairs_.clear();
    if (root_ >= 0) {
      // The arrays' addresses held in locals, and a plain stack: the pushes onto new_pairs_ make
      // the compiler reload anything reached through this object. A depth-first walk holds at
      // most one pending sibling per level, so height + 1 entries suffice.
      const Node* nodes = nodes_.data();
      const char* marks = refattened_.data();
      query_stack_.resize(index(nodes[index(root_)].height) + 1);
      int* pending = query_stack_.data();
      // Both children of a node are tested where the node is taken off the stack (two independent
      // tests), and only internal ones that overlap go onto it.
      const bool root_is_leaf = nodes[index(root_)].is_leaf();
      for (const int proxy : queried) {
        if (!is_alive(proxy) || root_is_leaf) continue;  // a lone leaf pairs with nothing
        const Aabb fat = fat_of_proxy_[index(proxy)];
        if (!nodes[index(root_)].fat.overlaps(fat)) continue;
        int count = 0;
        pending[count++] = root_;
        while (count > 0) {
          const Node& node = nodes[index(pending[--count])];
          for (const int child : {node.first, node.second}) {
            const Node& candidate = nodes[index(child)];
            if (!candidate.fat.overlaps(fat)) continue;
            if (!candidate.is_leaf()) {
              pending[count++] = child;
            } else if (candidate.proxy() != proxy && (!marks[index(candidate.proxy())] || proxy < candidate.proxy())) {
              new_pairs_.push_back(ordered_pair(proxy, candidate.proxy()));
            }
          }
        }
      }
    }
  }

  /// fat_pairs_ brought up to date from new_pairs_ (the pairs found for the marked proxies): the
  /// new pairs are sorted, then one pass merges them with the old pairs that stay (those of two
  /// unmarked proxies).
  void merge_new_pairs() {
    const auto marked = [&](int proxy) { return refattened_[index(proxy)] != 0; };
    sorter_.sort(new_pairs_, ids_.bound());
    merged_pairs_.clear();
    merged_pairs_.reserve(fat_pairs_.size() + new_pairs_.size());
    auto keep = [&](const std::pair<int, int>& pair) { merged_pairs_.push_back(pair); };
    auto fresh = new_pairs_.begin();
    for (const auto& pair : fat_pairs_) {
      if (marked(pair.first) || marked(pair.second)) continue;
      for (; fresh != new_pairs_.end() && *fresh < pair; ++fresh) keep(*fresh);
      keep(pair);
    }
    for (; fresh != new_pairs_.end(); ++fresh) keep(*fresh);
    fat_pairs_.swap(merged_pairs_);
  }

  int allocate_node() {
    if (free_list_ < 0) {
      nodes_.emplace_back();
      return static_cast<int>(nodes_.size()) - 1;
    }
    const int node = free_list_;
    free_list_ = nodes_[index(node)].parent;
    nodes_[index(node)] = Node{};
    return node;
  }

  void free_node(int node) {
    nodes_[index(node)].parent = free_list_;
    nodes_[index(node)].height = -1;
    nodes_[index(node)].first = nodes_[index(node)].second = -1;
    free_list_ = node;
  }

  /// Where to pair a new leaf with box `box`: descend while a child is cheaper than here.
  int choose_sibling(const Aabb& box) const {
    int current = root_;
    while (!nodes_[index(current)].is_leaf()) {
      const Node& node = nodes_[index(current)];
      const Real own = perimeter(node.fat);
      const Real combined = perimeter(node.fat.merged(box));
      const Real pair_here = 2 * combined;          // new parent over this node and the leaf
      const Real inherited = 2 * (combined - own);  // growth every ancestor pays if we go deeper
      const auto descend_cost = [&](int child) {
        const Node& c = nodes_[index(child)];
        const Real grown = perimeter(c.fat.merged(box));
        return c.is_leaf() ? grown + inherited : grown - perimeter(c.fat) + inherited;
      };
      // The walk goes on into the children of one of the two: all four are asked for now, while
      // the costs are computed (in a large tree each level is a cache miss).
      for (const int child : {node.first, node.second}) {
        const Node& grandparent_of_next = nodes_[index(child)];
        if (grandparent_of_next.is_leaf()) continue;
        detail::prefetch(nodes_[index(grandparent_of_next.first)]);
        detail::prefetch(nodes_[index(grandparent_of_next.second)]);
      }
      const Real first_cost = descend_cost(node.first);
      const Real second_cost = descend_cost(node.second);
      // Stopping above height 1 would hang a leaf beside a subtree of height >= 2, which no
      // rotation can balance; there the walk goes on into the cheaper child instead.
      if (node.height <= 1 && pair_here < first_cost && pair_here < second_cost) break;
      // Which child is cheaper goes either way at random: selected without a branch.
      const int cheaper_is_first = -static_cast<int>(first_cost < second_cost);  // all bits set, or none
      current = node.second ^ ((node.first ^ node.second) & cheaper_is_first);
    }
    return current;
  }

  void insert_leaf(int leaf) {
    if (root_ < 0) {
      root_ = leaf;
      nodes_[index(leaf)].parent = -1;
      return;
    }
    const int sibling = choose_sibling(nodes_[index(leaf)].fat);
    const int old_parent = nodes_[index(sibling)].parent;
    const int new_parent = allocate_node();
    {
      Node& parent = nodes_[index(new_parent)];
      parent.parent = old_parent;
      parent.first = sibling;
      parent.second = leaf;
      parent.fat = nodes_[index(sibling)].fat.merged(nodes_[index(leaf)].fat);
      parent.height = nodes_[index(sibling)].height + 1;
    }
    if (old_parent >= 0) {
      replace_child(old_parent, sibling, new_parent);
    } else {
      root_ = new_parent;
    }
    nodes_[index(sibling)].parent = new_parent;
    nodes_[index(leaf)].parent = new_parent;
    refit_upwards(old_parent);
  }

  void remove_leaf(int leaf) {
    if (leaf == root_) {
      root_ = -1;
      return;
    }
    const int parent = nodes_[index(leaf)].parent;
    const int grandparent = nodes_[index(parent)].parent;
    const int sibling = nodes_[index(parent)].first == leaf ? nodes_[index(parent)].second : nodes_[index(parent)].first;
    if (grandparent >= 0) {
      replace_child(grandparent, parent, sibling);
      nodes_[index(sibling)].parent = grandparent;
      free_node(parent);
      refit_upwards(grandparent);
    } else {
      root_ = sibling;
      nodes_[index(sibling)].parent = -1;
      free_node(parent);
    }
    nodes_[index(leaf)].parent = -1;
  }

  void replace_child(int parent, int old_child, int new_child) {
    Node& node = nodes_[index(parent)];
    if (node.first == old_child) {
      node.first = new_child;
    } else {
      node.second = new_child;
    }
  }

  /// Recomputes the box and height of `node` from its children.
  void refit(int node) {
    Node& n = nodes_[index(node)];
    const Node& first = nodes_[index(n.first)];
    const Node& second = nodes_[index(n.second)];
    n.fat = first.fat.merged(second.fat);
    n.height = 1 + std::max(first.height, second.height);
  }

  /// Rebalances and refits the nodes from `node` up, stopping at the first whose box and height
  /// come out as they were: its parent then sees the same child as before, so it and every node
  /// above are already balanced and fitted (the walk to the root would leave them unchanged).
  void refit_upwards(int node) {
    while (node >= 0) {
      const Aabb box_before = nodes_[index(node)].fat;
      const int height_before = nodes_[index(node)].height;
      node = rebalance(node);
      refit(node);
      const Node& fitted = nodes_[index(node)];
      // Compared without short-circuiting: one branch, where a comparison each goes either way.
      const Aabb& box = fitted.fat;
      if ((box.lower.x == box_before.lower.x) & (box.lower.y == box_before.lower.y) & (box.upper.x == box_before.upper.x) &
          (box.upper.y == box_before.upper.y) & (fitted.height == height_before)) {
        return;
      }
      node = fitted.parent;
    }
  }

  /// When one child of `node` is taller by 2 or more, promotes it; returns the subtree's root.
  int rebalance(int node) {
    const Node& n = nodes_[index(node)];
    if (n.is_leaf()) return node;
    const int balance = nodes_[index(n.second)].height - nodes_[index(n.first)].height;
    if (balance > 1) return promote(node, n.second);
    if (balance < -1) return promote(node, n.first);
    return node;
  }

  /// Rotates `child` above `node`: child keeps its taller child and gives its shorter one to node.
  int promote(int node, int child) {
    const int taller = nodes_[index(nodes_[index(child)].first)].height >= nodes_[index(nodes_[index(child)].second)].height
                           ? nodes_[index(child)].first
                           : nodes_[index(child)].second;
    const int shorter = nodes_[index(child)].first == taller ? nodes_[index(child)].second : nodes_[index(child)].first;
    const int above = nodes_[index(node)].parent;
    // child takes node's place under `above`
    nodes_[index(child)].parent = above;
    if (above >= 0) {
      replace_child(above, node, child);
    } else {
      root_ = child;
    }
    // node becomes child's child, in the slot the shorter grandchild leaves
    Node& promoted = nodes_[index(child)];
    if (promoted.first == shorter) {
      promoted.first = node;
    } else {
      promoted.second = node;
    }
    nodes_[index(node)].parent = child;
    // the shorter grandchild takes child's old slot under node
    replace_child(node, child, shorter);
    nodes_[index(shorter)].parent = node;
    refit(node);
    refit(child);
    return child;
  }

  std::vector<Node> nodes_;
  int root_ = -1;
  int free_list_ = -1;
  std::vector<int> leaf_of_proxy_;  ///< proxy id -> leaf node, -1 when the id is free
  std::vector<Aabb> tight_of_proxy_;  ///< proxy id -> its tight box, the caller's (beside the tree: find_pairs reads it for every pair)
  std::vector<Aabb> fat_of_proxy_;    ///< proxy id -> its leaf's fat box (a copy in proxy order: move() tests it without a cache miss)
  ProxyIds ids_;
  int count_ = 0;
  Real margin_;
  bool margin_chosen_;
  std::vector<std::pair<int, int>> pending_pairs_;  ///< rebuild_fat_pairs traversal scratch
  std::vector<std::pair<int, int>> fat_pairs_;      ///< pairs of proxies whose fat boxes overlapped at the last find_pairs, sorted
  std::vector<std::pair<int, int>> new_pairs_;      ///< query_marked_leaves output: the marked proxies' new pairs
  std::vector<std::pair<int, int>> merged_pairs_;   ///< merge_new_pairs scratch: the merge's output
  std::vector<int> query_stack_;                    ///< query_marked_leaves scratch: nodes still to visit
  bool any_grown_in_place_ = false;                 ///< whether move() left a leaf in place since the last find_pairs
  std::vector<int> ordered_marks_;                  ///< find_pairs scratch: the marked proxies present, in the tree's order
  std::vector<std::uint64_t> leaf_order_keys_;      ///< order_marks_by_leaf scratch: leaf node << 32 | proxy, sorted
  std::vector<BuildLeaf> build_leaves_;             ///< rebuild_tree scratch: the leaves to place
  std::vector<BuildLeaf> sorted_leaves_;            ///< sort_along_curve scratch: the leaves in curve order
  std::vector<std::uint64_t> curve_keys_;           ///< sort_along_curve scratch: Morton code << 32 | position
  std::vector<std::uint64_t> curve_scratch_;        ///< sort_along_curve scratch: a counting sort's output
  std::vector<char> refattened_;                    ///< proxy id -> 1 when its fat box changed since the last find_pairs
                                                    ///< (grown_in_place when move() also left its leaf in place)
  std::vector<int> refattened_list_;                ///< the proxies marked in refattened_
  PairSorter sorter_;
};

}  // namespace

std::unique_ptr<BroadPhase> make_dynamic_tree(const BroadPhaseOptions& options) { return std::make_unique<DynamicTree>(options); }

}  // namespace collide2d::detail

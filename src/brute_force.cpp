// brute_force.cpp — the reference broad phase: every pair of boxes is tested.
//
// Outline: boxes live in an array indexed by proxy id; find_pairs runs the double loop over
// live ids (i < j), so pairs come out already sorted; query and ray_query scan every box. It is
// O(n^2) per find_pairs and exists to check the others against (the "all pairs" baseline every
// broad-phase paper starts from, e.g. Ericson, "Real-Time Collision Detection", 2005, ch. 7).
#include <cassert>

#include "broad_phase_internal.hpp"

namespace collide2d::detail {
namespace {

class BruteForce final : public BroadPhase {
 public:
  int insert(const Aabb& box) override {
    const int id = ids_.acquire();
    if (id >= static_cast<int>(boxes_.size())) {
      boxes_.resize(static_cast<std::size_t>(id) + 1);
      alive_.resize(static_cast<std::size_t>(id) + 1, 0);
    }
    boxes_[static_cast<std::size_t>(id)] = box;
    alive_[static_cast<std::size_t>(id)] = 1;
    ++count_;
    return id;
  }

  void remove(int proxy) override {
    assert(is_alive(proxy));
    alive_[static_cast<std::size_t>(proxy)] = 0;
    ids_.release(proxy);
    --count_;
  }

  void move(int proxy, const Aabb& box) override {
    assert(is_alive(proxy));
    boxes_[static_cast<std::size_t>(proxy)] = box;
  }

  Aabb box(int proxy) const override {
    assert(is_alive(proxy));
    return boxes_[static_cast<std::size_t>(proxy)];
  }

  int size() const override { return count_; }

  void find_pairs(std::vector<std::pair<int, int>>& pairs) override {
    pairs.clear();
    const std::size_t n = boxes_.size();
    for (std::size_t i = 0; i < n; ++i) {
      if (!alive_[i]) continue;
      for (std::size_t j = i + 1; j < n; ++j) {
        if (alive_[j] && boxes_[i].overlaps(boxes_[j])) pairs.emplace_back(static_cast<int>(i), static_cast<int>(j));
      }
    }
  }

  void query(const Aabb& region, std::vector<int>& proxies) const override {
    proxies.clear();
    for (std::size_t i = 0; i < boxes_.size(); ++i) {
      if (alive_[i] && boxes_[i].overlaps(region)) proxies.push_back(static_cast<int>(i));
    }
  }

  void ray_query(Vec2 origin, Vec2 translation, Real max_fraction, std::vector<int>& proxies) const override {
    proxies.clear();
    for (std::size_t i = 0; i < boxes_.size(); ++i) {
      if (alive_[i] && segment_meets_box(origin, translation, max_fraction, boxes_[i])) proxies.push_back(static_cast<int>(i));
    }
  }

  bool validate() const override {
    int live = 0;
    for (char flag : alive_) live += flag ? 1 : 0;
    if (live != count_ || static_cast<int>(alive_.size()) != ids_.bound()) return false;
    for (int id : ids_.released()) {
      if (id < 0 || id >= ids_.bound() || alive_[static_cast<std::size_t>(id)]) return false;
    }
    return live + static_cast<int>(ids_.released().size()) == ids_.bound();
  }

 private:
  bool is_alive(int proxy) const {
    return proxy >= 0 && proxy < static_cast<int>(alive_.size()) && alive_[static_cast<std::size_t>(proxy)];
  }

  std::vector<Aabb> boxes_;
  std::vector<char> alive_;
  ProxyIds ids_;
  int count_ = 0;
};

}  // namespace

std::unique_ptr<BroadPhase> make_brute_force(const BroadPhaseOptions&) { return std::make_unique<BruteForce>(); }

}  // namespace collide2d::detail

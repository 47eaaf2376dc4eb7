// bench_broad_phase.cpp — measures one frame of a broad phase: N unit boxes at constant density all
// move a little, every proxy is moved and the overlapping pairs are found. Ours (each
// BroadPhaseKind, and World::update, which adds a manifold per pair) against Box2D 2.4.1
// (b2BroadPhase: MoveProxy + UpdatePairs; b2DynamicTree: MoveProxy + one Query per proxy) and
// Chipmunk 7 (cpBBTree: cpSpatialIndexReindexQuery).
//
// Every library starts from the same boxes and sees the same frames. All bodies start at rest in
// fresh fat boxes, so the first frames are unrepresentative (nothing has left its fat box yet, then
// many leave together); each benchmark first runs warm-up frames, then checks one frame's exact
// pair count (candidates filtered by the tight boxes) against an independent count, then times a
// fixed number of frames. The state is kept between repetitions, which time the frames that follow.
#include <algorithm>
#include <cstdint>
#include <map>

#include "bench_support.hpp"
#include "peers.hpp"

namespace collide2d_bench {
namespace {

constexpr std::uint32_t boxes_seed = 7;

using BoxPairs = std::vector<std::pair<int, int>>;

/// How many frames each body count is warmed up and timed for.
struct FramePlan {
  int warm_up = 0;          // untimed frames before the checked frame
  int timed = 0;            // timed frames per repetition
  bool single_repetition = false;  // too slow to repeat: one repetition whatever --benchmark_repetitions says
};

FramePlan frame_plan(int body_count) {
  if (body_count <= 1000) return {32, 256, false};
  if (body_count <= 10000) return {32, 32, false};
  if (body_count <= 100000) return {16, 8, false};
  return {6, 3, true};
}

/// The exact pair count of the frame each benchmark checks (the one after the warm-up), by the
/// independent grid count of random_cases.cpp.
std::size_t reference_pair_count(int body_count) {
  static std::map<int, std::size_t> known;
  const auto found = known.find(body_count);
  if (found != known.end()) return found->second;
  MovingBoxes boxes(body_count, boxes_seed);
  for (int frame = 0; frame <= frame_plan(body_count).warm_up; ++frame) boxes.advance();
  return known[body_count] = count_overlapping_pairs(boxes);
}

/// Pairs reported by a peer (possibly only candidates, possibly repeated): the number of distinct
/// pairs whose tight boxes overlap.
std::size_t exact_pair_count(BoxPairs pairs, const MovingBoxes& boxes) {
  for (auto& [first, second] : pairs) {
    if (first > second) std::swap(first, second);
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return static_cast<std::size_t>(std::count_if(pairs.begin(), pairs.end(), [&](const std::pair<int, int>& pair) {
    return boxes_overlap(boxes.box(pair.first), boxes.box(pair.second));
  }));
}

/// One library's broad phase, driven frame by frame over its own copy of the moving boxes.
class FrameRunner {
 public:
  explicit FrameRunner(int body_count) : boxes_(body_count, boxes_seed) {}
  virtual ~FrameRunner() = default;
  FrameRunner(const FrameRunner&) = delete;
  FrameRunner& operator=(const FrameRunner&) = delete;

  /// Moves every box one frame, moves every proxy and finds the pairs.
  virtual void frame() = 0;
  /// How many pairs the last frame handed to the caller (for b2BroadPhase: only the new ones).
  virtual std::size_t reported_pairs() const = 0;
  /// The exact pair count of the last frame (untimed, may be slow).
  virtual std::size_t exact_pairs() = 0;
  /// Called after the checked frame: whatever was kept only for the check may be dropped.
  virtual void end_check() {}

  std::size_t checked_pairs = 0;   // exact_pairs() of the checked frame
  std::size_t check_error = 0;     // |checked_pairs - reference|
  int frames_run = 0;              // frames since the start, warm-up included

 protected:
  int body_count() const { return boxes_.size(); }
  MovingBoxes boxes_;
};

// ---- ours ---------------------------------------------------------------------------------------

class OursBroadPhase final : public FrameRunner {
 public:
  OursBroadPhase(int body_count, collide2d::BroadPhaseKind kind) : FrameRunner(body_count), broad_phase_(collide2d::make_broad_phase(kind)) {
    proxies_.reserve(static_cast<std::size_t>(body_count));
    for (int i = 0; i < body_count; ++i) proxies_.push_back(broad_phase_->insert(boxes_.box(i)));
    broad_phase_->find_pairs(pairs_);
  }
  void frame() override {
    boxes_.advance();
    for (int i = 0; i < body_count(); ++i) broad_phase_->move(proxies_[static_cast<std::size_t>(i)], boxes_.box(i));
    broad_phase_->find_pairs(pairs_);
    benchmark::DoNotOptimize(pairs_.data());
  }
  std::size_t reported_pairs() const override { return pairs_.size(); }
  // Our broad phases promise exactly the overlapping pairs, each once: no filtering here.
  std::size_t exact_pairs() override { return pairs_.size(); }

 private:
  std::unique_ptr<collide2d::BroadPhase> broad_phase_;
  std::vector<int> proxies_;
  BoxPairs pairs_;
};

class OursWorld final : public FrameRunner {
 public:
  OursWorld(int body_count, collide2d::BroadPhaseKind kind) : FrameRunner(body_count), world_(options_for(kind)) {
    const Polygon unit_box = collide2d::make_box(MovingBoxes::half_extent, MovingBoxes::half_extent).value();
    handles_.reserve(static_cast<std::size_t>(body_count));
    for (int i = 0; i < body_count; ++i) {
      collide2d::BodyDefinition definition;
      definition.shape = unit_box;
      definition.transform = {boxes_.center(i), {}};
      handles_.push_back(world_.add(std::move(definition)));
    }
    world_.update();
  }
  void frame() override {
    boxes_.advance();
    for (int i = 0; i < body_count(); ++i) world_.set_transform(handles_[static_cast<std::size_t>(i)], {boxes_.center(i), {}});
    world_.update();
    benchmark::DoNotOptimize(world_.contacts().data());
  }
  std::size_t reported_pairs() const override { return world_.contacts().size(); }
  // Axis-aligned boxes touch exactly when their bounding boxes do, so every pair has a contact.
  std::size_t exact_pairs() override { return world_.contacts().size(); }

 private:
  static collide2d::WorldOptions options_for(collide2d::BroadPhaseKind kind) {
    collide2d::WorldOptions options;
    options.broad_phase = kind;
    return options;
  }
  collide2d::World world_;
  std::vector<collide2d::BodyHandle> handles_;
};

// ---- Box2D --------------------------------------------------------------------------------------

void* user_data_of(int index) { return reinterpret_cast<void*>(static_cast<std::intptr_t>(index)); }
int index_of(void* user_data) { return static_cast<int>(reinterpret_cast<std::intptr_t>(user_data)); }

/// b2BroadPhase as b2World uses it: MoveProxy for every proxy (with its displacement, which Box2D
/// uses to stretch the fat box ahead of the motion), then UpdatePairs, which hands over only the
/// new candidate pairs of proxies that left their fat boxes. Box2D's contact manager keeps the
/// other pairs while their fat boxes overlap; the runner does the same, untimed, until the check.
class Box2dBroadPhase final : public FrameRunner {
 public:
  explicit Box2dBroadPhase(int body_count) : FrameRunner(body_count) {
    proxies_.reserve(static_cast<std::size_t>(body_count));
    for (int i = 0; i < body_count; ++i) proxies_.push_back(broad_phase_.CreateProxy(to_box2d(boxes_.box(i)), user_data_of(i)));
    broad_phase_.UpdatePairs(this);
    keep_new_pairs();
  }
  void frame() override {
    boxes_.advance();
    for (int i = 0; i < body_count(); ++i) {
      broad_phase_.MoveProxy(proxies_[static_cast<std::size_t>(i)], to_box2d(boxes_.box(i)), to_box2d(boxes_.displacement(i)));
    }
    new_pairs_.clear();
    broad_phase_.UpdatePairs(this);
    benchmark::DoNotOptimize(new_pairs_.data());
    if (tracking_) keep_new_pairs();
  }
  std::size_t reported_pairs() const override { return new_pairs_.size(); }
  std::size_t exact_pairs() override { return exact_pair_count(current_pairs_, boxes_); }
  void end_check() override {
    tracking_ = false;
    current_pairs_ = {};
  }
  /// UpdatePairs' callback.
  void AddPair(void* user_data_a, void* user_data_b) { new_pairs_.emplace_back(index_of(user_data_a), index_of(user_data_b)); }

 private:
  void keep_new_pairs() {
    current_pairs_.insert(current_pairs_.end(), new_pairs_.begin(), new_pairs_.end());
    std::erase_if(current_pairs_, [&](const std::pair<int, int>& pair) {
      return !broad_phase_.TestOverlap(proxies_[static_cast<std::size_t>(pair.first)], proxies_[static_cast<std::size_t>(pair.second)]);
    });
  }
  b2BroadPhase broad_phase_;
  std::vector<int> proxies_;
  BoxPairs new_pairs_;
  BoxPairs current_pairs_;  // the contact manager's pairs: every pair reported whose fat boxes still overlap
  bool tracking_ = true;
};

/// b2DynamicTree alone: MoveProxy for every proxy, then every pair from one Query per proxy with
/// its tight box, keeping partners of larger index whose tight box overlaps.
class Box2dDynamicTree final : public FrameRunner {
 public:
  explicit Box2dDynamicTree(int body_count) : FrameRunner(body_count) {
    proxies_.reserve(static_cast<std::size_t>(body_count));
    for (int i = 0; i < body_count; ++i) {
      tight_boxes_.push_back(to_box2d(boxes_.box(i)));
      proxies_.push_back(tree_.CreateProxy(tight_boxes_.back(), user_data_of(i)));
    }
  }
  void frame() override {
    boxes_.advance();
    for (int i = 0; i < body_count(); ++i) {
      const auto index = static_cast<std::size_t>(i);
      tight_boxes_[index] = to_box2d(boxes_.box(i));
      tree_.MoveProxy(proxies_[index], tight_boxes_[index], to_box2d(boxes_.displacement(i)));
    }
    pairs_.clear();
    for (query_index_ = 0; query_index_ < body_count(); ++query_index_) tree_.Query(this, tight_boxes_[static_cast<std::size_t>(query_index_)]);
    benchmark::DoNotOptimize(pairs_.data());
  }
  std::size_t reported_pairs() const override { return pairs_.size(); }
  std::size_t exact_pairs() override { return exact_pair_count(pairs_, boxes_); }
  /// Query's callback.
  bool QueryCallback(int32 proxy) {
    const int other = index_of(tree_.GetUserData(proxy));
    if (other > query_index_ &&
        b2TestOverlap(tight_boxes_[static_cast<std::size_t>(query_index_)], tight_boxes_[static_cast<std::size_t>(other)])) {
      pairs_.emplace_back(query_index_, other);
    }
    return true;
  }

 private:
  b2DynamicTree tree_;
  std::vector<int> proxies_;
  std::vector<b2AABB> tight_boxes_;
  BoxPairs pairs_;
  int query_index_ = 0;
};

// ---- Chipmunk -----------------------------------------------------------------------------------

/// What Chipmunk's tree indexes: a body's tight box and its motion per frame.
struct ChipmunkBody {
  cpBB box;
  cpVect displacement;
  int index;
};

cpBB chipmunk_box_of(void* body) { return static_cast<ChipmunkBody*>(body)->box; }
// cpBBTree fattens a leaf by 10% of its size on every side and by a tenth of this "velocity" ahead
// of the motion; ten times the per-frame motion stretches it one frame ahead.
cpVect chipmunk_velocity_of(void* body) { return cpvmult(static_cast<ChipmunkBody*>(body)->displacement, 10); }

cpCollisionID chipmunk_collect_pair(void* first, void* second, cpCollisionID id, void* data) {
  const auto* body_a = static_cast<const ChipmunkBody*>(first);
  const auto* body_b = static_cast<const ChipmunkBody*>(second);
  if (cpBBIntersects(body_a->box, body_b->box)) static_cast<BoxPairs*>(data)->emplace_back(body_a->index, body_b->index);
  return id;
}

/// cpBBTree as cpSpace uses it: update every body's box, then cpSpatialIndexReindexQuery, which
/// reinserts the leaves that left their fat boxes and hands over every pair of overlapping fat
/// boxes (cached pairs for leaves that stayed); the callback keeps those whose tight boxes overlap.
class ChipmunkBBTree final : public FrameRunner {
 public:
  explicit ChipmunkBBTree(int body_count) : FrameRunner(body_count), tree_(cpBBTreeNew(chipmunk_box_of, nullptr)) {
    cpBBTreeSetVelocityFunc(tree_, chipmunk_velocity_of);
    bodies_.reserve(static_cast<std::size_t>(body_count));
    for (int i = 0; i < body_count; ++i) {
      bodies_.push_back({to_chipmunk(boxes_.box(i)), to_chipmunk(boxes_.displacement(i)), i});
      cpSpatialIndexInsert(tree_, &bodies_.back(), static_cast<cpHashValue>(i));
    }
    cpSpatialIndexReindexQuery(tree_, chipmunk_collect_pair, &pairs_);
  }
  ~ChipmunkBBTree() override { cpSpatialIndexFree(tree_); }
  void frame() override {
    boxes_.advance();
    for (int i = 0; i < body_count(); ++i) {
      ChipmunkBody& body = bodies_[static_cast<std::size_t>(i)];
      body.box = to_chipmunk(boxes_.box(i));
      body.displacement = to_chipmunk(boxes_.displacement(i));
    }
    pairs_.clear();
    cpSpatialIndexReindexQuery(tree_, chipmunk_collect_pair, &pairs_);
    benchmark::DoNotOptimize(pairs_.data());
  }
  std::size_t reported_pairs() const override { return pairs_.size(); }
  std::size_t exact_pairs() override { return exact_pair_count(pairs_, boxes_); }

 private:
  cpSpatialIndex* tree_;
  std::vector<ChipmunkBody> bodies_;
  BoxPairs pairs_;
};

// ---- running -----------------------------------------------------------------------------------

/// Runs one repetition: on the first, builds the runner, warms it up and checks one frame; then
/// times `timed` frames. Runners live until the end of the program unless `single_repetition`.
void run_frames(benchmark::State& state, const std::string& name, int body_count, const std::function<std::unique_ptr<FrameRunner>()>& make) {
  static std::map<std::string, std::unique_ptr<FrameRunner>> runners;
  const FramePlan plan = frame_plan(body_count);
  std::unique_ptr<FrameRunner>& runner = runners[name];
  if (!runner) {
    runner = make();
    for (int frame = 0; frame <= plan.warm_up; ++frame) runner->frame();
    runner->frames_run = plan.warm_up + 1;
    runner->checked_pairs = runner->exact_pairs();
    const std::size_t reference = reference_pair_count(body_count);
    runner->check_error = runner->checked_pairs > reference ? runner->checked_pairs - reference : reference - runner->checked_pairs;
    runner->end_check();
  }
  std::size_t reported = 0;
  for (auto _ : state) {
    runner->frame();
    reported += runner->reported_pairs();
  }
  runner->frames_run += static_cast<int>(state.iterations());
  state.counters["pair_count_error"] = double(runner->check_error);
  state.counters["pairs_checked"] = double(runner->checked_pairs);
  state.counters["pairs_reported_per_frame"] = double(reported) / double(state.iterations());
  state.counters["frames_before"] = double(runner->frames_run) - double(state.iterations());
  if (plan.single_repetition) runner.reset();
}

void add_frames_benchmark(const std::string& name, int body_count, int timed_frames, std::function<std::unique_ptr<FrameRunner>()> make) {
  auto* benchmark = benchmark::RegisterBenchmark(name.c_str(), [name, body_count, make](benchmark::State& state) {
    run_frames(state, name, body_count, make);
  });
  benchmark->Iterations(timed_frames)->Unit(benchmark::kMicrosecond);
  if (frame_plan(body_count).single_repetition) benchmark->Repetitions(1);
}

}  // namespace

void register_broad_phase_benchmarks() {
  using collide2d::BroadPhaseKind;
  const std::pair<BroadPhaseKind, const char*> kinds[] = {{BroadPhaseKind::dynamic_tree, "ours_dynamic_tree"},
                                                          {BroadPhaseKind::sweep_and_prune, "ours_sweep_and_prune"},
                                                          {BroadPhaseKind::uniform_grid, "ours_uniform_grid"},
                                                          {BroadPhaseKind::brute_force, "ours_brute_force"}};
  for (const int body_count : {1000, 10000, 100000, 1000000}) {
    const std::string size = std::to_string(body_count);
    const int timed = frame_plan(body_count).timed;
    for (const auto& [kind, library] : kinds) {
      // Brute force costs n^2 / 2 box tests whatever the motion: a few frames say it all.
      if (kind == BroadPhaseKind::brute_force && body_count > 10000) continue;
      const int frames = kind == BroadPhaseKind::brute_force ? (body_count > 1000 ? 1 : 16) : timed;
      add_frames_benchmark(benchmark_name("broad_phase", size, library), body_count, frames,
                           [body_count, kind = kind] { return std::make_unique<OursBroadPhase>(body_count, kind); });
    }
    add_frames_benchmark(benchmark_name("broad_phase", size, "box2d_broad_phase"), body_count, timed,
                         [body_count] { return std::make_unique<Box2dBroadPhase>(body_count); });
    // One Query per proxy costs about 7 us a proxy at 100k; 1M would take minutes.
    if (body_count <= 100000) {
      add_frames_benchmark(benchmark_name("broad_phase", size, "box2d_dynamic_tree"), body_count, body_count > 10000 ? 2 : timed,
                           [body_count] { return std::make_unique<Box2dDynamicTree>(body_count); });
    }
    add_frames_benchmark(benchmark_name("broad_phase", size, "chipmunk_bb_tree"), body_count, timed,
                         [body_count] { return std::make_unique<ChipmunkBBTree>(body_count); });
    add_frames_benchmark(benchmark_name("world_update", size, "ours"), body_count, timed,
                         [body_count] { return std::make_unique<OursWorld>(body_count, BroadPhaseKind::dynamic_tree); });
  }
}

}  // namespace collide2d_bench

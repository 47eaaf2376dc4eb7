// bench_support.hpp — what every benchmark file shares: lazily built inputs (so a filtered run
// builds only what it measures), the timing loop that visits the cases in a random order, and the
// counters that report how often a peer's answer differs from ours.
#pragma once

#include <benchmark/benchmark.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "random_cases.hpp"

namespace collide2d_bench {

/// Minimum measuring time of one repetition of a narrow-phase benchmark, seconds.
inline constexpr double narrow_phase_min_time = 0.1;

/// A value built on first use and kept for every later benchmark that shares it.
template <class T>
class Lazy {
 public:
  explicit Lazy(std::function<T()> build) : build_(std::move(build)) {}
  const T& get() {
    if (!value_) value_.emplace(build_());
    return *value_;
  }

 private:
  std::function<T()> build_;
  std::optional<T> value_;
};

template <class T>
std::shared_ptr<Lazy<T>> make_lazy(std::function<T()> build) {
  return std::make_shared<Lazy<T>>(std::move(build));
}

/// "query/case/library", the naming every benchmark follows; bench/report.py reads it back.
inline std::string benchmark_name(const std::string& query, const std::string& case_name, const std::string& library) {
  return query + "/" + case_name + "/" + library;
}

/// The order in which a timing loop visits the cases: uniformly at random, the same stream for
/// every library. Visited in a fixed cycle, the 256 cases repeat their branches' outcomes every
/// 256 queries, and a processor's branch predictor learns them: on an AMD EPYC (Zen 5) Box2D's box
/// ray took 8 ns cycled and 42 ns in this order, ours 9.3 and 19 (docs/performance.md, 7 December,
/// fifth). A caller's queries (one shape after another from a broad phase) do not repeat that way.
/// The stream is a 32-bit linear congruential generator (Knuth's and Lewis's constants, as in
/// Numerical Recipes) whose top bits give the index: its low bits repeat with short periods, the
/// top ones with the full 2^32. It costs a multiply and an add beside the query, on no chain the
/// query waits on.
class CaseOrder {
 public:
  std::size_t next() {
    state_ = state_ * 1664525u + 1013904223u;
    return state_ >> (32 - index_bits);
  }

 private:
  static constexpr int index_bits = std::countr_zero(case_count);
  std::uint32_t state_ = 1;
};

/// Runs `query(i)` once per timed iteration, case i drawn by CaseOrder; the result goes through
/// benchmark::DoNotOptimize so the call cannot be dropped.
template <class Query>
void time_cases(benchmark::State& state, Query query) {
  CaseOrder order;
  for (auto _ : state) {
    auto result = query(order.next());
    benchmark::DoNotOptimize(result);
  }
  state.counters["cases"] = double(case_count);
}

/// Counts where a peer's yes/no answer (overlap, hit) differs from ours, and how many of those
/// differences lie farther than touching_band from touching (those would make a comparison unfair).
class Agreement {
 public:
  void add(bool ours, bool peer, double gap) {
    if (ours == peer) return;
    ++disagreements_;
    if (std::abs(gap) > touching_band) ++outside_band_;
  }
  std::size_t disagreements() const { return disagreements_; }
  std::size_t outside_band() const { return outside_band_; }
  /// Puts the counts on the benchmark: "disagree" (all) and "disagree_far" (beyond the band).
  void report(benchmark::State& state) const {
    state.counters["disagree"] = double(disagreements_);
    state.counters["disagree_far"] = double(outside_band_);
  }

 private:
  std::size_t disagreements_ = 0;
  std::size_t outside_band_ = 0;
};

void register_narrow_phase_benchmarks();
void register_cast_benchmarks();
void register_broad_phase_benchmarks();
void register_dynamics_benchmarks();

}  // namespace collide2d_bench

// main.cpp — entry point of collide2d_bench: registers every benchmark (ours and the peers', on the
// same seeded inputs) and records the precision, the peers' versions and the case count in the
// output's context.
#include <benchmark/benchmark.h>
#include <box2d/box2d.h>
#include <chipmunk/chipmunk.h>

#include <string>

#include "bench_support.hpp"

int main(int argc, char** argv) {
  collide2d_bench::register_narrow_phase_benchmarks();
  collide2d_bench::register_cast_benchmarks();
  collide2d_bench::register_broad_phase_benchmarks();
  collide2d_bench::register_dynamics_benchmarks();

  benchmark::AddCustomContext("collide2d_real", sizeof(collide2d::Real) == sizeof(float) ? "float" : "double");
  // Debian's Box2D 2.4.1 still says 2.4.0 in b2_version.
  benchmark::AddCustomContext("box2d_b2_version", std::to_string(b2_version.major) + "." + std::to_string(b2_version.minor) + "." +
                                                   std::to_string(b2_version.revision));
  benchmark::AddCustomContext("chipmunk_version", cpVersionString);
  benchmark::AddCustomContext("cases_per_benchmark", std::to_string(collide2d_bench::case_count));
  benchmark::AddCustomContext("touching_band", std::to_string(collide2d_bench::touching_band));

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

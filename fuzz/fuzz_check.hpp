// fuzz_check.hpp — how a fuzz target reports a broken invariant: a message on stderr, then abort(),
// which libFuzzer records as a crash and saves the input that caused it (fuzz targets only).
#pragma once

#include <cstdio>
#include <cstdlib>

namespace collide2d::fuzz {

/// Aborts with `what` when `holds` is false.
inline void check(bool holds, const char* what) {
  if (holds) return;
  std::fprintf(stderr, "invariant broken: %s\n", what);
  std::abort();
}

}  // namespace collide2d::fuzz

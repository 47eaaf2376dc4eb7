// prefetch.hpp (private) — asking the processor for memory a loop will reach a few iterations later.
#pragma once

#include <cstddef>

namespace collide2d::detail {

/// Bytes in a cache line on the processors we target (x86-64, 64-bit Arm).
inline constexpr std::size_t cache_line_bytes = 64;

/// Starts loading every cache line of `object` (GCC and Clang's __builtin_prefetch), so that a
/// loop that reads it a few iterations from now does not wait for it. Only a hint: nothing is read.
template <class T>
inline void prefetch(const T& object) {
  const char* bytes = reinterpret_cast<const char*>(&object);
  for (std::size_t offset = 0; offset < sizeof(T); offset += cache_line_bytes) __builtin_prefetch(bytes + offset);
}

}  // namespace collide2d::detail

// FNV-1a over text: a hash that is the same on every platform, build and run, unlike
// std::hash, for what is written to files (cache keys) or must repeat (seeds of test inputs).
#pragma once

#include <cstdint>
#include <string_view>

namespace hxcommon {

inline uint64_t stable_hash(std::string_view text) {
  uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

}  // namespace hxcommon

// Whether a timeline trace is being recorded: the one check every hook makes. Off, a hook
// costs one relaxed load and a branch, so the hot path stays as fast as without hooks.
#pragma once

#include <atomic>

namespace hxrt::detail {

// Set by Tracer::start, cleared by Tracer::stop. Hidden, as everything of the core but its
// public API (core/CMakeLists.txt): read PC-relative, in one load, not through the GOT.
extern std::atomic<bool> g_tracing;

// Off is the case to make fast.
__attribute__((always_inline)) inline bool tracing() {
  return __builtin_expect(g_tracing.load(std::memory_order_relaxed), 0);
}

}  // namespace hxrt::detail

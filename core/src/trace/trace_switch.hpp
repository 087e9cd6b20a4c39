// Whether a timeline trace is being recorded: the one check every hook makes. Off, a hook
// costs one relaxed load and a branch, so the hot path stays as fast as without hooks.
#pragma once

#include <atomic>

namespace hxrt::detail {

// The flag for code outside libhxrt (tests of the core's parts): a call, never hot.
bool tracing_outside_core();

#ifdef hxrt_EXPORTS  // compiling libhxrt itself (CMake defines it for the shared library)

// Set by Tracer::start, cleared by Tracer::stop. Hidden: the core reads it PC-relative, in
// one load, instead of first fetching its address from the GOT, as it must for a symbol the
// dynamic linker may interpose.
extern __attribute__((visibility("hidden"))) std::atomic<bool> g_tracing;

// Off is the case to make fast.
__attribute__((visibility("hidden"), always_inline)) inline bool tracing() {
  return __builtin_expect(g_tracing.load(std::memory_order_relaxed), 0);
}

#else  // tests that include the core's private headers cannot see the hidden flag: they ask

__attribute__((visibility("hidden"))) inline bool tracing() { return tracing_outside_core(); }

#endif

}  // namespace hxrt::detail

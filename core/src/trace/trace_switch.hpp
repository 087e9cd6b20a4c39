// Whether a timeline trace is being recorded: the one check every hook makes. Off, a hook
// costs one relaxed load and a branch, so the hot path stays as fast as without hooks.
#pragma once

#include <atomic>

namespace hxrt::detail {

extern std::atomic<bool> g_tracing;  // set by Tracer::start, cleared by Tracer::stop

// Off is the case to make fast.
inline bool tracing() { return __builtin_expect(g_tracing.load(std::memory_order_relaxed), 0); }

}  // namespace hxrt::detail

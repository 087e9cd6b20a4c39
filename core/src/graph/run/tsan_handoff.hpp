// Tells ThreadSanitizer that work handed to the oneTBB pool happens after the code that hands
// it over, and that the caller's code after a wait happens after the work. The pool orders
// both, but inside libtbb, which is not built with ThreadSanitizer, so it cannot see it and
// would report every task's captures as races. One sync point for all runs: conservative (it
// may hide a race between tasks of different runs, never report a false one). Empty in other
// builds.
#pragma once

#if defined(__SANITIZE_THREAD__)
#define HXRT_TSAN_HANDOFF 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define HXRT_TSAN_HANDOFF 1
#endif
#endif

#ifdef HXRT_TSAN_HANDOFF
#include <sanitizer/tsan_interface.h>
#endif

namespace hxrt::detail {

#ifdef HXRT_TSAN_HANDOFF
inline char tsan_handoff_point;
inline void handoff_release() { __tsan_release(&tsan_handoff_point); }
inline void handoff_acquire() { __tsan_acquire(&tsan_handoff_point); }
#else
inline void handoff_release() {}
inline void handoff_acquire() {}
#endif

}  // namespace hxrt::detail

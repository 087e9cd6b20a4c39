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

// ThreadSanitizer's runtime (clang's and GCC's) has these; its public header does not declare
// them.
extern "C" void AnnotateIgnoreWritesBegin(const char* file, int line);
extern "C" void AnnotateIgnoreWritesEnd(const char* file, int line);
#endif

namespace hxrt::detail {

#ifdef HXRT_TSAN_HANDOFF
inline char tsan_handoff_point;
inline void handoff_release() { __tsan_release(&tsan_handoff_point); }
inline void handoff_acquire() { __tsan_acquire(&tsan_handoff_point); }

// While it lives, ThreadSanitizer does not record this thread's writes: those that build a task
// of the pool. The thread that runs the task reads its callable before the callable can
// acquire anything (the pool's task holds it as a const member, whose loads the compiler may
// move ahead of the acquire), and the pool publishes the task inside libtbb.
class UnseenTaskWrites {
 public:
  UnseenTaskWrites() { AnnotateIgnoreWritesBegin(__FILE__, __LINE__); }
  ~UnseenTaskWrites() { AnnotateIgnoreWritesEnd(__FILE__, __LINE__); }
  UnseenTaskWrites(const UnseenTaskWrites&) = delete;
  UnseenTaskWrites& operator=(const UnseenTaskWrites&) = delete;
};
#else
inline void handoff_release() {}
inline void handoff_acquire() {}
class UnseenTaskWrites {  // a guard, as in the sanitized build, that records nothing
 public:
  UnseenTaskWrites() {}
  ~UnseenTaskWrites() {}
  UnseenTaskWrites(const UnseenTaskWrites&) = delete;
  UnseenTaskWrites& operator=(const UnseenTaskWrites&) = delete;
};
#endif

}  // namespace hxrt::detail

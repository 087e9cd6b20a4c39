// Work of the plugin's own spread over an OpenMP team, the threads oneDNN's kernels run on
// (Debian's oneDNN is built on OpenMP), so that the plugin's loops and oneDNN's share one pool
// of threads: LayerNormalization's rows, a convolution's images.
//
// ThreadSanitizer cannot see the OpenMP runtime order the team's start after the caller's code
// and the caller's code after the team's end (libgomp and libomp are not built with it), and
// would report what the caller wrote and the team reads as races; the team's start and end are
// told to it here (as graph/run/tsan_handoff.hpp does for oneTBB). Empty in other builds.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <exception>

#if defined(__SANITIZE_THREAD__)
#define HXCPU_TSAN_OPENMP 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define HXCPU_TSAN_OPENMP 1
#endif
#endif
#ifdef HXCPU_TSAN_OPENMP
#include <sanitizer/tsan_interface.h>
#endif

namespace hxcpu {

// The threads of a team for `threads` (0: the OpenMP runtime's own count).
inline int team_size(uint32_t threads) {
  return threads == 0 ? omp_get_max_threads() : static_cast<int>(threads);
}

// Calls body(first, end) on consecutive ranges of [0, count) that together cover it, one per
// thread of a team of at most `team` threads (the caller's alone for 1); the first exception a
// range throws is thrown here, after every range has run.
template <class Body>
void for_ranges(int64_t count, int team, Body body) {
  const int threads = static_cast<int>(std::min<int64_t>(team, count));
  if (threads <= 1) {
    body(int64_t{0}, count);
    return;
  }
  std::exception_ptr failure;
#ifdef HXCPU_TSAN_OPENMP
  static char handoff;
  __tsan_release(&handoff);
#endif
#pragma omp parallel num_threads(threads)
  {
#ifdef HXCPU_TSAN_OPENMP
    __tsan_acquire(&handoff);
#endif
    const int64_t part = omp_get_thread_num();
    const int64_t parts = omp_get_num_threads();
    try {
      body(count * part / parts, count * (part + 1) / parts);
    } catch (...) {
#pragma omp critical(hxcpu_for_ranges)
      if (!failure) failure = std::current_exception();
    }
#ifdef HXCPU_TSAN_OPENMP
    __tsan_release(&handoff);
#endif
  }
#ifdef HXCPU_TSAN_OPENMP
  __tsan_acquire(&handoff);
#endif
  if (failure) std::rethrow_exception(failure);
}

}  // namespace hxcpu

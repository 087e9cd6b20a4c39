#include "blas/blas_threads.hpp"

#include <cblas.h>

#include <algorithm>
#include <mutex>

namespace hxcpu {

void set_blas_threads(uint32_t intra_op_threads) {
  if (intra_op_threads == 0) return;
  // OpenBLAS takes an int and caps it at the most threads it was built for.
  constexpr uint32_t kMostThreads = 1u << 16;
  // One call at a time, as runtimes may init at once: OpenBLAS's pthreads build (0.3.21)
  // compares the count with the size of its pool before it takes its own lock, so a call for
  // fewer threads that overlaps one for more can shrink the pool's recorded size below the
  // threads it has, and the next rise then starts a second thread in a live thread's slot
  // (seen: 11 pool threads, not 7, for a count of 8, in 1 of 100 processes whose two threads
  // set 8 and 4 at once, then one set 8).
  static std::mutex mutex;
  const std::lock_guard<std::mutex> lock(mutex);
  openblas_set_num_threads(static_cast<int>(std::min(intra_op_threads, kMostThreads)));
}

std::optional<std::string> blas_threads_warning(uint32_t intra_op_threads) {
  if (openblas_get_parallel() != OPENBLAS_THREAD || intra_op_threads == 1) return std::nullopt;
  return std::string(
      "OpenBLAS here is its pthreads build, whose threads spin beside oneDNN's OpenMP threads "
      "and slow both when they share the cores; install its OpenMP build (Debian's "
      "libopenblas-openmp-dev) and build hxrt again, which then links it, or set "
      "execution.intra_op_threads to 1");
}

}  // namespace hxcpu

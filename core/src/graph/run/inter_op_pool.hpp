// The threads that run a graph's steps (execution.inter_op_threads): one oneTBB arena per
// runtime, made by the first run. The thread that calls run joins it, so one inter-op thread
// means the caller alone.
#pragma once

#include <memory>
#include <mutex>

namespace hxrt::detail {

class InterOpPool {
 public:
  InterOpPool();
  ~InterOpPool();
  InterOpPool(const InterOpPool&) = delete;
  InterOpPool& operator=(const InterOpPool&) = delete;

  // Holds the tbb::task_arena (graph/run/inter_op_arena.hpp), kept out of this header that every
  // file of the runtime includes.
  struct Arena;
  // The arena, made at the first call with `threads` (0: one per core); later calls return
  // it as it was made.
  Arena& arena(int threads);

 private:
  std::once_flag once_;
  std::unique_ptr<Arena> arena_;
};

}  // namespace hxrt::detail

// The arena of an InterOpPool, for the files that run graphs.
#pragma once

#include <tbb/task_arena.h>

#include "graph/run/inter_op_pool.hpp"

namespace hxrt::detail {

struct InterOpPool::Arena {
  explicit Arena(int concurrency) : tbb(concurrency, 1) {}
  tbb::task_arena tbb;
};

}  // namespace hxrt::detail

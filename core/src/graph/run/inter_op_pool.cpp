#include "graph/run/inter_op_pool.hpp"

#include <tbb/info.h>

#include "graph/run/inter_op_arena.hpp"

namespace hxrt::detail {

InterOpPool::InterOpPool() = default;
InterOpPool::~InterOpPool() = default;

InterOpPool::Arena& InterOpPool::arena(int threads) {
  std::call_once(once_, [&] {
    // One slot of the arena is the caller's: a run's thread works on its graph rather than
    // waiting for it.
    arena_ = std::make_unique<Arena>(threads > 0 ? threads : tbb::info::default_concurrency());
  });
  return *arena_;
}

}  // namespace hxrt::detail

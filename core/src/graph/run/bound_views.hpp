// An executable's operand views (ExecutableImpl::operand_views) with their memory, for one run
// at a time, so that a step hands its kernel views that are ready rather than copying and
// binding them on every run. When a run starts, the operands in arenas are pointed where its
// arenas are, in one pass over those operands alone, unless they point there already; a step
// binds the operands with memory of their own (feeds, fetches, copies) as it runs. Each op
// step's kernel arguments, which point at its views, come with them. The
// executable keeps a few sets between runs (SpareBoundViews); a run takes the one bound where
// its arenas are, when there is one.
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "devices/device.hpp"
#include "hxrt/plugin_api.h"
#include "plugins/core_handle.hpp"

namespace hxrt::detail {

struct ExecutableImpl;

class BoundViews {
 public:
  explicit BoundViews(const ExecutableImpl& exe);

  // Points every arena operand into `blocks`, this run's memory of ExecutableImpl::arenas,
  // unless bound_to(blocks) already. Throws std::bad_alloc only, leaving them as they were.
  void bind_arenas(const ExecutableImpl& exe, const std::vector<Device::Block>& blocks);
  bool bound_to(const std::vector<Device::Block>& blocks) const;
  // The views of a step's operands, from its first (StepInfo::first_operand).
  hx_tensor_view* operands(size_t first) { return views_.data() + first; }
  // Op step `step`'s kernel arguments, with these views: made once per set, as nothing else
  // in them changes from run to run (a node built them afresh for 18 instructions).
  const hx_kernel_args& kernel_args(size_t step) const { return args_[step]; }

 private:
  std::vector<hx_tensor_view> views_;
  std::vector<hx_kernel_context_s> contexts_;  // per step; those of op steps used
  std::vector<hx_kernel_args> args_;           // per step; those of op steps used
  std::vector<Device::Block> bound_;  // the blocks the arena operands point into
};

// The views an executable keeps between runs: at most kKept sets, each taken by a run and
// given back when it ends. Two, because a run's arenas often alternate between two places:
// its arena and the tensor it fetches come from the same size class, and the user frees the
// fetched tensor after the run freed its arena, so the next run's arena takes the tensor's
// block. Lock-free; any thread.
class SpareBoundViews {
 public:
  static constexpr size_t kKept = 2;

  SpareBoundViews() = default;
  ~SpareBoundViews() {
    for (auto& kept : kept_) delete kept.load(std::memory_order_acquire);
  }
  SpareBoundViews(const SpareBoundViews&) = delete;
  SpareBoundViews& operator=(const SpareBoundViews&) = delete;

  // The set kept that is bound to `blocks`; else null while fewer than kKept are kept (the
  // caller makes one, and gives it back too) or runs on other threads hold them; else one of
  // them, to bind again. Never throws.
  std::unique_ptr<BoundViews> take(const std::vector<Device::Block>& blocks) const noexcept;
  // Keeps `views` where there is room (else they go). Never throws.
  void give_back(std::unique_ptr<BoundViews> views) const noexcept;

 private:
  mutable std::atomic<BoundViews*> kept_[kKept] = {};
};

}  // namespace hxrt::detail

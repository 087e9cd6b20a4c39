// An executable's operand views (ExecutableImpl::operand_views) with their memory, for one run
// at a time, so that a step hands its kernel views that are ready rather than copying and
// binding them on every run. When a run starts, the operands in arenas are pointed where its
// arenas are, in one pass over those operands alone; a step binds the operands with memory of
// their own (feeds, fetches, copies) as it runs. The executable keeps one set between runs
// (SpareBoundViews); a run that finds it taken, by a run of the executable on another thread,
// makes its own.
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "devices/device.hpp"
#include "hxrt/plugin_api.h"

namespace hxrt::detail {

struct ExecutableImpl;

class BoundViews {
 public:
  explicit BoundViews(const ExecutableImpl& exe);

  // Points every arena operand into `blocks`, this run's memory of ExecutableImpl::arenas.
  void bind_arenas(const ExecutableImpl& exe, const std::vector<Device::Block>& blocks) noexcept;
  // The views of a step's operands, from its first (StepInfo::first_operand).
  hx_tensor_view* operands(size_t first) { return views_.data() + first; }

 private:
  std::vector<hx_tensor_view> views_;
};

// The views an executable keeps between runs: at most one set, taken by a run and given back
// when it ends. Lock-free; any thread.
class SpareBoundViews {
 public:
  SpareBoundViews() = default;
  ~SpareBoundViews() { delete spare_.load(std::memory_order_acquire); }
  SpareBoundViews(const SpareBoundViews&) = delete;
  SpareBoundViews& operator=(const SpareBoundViews&) = delete;

  // The set kept, or null when there is none (the first run, or one running now).
  std::unique_ptr<BoundViews> take() const {
    return std::unique_ptr<BoundViews>(spare_.exchange(nullptr, std::memory_order_acq_rel));
  }
  // Keeps `views` unless a set is kept already (then they go).
  void give_back(std::unique_ptr<BoundViews> views) const {
    BoundViews* none = nullptr;
    if (spare_.compare_exchange_strong(none, views.get(), std::memory_order_acq_rel)) {
      (void)views.release();
    }
  }

 private:
  mutable std::atomic<BoundViews*> spare_{nullptr};
};

}  // namespace hxrt::detail

#include "graph/run/bound_views.hpp"

#include <algorithm>

#include "graph/executable_impl.hpp"
#include "eager/kernel_call.hpp"

namespace hxrt::detail {

BoundViews::BoundViews(const ExecutableImpl& exe)
    : views_(exe.operand_views), contexts_(exe.steps.size()), args_(exe.steps.size()) {
  for (const ArenaOperand& operand : exe.arena_operands) {
    views_[operand.operand].device = exe.arenas[operand.arena].device->handle();
  }
  for (size_t i = 0; i < exe.steps.size(); ++i) {
    const StepInfo& step = exe.steps[i];
    if (step.kind != StepInfo::Kind::kOp) continue;
    contexts_[i].attrs = &step.attrs;
    args_[i] = detail::kernel_args(*step.device, *step.kernel, step.instance.get(), &contexts_[i],
                                   operands(step.first_operand), step.num_inputs,
                                   step.num_outputs);
    const uint64_t* constants = exe.operand_constants.data() + step.first_operand;
    if (std::any_of(constants, constants + step.num_inputs, [](uint64_t id) { return id != 0; })) {
      args_[i].input_constants = constants;
    }
  }
}

void BoundViews::bind_arenas(const ExecutableImpl& exe,
                             const std::vector<Device::Block>& blocks) {
  if (bound_to(blocks)) return;
  bound_ = blocks;  // first: when the copy throws, bound_ still says where the views point
  for (const ArenaOperand& operand : exe.arena_operands) {
    const Device::Block& block = blocks[operand.arena];
    hx_tensor_view& view = views_[operand.operand];
    view.buffer = block.buffer;
    view.byte_offset = block.offset + operand.offset;
  }
}

bool BoundViews::bound_to(const std::vector<Device::Block>& blocks) const {
  return blocks.size() == bound_.size() &&
         std::equal(blocks.begin(), blocks.end(), bound_.begin(),
                    [](const Device::Block& a, const Device::Block& b) {
                      return a.buffer == b.buffer && a.offset == b.offset;
                    });
}

std::unique_ptr<BoundViews> SpareBoundViews::take(
    const std::vector<Device::Block>& blocks) const noexcept {
  // Each set is taken out of its slot before it is read: another run may take it meanwhile.
  std::unique_ptr<BoundViews> taken[kKept];
  size_t count = 0;
  for (auto& kept : kept_) {
    if (BoundViews* views = kept.exchange(nullptr, std::memory_order_acq_rel)) {
      taken[count++].reset(views);
    }
  }
  // The set bound to `blocks`; else, while there is room for another, none (the caller makes
  // one, which is kept too); else the last, to bind again.
  size_t chosen = count;
  for (size_t i = 0; i < count; ++i) {
    if (taken[i]->bound_to(blocks)) chosen = i;
  }
  if (chosen == count && count == kKept) chosen = count - 1;
  std::unique_ptr<BoundViews> result;
  for (size_t i = 0; i < count; ++i) {
    if (i == chosen) {
      result = std::move(taken[i]);
    } else {
      give_back(std::move(taken[i]));
    }
  }
  return result;
}

void SpareBoundViews::give_back(std::unique_ptr<BoundViews> views) const noexcept {
  for (auto& kept : kept_) {
    BoundViews* none = nullptr;
    if (kept.compare_exchange_strong(none, views.get(), std::memory_order_acq_rel)) {
      (void)views.release();
      return;
    }
  }
}

}  // namespace hxrt::detail

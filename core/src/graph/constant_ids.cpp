#include "graph/constant_ids.hpp"

#include <atomic>
#include <map>
#include <utility>
#include <vector>

#include "graph/executable_impl.hpp"

namespace hxrt::detail {

uint64_t new_constant_id() {
  static std::atomic<uint64_t> last{0};
  return last.fetch_add(1, std::memory_order_relaxed) + 1;
}

void mark_constant_operands(ExecutableImpl& exe) {
  std::vector<uint64_t> id_of_value(exe.values.size(), 0);
  for (const StepInfo& step : exe.steps) {
    if (step.kind == StepInfo::Kind::kConstant) {
      id_of_value[step.outputs[0]] = exe.constant_ids[step.feed];
    }
  }
  exe.operand_constants.assign(exe.operand_views.size(), 0);
  for (const StepInfo& step : exe.steps) {
    if (step.kind != StepInfo::Kind::kOp) continue;
    for (size_t i = 0; i < step.inputs.size(); ++i) {
      exe.operand_constants[step.first_operand + i] = id_of_value[step.inputs[i]];
    }
  }
}

void forget_constant_ids(const ExecutableImpl& exe) noexcept {
  if (exe.operand_constants.empty()) return;
  using Receiver = std::pair<const KernelEntry*, hx_kernel_instance*>;
  try {
    std::map<Receiver, std::vector<uint64_t>> received;
    for (const StepInfo& step : exe.steps) {
      if (step.kind != StepInfo::Kind::kOp || step.kernel->forget_constants == nullptr) continue;
      for (size_t i = 0; i < step.num_inputs; ++i) {
        const uint64_t id = exe.operand_constants[step.first_operand + i];
        if (id != 0) received[{step.kernel, step.instance.get()}].push_back(id);
      }
    }
    for (auto& [receiver, ids] : received) {
      const KernelEntry& kernel = *receiver.first;
      kernel.forget_constants(receiver.second, ids.data(), ids.size(), kernel.user_data);
    }
  } catch (const std::bad_alloc&) {
    // Out of memory while the executable goes: the kernels keep what they derived, unread, as
    // they would have with a kernel of a 2.9 plugin; a destructor cannot report it.
  }
}

ExecutableImpl::~ExecutableImpl() { forget_constant_ids(*this); }

}  // namespace hxrt::detail

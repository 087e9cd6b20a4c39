// One inter-op thread runs one step at a time, the caller's thread alone
// (graph/run/inter_op_pool.hpp): a graph whose kernels all run on that thread (synchronous
// devices) has no two of them at once, whatever order the executor picks. Saying so, by an
// edge from each op step to the next in the steps' order, costs those runs nothing and lets
// the memory plan share the memory of tensors that would otherwise be branches that may run
// at once: the transformer of the tests planned 640 KiB where 384 KiB are ever live at once,
// 448 KiB so. Only where the kernels run on one thread too (compile's `one_thread`): memory
// reused that tightly is memory another core wrote moments before, and with two intra-op
// threads the transformer ran 14% slower so (bench/RESULTS.md).
#include "graph/compile/compile_phases.hpp"

#include <algorithm>

namespace hxrt::detail {

void serialize_host_steps(const ExecutableImpl& exe, bool one_thread,
                          std::vector<std::vector<size_t>>& predecessors) {
  if (!one_thread) return;
  for (const StepInfo& step : exe.steps) {
    // A device that queues work would lose the overlap of its work with the host's.
    if (step.kind == StepInfo::Kind::kOp && step.device->asynchronous()) return;
  }
  size_t previous = SIZE_MAX;
  for (size_t s = 0; s < exe.steps.size(); ++s) {
    if (exe.steps[s].kind != StepInfo::Kind::kOp) continue;
    std::vector<size_t>& before = predecessors[s];
    if (previous != SIZE_MAX &&
        std::find(before.begin(), before.end(), previous) == before.end()) {
      before.push_back(previous);
    }
    previous = s;
  }
}

}  // namespace hxrt::detail

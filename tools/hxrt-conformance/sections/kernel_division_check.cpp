#include "sections/kernel_checks.hpp"

namespace hxrt_conformance {

void check_division_by_zero(const KernelRunner& runner, const KernelVariant& variant,
                            SectionLog& log) {
  const std::string name = variant.label + " by zero returns an error status";
  const HostTensor x{{variant.dtype, {3}}, {6, -7, 8}};
  const HostTensor y{{variant.dtype, {3}}, {2, 0, 1}};
  const std::string call = "of [6, -7, 8] by [2, 0, 1]";
  const KernelRun run =
      runner.run(*variant.kernel, {encode(x), encode(y)}, {x.spec}, KernelAttrs{});
  if (!run.setup_failure.empty()) {
    log.fail(name, variant.label + " " + call + ": " + run.setup_failure +
                       "; the kit could not run the kernel: see the memory section");
    return;
  }
  if (!run.declined.empty() && run.contract_failure.empty()) {
    log.skip(name, "the kernel declines the call: " + run.declined);
    return;
  }
  if (!run.contract_failure.empty()) {
    log.fail(name, variant.label + " " + call + ": " + run.contract_failure);
    return;
  }
  if (run.status.ok()) {
    log.fail(name, variant.label + " " + call +
                       " returned OK; integer division by zero has no result: return an "
                       "INVALID_ARGUMENT status");
    return;
  }
  log.pass(name, describe(run.status));
}

}  // namespace hxrt_conformance

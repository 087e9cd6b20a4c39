#include "reference/compare.hpp"
#include "sections/kernel_checks.hpp"

namespace hxrt_conformance {

std::string reference_case_failure(const KernelRunner& runner, const KernelVariant& variant,
                                   const KernelCase& kernel_case, uint64_t seed) {
  std::vector<TensorBytes> inputs;
  for (const HostTensor& input : kernel_case.inputs) inputs.push_back(encode(input));
  const KernelRun run =
      runner.run(*variant.kernel, inputs, {kernel_case.expected.spec}, kernel_case.attrs);
  const std::string what = variant.label + " " + case_text(kernel_case) + ": ";
  const std::string seed_note = "seed " + std::to_string(seed);
  if (!run.setup_failure.empty()) {
    return what + run.setup_failure + " (" + seed_note +
           "); the kit could not run the kernel: see the memory and streams sections";
  }
  if (!run.status.ok()) {
    return what + "the kernel returned " + describe(run.status) + " (" + seed_note +
           "); a kernel must compute every call its op's shape inference accepts";
  }
  const std::optional<Mismatch> mismatch =
      first_mismatch(kernel_case.expected, decode(run.outputs.front()), kernel_case.tolerance);
  if (!mismatch) return "";
  return what + mismatch_text(*mismatch, kernel_case.expected.spec) + " (" +
         tolerance_text(kernel_case.tolerance) + ", " + seed_note +
         "); the kernel computes a wrong result";
}

void check_reference_cases(const KernelRunner& runner, const KernelVariant& variant, uint64_t seed,
                           SectionLog& log) {
  const std::vector<KernelCase> cases = variant_cases(variant, seed);
  const std::string name =
      variant.label + " matches the reference (" + std::to_string(cases.size()) + " cases)";
  for (const KernelCase& kernel_case : cases) {
    const std::string failure = reference_case_failure(runner, variant, kernel_case, seed);
    if (!failure.empty()) {
      log.fail(name, failure);
      return;
    }
  }
  log.pass(name);
}

}  // namespace hxrt_conformance

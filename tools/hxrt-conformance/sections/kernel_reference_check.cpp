#include "reference/compare.hpp"
#include "sections/kernel_checks.hpp"

namespace hxrt_conformance {
namespace {

// The cases of one check and what their runs came to.
struct CaseGroup {
  std::string name;
  std::vector<const KernelCase*> cases;
};

}  // namespace

std::string kernel_run_failure(const KernelRun& run, const std::string& what,
                               const std::string& seed_note) {
  if (!run.setup_failure.empty()) {
    return what + run.setup_failure + " (" + seed_note +
           "); the kit could not run the kernel: see the memory and streams sections";
  }
  if (!run.contract_failure.empty()) return what + run.contract_failure + " (" + seed_note + ")";
  if (!run.declined.empty() || run.status.ok()) return "";
  return what + run.failed_step + " returned " + describe(run.status) + " (" + seed_note +
         "); a kernel must compute every call its op's shape inference accepts, or decline it "
         "with UNIMPLEMENTED in create or check";
}

namespace {

std::string reference_run_failure(const KernelRunner& runner, const KernelVariant& variant,
                                  const KernelCase& kernel_case,
                                  const std::vector<TensorBytes>& inputs, uint64_t seed,
                                  const KernelInstance* shared, bool as_constants,
                                  std::string* declined) {
  const KernelRun run = runner.run(*variant.kernel, inputs, output_specs(kernel_case),
                                   kernel_case.attrs, shared, as_constants);
  const std::string what = variant.label + " " + case_text(kernel_case) +
                           (as_constants ? " with its inputs as graph constants" : "") + ": ";
  const std::string seed_note = "seed " + std::to_string(seed);
  const std::string failure = kernel_run_failure(run, what, seed_note);
  if (!failure.empty()) return failure;
  if (!run.declined.empty()) {
    if (declined != nullptr) *declined = run.declined;
    return "";
  }
  for (size_t output = 0; output < kernel_case.expected.size(); ++output) {
    const HostTensor& expected = kernel_case.expected[output];
    const std::optional<Mismatch> mismatch =
        first_mismatch(expected, decode(run.outputs[output]), kernel_case.tolerance);
    if (!mismatch) continue;
    // An op of one output needs no number; the others name the output that differs.
    const std::string which =
        kernel_case.expected.size() == 1 ? "" : "output " + std::to_string(output) + " ";
    std::string advice = "the kernel computes a wrong result";
    if (kernel_case.broadcast) {
      advice += "; an input of " + variant.kernel->op +
                " comes broadcast to the output's shape, with stride 0 where it repeats: read "
                "element i at byte_offset + sum(i[d] * strides[d]) * dtype size";
    }
    return what + which + mismatch_text(*mismatch, expected.spec) + " (" +
           tolerance_text(kernel_case.tolerance) + ", " + seed_note + "); " + advice;
  }
  return "";
}

}  // namespace

std::string reference_case_failure(const KernelRunner& runner, const KernelVariant& variant,
                                   const KernelCase& kernel_case, uint64_t seed,
                                   const KernelInstance* shared, std::string* declined) {
  std::vector<TensorBytes> inputs;
  for (const HostTensor& input : kernel_case.inputs) inputs.push_back(encode(input));
  // A kernel that keeps what it derives from graph constants runs each case twice: as eager
  // calls pass the inputs, and as a graph's constants with ids (computed twice under them).
  const bool keeps_constants = variant.kernel->forget_constants != nullptr;
  for (const bool as_constants : {false, true}) {
    if (as_constants && !keeps_constants) break;
    const std::string failure = reference_run_failure(
        runner, variant, kernel_case, inputs, seed, shared, as_constants, declined);
    if (!failure.empty() || (declined != nullptr && !declined->empty())) return failure;
  }
  return "";
}

void check_reference_cases(const KernelRunner& runner, const KernelVariant& variant, uint64_t seed,
                           SectionLog& log) {
  const std::vector<KernelCase> cases = variant_cases(variant, seed);
  if (cases.empty()) {
    log.skip(variant.label + " matches the reference",
             "the core never runs " + variant.kernel->op + " on " + dtype_name(variant.dtype) +
                 ": its shape inference refuses that dtype");
    return;
  }
  CaseGroup dense{variant.label + " matches the reference", {}};
  CaseGroup broadcast{variant.label + " reads broadcast inputs by their strides", {}};
  for (const KernelCase& kernel_case : cases) {
    (kernel_case.broadcast ? broadcast : dense).cases.push_back(&kernel_case);
  }
  for (const CaseGroup& group : {dense, broadcast}) {
    if (group.cases.empty()) continue;
    const std::string name =
        group.name + " (" + std::to_string(group.cases.size()) + " cases)";
    size_t declines = 0;
    std::string reason;
    std::string failure;
    for (const KernelCase* kernel_case : group.cases) {
      std::string declined;
      failure = reference_case_failure(runner, variant, *kernel_case, seed, nullptr, &declined);
      if (!failure.empty()) break;
      if (!declined.empty()) {
        if (declines++ == 0) reason = case_text(*kernel_case) + ": " + declined;
      }
    }
    if (!failure.empty()) {
      log.fail(name, failure);
    } else if (declines == group.cases.size()) {
      log.skip(name, "the kernel declines every case, so no value is checked; first: " + reason);
    } else if (declines > 0) {
      log.pass(name, "declined " + std::to_string(declines) + ", first " + reason);
    } else {
      log.pass(name);
    }
  }
}

}  // namespace hxrt_conformance

// The checks of the plugin's kernels on one device, each recorded in the section's log:
// against the reference for core ops, against their own shape inference for custom ops, and
// integer division by zero. check_kernels (kernels.cpp) runs them; the threads section reuses
// the variants and the reference cases.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "check_log.hpp"
#include "kit_core.hpp"
#include "plugin_session.hpp"
#include "reference/cases.hpp"
#include "sections/kernel_runner.hpp"

namespace hxrt_conformance {

// One thing a kernel claims to compute: its op for type parameter T, and for Cast one output
// dtype.
struct KernelVariant {
  const RegisteredKernel* kernel = nullptr;
  hx_dtype dtype = HX_DTYPE_INVALID;
  hx_dtype output_dtype = HX_DTYPE_INVALID;  // Cast's target; the same as dtype for other ops
  // "Relu float32", "Cast float32 to int32"; with " (priority 2)" when the plugin has several
  // kernels for the op.
  std::string label;
};

// Every variant `kernel` lists: one per dtype, and for Cast one per output dtype it accepts
// (every dtype when it lists none). `kernels`: all the plugin registered, for the labels.
std::vector<KernelVariant> variants_of(const RegisteredKernel& kernel,
                                       const std::vector<RegisteredKernel>& kernels);

// The reference cases of a variant of a core op, drawn from the run's seed and the label.
std::vector<KernelCase> variant_cases(const KernelVariant& variant, uint64_t seed);

// "" when the run computed (or declined as the header says), else what went wrong with the call
// `what` ("Relu float32 on shape [3]: "), naming the seed and what to fix. Values are not
// compared here.
std::string kernel_run_failure(const KernelRun& run, const std::string& what,
                               const std::string& seed_note);

// Runs one case (with `shared` as the instance, when given); "" when the output matches the
// reference or the kernel declined the call (its reason then in *declined, when not NULL),
// else what went wrong, naming the case, the first wrong element, the tolerance, the seed and
// what to fix.
std::string reference_case_failure(const KernelRunner& runner, const KernelVariant& variant,
                                   const KernelCase& kernel_case, uint64_t seed,
                                   const KernelInstance* shared = nullptr,
                                   std::string* declined = nullptr);

// "<label> matches the reference (N cases)" for the cases with dense inputs, and "<label>
// reads broadcast inputs by their strides (N cases)" for those with a broadcast input. A case
// the kernel declines is not a failure; a group it declines whole is a skip.
void check_reference_cases(const KernelRunner& runner, const KernelVariant& variant, uint64_t seed,
                           SectionLog& log);

// "<label> runs and matches its own shape inference": a kernel of a custom op, called on what
// the op's shape inference accepts, returns OK, twice with the same outputs. Skipped when the
// inference refuses the kit's call.
void check_custom_op_kernel(const KernelRunner& runner, const KernelVariant& variant,
                            const RegisteredOp& op, uint64_t seed, SectionLog& log);

// "Div i32 by zero returns an error status", for an integer Div kernel.
void check_division_by_zero(const KernelRunner& runner, const KernelVariant& variant,
                            SectionLog& log);

}  // namespace hxrt_conformance

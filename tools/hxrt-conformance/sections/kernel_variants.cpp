#include <algorithm>

#include "sections/kernel_checks.hpp"

namespace hxrt_conformance {
namespace {

// Whether `op`'s output dtype is an attribute rather than T (Cast), so that each variant is a
// pair of dtypes.
bool converts_to_attribute(const std::string& op) {
  const hxrt::OpInfo* info = core_op(op);
  return info != nullptr && !info->type_parameter.output_dtype_attribute.empty();
}

std::string variant_label(const RegisteredKernel& kernel, hx_dtype dtype, hx_dtype output_dtype,
                          const std::vector<RegisteredKernel>& kernels) {
  std::string label = kernel.op + " " + dtype_name(dtype);
  if (converts_to_attribute(kernel.op)) label += " to " + dtype_name(output_dtype);
  const auto same_op = [&](const RegisteredKernel& other) { return other.op == kernel.op; };
  if (std::count_if(kernels.begin(), kernels.end(), same_op) > 1) {
    label += " (priority " + std::to_string(kernel.priority) + ")";
  }
  return label;
}

}  // namespace

std::vector<KernelVariant> variants_of(const RegisteredKernel& kernel,
                                       const std::vector<RegisteredKernel>& kernels) {
  std::vector<KernelVariant> variants;
  for (hx_dtype dtype : kernel.dtypes) {
    std::vector<hx_dtype> outputs = {dtype};
    if (converts_to_attribute(kernel.op)) {
      outputs = kernel.output_dtypes.empty() ? all_dtypes() : kernel.output_dtypes;
    }
    for (hx_dtype output : outputs) {
      variants.push_back({&kernel, dtype, output, variant_label(kernel, dtype, output, kernels)});
    }
  }
  return variants;
}

std::vector<KernelCase> variant_cases(const KernelVariant& variant, uint64_t seed) {
  return reference_cases(variant.kernel->op, variant.dtype, variant.output_dtype,
                         check_seed(seed, variant.label));
}

}  // namespace hxrt_conformance

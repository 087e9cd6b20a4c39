#include <algorithm>
#include <array>
#include <cstring>

#include "sections/kernel_checks.hpp"

namespace hxrt_conformance {
namespace {

// The shape of every input the kit gives a custom op: small, non-square.
Shape custom_input_shape() { return {3, 4}; }

// What the op's shape inference made of the kit's call.
struct Inference {
  Outcome status;
  std::vector<TensorSpec> outputs;
  std::string invalid_output;  // not empty: a spec the ABI does not allow, and why
};

Inference infer(const RegisteredOp& op, const std::vector<TensorBytes>& inputs) {
  const KernelAttrs no_attrs;
  const Shape input_shape = custom_input_shape();
  std::array<int64_t, HX_MAX_RANK> shape{};
  std::copy(input_shape.begin(), input_shape.end(), shape.begin());
  const Shape strides = dense_strides(input_shape);
  std::vector<hx_tensor_view> views;
  for (const TensorBytes& input : inputs) {
    views.push_back({HX_TENSOR_VIEW_STRUCT_SIZE, nullptr, nullptr, 0, input.spec.dtype,
                     static_cast<int32_t>(input_shape.size()), shape.data(), strides.data(),
                     nullptr});
  }
  std::vector<hx_output_spec> specs(static_cast<size_t>(op.num_outputs));
  for (hx_output_spec& spec : specs) {
    std::memset(&spec, 0, sizeof spec);
    spec.struct_size = HX_OUTPUT_SPEC_STRUCT_SIZE;
  }
  const hx_shape_inference_args args{HX_SHAPE_INFERENCE_ARGS_STRUCT_SIZE,
                                     nullptr,
                                     kernel_context(no_attrs),
                                     views.size(),
                                     views.data(),
                                     specs.size(),
                                     specs.data(),
                                     op.user_data};
  Inference inference;
  inference.status = KitCore::take(op.infer(&args));
  if (!inference.status.ok()) return inference;
  for (size_t i = 0; i < specs.size(); ++i) {
    const hx_output_spec& spec = specs[i];
    const std::string which = "output " + std::to_string(i);
    if (!hx_dtype_is_valid(spec.dtype)) {
      inference.invalid_output = which + " has " + dtype_name(spec.dtype);
    } else if (spec.rank < 0 || spec.rank > HX_MAX_RANK) {
      inference.invalid_output = which + " has rank " + std::to_string(spec.rank);
    } else {
      const Shape output_shape(spec.shape, spec.shape + spec.rank);
      if (std::any_of(output_shape.begin(), output_shape.end(), [](int64_t e) { return e < 0; })) {
        inference.invalid_output = which + " has shape " + shape_text(output_shape);
      }
      inference.outputs.push_back({static_cast<hx_dtype>(spec.dtype), output_shape});
    }
    if (!inference.invalid_output.empty()) return inference;
  }
  return inference;
}

// The offset of the first byte in which two runs' outputs differ, as text, or "".
std::string first_difference(const std::vector<TensorBytes>& first,
                             const std::vector<TensorBytes>& second) {
  for (size_t i = 0; i < first.size(); ++i) {
    for (size_t byte = 0; byte < first[i].bytes.size(); ++byte) {
      if (first[i].bytes[byte] != second[i].bytes[byte]) {
        return "output " + std::to_string(i) + " differs at byte " + std::to_string(byte);
      }
    }
  }
  return "";
}

}  // namespace

void check_custom_op_kernel(const KernelRunner& runner, const KernelVariant& variant,
                            const RegisteredOp& op, uint64_t seed, SectionLog& log) {
  const std::string name = variant.label + " runs and matches its own shape inference";
  // At least one input where the op takes any, so that T is the dtype under test.
  const bool takes_inputs = op.max_inputs == -1 || op.max_inputs >= 1;
  const int32_t count = std::max(op.min_inputs, takes_inputs ? 1 : 0);
  std::vector<TensorBytes> inputs;
  for (int32_t i = 0; i < count; ++i) {
    const uint64_t input_seed = check_seed(seed, variant.label + " input " + std::to_string(i));
    inputs.push_back(encode(host_tensor(hxrt::random_reference_tensor(
        static_cast<hxrt::DType>(variant.dtype), hxrt::Shape(custom_input_shape()),
        input_seed))));
  }
  const std::string call = std::to_string(count) + " input(s) of shape " +
                           shape_text(custom_input_shape()) + " and dtype " +
                           dtype_name(variant.dtype) + ", no attributes";
  const Inference inference = infer(op, inputs);
  if (!inference.status.ok()) {
    log.skip(name, "the shape inference of " + op.name + " refuses " + call + ": " +
                       describe(inference.status) + "; the kit has no other call to try");
    return;
  }
  if (!inference.invalid_output.empty()) {
    log.fail(name, "the shape inference of " + op.name + " accepts " + call + " but its " +
                       inference.invalid_output +
                       "; write a valid dtype, a rank from 0 to HX_MAX_RANK and extents >= 0");
    return;
  }
  const KernelAttrs no_attrs;
  KernelRun runs[2];
  for (KernelRun& run : runs) {
    run = runner.run(*variant.kernel, inputs, inference.outputs, no_attrs);
    if (!run.setup_failure.empty()) {
      log.fail(name, "on " + call + ": " + run.setup_failure +
                         "; the kit could not run the kernel: see the memory section");
      return;
    }
    const std::string failure =
        kernel_run_failure(run, "on " + call + ", which its shape inference accepts, ",
                           "seed " + std::to_string(seed));
    if (!failure.empty()) {
      log.fail(name, failure);
      return;
    }
    if (!run.declined.empty()) {
      log.skip(name, "the kernel declines " + call + ": " + run.declined);
      return;
    }
  }
  const std::string difference = first_difference(runs[0].outputs, runs[1].outputs);
  if (!difference.empty()) {
    log.fail(name, "two runs on the same inputs (" + call + ", seed " + std::to_string(seed) +
                       ") disagree: " + difference +
                       "; a kernel must be deterministic, or its results cannot be checked");
    return;
  }
  log.pass(name);
}

}  // namespace hxrt_conformance

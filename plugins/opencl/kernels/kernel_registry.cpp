#include "kernels/kernel_registry.hpp"

#include <hxplugin/every_dtype.hpp>
#include <hxplugin/plugin_init.hpp>

#include "kernels/kernel_instance.hpp"
#include "kernels/kernels.hpp"
#include "plugin_state.hpp"

namespace hxopencl {

namespace {

constexpr int32_t kFloat32[] = {HX_DTYPE_F32};
// Cast's targets with a kernel in program.cl (bfloat16 has none).
constexpr int32_t kCastTargets[] = {HX_DTYPE_F32, HX_DTYPE_F64, HX_DTYPE_F16,
                                    HX_DTYPE_I32, HX_DTYPE_I64, HX_DTYPE_BOOL};
// Gather's data: elements of 4 and 8 bytes.
constexpr int32_t kWideElements[] = {HX_DTYPE_F32, HX_DTYPE_F64, HX_DTYPE_I32,
                                     HX_DTYPE_I64, HX_DTYPE_U32, HX_DTYPE_U64};
constexpr const auto& kAll = hxplugin::kEveryDtype;

template <size_t N>
hx_kernel_def kernel(const char* op, const int32_t (&dtypes)[N], hx_kernel_fn compute,
                     hx_kernel_create_fn create, const void* user_data = nullptr,
                     hx_kernel_check_fn check = nullptr) {
  hx_kernel_def def{};
  def.op = op;
  def.dtypes = dtypes;
  def.num_dtypes = N;
  def.compute = compute;
  def.user_data = const_cast<void*>(user_data);
  def.create = create;
  def.check = check;
  def.destroy = create != nullptr ? destroy_instance : nullptr;
  return def;
}

hx_kernel_def float32_kernel(const char* op, hx_kernel_fn compute, hx_kernel_create_fn create,
                             const void* user_data = nullptr,
                             hx_kernel_check_fn check = nullptr) {
  return kernel(op, kFloat32, compute, create, user_data, check);
}

hx_kernel_def unary(const char* op, const char* program_kernel) {
  return float32_kernel(op, unary_compute, unary_create, program_kernel);
}
hx_kernel_def binary(const char* op, const char* program_kernel) {
  return float32_kernel(op, binary_compute, binary_create, program_kernel);
}
hx_kernel_def reduction(const char* op, const Reduction& reduction) {
  return float32_kernel(op, reduce_compute, reduce_create, &reduction);
}

}  // namespace

hx_status* register_kernels(const OpenClPlugin& plugin) {
  hx_kernel_def cast = float32_kernel("Cast", cast_compute, cast_create);
  cast.output_dtypes = kCastTargets;
  cast.num_output_dtypes = sizeof kCastTargets / sizeof kCastTargets[0];
  hx_kernel_def matmul = float32_kernel("MatMul", matmul_compute, matmul_create);
  matmul.check = matmul_check;
  hx_kernel_def gemm = float32_kernel("Gemm", matmul_compute, gemm_create);
  gemm.check = matmul_check;
  const hx_kernel_def defs[] = {
      matmul,
      gemm,
      binary("Add", "add_f32"),
      binary("Sub", "sub_f32"),
      binary("Mul", "mul_f32"),
      binary("Div", "div_f32"),
      float32_kernel("Pow", binary_compute, binary_create, "pow_f32", same_dtypes_check),
      float32_kernel("Min", binary_compute, binary_create, "min_f32", two_inputs_check),
      float32_kernel("Max", binary_compute, binary_create, "max_f32", two_inputs_check),
      binary("Equal", "equal_f32"),
      binary("Less", "less_f32"),
      binary("Greater", "greater_f32"),
      binary("LessOrEqual", "less_or_equal_f32"),
      binary("GreaterOrEqual", "greater_or_equal_f32"),
      float32_kernel("Relu", relu_compute, relu_create),
      unary("Exp", "exp_f32"),
      unary("Log", "log_f32"),
      unary("Sqrt", "sqrt_f32"),
      unary("Neg", "neg_f32"),
      unary("Abs", "abs_f32"),
      unary("Reciprocal", "reciprocal_f32"),
      unary("Erf", "erf_f32"),
      unary("Tanh", "tanh_f32"),
      unary("Sigmoid", "sigmoid_f32"),
      unary("Floor", "floor_f32"),
      unary("Ceil", "ceil_f32"),
      unary("Round", "round_f32"),
      unary("Sign", "sign_f32"),
      unary("LeakyRelu", "leaky_relu_f32"),
      unary("HardSigmoid", "hard_sigmoid_f32"),
      unary("HardSwish", "hard_swish_f32"),
      unary("Gelu", "gelu_f32"),
      float32_kernel("LayerNormalization", layer_norm_compute, layer_norm_create, nullptr,
                     layer_norm_check),
      float32_kernel("Softmax", softmax_compute, softmax_create, "softmax_f32"),
      float32_kernel("LogSoftmax", softmax_compute, softmax_create, "log_softmax_f32"),
      reduction("Sum", kSum),
      reduction("ReduceSum", kReduceSum),
      reduction("ReduceMean", kReduceMean),
      reduction("ReduceMax", kReduceMax),
      reduction("ReduceMin", kReduceMin),
      reduction("ReduceL2", kReduceL2),
      float32_kernel("AddN", addn_compute, addn_create),
      float32_kernel("Fill", fill_compute, fill_create),
      cast,
      kernel("Identity", kAll, copy_compute, nullptr),
      kernel("Reshape", kAll, copy_compute, nullptr),
      kernel("Flatten", kAll, copy_compute, nullptr),
      kernel("Squeeze", kAll, copy_compute, nullptr),
      kernel("Unsqueeze", kAll, copy_compute, nullptr),
      kernel("Transpose", kAll, transpose_compute, transpose_create),
      kernel("Slice", kAll, slice_compute, slice_create),
      kernel("Expand", kAll, expand_compute, expand_create),
      kernel("Concat", kAll, concat_compute, concat_create),
      kernel("Gather", kWideElements, gather_compute, gather_create)};
  for (const hx_kernel_def& def : defs) {
    if (hx_status* status =
            hxplugin::register_kernel(*plugin.services, plugin.core, plugin.core_abi_minor, def,
                                  kPluginName)) {
      return status;
    }
  }
  return nullptr;
}

}  // namespace hxopencl

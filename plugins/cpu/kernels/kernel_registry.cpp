#include "kernels/kernel_registry.hpp"

#include <hxplugin/every_dtype.hpp>
#include <hxplugin/guarded_kernel.hpp>
#include <hxplugin/plugin_init.hpp>

#include <oneapi/dnnl/dnnl.hpp>

#include "kernels/kernels.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

// What oneDNN's kernels take: f32, and f16 and bf16 computed in it (it has no f64).
constexpr int32_t kNarrowFloating[] = {HX_DTYPE_F32, HX_DTYPE_F16, HX_DTYPE_BF16};
// MaxPool's: oneDNN's and the 8-bit integers, which the direct window loop takes.
constexpr int32_t kMaxPool[] = {HX_DTYPE_F32, HX_DTYPE_F16, HX_DTYPE_BF16, HX_DTYPE_I8,
                                HX_DTYPE_U8};
constexpr int32_t kFloat32[] = {HX_DTYPE_F32};
constexpr int32_t kAnyFloating[] = {HX_DTYPE_F32, HX_DTYPE_F64, HX_DTYPE_F16, HX_DTYPE_BF16};
constexpr int32_t kNumeric[] = {HX_DTYPE_F32, HX_DTYPE_F64, HX_DTYPE_F16, HX_DTYPE_BF16,
                                HX_DTYPE_I32, HX_DTYPE_I64, HX_DTYPE_I8,  HX_DTYPE_U8,
                                HX_DTYPE_I16, HX_DTYPE_U16, HX_DTYPE_U32, HX_DTYPE_U64};
constexpr int32_t kArithmetic[] = {HX_DTYPE_F32, HX_DTYPE_F64, HX_DTYPE_I32, HX_DTYPE_I64,
                                   HX_DTYPE_I8,  HX_DTYPE_U8,  HX_DTYPE_I16, HX_DTYPE_U16,
                                   HX_DTYPE_U32, HX_DTYPE_U64};
constexpr int32_t kBool[] = {HX_DTYPE_BOOL};
// Every dtype with values the kernels read (not the 8-bit floats, which only Cast converts).
constexpr int32_t kValued[] = {HX_DTYPE_F32,  HX_DTYPE_F64, HX_DTYPE_F16, HX_DTYPE_BF16,
                               HX_DTYPE_I32,  HX_DTYPE_I64, HX_DTYPE_BOOL, HX_DTYPE_I8,
                               HX_DTYPE_U8,   HX_DTYPE_I16, HX_DTYPE_U16, HX_DTYPE_U32,
                               HX_DTYPE_U64};
// Every dtype: Cast, and the kernels that move elements by their size.
constexpr const auto& kAll = hxplugin::kEveryDtype;

struct KernelEntry {
  const char* op;
  const int32_t* dtypes;
  size_t num_dtypes;
  hx_kernel_fn compute;
  hx_kernel_create_fn create;
  hx_kernel_check_fn check;
  hx_kernel_destroy_fn destroy;
  uint32_t core_minor;  // the ABI minor whose cores define the op: older ones are not asked
  hx_kernel_forget_constants_fn forget_constants = nullptr;
  // Registered only where oneDNN runs AVX-512, whose registers hold a block of 16 channels.
  bool wide_vectors = false;
};

// The forget_constants of the kernels whose primitives keep graph constants in their own
// layouts (run_prepared): what the plugin kept under the ids goes, whichever instance it was.
void forget_constant_layouts(hx_kernel_instance*, const uint64_t* ids, size_t count,
                             void* user_data) {
  try {
    static_cast<CpuPlugin*>(user_data)->constant_layouts.forget(ids, count);
  } catch (...) {
    // A lock that failed (std::system_error): kept, unread, as a 2.9 core would have it.
  }
}

// The kernels' entry points, behind the exception barrier.
template <hx_kernel_fn Kernel>
constexpr hx_kernel_fn guarded_kernel = hxplugin::guarded_kernel<CpuPlugin, kPluginName, Kernel>;
template <hx_kernel_create_fn Create>
constexpr hx_kernel_create_fn guarded_create =
    hxplugin::guarded_create<CpuPlugin, kPluginName, Create>;

template <hx_kernel_fn Kernel, size_t N>
constexpr KernelEntry entry(const char* op, const int32_t (&dtypes)[N]) {
  return {op, dtypes, N, guarded_kernel<Kernel>, nullptr, nullptr, nullptr, 0};
}
template <hx_kernel_fn Kernel, hx_kernel_create_fn Create, hx_kernel_destroy_fn Destroy,
          size_t N>
constexpr KernelEntry with_instances(const char* op, const int32_t (&dtypes)[N],
                                     hx_kernel_check_fn check = nullptr) {
  return {op, dtypes, N, guarded_kernel<Kernel>, guarded_create<Create>, check, Destroy, 0};
}
// `kernel`, which may keep graph constants in its primitives' layouts.
constexpr KernelEntry keeping_constants(KernelEntry kernel) {
  kernel.forget_constants = forget_constant_layouts;
  return kernel;
}
// `kernel`, for the ops of blocked channels.
constexpr KernelEntry on_wide_vectors(KernelEntry kernel) {
  kernel.wide_vectors = true;
  return kernel;
}
// `kernel` for an op that cores of ABI minor `minor` on define.
constexpr KernelEntry since(uint32_t minor, KernelEntry kernel) {
  kernel.core_minor = minor;
  return kernel;
}

// Cast's output dtypes are left unconstrained (NULL): every input dtype converts to every dtype.
constexpr KernelEntry kKernels[] = {
    keeping_constants(with_instances<matmul_kernel, matmul_create, matmul_destroy>(
        "MatMul", kAnyFloating, matmul_check)),
    keeping_constants(with_instances<gemm_kernel, gemm_create, gemm_destroy>(
        "Gemm", kAnyFloating, gemm_check)),
    since(9, keeping_constants(with_instances<gemm_kernel, fused_gemm_create, gemm_destroy>(
                 "FusedGemm", kAnyFloating, gemm_check))),
    since(11, keeping_constants(
                  with_instances<matmul_bias_kernel, matmul_bias_create, gemm_destroy>(
                      "MatMulBias", kAnyFloating, matmul_bias_check))),
    since(12, with_instances<attention_kernel, attention_create, attention_destroy>(
                  "MultiHeadAttention", kFloat32)),
    with_instances<einsum_kernel, einsum_create, einsum_destroy>("Einsum", kAnyFloating),
    keeping_constants(with_instances<conv_kernel, conv_create, conv_destroy>(
        "Conv", kNarrowFloating, conv_check)),
    since(9, keeping_constants(with_instances<conv_kernel, fused_conv_create, conv_destroy>(
                 "FusedConv", kNarrowFloating, conv_check))),
    since(10, on_wide_vectors(keeping_constants(
                  with_instances<blocked_kernel, blocked_conv_create, blocked_destroy>(
                      "BlockedConv", kFloat32, blocked_check)))),
    since(10, on_wide_vectors(with_instances<blocked_kernel, blocked_max_pool_create,
                                             blocked_destroy>("BlockedMaxPool", kFloat32,
                                                              blocked_check))),
    since(10, on_wide_vectors(
                  with_instances<blocked_kernel, blocked_global_average_pool_create,
                                 blocked_destroy>("BlockedGlobalAveragePool", kFloat32,
                                                  blocked_check))),
    with_instances<conv_transpose_kernel, conv_transpose_create, conv_transpose_destroy>(
        "ConvTranspose", kNarrowFloating, conv_transpose_check),
    with_instances<pool_kernel, max_pool_create, pool_destroy>("MaxPool", kMaxPool, pool_check),
    with_instances<pool_kernel, average_pool_create, pool_destroy>("AveragePool",
                                                                   kNarrowFloating, pool_check),
    with_instances<pool_kernel, global_max_pool_create, pool_destroy>(
        "GlobalMaxPool", kNarrowFloating, pool_check),
    with_instances<pool_kernel, global_average_pool_create, pool_destroy>(
        "GlobalAveragePool", kNarrowFloating, pool_check),
    with_instances<batch_norm_kernel, batch_norm_create, norm_destroy>("BatchNormalization",
                                                                       kAnyFloating),
    with_instances<layer_norm_kernel, layer_norm_create, norm_destroy>("LayerNormalization",
                                                                       kAnyFloating),
    with_instances<instance_norm_kernel, instance_norm_create, norm_destroy>(
        "InstanceNormalization", kAnyFloating),
    entry<add_kernel>("Add", kNumeric),
    entry<sub_kernel>("Sub", kNumeric),
    entry<mul_kernel>("Mul", kNumeric),
    entry<div_kernel>("Div", kNumeric),
    entry<pow_kernel>("Pow", kNumeric),
    entry<addn_kernel>("AddN", kArithmetic),
    with_instances<all_reduce_kernel, all_reduce_create, all_reduce_destroy>("AllReduce",
                                                                           kArithmetic),
    with_instances<reduce_scatter_kernel, all_reduce_create, all_reduce_destroy>(
        "ReduceScatter", kArithmetic),
    entry<relu_kernel>("Relu", kNumeric),
    entry<exp_kernel>("Exp", kAnyFloating),
    entry<log_kernel>("Log", kAnyFloating),
    entry<sqrt_kernel>("Sqrt", kAnyFloating),
    entry<reciprocal_kernel>("Reciprocal", kAnyFloating),
    entry<erf_kernel>("Erf", kAnyFloating),
    entry<tanh_kernel>("Tanh", kAnyFloating),
    entry<sigmoid_kernel>("Sigmoid", kAnyFloating),
    entry<floor_kernel>("Floor", kAnyFloating),
    entry<ceil_kernel>("Ceil", kAnyFloating),
    entry<round_kernel>("Round", kAnyFloating),
    entry<neg_kernel>("Neg", kNumeric),
    entry<abs_kernel>("Abs", kNumeric),
    entry<sign_kernel>("Sign", kNumeric),
    entry<min_kernel>("Min", kNumeric),
    entry<max_kernel>("Max", kNumeric),
    entry<where_kernel>("Where", kValued),
    entry<equal_kernel>("Equal", kValued),
    entry<less_kernel>("Less", kNumeric),
    entry<greater_kernel>("Greater", kNumeric),
    entry<less_or_equal_kernel>("LessOrEqual", kNumeric),
    entry<greater_or_equal_kernel>("GreaterOrEqual", kNumeric),
    entry<not_kernel>("Not", kBool),
    entry<and_kernel>("And", kBool),
    entry<or_kernel>("Or", kBool),
    with_instances<leaky_relu_kernel, leaky_relu_create, activation_destroy>("LeakyRelu",
                                                                             kAnyFloating),
    with_instances<gelu_kernel, gelu_create, gelu_destroy>("Gelu", kAnyFloating),
    with_instances<hard_sigmoid_kernel, hard_sigmoid_create, activation_destroy>("HardSigmoid",
                                                                               kAnyFloating),
    entry<hard_swish_kernel>("HardSwish", kAnyFloating),
    with_instances<clip_kernel, clip_create, activation_destroy>("Clip", kNumeric),
    entry<dropout_kernel>("Dropout", kAnyFloating),
    with_instances<sum_kernel, sum_create, sum_destroy>("Sum", kArithmetic),
    with_instances<reduce_sum_kernel, reduce_create, reduce_destroy>("ReduceSum", kNumeric),
    with_instances<reduce_mean_kernel, reduce_create, reduce_destroy>("ReduceMean", kNumeric),
    with_instances<reduce_prod_kernel, reduce_create, reduce_destroy>("ReduceProd", kNumeric),
    with_instances<reduce_max_kernel, reduce_create, reduce_destroy>("ReduceMax", kValued),
    with_instances<reduce_min_kernel, reduce_create, reduce_destroy>("ReduceMin", kValued),
    with_instances<reduce_l1_kernel, reduce_create, reduce_destroy>("ReduceL1", kNumeric),
    with_instances<reduce_l2_kernel, reduce_create, reduce_destroy>("ReduceL2", kNumeric),
    with_instances<reduce_sum_square_kernel, reduce_create, reduce_destroy>("ReduceSumSquare",
                                                                             kNumeric),
    with_instances<reduce_log_sum_exp_kernel, reduce_create, reduce_destroy>("ReduceLogSumExp",
                                                                              kNumeric),
    with_instances<top_k_kernel, top_k_create, top_k_destroy>("TopK", kNumeric),
    with_instances<arg_max_kernel, arg_create, arg_destroy>("ArgMax", kNumeric),
    with_instances<arg_min_kernel, arg_create, arg_destroy>("ArgMin", kNumeric),
    with_instances<softmax_kernel, softmax_create, softmax_destroy>("Softmax", kAnyFloating),
    with_instances<log_softmax_kernel, softmax_create, softmax_destroy>("LogSoftmax",
                                                                         kAnyFloating),
    with_instances<cum_sum_kernel, cum_sum_create, cum_sum_destroy>("CumSum", kNumeric),
    with_instances<cast_kernel, cast_create, cast_destroy>("Cast", kAll),
    with_instances<fill_kernel, fill_create, fill_destroy>("Fill", kValued),
    entry<identity_kernel>("Identity", kAll),
    entry<identity_kernel>("Broadcast", kAll),
    entry<all_gather_kernel>("AllGather", kAll),
    entry<reshape_kernel>("Reshape", kAll),
    entry<flatten_kernel>("Flatten", kAll),
    entry<squeeze_kernel>("Squeeze", kAll),
    entry<unsqueeze_kernel>("Unsqueeze", kAll),
    with_instances<transpose_kernel, transpose_create, transpose_destroy>("Transpose", kAll),
    entry<expand_kernel>("Expand", kAll),
    entry<tile_kernel>("Tile", kAll),
    with_instances<concat_kernel, axis_create, indexing_destroy>("Concat", kAll),
    with_instances<split_kernel, axis_create, indexing_destroy>("Split", kAll),
    with_instances<slice_kernel, slice_create, slice_destroy>("Slice", kAll),
    with_instances<gather_kernel, axis_create, indexing_destroy>("Gather", kAll),
    with_instances<gather_elements_kernel, axis_create, indexing_destroy>("GatherElements",
                                                                          kAll),
    with_instances<scatter_elements_kernel, scatter_elements_create, indexing_destroy>(
        "ScatterElements", kValued),
    with_instances<pad_kernel, pad_create, pad_destroy>("Pad", kValued),
    with_instances<depth_to_space_kernel, depth_to_space_create, block_destroy>("DepthToSpace",
                                                                                kAll),
    with_instances<space_to_depth_kernel, space_to_depth_create, block_destroy>("SpaceToDepth",
                                                                                kAll),
    with_instances<resize_kernel, resize_create, resize_destroy>("Resize", kValued),
    with_instances<upsample_kernel, upsample_create, resize_destroy>("Upsample", kValued),
    with_instances<shape_kernel, shape_create, shape_destroy>("Shape", kAll),
    entry<size_kernel>("Size", kAll),
    with_instances<range_kernel, range_create, range_destroy>("Range", kNumeric),
    since(8, entry<non_zero_kernel>("NonZero", kAll)),
};

}  // namespace

hx_status* register_kernels(CpuPlugin& plugin) {
  // oneDNN's ISAs are bit sets, each holding those it extends (avx2_vnni's value is above
  // avx512_core's but holds none of AVX-512).
  const auto avx512 = static_cast<unsigned>(dnnl::cpu_isa::avx512_core);
  const bool wide_vectors =
      (static_cast<unsigned>(dnnl::get_effective_cpu_isa()) & avx512) == avx512;
  for (const KernelEntry& kernel : kKernels) {
    if (kernel.core_minor > plugin.core_abi_minor) continue;
    if (kernel.wide_vectors && !wide_vectors) continue;
    hx_kernel_def def{};
    def.op = kernel.op;
    def.dtypes = kernel.dtypes;
    def.num_dtypes = kernel.num_dtypes;
    def.priority = 0;
    def.compute = kernel.compute;
    def.user_data = &plugin;
    def.create = kernel.create;
    def.check = kernel.check;
    def.destroy = kernel.destroy;
    def.forget_constants = kernel.forget_constants;
    if (hx_status* status =
            hxplugin::register_kernel(*plugin.services, plugin.core, plugin.core_abi_minor, def,
                                  plugin.api.device_type)) {
      return status;
    }
  }
  return nullptr;
}

}  // namespace hxcpu

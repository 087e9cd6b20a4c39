// The kernels the CUDA plugin offers for its GPU devices, and their registration.
//
// No int32 or int64 arithmetic kernels, on purpose: the GPU of the TensorFlow guide has none,
// so an int32 MatMul or Add placed on a GPU falls back to the CPU, visibly (the placement log
// says why). The ops that only move elements (Identity, the reshapes, Transpose, Slice, Expand,
// Concat, Gather) take every dtype, or every element size the kernel has, since moving bytes is
// not arithmetic.
#include <hxplugin/every_dtype.hpp>
#include <hxplugin/matmul_bias_as_gemm.hpp>
#include <hxplugin/plugin_init.hpp>
#include <hxplugin/status.hpp>

#include <algorithm>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "kernel_env.hpp"
#include "kernels/kernels.hpp"
#include "plugin_state.hpp"

namespace hxcuda {
namespace {

using kernels::GpuKernel;
using kernels::GpuKernelCall;

constexpr int32_t kElementwise[] = {HX_DTYPE_F32, HX_DTYPE_F16, HX_DTYPE_BF16};
constexpr int32_t kFloat[] = {HX_DTYPE_F32, HX_DTYPE_F64, HX_DTYPE_F16, HX_DTYPE_BF16};
constexpr const auto& kAll = hxplugin::kEveryDtype;
// Gather's data: the dtypes of 2, 4 and 8 bytes.
constexpr int32_t kGathered[] = {HX_DTYPE_F32, HX_DTYPE_F64, HX_DTYPE_I32, HX_DTYPE_I64,
                                 HX_DTYPE_U32, HX_DTYPE_U64, HX_DTYPE_F16, HX_DTYPE_BF16,
                                 HX_DTYPE_I16, HX_DTYPE_U16};

// Resolves the call's device and stream (making the device current), then runs the kernel
// behind the exception barrier: nothing may unwind into the core.
template <GpuKernel Kernel>
hx_status* compute(const hx_kernel_args* args) {
  KernelEnv env;
  if (hx_status* status = kernel_env(args, &env)) return status;
  return finish_kernel(env, hxplugin::guarded(*env.services, kPluginName,
                                              [&] { return Kernel(GpuKernelCall(*args, env)); }));
}

// The same for a kernel with an instance: it receives the state its create made.
template <class State, hx_status* (*Kernel)(const GpuKernelCall&, const State&)>
hx_status* compute_with_state(const hx_kernel_args* args) {
  KernelEnv env;
  if (hx_status* status = kernel_env(args, &env)) return status;
  if (args->instance == nullptr) {
    return env.services->status_create(
        HX_INVALID_ARGUMENT,
        "cuda plugin: a kernel with a create function was called without its instance");
  }
  const State& state = hxplugin::instance_of<State>(args->instance);
  return finish_kernel(env, hxplugin::guarded(*env.services, kPluginName, [&] {
                         return Kernel(GpuKernelCall(*args, env), state);
                       }));
}

// The state is made where it stays (some hold a lock and a cache, and cannot be copied).
template <class State, hx_status* (*Create)(const hxplugin::KernelCreate&, State*)>
hx_status* create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const hx_core_services& services = plugin_services(args->user_data);
  return hxplugin::guarded(services, kPluginName, [&]() -> hx_status* {
    auto state = std::make_unique<State>();
    if (hx_status* status = Create(hxplugin::KernelCreate(*args, services), state.get())) {
      return status;
    }
    *out_instance = hxplugin::to_instance(state.release());
    return nullptr;
  });
}

template <hx_status* (*Check)(const hxplugin::KernelCall&)>
hx_status* check(const hx_kernel_args* args) {
  const hx_core_services& services = plugin_services(args->user_data);
  return hxplugin::guarded(services, kPluginName,
                           [&] { return Check(hxplugin::KernelCall(*args, services)); });
}

struct KernelEntry {
  const char* op;
  hx_kernel_fn compute;
  const int32_t* dtypes;
  size_t num_dtypes;
  const int32_t* output_dtypes;  // NULL: not constrained (the op's output dtype follows T)
  size_t num_output_dtypes;
  hx_kernel_create_fn create;
  hx_kernel_check_fn check;
  hx_kernel_destroy_fn destroy;
  uint32_t core_minor;  // the core's ABI minor from which the op exists (0: every core's)
};

template <GpuKernel Kernel, size_t N>
constexpr KernelEntry entry(const char* op, const int32_t (&dtypes)[N]) {
  return {op, compute<Kernel>, dtypes, N, nullptr, 0, nullptr, nullptr, nullptr, 0};
}

template <class State, hx_status* (*Create)(const hxplugin::KernelCreate&, State*),
          hx_status* (*Kernel)(const GpuKernelCall&, const State&), size_t N>
constexpr KernelEntry entry_with_state(const char* op, const int32_t (&dtypes)[N]) {
  return {op,      compute_with_state<State, Kernel>, dtypes, N, nullptr, 0,
          create<State, Create>, nullptr, hxplugin::destroy_instance<State>, 0};
}

KernelEntry with_check(KernelEntry kernel, hx_kernel_check_fn check_fn) {
  kernel.check = check_fn;
  return kernel;
}

KernelEntry with_output_dtypes(KernelEntry kernel, const int32_t* dtypes, size_t count) {
  kernel.output_dtypes = dtypes;
  kernel.num_output_dtypes = count;
  return kernel;
}

// MatMulBias (ABI 2.11): FusedGemm's kernel and checks, on the call read as Gemm's.
hx_status* matmul_bias_compute(const hx_kernel_args* args) {
  return compute_with_state<kernels::FusedGemmState, kernels::fused_gemm_kernel>(
      hxplugin::MatMulBiasAsGemm(*args).args());
}
hx_status* matmul_bias_check(const hx_kernel_args* args) {
  return check<kernels::fused_gemm_check>(hxplugin::MatMulBiasAsGemm(*args).args());
}

KernelEntry matmul_bias_entry() {
  KernelEntry kernel = entry_with_state<kernels::FusedGemmState, kernels::fused_gemm_create,
                                        kernels::fused_gemm_kernel>("MatMulBias", kElementwise);
  kernel.compute = matmul_bias_compute;
  kernel.check = matmul_bias_check;
  return kernel;
}

// `kernel` for an op that cores of ABI minor `minor` on define (FusedConv and FusedGemm: 9,
// MatMulBias: 11).
KernelEntry since(uint32_t minor, KernelEntry kernel) {
  kernel.core_minor = minor;
  return kernel;
}

using kernels::AxisState;
using kernels::BatchNormState;
using kernels::CastState;
using kernels::ConvState;
using kernels::FillState;
using kernels::FusedGemmState;
using kernels::MatMulState;
using kernels::PoolKind;
using kernels::PoolState;
using kernels::ReduceState;
using kernels::Reduction;
using kernels::SliceState;
using kernels::SoftmaxState;
using kernels::TransposeState;
using kernels::UnaryOp;
using kernels::UnaryState;

// A family's create function (unary, Softmax, ONNX's reductions) with the member fixed, in the
// form entry_with_state takes.
template <class State, class Member,
          hx_status* (*Create)(const hxplugin::KernelCreate&, Member, State*), Member kMember>
hx_status* create_member(const hxplugin::KernelCreate& create, State* out) {
  return Create(create, kMember, out);
}

template <UnaryOp kOp>
KernelEntry unary(const char* op) {
  return entry_with_state<UnaryState,
                          create_member<UnaryState, UnaryOp, kernels::unary_create, kOp>,
                          kernels::unary_kernel>(op, kElementwise);
}

template <bool kLog>
KernelEntry softmax(const char* op) {
  return entry_with_state<SoftmaxState,
                          create_member<SoftmaxState, bool, kernels::softmax_create, kLog>,
                          kernels::softmax_kernel>(op, kElementwise);
}

template <PoolKind kKind>
KernelEntry pool(const char* op) {
  return with_check(
      entry_with_state<PoolState, create_member<PoolState, PoolKind, kernels::pool_create, kKind>,
                       kernels::pool_kernel>(op, kElementwise),
      check<kernels::pool_check>);
}

template <Reduction kReduction>
KernelEntry onnx_reduce(const char* op) {
  return entry_with_state<
      ReduceState, create_member<ReduceState, Reduction, kernels::onnx_reduce_create, kReduction>,
      kernels::reduce_kernel>(op, kElementwise);
}

const KernelEntry kKernels[] = {
    with_check(entry_with_state<MatMulState, kernels::matmul_create, kernels::matmul_kernel>(
                   "MatMul", kFloat),
               check<kernels::matmul_check>),
    entry<kernels::add_kernel>("Add", kElementwise),
    entry<kernels::sub_kernel>("Sub", kElementwise),
    entry<kernels::mul_kernel>("Mul", kElementwise),
    entry<kernels::div_kernel>("Div", kElementwise),
    with_check(entry<kernels::pow_kernel>("Pow", kElementwise),
               check<kernels::same_dtypes_check>),
    with_check(entry<kernels::min_kernel>("Min", kElementwise), check<kernels::two_inputs_check>),
    with_check(entry<kernels::max_kernel>("Max", kElementwise), check<kernels::two_inputs_check>),
    // The comparisons' dtypes are their operands'; the output is bool.
    entry<kernels::equal_kernel>("Equal", kElementwise),
    entry<kernels::less_kernel>("Less", kElementwise),
    entry<kernels::greater_kernel>("Greater", kElementwise),
    entry<kernels::less_or_equal_kernel>("LessOrEqual", kElementwise),
    entry<kernels::greater_or_equal_kernel>("GreaterOrEqual", kElementwise),
    entry<kernels::relu_kernel>("Relu", kElementwise),
    unary<UnaryOp::kExp>("Exp"),
    unary<UnaryOp::kLog>("Log"),
    unary<UnaryOp::kSqrt>("Sqrt"),
    unary<UnaryOp::kNeg>("Neg"),
    unary<UnaryOp::kAbs>("Abs"),
    unary<UnaryOp::kReciprocal>("Reciprocal"),
    unary<UnaryOp::kErf>("Erf"),
    unary<UnaryOp::kTanh>("Tanh"),
    unary<UnaryOp::kSigmoid>("Sigmoid"),
    unary<UnaryOp::kFloor>("Floor"),
    unary<UnaryOp::kCeil>("Ceil"),
    unary<UnaryOp::kRound>("Round"),
    unary<UnaryOp::kSign>("Sign"),
    unary<UnaryOp::kLeakyRelu>("LeakyRelu"),
    unary<UnaryOp::kHardSigmoid>("HardSigmoid"),
    unary<UnaryOp::kHardSwish>("HardSwish"),
    unary<UnaryOp::kGelu>("Gelu"),
    softmax<false>("Softmax"),
    softmax<true>("LogSoftmax"),
    entry<kernels::addn_kernel>("AddN", kElementwise),
    entry_with_state<ReduceState, kernels::sum_create, kernels::reduce_kernel>("Sum",
                                                                              kElementwise),
    onnx_reduce<Reduction::kSum>("ReduceSum"),
    onnx_reduce<Reduction::kMean>("ReduceMean"),
    onnx_reduce<Reduction::kMax>("ReduceMax"),
    onnx_reduce<Reduction::kMin>("ReduceMin"),
    onnx_reduce<Reduction::kL2>("ReduceL2"),
    entry_with_state<FillState, kernels::fill_create, kernels::fill_kernel>("Fill", kFloat),
    // Cast converts among the float types only, both ways: a Cast to or from an integer type
    // runs on the CPU.
    with_output_dtypes(
        entry_with_state<CastState, kernels::cast_create, kernels::cast_kernel>("Cast", kFloat),
        kFloat, std::size(kFloat)),
    entry<kernels::copy_kernel>("Identity", kAll),
    entry<kernels::copy_kernel>("Reshape", kAll),
    entry<kernels::copy_kernel>("Flatten", kAll),
    entry<kernels::copy_kernel>("Squeeze", kAll),
    entry<kernels::copy_kernel>("Unsqueeze", kAll),
    entry_with_state<TransposeState, kernels::transpose_create, kernels::transpose_kernel>(
        "Transpose", kAll),
    entry_with_state<SliceState, kernels::slice_create, kernels::slice_kernel>("Slice", kAll),
    entry<kernels::expand_kernel>("Expand", kAll),
    entry_with_state<AxisState, kernels::concat_create, kernels::concat_kernel>("Concat", kAll),
    entry_with_state<AxisState, kernels::gather_create, kernels::gather_kernel>("Gather",
                                                                               kGathered),
    // On cuDNN and cuBLASLt, loaded by the first create of one of these (each declines, saying
    // why, where its library cannot be loaded).
    with_check(entry_with_state<ConvState, kernels::conv_create, kernels::conv_kernel>(
                   "Conv", kElementwise),
               check<kernels::conv_check>),
    since(9, with_check(entry_with_state<ConvState, kernels::fused_conv_create,
                                         kernels::conv_kernel>("FusedConv", kElementwise),
                        check<kernels::conv_check>)),
    pool<PoolKind::kMax>("MaxPool"),
    pool<PoolKind::kAverage>("AveragePool"),
    pool<PoolKind::kGlobalMax>("GlobalMaxPool"),
    pool<PoolKind::kGlobalAverage>("GlobalAveragePool"),
    with_check(
        entry_with_state<BatchNormState, kernels::batch_norm_create, kernels::batch_norm_kernel>(
            "BatchNormalization", kElementwise),
        check<kernels::batch_norm_check>),
    since(9, with_check(entry_with_state<FusedGemmState, kernels::fused_gemm_create,
                                         kernels::fused_gemm_kernel>("FusedGemm", kElementwise),
                        check<kernels::fused_gemm_check>)),
    since(11, matmul_bias_entry()),
};

}  // namespace

bool has_kernel_for(const std::string& op) {
  return std::any_of(std::begin(kKernels), std::end(kKernels),
                     [&](const KernelEntry& kernel) { return op == kernel.op; });
}

std::string kernel_op_list() {
  std::vector<std::string> ops;
  for (const KernelEntry& kernel : kKernels) ops.emplace_back(kernel.op);
  std::sort(ops.begin(), ops.end());
  std::string list;
  for (const std::string& op : ops) list += (list.empty() ? "" : ", ") + op;
  return list;
}

hx_status* register_kernels(const hx_core_services& services, hx_core* core, CudaPlugin& plugin) {
  const std::vector<std::string>& faulted = plugin.options.fault_ops;
  for (const KernelEntry& kernel : kKernels) {
    if (plugin.core_abi_minor < kernel.core_minor) continue;  // an op that core does not have
    // A deque: its elements stay where they are as it grows, and the core keeps their address.
    plugin.kernel_sites.push_back(
        {&plugin, kernel.op,
         std::find(faulted.begin(), faulted.end(), kernel.op) != faulted.end()});
    hx_kernel_def def{};
    def.op = kernel.op;
    def.dtypes = kernel.dtypes;
    def.num_dtypes = kernel.num_dtypes;
    def.output_dtypes = kernel.output_dtypes;
    def.num_output_dtypes = kernel.num_output_dtypes;
    def.priority = 0;
    def.compute = kernel.compute;
    def.user_data = &plugin.kernel_sites.back();
    def.create = kernel.create;
    def.check = kernel.check;
    def.destroy = kernel.destroy;
    if (hx_status* status = hxplugin::register_kernel(services, core, plugin.core_abi_minor, def,
                                                      kPluginName)) {
      return status;
    }
  }
  return nullptr;
}

}  // namespace hxcuda

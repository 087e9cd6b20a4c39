// The kernels the CUDA plugin offers for device type "GPU", and their registration.
//
// No int32 or int64 arithmetic kernels, on purpose: the GPU of the TensorFlow guide has none,
// so an int32 MatMul or Add placed on a GPU falls back to the CPU, visibly (the placement log
// says why). Identity copies every dtype, since moving bytes is not arithmetic.
#include <hxplugin/plugin_init.hpp>
#include <hxplugin/status.hpp>

#include <iterator>

#include "kernel_env.hpp"
#include "kernels/kernels.hpp"

namespace hxcuda {
namespace {

using kernels::GpuKernel;
using kernels::GpuKernelCall;

constexpr char kDeviceType[] = "GPU";

constexpr hx_dtype kElementwise[] = {HX_DTYPE_F32, HX_DTYPE_F16, HX_DTYPE_BF16};
constexpr hx_dtype kFloat[] = {HX_DTYPE_F32, HX_DTYPE_F64, HX_DTYPE_F16, HX_DTYPE_BF16};
constexpr hx_dtype kAll[] = {HX_DTYPE_F32, HX_DTYPE_F64, HX_DTYPE_F16, HX_DTYPE_BF16,
                             HX_DTYPE_I32, HX_DTYPE_I64, HX_DTYPE_BOOL};

// Resolves the call's device and stream (making the device current), then runs the kernel
// behind the exception barrier: nothing may unwind into the core.
template <GpuKernel Kernel>
hx_status* compute(const hx_kernel_args* args) {
  KernelEnv env;
  if (hx_status* status = kernel_env(args, &env)) return status;
  return hxplugin::guarded(*env.services, "cuda",
                           [&] { return Kernel(GpuKernelCall(*args, env)); });
}

struct KernelEntry {
  const char* op;
  hx_kernel_fn compute;
  const hx_dtype* dtypes;
  size_t num_dtypes;
  const hx_dtype* output_dtypes;  // NULL: not constrained (the op's output dtype follows T)
  size_t num_output_dtypes;
};

template <GpuKernel Kernel, size_t N>
constexpr KernelEntry entry(const char* op, const hx_dtype (&dtypes)[N]) {
  return {op, compute<Kernel>, dtypes, N, nullptr, 0};
}

constexpr KernelEntry kKernels[] = {
    entry<kernels::matmul_kernel>("MatMul", kFloat),
    entry<kernels::add_kernel>("Add", kElementwise),
    entry<kernels::sub_kernel>("Sub", kElementwise),
    entry<kernels::mul_kernel>("Mul", kElementwise),
    entry<kernels::div_kernel>("Div", kElementwise),
    entry<kernels::relu_kernel>("Relu", kElementwise),
    entry<kernels::addn_kernel>("AddN", kElementwise),
    entry<kernels::sum_kernel>("Sum", kElementwise),
    entry<kernels::fill_kernel>("Fill", kFloat),
    entry<kernels::identity_kernel>("Identity", kAll),
    // Cast converts among the float types only, both ways: a Cast to or from an integer type
    // runs on the CPU.
    {"Cast", compute<kernels::cast_kernel>, kFloat, std::size(kFloat), kFloat, std::size(kFloat)},
};

}  // namespace

hx_status* register_kernels(const hx_core_services& services, hx_core* core, CudaPlugin& plugin) {
  for (const KernelEntry& kernel : kKernels) {
    hx_kernel_def def{};
    def.op = kernel.op;
    def.device_type = kDeviceType;
    def.dtypes = kernel.dtypes;
    def.num_dtypes = kernel.num_dtypes;
    def.output_dtypes = kernel.output_dtypes;
    def.num_output_dtypes = kernel.num_output_dtypes;
    def.priority = 0;
    def.compute = kernel.compute;
    def.user_data = &plugin;
    if (hx_status* status = hxplugin::register_kernel(services, core, def, kDeviceType)) {
      return status;
    }
  }
  return nullptr;
}

}  // namespace hxcuda

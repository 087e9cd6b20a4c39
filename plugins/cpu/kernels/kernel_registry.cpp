#include "kernels/kernel_registry.hpp"

#include <hxplugin/plugin_init.hpp>
#include <hxplugin/status.hpp>

#include "kernels/kernels.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

constexpr hx_dtype kFloating[] = {HX_DTYPE_F32, HX_DTYPE_F64};
constexpr hx_dtype kArithmetic[] = {HX_DTYPE_F32, HX_DTYPE_F64, HX_DTYPE_I32, HX_DTYPE_I64};
constexpr hx_dtype kAll[] = {HX_DTYPE_F32, HX_DTYPE_F64, HX_DTYPE_F16, HX_DTYPE_BF16,
                             HX_DTYPE_I32, HX_DTYPE_I64, HX_DTYPE_BOOL};

struct KernelEntry {
  const char* op;
  hx_kernel_fn compute;
  const hx_dtype* dtypes;
  size_t num_dtypes;
};

// The kernels do not allocate and should not throw; this wrapper (a try block, free on the
// path that does not throw) makes sure that nothing unwinds into the core if one ever does.
template <hx_kernel_fn Kernel>
hx_status* guarded_kernel(const hx_kernel_args* args) {
  const CpuPlugin& plugin = *static_cast<const CpuPlugin*>(args->user_data);
  return hxplugin::guarded(*plugin.services, kPluginName, [&] { return Kernel(args); });
}

template <hx_kernel_fn Kernel, size_t N>
constexpr KernelEntry entry(const char* op, const hx_dtype (&dtypes)[N]) {
  return {op, guarded_kernel<Kernel>, dtypes, N};
}

// Cast's output dtypes are left unconstrained (NULL): every input dtype converts to every dtype.
constexpr KernelEntry kKernels[] = {
    entry<matmul_kernel>("MatMul", kFloating),   entry<add_kernel>("Add", kArithmetic),
    entry<sub_kernel>("Sub", kArithmetic),       entry<mul_kernel>("Mul", kArithmetic),
    entry<div_kernel>("Div", kArithmetic),       entry<addn_kernel>("AddN", kArithmetic),
    entry<relu_kernel>("Relu", kArithmetic),     entry<sum_kernel>("Sum", kArithmetic),
    entry<cast_kernel>("Cast", kAll),            entry<fill_kernel>("Fill", kAll),
    entry<identity_kernel>("Identity", kAll),
};

}  // namespace

hx_status* register_kernels(CpuPlugin& plugin) {
  for (const KernelEntry& kernel : kKernels) {
    hx_kernel_def def{};
    def.op = kernel.op;
    def.device_type = plugin.api.device_type;
    def.dtypes = kernel.dtypes;
    def.num_dtypes = kernel.num_dtypes;
    def.priority = 0;
    def.compute = kernel.compute;
    def.user_data = &plugin;
    if (hx_status* status =
            hxplugin::register_kernel(*plugin.services, plugin.core, def, plugin.api.device_type)) {
      return status;
    }
  }
  return nullptr;
}

}  // namespace hxcpu

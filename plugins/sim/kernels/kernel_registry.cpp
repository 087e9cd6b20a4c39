#include "kernels/kernel_registry.hpp"

#include <hxplugin/plugin_init.hpp>
#include <hxplugin/status.hpp>

#include "kernels/kernels.hpp"
#include "plugin_state.hpp"

namespace hxsim {
namespace {

constexpr hx_dtype kFloat32[] = {HX_DTYPE_F32};

struct KernelEntry {
  const char* op;
  hx_kernel_fn compute;
};

// The kernels check their inputs and do not allocate; this wrapper (a try block, free on the
// path that does not throw) makes sure that nothing unwinds into the core if one ever throws.
template <hx_kernel_fn Kernel>
hx_status* guarded_kernel(const hx_kernel_args* args) {
  const SimPlugin& plugin = *static_cast<const SimPlugin*>(args->user_data);
  return hxplugin::guarded(*plugin.services, kPluginName, [&] { return Kernel(args); });
}

constexpr KernelEntry kKernels[] = {
    {"MatMul", guarded_kernel<matmul_kernel>}, {"Add", guarded_kernel<add_kernel>},
    {"Mul", guarded_kernel<mul_kernel>},       {"Relu", guarded_kernel<relu_kernel>},
    {"AddN", guarded_kernel<addn_kernel>},     {"Identity", guarded_kernel<identity_kernel>},
    {"Fill", guarded_kernel<fill_kernel>},
};

const KernelEntry* find_kernel(const std::string& op) {
  for (const KernelEntry& kernel : kKernels) {
    if (op == kernel.op) return &kernel;
  }
  return nullptr;
}

}  // namespace

std::vector<std::string> implemented_ops() {
  std::vector<std::string> ops;
  for (const KernelEntry& kernel : kKernels) ops.emplace_back(kernel.op);
  return ops;
}

std::string implemented_op_list() {
  std::string list;
  for (const KernelEntry& kernel : kKernels) {
    if (!list.empty()) list += ", ";
    list += kernel.op;
  }
  return list;
}

bool implements_op(const std::string& op) { return find_kernel(op) != nullptr; }

hx_status* register_kernels(SimPlugin& plugin) {
  for (const std::string& op : plugin.options.ops) {
    const KernelEntry* kernel = find_kernel(op);  // the options admit implemented ops only
    hx_kernel_def def{};
    def.op = kernel->op;
    def.device_type = plugin.api.device_type;
    def.dtypes = kFloat32;
    def.num_dtypes = 1;
    def.priority = 0;
    def.compute = kernel->compute;
    def.user_data = &plugin;
    if (hx_status* status =
            hxplugin::register_kernel(*plugin.services, plugin.core, def, kPluginName)) {
      return status;
    }
  }
  return nullptr;
}

}  // namespace hxsim

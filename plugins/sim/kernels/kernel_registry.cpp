#include "kernels/kernel_registry.hpp"

#include <hxplugin/guarded_kernel.hpp>
#include <hxplugin/plugin_init.hpp>

#include "kernels/kernels.hpp"
#include "plugin_state.hpp"

namespace hxsim {
namespace {

constexpr int32_t kFloat32[] = {HX_DTYPE_F32};

struct KernelEntry {
  const char* op;
  hx_kernel_fn compute;
  hx_kernel_create_fn create;
  hx_kernel_check_fn check;
  hx_kernel_destroy_fn destroy;
};

// The kernels' entry points, behind the exception barrier.
template <hx_kernel_fn Kernel>
constexpr hx_kernel_fn guarded_kernel = hxplugin::guarded_kernel<SimPlugin, kPluginName, Kernel>;
template <hx_kernel_create_fn Create>
constexpr hx_kernel_create_fn guarded_create =
    hxplugin::guarded_create<SimPlugin, kPluginName, Create>;

constexpr KernelEntry kKernels[] = {
    {"MatMul", guarded_kernel<matmul_kernel>, guarded_create<matmul_create>, matmul_check,
     matmul_destroy},
    {"Gemm", guarded_kernel<gemm_kernel>, guarded_create<gemm_create>, nullptr, gemm_destroy},
    {"Add", guarded_kernel<add_kernel>, nullptr, nullptr, nullptr},
    {"Mul", guarded_kernel<mul_kernel>, nullptr, nullptr, nullptr},
    {"Relu", guarded_kernel<relu_kernel>, nullptr, nullptr, nullptr},
    {"AddN", guarded_kernel<addn_kernel>, nullptr, nullptr, nullptr},
    {"AllReduce", guarded_kernel<all_reduce_kernel>, guarded_create<all_reduce_create>, nullptr,
     all_reduce_destroy},
    {"AllGather", guarded_kernel<all_gather_kernel>, nullptr, nullptr, nullptr},
    {"Broadcast", guarded_kernel<broadcast_kernel>, nullptr, nullptr, nullptr},
    {"Identity", guarded_kernel<identity_kernel>, nullptr, nullptr, nullptr},
    {"Fill", guarded_kernel<fill_kernel>, guarded_create<fill_create>, nullptr, fill_destroy},
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
    def.dtypes = kFloat32;
    def.num_dtypes = 1;
    def.priority = 0;
    def.compute = kernel->compute;
    def.user_data = &plugin;
    def.create = kernel->create;
    def.check = kernel->check;
    def.destroy = kernel->destroy;
    if (hx_status* status =
            hxplugin::register_kernel(*plugin.services, plugin.core, plugin.core_abi_minor, def,
                                  kPluginName)) {
      return status;
    }
  }
  return nullptr;
}

}  // namespace hxsim

#include "kernels/kernel_registry.hpp"

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

hx_kernel_def float32_kernel(const char* op, hx_kernel_fn compute, hx_kernel_create_fn create,
                             void* user_data = nullptr) {
  hx_kernel_def def{};
  def.op = op;
  def.dtypes = kFloat32;
  def.num_dtypes = 1;
  def.compute = compute;
  def.user_data = user_data;
  def.create = create;
  def.destroy = create != nullptr ? destroy_instance : nullptr;
  return def;
}

// The program's kernel names, passed as user_data to the element-wise kernels.
char kAddKernel[] = "add_f32";
char kSubKernel[] = "sub_f32";
char kMulKernel[] = "mul_f32";
char kDivKernel[] = "div_f32";

}  // namespace

hx_status* register_kernels(const OpenClPlugin& plugin) {
  hx_kernel_def cast = float32_kernel("Cast", cast_compute, cast_create);
  cast.output_dtypes = kCastTargets;
  cast.num_output_dtypes = sizeof kCastTargets / sizeof kCastTargets[0];
  hx_kernel_def matmul = float32_kernel("MatMul", matmul_compute, matmul_create);
  matmul.check = matmul_check;
  const hx_kernel_def defs[] = {
      matmul,
      float32_kernel("Add", binary_compute, binary_create, kAddKernel),
      float32_kernel("Sub", binary_compute, binary_create, kSubKernel),
      float32_kernel("Mul", binary_compute, binary_create, kMulKernel),
      float32_kernel("Div", binary_compute, binary_create, kDivKernel),
      float32_kernel("Relu", relu_compute, relu_create),
      float32_kernel("AddN", addn_compute, addn_create),
      float32_kernel("Sum", sum_compute, sum_create),
      float32_kernel("Fill", fill_compute, fill_create),
      cast,
      float32_kernel("Identity", identity_compute, nullptr)};
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

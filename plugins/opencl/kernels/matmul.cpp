// MatMul of float32: c = op(a) x op(b) with the transposes read once, at create, which pick
// one of program.cl's four tiled kernels.
#include <hxplugin/kernel_call.hpp>
#include <hxplugin/matmul_dims.hpp>
#include <hxplugin/status.hpp>

#include <memory>

#include "kernels/kernel_instance.hpp"
#include "kernels/kernels.hpp"
#include "plugin_state.hpp"

namespace hxopencl {

namespace {

// program.cl's HXCL_TILE: work-groups are kTile x kTile items.
constexpr size_t kTile = 16;

struct MatMulInstance : KernelInstance {
  using KernelInstance::KernelInstance;
  bool transpose_a = false;
  bool transpose_b = false;
};

const char* matmul_kernel_name(bool transpose_a, bool transpose_b) {
  if (transpose_a) return transpose_b ? "matmul_f32_at_bt" : "matmul_f32_at";
  return transpose_b ? "matmul_f32_bt" : "matmul_f32";
}

size_t round_up(int64_t extent) {
  return (static_cast<size_t>(extent) + kTile - 1) / kTile * kTile;
}

}  // namespace

hx_status* matmul_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const OpenClDevice& device = from_handle(args->device);
  if (device.facts.max_work_group_size < kTile * kTile) {
    return hxplugin::make_status(
        device.services(), HX_UNIMPLEMENTED,
        "MatMul on %s: its work-groups hold at most %zu items (CL_DEVICE_MAX_WORK_GROUP_SIZE) "
        "and the tiled kernel needs %zu",
        device.facts.name.c_str(), device.facts.max_work_group_size, kTile * kTile);
  }
  return hxplugin::guarded(device.services(), kPluginName, [&]() -> hx_status* {
    auto instance = std::make_unique<MatMulInstance>(device);
    const hxplugin::KernelCreate create = create_call(*args);
    if (hx_status* status = create.attr_bool("transpose_a", &instance->transpose_a)) {
      return status;
    }
    if (hx_status* status = create.attr_bool("transpose_b", &instance->transpose_b)) {
      return status;
    }
    const char* name = matmul_kernel_name(instance->transpose_a, instance->transpose_b);
    return finish_instance(std::move(instance), name, out_instance);
  });
}

hx_status* matmul_check(const hx_kernel_args* args) {
  const MatMulInstance& instance = instance_of<MatMulInstance>(*args);
  return hxplugin::matmul_matrices_only(hxplugin::KernelCall(*args, instance.device.services()),
                                        "MatMul on OpenCL");
}

hx_status* matmul_compute(const hx_kernel_args* args) {
  const MatMulInstance& instance = instance_of<MatMulInstance>(*args);
  const hxplugin::KernelCall call(*args, instance.device.services());
  const hx_tensor_view& a = call.input(0);
  const hx_tensor_view& b = call.input(1);
  const hx_tensor_view& c = call.output(0);
  hxplugin::MatMulDims dims{};
  if (hx_status* status =
          hxplugin::matmul_dims(call, instance.transpose_a, instance.transpose_b, &dims)) {
    return status;
  }
  if (dims.m == 0 || dims.n == 0) return nullptr;
  const size_t global[2] = {round_up(dims.n), round_up(dims.m)};
  const size_t local[2] = {kTile, kTile};
  const cl_long lda = a.shape[1];
  const cl_long ldb = b.shape[1];
  return Launch(instance, args->stream)
      .run(2, global, local, operand(a), operand(b), operand(c), cl_long{dims.m},
           cl_long{dims.n}, cl_long{dims.k}, lda, ldb);
}

}  // namespace hxopencl

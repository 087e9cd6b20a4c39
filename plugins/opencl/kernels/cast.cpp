// Cast from float32 to float32, float64, float16, int32, int64 and bool, with the CPU plugin's
// rules (program.cl says which). The target type is read once, at create; float64 needs a
// device with double precision, and bfloat16 is not registered: both fall back to another
// device, with the reason logged.
#include <hxplugin/status.hpp>
#include <hxrt/plugin_vocabulary.h>

#include <memory>

#include "kernels/kernel_instance.hpp"
#include "kernels/kernels.hpp"
#include "plugin_state.hpp"

namespace hxopencl {

namespace {

// The program's kernel for a target dtype; NULL for float32 (a copy) and for the targets
// without one.
const char* cast_kernel_name(int32_t target) {
  switch (target) {
    case HX_DTYPE_F64: return "cast_f32_to_f64";
    case HX_DTYPE_F16: return "cast_f32_to_f16";
    case HX_DTYPE_I32: return "cast_f32_to_i32";
    case HX_DTYPE_I64: return "cast_f32_to_i64";
    case HX_DTYPE_BOOL: return "cast_f32_to_bool";
    default: return nullptr;
  }
}

}  // namespace

hx_status* cast_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const OpenClDevice& device = from_handle(args->device);
  const int32_t target = args->output_dtypes[0];
  if (target != HX_DTYPE_F32 && cast_kernel_name(target) == nullptr) {
    return hxplugin::make_status(device.services(), HX_UNIMPLEMENTED,
                                 "Cast on %s: no float32-to-%s kernel", device.facts.name.c_str(),
                                 hx_dtype_name(target));
  }
  if (target == HX_DTYPE_F64 && !device.facts.has_fp64) {
    return hxplugin::make_status(device.services(), HX_UNIMPLEMENTED,
                                 "Cast to float64 on %s: the device has no double precision "
                                 "(CL_DEVICE_DOUBLE_FP_CONFIG is 0)",
                                 device.facts.name.c_str());
  }
  return hxplugin::guarded(device.services(), kPluginName, [&] {
    return finish_instance(std::make_unique<KernelInstance>(device), cast_kernel_name(target),
                           out_instance);
  });
}

hx_status* cast_compute(const hx_kernel_args* args) {
  const KernelInstance& instance = instance_of<KernelInstance>(*args);
  const hx_tensor_view& in = args->inputs[0];
  const hx_tensor_view& out = args->outputs[0];
  const size_t count = element_count(out);
  if (instance.kernel == nullptr) {
    return copy_tensor(instance.device, args->stream, in, out, count * sizeof(float));
  }
  if (count == 0) return nullptr;
  return Launch(instance, args->stream).run(1, &count, nullptr, operand(in), operand(out));
}

}  // namespace hxopencl

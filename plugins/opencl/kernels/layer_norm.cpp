// LayerNormalization of float32 over the axes from `axis` on, one work-item per run (program.cl's
// layer_norm_f32), with Mean and InvStdDev where the call asks for them. Scale and B of every
// element of a run; a Scale or B that broadcasts within the run, and statistics other than
// float32 (stash_type), are declined to the CPU.
#include <hxplugin/status.hpp>

#include <memory>

#include "kernels/kernel_instance.hpp"
#include "kernels/kernels.hpp"
#include "plugin_state.hpp"

namespace hxopencl {

namespace {

struct LayerNormInstance : KernelInstance {
  using KernelInstance::KernelInstance;
  int64_t axis = -1;
  cl_float epsilon = 1e-5f;
};

// The elements of one run: X's extents from the axis on; 0 for an axis out of range.
int64_t run_length(const LayerNormInstance& instance, const hx_tensor_view& x) {
  const int64_t axis = instance.axis < 0 ? instance.axis + x.rank : instance.axis;
  if (axis < 0 || axis >= x.rank) return 0;
  int64_t length = 1;
  for (int64_t d = axis; d < x.rank; ++d) length *= x.shape[d];
  return length;
}

}  // namespace

hx_status* layer_norm_create(const hx_kernel_create_args* args,
                             hx_kernel_instance** out_instance) {
  const OpenClDevice& device = from_handle(args->device);
  return hxplugin::guarded(device.services(), kPluginName, [&]() -> hx_status* {
    auto instance = std::make_unique<LayerNormInstance>(device);
    const hxplugin::KernelCreate create = create_call(*args);
    if (hx_status* status = create.attr_int("axis", &instance->axis)) return status;
    double epsilon = 1e-5;
    if (hx_status* status = create.attr_float("epsilon", &epsilon)) return status;
    instance->epsilon = static_cast<cl_float>(epsilon);
    for (size_t i = 1; i < args->num_outputs; ++i) {
      if (args->output_dtypes[i] != HX_DTYPE_F32) {
        return create.error(HX_UNIMPLEMENTED,
                            "LayerNormalization on OpenCL: statistics of float32 only "
                            "(stash_type 1)");
      }
    }
    return finish_instance(std::move(instance), "layer_norm_f32", out_instance);
  });
}

hx_status* layer_norm_check(const hx_kernel_args* args) {
  const LayerNormInstance& instance = instance_of<LayerNormInstance>(*args);
  const int64_t length = run_length(instance, args->inputs[0]);
  for (size_t i = 1; i < args->num_inputs; ++i) {
    if (static_cast<int64_t>(element_count(args->inputs[i])) != length) {
      return hxplugin::make_status(instance.device.services(), HX_UNIMPLEMENTED,
                                   "LayerNormalization on OpenCL: Scale and B of every element "
                                   "of a run (%lld); input %zu broadcasts within it",
                                   static_cast<long long>(length), i);
    }
  }
  if (args->num_outputs == 2) {
    return hxplugin::make_status(instance.device.services(), HX_UNIMPLEMENTED,
                                 "LayerNormalization on OpenCL: Mean alone, without InvStdDev");
  }
  return nullptr;
}

hx_status* layer_norm_compute(const hx_kernel_args* args) {
  const LayerNormInstance& instance = instance_of<LayerNormInstance>(*args);
  const hx_tensor_view& x = args->inputs[0];
  const int64_t length = run_length(instance, x);
  const size_t count = element_count(x);
  if (count == 0) return nullptr;
  if (length <= 0) {
    return hxplugin::make_status(instance.device.services(), HX_INVALID_ARGUMENT,
                                 "LayerNormalization: axis %lld is out of range for rank %d",
                                 static_cast<long long>(instance.axis),
                                 static_cast<int>(x.rank));
  }
  const size_t runs = count / static_cast<size_t>(length);
  const bool bias = args->num_inputs == 3;
  const bool statistics = args->num_outputs == 3;
  const Operand none{nullptr, 0};
  return Launch(instance, args->stream)
      .run(1, &runs, nullptr, operand(x), operand(args->inputs[1]),
           bias ? operand(args->inputs[2]) : none, operand(args->outputs[0]),
           statistics ? operand(args->outputs[1]) : none,
           statistics ? operand(args->outputs[2]) : none, cl_long{length}, instance.epsilon,
           cl_int{bias ? 1 : 0}, cl_int{statistics ? 1 : 0});
}

}  // namespace hxopencl

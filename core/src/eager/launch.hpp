// The eager path's launch, one for its quick way and its full way: makes the outputs a call's
// plan describes, binds their views, and calls the kernel (eager/kernel_call.hpp). Graph runs
// bind their operands to planned arenas instead of making tensors, and share the kernel call.
#pragma once

#include <cstdlib>

#include "base/status.hpp"
#include "eager/call_plan.hpp"
#include "eager/kernel_call.hpp"
#include "eager/tensor_views.hpp"
#include "tensors/tensor_impl.hpp"

namespace hxrt::detail {

// A kernel's failure: its error status, or the Error of one that threw across the C ABI
// (status null). Empties the outputs and throws Error naming the op, the device and the
// plugin. Out of line, off the path of calls that succeed.
[[noreturn]] __attribute__((noinline, cold)) inline void kernel_failed(
    hx_status* status, const Error* threw, const std::string& op, const Device& device,
    const Placement& placement, Tensor* outputs, size_t num_outputs) {
  for (size_t i = 0; i < num_outputs; ++i) outputs[i] = Tensor();
  if (status == nullptr) {
    throw Error(threw->code(), op + " on " + device.name() + ": " + threw->what());
  }
  throw_if_error(status, op + " on " + device.name() + " (plugin '" + placement.kernel->plugin +
                             "')");
  std::abort();  // throw_if_error throws for every status that is not null
}

// Makes `plan`'s outputs on `placement`'s device, binds their views after the inputs' in
// `views` (the inputs' bound already), runs `before_kernel` (the trace's mark), and calls the
// kernel. On a failure, kernel_failed. `placement` is the plan's own, or one made again for
// this call (kernels that check each call), whose device may differ: its outputs then have no
// interned kinds. `output_extents`: as kernel_args takes it. Always inline: it is the quick
// way's body.
template <class BeforeKernel>
__attribute__((always_inline)) inline void launch(const CallPlan& plan,
                                                  const Placement& placement,
                                                  hx_tensor_view* views, size_t num_inputs,
                                                  const Attrs& attrs, Tensor* outputs,
                                                  BeforeKernel before_kernel,
                                                  int64_t* output_extents = nullptr) {
  Device& device = *placement.device;
  const size_t num_outputs = plan.num_outputs();
  const bool planned_device = &placement == &plan.placement();
  for (size_t i = 0; i < num_outputs; ++i) {
    const TensorMeta& meta = plan.outputs()[i];
    outputs[i] = planned_device ? make_tensor(plan.device(), meta.dtype, meta.shape, meta.bytes,
                                              plan.output_kinds()[i])
                                : make_tensor(device.shared_from_this(), meta.dtype, meta.shape,
                                              meta.bytes);
    views[num_inputs + i] = plan.output_views()[i];
    set_memory(*outputs[i].impl(), device.handle(), views[num_inputs + i]);
  }
  hx_kernel_context_s context{&attrs};
  before_kernel();
  const hx_kernel_args args = kernel_args(device, *placement.kernel, placement.instance.get(),
                                          &context, views, num_inputs, num_outputs,
                                          output_extents);
  hx_status* status;
  try {
    status = call_kernel(*placement.kernel, args);
  } catch (const Error& threw) {
    kernel_failed(nullptr, &threw, plan.op().name, device, placement, outputs, num_outputs);
  }
  if (status != nullptr) {
    kernel_failed(status, nullptr, plan.op().name, device, placement, outputs, num_outputs);
  }
}

}  // namespace hxrt::detail

#include "kernels/kernel_instance.hpp"

#include <hxplugin/kernel_call.hpp>
#include <hxplugin/status.hpp>
#include <hxrt/plugin_vocabulary.h>

#include "errors.hpp"
#include "queue.hpp"

namespace hxopencl {

KernelInstance::~KernelInstance() {
  if (kernel != nullptr) clReleaseKernel(kernel);
}

void destroy_instance(hx_kernel_instance* instance, void*) {
  delete reinterpret_cast<KernelInstance*>(instance);
}

hx_status* finish_instance(std::unique_ptr<KernelInstance> instance, const char* kernel_name,
                           hx_kernel_instance** out_instance) {
  if (hx_status* status = instance->device.ready()) return status;
  if (kernel_name != nullptr) {
    instance->kernel_name = kernel_name;
    if (hx_status* status = instance->device.program->create_kernel(
            instance->device.services(), kernel_name, &instance->kernel)) {
      return status;
    }
  }
  *out_instance = to_handle(instance.release());
  return nullptr;
}

hxplugin::KernelCreate create_call(const hx_kernel_create_args& args) {
  return hxplugin::KernelCreate(args, from_handle(args.device).services());
}

Operand operand(const hx_tensor_view& view) {
  return {from_handle(view.buffer), view.byte_offset / hx_dtype_size(view.dtype)};
}

cl_int Launch::set(cl_uint& index, const Operand& value) const {
  const cl_int error = clSetKernelArg(instance_.kernel, index++, sizeof value.buffer,
                                      &value.buffer);
  if (error != CL_SUCCESS) return error;
  return clSetKernelArg(instance_.kernel, index++, sizeof value.offset, &value.offset);
}

cl_int Launch::enqueue(cl_uint dimensions, const size_t* global, const size_t* local) const {
  Completion completion(stream_);
  return clEnqueueNDRangeKernel(queue_for(instance_.device, stream_), instance_.kernel,
                                dimensions, nullptr, global, local, 0, nullptr,
                                completion.event());
}

hx_status* Launch::finish(cl_int error) const {
  if (hx_status* status =
          cl_status_about(instance_.device.services(), error, "launching", "kernel %s on %s",
                          instance_.kernel_name, instance_.device.facts.name.c_str())) {
    return status;
  }
  return complete_if_synchronous(instance_.device, stream_, "clEnqueueNDRangeKernel");
}

hx_status* copy_tensor(const OpenClDevice& device, hx_stream* stream, const hx_tensor_view& from,
                       const hx_tensor_view& to, size_t size) {
  if (size == 0) return nullptr;
  Completion completion(stream);
  const cl_int error =
      clEnqueueCopyBuffer(queue_for(device, stream), from_handle(from.buffer),
                          from_handle(to.buffer), from.byte_offset, to.byte_offset, size, 0,
                          nullptr, completion.event());
  if (hx_status* status = cl_status(device.services(), error, "clEnqueueCopyBuffer")) {
    return status;
  }
  return complete_if_synchronous(device, stream, "clEnqueueCopyBuffer");
}

size_t element_count(const hx_tensor_view& view) {
  return static_cast<size_t>(hxplugin::element_count(view));
}

}  // namespace hxopencl

// What every kernel of the plugin shares: the instance made once per (attributes, dtypes,
// device) holding its cl_kernel, reading attributes at creation, tensors as (cl_mem, element
// offset) arguments, and launching under the instance's lock.
#pragma once

#include <hxplugin/kernel_create.hpp>
#include <hxrt/plugin_api.h>

#include <CL/cl.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "device.hpp"
#include "memory.hpp"

namespace hxopencl {

struct KernelInstance {
  explicit KernelInstance(const OpenClDevice& device) : device(device) {}
  virtual ~KernelInstance();
  KernelInstance(const KernelInstance&) = delete;
  KernelInstance& operator=(const KernelInstance&) = delete;

  const OpenClDevice& device;
  cl_kernel kernel = nullptr;  // NULL for kernels that only enqueue fills or copies
  const char* kernel_name = "";  // program.cl's name of `kernel`, for messages
  // A cl_kernel's arguments are state shared by every call, and one instance serves calls
  // from several threads: setting them and the enqueue that captures them are one step.
  mutable std::mutex launch_mutex;
};

inline hx_kernel_instance* to_handle(KernelInstance* instance) {
  return reinterpret_cast<hx_kernel_instance*>(instance);
}
template <class Instance>
const Instance& instance_of(const hx_kernel_args& args) {
  return *static_cast<const Instance*>(reinterpret_cast<const KernelInstance*>(args.instance));
}

// The hx_kernel_destroy_fn of every kernel with instances.
void destroy_instance(hx_kernel_instance* instance, void* user_data);

// Hands `instance` to the core after giving it the program's kernel `kernel_name` (none when
// NULL); a failure (the program does not build) comes back as a status.
hx_status* finish_instance(std::unique_ptr<KernelInstance> instance, const char* kernel_name,
                           hx_kernel_instance** out_instance);

// The support library's reader of attributes at create, with the device's core services.
hxplugin::KernelCreate create_call(const hx_kernel_create_args& args);

// A tensor as kernels of program.cl take it: its buffer and where it starts, in elements.
struct Operand {
  cl_mem buffer;
  cl_ulong offset;
};
Operand operand(const hx_tensor_view& view);

// Sets the arguments of `instance.kernel` in order (an Operand is two), enqueues it over
// `global` items in work-groups of `local` (NULL: the driver chooses), and with no stream waits
// for it.
class Launch {
 public:
  Launch(const KernelInstance& instance, hx_stream* stream) : instance_(instance), stream_(stream) {}

  template <class... Args>
  hx_status* run(cl_uint dimensions, const size_t* global, const size_t* local,
                 const Args&... args) const {
    cl_int error = CL_SUCCESS;
    {
      const std::lock_guard<std::mutex> lock(instance_.launch_mutex);
      cl_uint index = 0;
      ((error = error != CL_SUCCESS ? error : set(index, args)), ...);
      if (error == CL_SUCCESS) error = enqueue(dimensions, global, local);
    }
    return finish(error);
  }

 private:
  cl_int set(cl_uint& index, const Operand& value) const;
  template <class T>
  cl_int set(cl_uint& index, const T& value) const {
    return clSetKernelArg(instance_.kernel, index++, sizeof value, &value);
  }
  cl_int enqueue(cl_uint dimensions, const size_t* global, const size_t* local) const;
  hx_status* finish(cl_int error) const;

  const KernelInstance& instance_;
  hx_stream* stream_;
};

// Copies `size` bytes between two tensors of one device (Identity, Cast to float32, AddN's
// first input).
hx_status* copy_tensor(const OpenClDevice& device, hx_stream* stream, const hx_tensor_view& from,
                       const hx_tensor_view& to, size_t size);

// The elements of an output view (the core's views are well-formed: no overflow).
size_t element_count(const hx_tensor_view& view);

}  // namespace hxopencl

// The device plumbing of the kernel and thread checks: memory that frees itself, a stream per
// caller, and one kernel call made the way the core makes it (allocator memory, dense
// row-major views, hx_kernel_args as the header describes them).
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>
#include <string>
#include <vector>

#include "kit_core.hpp"
#include "plugin_session.hpp"
#include "reference/host_tensor.hpp"

namespace hxrt_conformance {

// The alignment the kit asks for, the least the core ever asks for.
constexpr size_t kKernelAlignment = 64;

// One allocation of a device, deallocated when it goes out of scope.
class DeviceAllocation {
 public:
  DeviceAllocation(const hx_plugin_api& api, hx_device* device, size_t size);
  ~DeviceAllocation();
  DeviceAllocation(DeviceAllocation&& other) noexcept;
  DeviceAllocation(const DeviceAllocation&) = delete;
  DeviceAllocation& operator=(const DeviceAllocation&) = delete;
  DeviceAllocation& operator=(DeviceAllocation&&) = delete;

  // "" when allocate succeeded, else "allocate(60 bytes, alignment 64) failed: ...".
  const std::string& failure() const { return failure_; }
  void* ptr() const { return ptr_; }
  size_t size() const { return size_; }

 private:
  const hx_plugin_api* api_;
  hx_device* device_;
  size_t size_;
  void* ptr_ = nullptr;
  std::string failure_;
};

// A stream of one device when the plugin has streams (else none: get() is NULL), destroyed
// with this object.
class DeviceStream {
 public:
  DeviceStream(const PluginSession& session, hx_device* device);
  ~DeviceStream();
  DeviceStream(const DeviceStream&) = delete;
  DeviceStream& operator=(const DeviceStream&) = delete;

  hx_stream* get() const { return stream_; }
  // "" unless stream_create failed, in which case the calls go without a stream.
  const std::string& failure() const { return failure_; }

 private:
  const hx_plugin_api* api_;
  hx_device* device_;
  hx_stream* stream_ = nullptr;
  std::string failure_;
};

// What one kernel call came to.
struct KernelRun {
  // Not empty when a call around the kernel failed (allocate, a copy, stream_synchronize):
  // the kernel's result is then unknown.
  std::string setup_failure;
  Outcome status;                    // what compute returned
  std::vector<TensorBytes> outputs;  // read back, when the call and its setup succeeded

  bool ok() const { return setup_failure.empty() && status.ok(); }
};

// Runs kernels on one device, on `stream` (may be NULL).
class KernelRunner {
 public:
  KernelRunner(const hx_plugin_api& api, hx_device* device, hx_stream* stream)
      : api_(&api), device_(device), stream_(stream) {}

  // Copies `inputs` to the device, allocates `outputs` (filled with 0xFF bytes, so that an
  // element the kernel never writes shows as NaN or -1 rather than as a lucky 0), calls
  // kernel.compute with `attrs`, synchronizes the stream and reads the outputs back.
  KernelRun run(const RegisteredKernel& kernel, const std::vector<TensorBytes>& inputs,
                const std::vector<TensorSpec>& outputs, const KernelAttrs& attrs) const;

 private:
  const hx_plugin_api* api_;
  hx_device* device_;
  hx_stream* stream_;
};

// "copy_host_to_device of 60 bytes failed: INVALID_ARGUMENT: ...".
std::string call_failure(const std::string& call, size_t size, const Outcome& outcome);

}  // namespace hxrt_conformance

// One kernel call made the way the core makes it (allocator memory, dense row-major views,
// hx_kernel_args as the header describes them), for the kernel and thread checks.
#pragma once

#include <hxrt/plugin_api.h>

#include <string>
#include <vector>

#include "device_under_test.hpp"
#include "kit_core.hpp"
#include "reference/host_tensor.hpp"

namespace hxrt_conformance {

// What one kernel call came to.
struct KernelRun {
  // Not empty when a call around the kernel failed (allocate, a copy, stream_synchronize):
  // the kernel's result is then unknown.
  std::string setup_failure;
  Outcome status;                    // what compute returned
  std::vector<TensorBytes> outputs;  // read back, when the call and its setup succeeded
};

// Runs kernels on one device, on `stream` (may be NULL).
class KernelRunner {
 public:
  KernelRunner(const DeviceUnderTest& device, hx_stream* stream)
      : device_(device), stream_(stream) {}

  // Copies `inputs` to the device, allocates `outputs` (filled with 0xFF bytes, so that an
  // element the kernel never writes shows as NaN or -1 rather than as a lucky 0), calls
  // kernel.compute with `attrs`, synchronizes the stream and reads the outputs back.
  KernelRun run(const RegisteredKernel& kernel, const std::vector<TensorBytes>& inputs,
                const std::vector<TensorSpec>& outputs, const KernelAttrs& attrs) const;

 private:
  DeviceUnderTest device_;
  hx_stream* stream_;
};

}  // namespace hxrt_conformance

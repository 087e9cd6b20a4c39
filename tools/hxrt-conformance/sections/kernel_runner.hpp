// One kernel call made the way the core makes it: an instance from the kernel's create for the
// call's attributes, dtypes and device; the kernel's check on the call's shapes; the tensors in
// one buffer at non-zero offsets that are multiples of the device's alignment, as a caching
// allocator places them; inputs of the ops that broadcast handed over broadcast to the output's
// shape with stride 0; hx_kernel_args as the header describes them.
#pragma once

#include <hxrt/plugin_api.h>

#include <memory>
#include <string>
#include <vector>

#include "device_under_test.hpp"
#include "kit_core.hpp"
#include "reference/host_tensor.hpp"

namespace hxrt_conformance {

// What a kernel's create made of one combination of attributes, dtypes and device; destroyed
// (with the kernel's destroy) when it goes out of scope. For a kernel without create, nothing.
// Work that used the instance must be over by then.
class KernelInstance {
 public:
  KernelInstance(const RegisteredKernel& kernel, const DeviceUnderTest& device,
                 const KernelAttrs& attrs, const std::vector<hx_dtype>& input_dtypes,
                 const std::vector<hx_dtype>& output_dtypes);
  ~KernelInstance();
  KernelInstance(const KernelInstance&) = delete;
  KernelInstance& operator=(const KernelInstance&) = delete;

  // What create returned (OK without a create). UNIMPLEMENTED: it declined the combination.
  const Outcome& outcome() const { return outcome_; }
  hx_kernel_instance* get() const { return instance_; }

 private:
  const RegisteredKernel& kernel_;
  hx_kernel_instance* instance_ = nullptr;
  Outcome outcome_;
};

// What one kernel call came to.
struct KernelRun {
  // Not empty when a call around the kernel failed (allocate, a copy, stream_synchronize):
  // the kernel's result is then unknown.
  std::string setup_failure;
  // Not empty when create or check broke the rules on declining ("UNIMPLEMENTED with an
  // empty message", "compute returned UNIMPLEMENTED for a call create and check accepted").
  std::string contract_failure;
  // Not empty when create or check declined the call: their reason.
  std::string declined;
  Outcome status;                    // what create, check or compute returned
  std::string failed_step;           // "create", "check" or "compute", when status is an error
  std::vector<TensorBytes> outputs;  // read back, when the call and its setup succeeded
};

// Runs kernels on one device, on `stream` (may be NULL).
class KernelRunner {
 public:
  KernelRunner(const DeviceUnderTest& device, hx_stream* stream)
      : device_(device), stream_(stream) {}

  // Makes the kernel's instance for this call (or uses `shared`, made for the same
  // combination), asks its check, copies `inputs` to the device, allocates `outputs` (filled
  // with 0xFF bytes, so that an element the kernel never writes shows as NaN or -1 rather than
  // as a lucky 0), calls kernel.compute with `attrs`, synchronizes the stream and reads the
  // outputs back. `inputs_constant` (for a kernel with forget_constants): every input comes
  // with an id as a graph constant's does (hx_kernel_args.input_constants), compute runs twice
  // with the same ids (the outputs filled anew between), the second call's outputs are read,
  // and the ids are forgotten.
  KernelRun run(const RegisteredKernel& kernel, const std::vector<TensorBytes>& inputs,
                const std::vector<TensorSpec>& outputs, const KernelAttrs& attrs,
                const KernelInstance* shared = nullptr, bool inputs_constant = false) const;

  const DeviceUnderTest& device() const { return device_; }

 private:
  DeviceUnderTest device_;
  hx_stream* stream_;
};

// The dtypes of `tensors`, for a KernelInstance.
std::vector<hx_dtype> dtypes_of(const std::vector<TensorSpec>& tensors);

}  // namespace hxrt_conformance

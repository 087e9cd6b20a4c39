// One GPU kernel invocation: the shared accessor (hxplugin::KernelCall: tensors and the
// instance) plus where the call runs (KernelEnv: device and stream) and the checks every GPU
// kernel makes.
#pragma once

#include <hxrt/plugin_api.h>
#include <hxplugin/kernel_call.hpp>

#include <cuda_runtime_api.h>

#include <cstdint>

#include "kernel_env.hpp"

namespace hxcuda::kernels {

using hxplugin::element_count;

// The op a kernel was registered for ("Exp"), for the messages of kernels that serve several
// ops: every kernel's user data (hx_kernel_args and hx_kernel_create_args) is its KernelSite.
inline const char* op_name(const void* user_data) {
  return static_cast<const KernelSite*>(user_data)->op;
}

class GpuKernelCall : public hxplugin::KernelCall {
 public:
  GpuKernelCall(const hx_kernel_args& args, const KernelEnv& env)
      : hxplugin::KernelCall(args, *env.services), env_(env) {}

  const KernelEnv& env() const { return env_; }
  cudaStream_t stream() const { return env_.stream; }
  const char* op() const { return op_name(args().user_data); }

  // INVALID_ARGUMENT unless every input and output has `count` elements and `dtype` (the
  // core's shape inference guarantees both; checking costs nothing and keeps a core bug from
  // becoming an out-of-bounds access on the device).
  hx_status* expect_elements(const char* op, int64_t count, int32_t dtype) const;
  // NULL for cudaSuccess, else the plugin's status for a failed CUDA call named `what`.
  hx_status* cuda_status(cudaError_t error, const char* what) const {
    return cuda_error(*env_.services, error, what);
  }

 private:
  const KernelEnv& env_;
};

}  // namespace hxcuda::kernels

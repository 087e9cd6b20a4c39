// The GPU kernels, one function per op; each checks its operands, dispatches on the dtype and
// enqueues its work on the call's stream. The registry (kernel_registry.cpp) resolves the
// call's device and stream and catches exceptions before calling them.
#pragma once

#include <hxrt/plugin_api.h>

#include "kernels/gpu_kernel_call.hpp"

namespace hxcuda::kernels {

using GpuKernel = hx_status* (*)(const GpuKernelCall& call);

hx_status* matmul_kernel(const GpuKernelCall& call);
hx_status* add_kernel(const GpuKernelCall& call);
hx_status* sub_kernel(const GpuKernelCall& call);
hx_status* mul_kernel(const GpuKernelCall& call);
hx_status* div_kernel(const GpuKernelCall& call);
hx_status* relu_kernel(const GpuKernelCall& call);
hx_status* addn_kernel(const GpuKernelCall& call);
hx_status* fill_kernel(const GpuKernelCall& call);
hx_status* sum_kernel(const GpuKernelCall& call);
hx_status* identity_kernel(const GpuKernelCall& call);
hx_status* cast_kernel(const GpuKernelCall& call);

}  // namespace hxcuda::kernels

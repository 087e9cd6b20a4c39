// The GPU kernels, one function per op; each checks its operands and enqueues its work on the
// call's stream. The registry (kernel_registry.cpp) resolves the call's device and stream and
// catches exceptions before calling them.
//
// The kernels of ops with attributes (MatMul, Sum, Fill, Cast) are made once per combination
// of attributes and dtypes: their create function reads the attributes and checks the dtypes
// into a state the core keeps as the instance, and compute receives that state, so no call
// looks an attribute up by name. A combination the GPU cannot run is declined there
// (UNIMPLEMENTED, with the reason), and the op falls back to another device.
#pragma once

#include <hxrt/plugin_api.h>
#include <hxplugin/kernel_call.hpp>
#include <hxplugin/kernel_create.hpp>

#include <cstddef>
#include <cstdint>

#include "kernels/gpu_kernel_call.hpp"

namespace hxcuda::kernels {

using GpuKernel = hx_status* (*)(const GpuKernelCall& call);

hx_status* add_kernel(const GpuKernelCall& call);
hx_status* sub_kernel(const GpuKernelCall& call);
hx_status* mul_kernel(const GpuKernelCall& call);
hx_status* div_kernel(const GpuKernelCall& call);
hx_status* relu_kernel(const GpuKernelCall& call);
hx_status* addn_kernel(const GpuKernelCall& call);
hx_status* identity_kernel(const GpuKernelCall& call);

// MatMul through cuBLAS: the operations, data and compute types of cublasGemmEx, chosen once.
struct MatMulState {
  const CublasLibrary* cublas = nullptr;
  bool transpose_a = false;
  bool transpose_b = false;
  cudaDataType_t data_type = CUDA_R_32F;
  cublasComputeType_t compute_type = CUBLAS_COMPUTE_32F;
};
hx_status* matmul_create(const hxplugin::KernelCreate& create, MatMulState* out);
// Declines a call whose extents exceed cuBLAS's 32-bit dimensions.
hx_status* matmul_check(const hxplugin::KernelCall& call);
hx_status* matmul_kernel(const GpuKernelCall& call, const MatMulState& state);

// Sum: the `axes` attribute as given (absent: every axis); they are resolved against each
// call's rank.
struct SumState {
  bool axes_given = false;
  size_t axis_count = 0;
  int64_t axes[HX_MAX_RANK] = {};
};
hx_status* sum_create(const hxplugin::KernelCreate& create, SumState* out);
hx_status* sum_kernel(const GpuKernelCall& call, const SumState& state);

// Fill: the required `value`.
struct FillState {
  double value = 0;
};
hx_status* fill_create(const hxplugin::KernelCreate& create, FillState* out);
hx_status* fill_kernel(const GpuKernelCall& call, const FillState& state);

// Cast: the two float types it converts between.
struct CastState {
  int32_t from = HX_DTYPE_INVALID;
  int32_t to = HX_DTYPE_INVALID;
};
hx_status* cast_create(const hxplugin::KernelCreate& create, CastState* out);
hx_status* cast_kernel(const GpuKernelCall& call, const CastState& state);

}  // namespace hxcuda::kernels

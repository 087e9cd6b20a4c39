// The GPU kernels, one function per op; each checks its operands and enqueues its work on the
// call's stream. The registry (kernel_registry.cpp) resolves the call's device and stream and
// catches exceptions before calling them.
//
// The kernels of ops with attributes (MatMul, the unary ops, Softmax, the reductions, Fill,
// Cast, Transpose, Slice, Concat, Gather) are made once per combination of attributes and
// dtypes: their create function reads the attributes and checks the dtypes into a state the
// core keeps as the instance, and compute receives that state, so no call looks an attribute
// up by name. A combination the GPU cannot run is declined there
// (UNIMPLEMENTED, with the reason), and the op falls back to another device.
#pragma once

#include <hxrt/plugin_api.h>
#include <hxplugin/kernel_call.hpp>
#include <hxplugin/kernel_create.hpp>

#include <cstddef>
#include <cstdint>

#include "kernels/gpu_kernel_call.hpp"
#include "kernels/launchers.hpp"

namespace hxcuda::kernels {

using GpuKernel = hx_status* (*)(const GpuKernelCall& call);

hx_status* add_kernel(const GpuKernelCall& call);
hx_status* sub_kernel(const GpuKernelCall& call);
hx_status* mul_kernel(const GpuKernelCall& call);
hx_status* div_kernel(const GpuKernelCall& call);
hx_status* pow_kernel(const GpuKernelCall& call);
hx_status* min_kernel(const GpuKernelCall& call);
hx_status* max_kernel(const GpuKernelCall& call);
hx_status* equal_kernel(const GpuKernelCall& call);
hx_status* less_kernel(const GpuKernelCall& call);
hx_status* greater_kernel(const GpuKernelCall& call);
hx_status* less_or_equal_kernel(const GpuKernelCall& call);
hx_status* greater_or_equal_kernel(const GpuKernelCall& call);
// Declines Min and Max of other than two inputs (ONNX's are variadic).
hx_status* two_inputs_check(const hxplugin::KernelCall& call);
// Declines a Pow whose exponent's dtype is not the base's.
hx_status* same_dtypes_check(const hxplugin::KernelCall& call);
hx_status* relu_kernel(const GpuKernelCall& call);
hx_status* addn_kernel(const GpuKernelCall& call);
// Identity, Reshape, Flatten, Squeeze and Unsqueeze: a copy of the bytes.
hx_status* copy_kernel(const GpuKernelCall& call);
// Expand: its input arrives broadcast, so it has no attribute to read.
hx_status* expand_kernel(const GpuKernelCall& call);

// A unary element-wise op: which one (Gelu's `approximate` may make it kGeluTanh) and its
// attributes, alpha and beta.
struct UnaryState {
  UnaryOp op = UnaryOp::kExp;
  float alpha = 0;
  float beta = 0;
};
hx_status* unary_create(const hxplugin::KernelCreate& create, UnaryOp op, UnaryState* out);
hx_status* unary_kernel(const GpuKernelCall& call, const UnaryState& state);

// Softmax, or LogSoftmax when `log`: the `axis` attribute as given, resolved against each
// call's rank.
struct SoftmaxState {
  bool log = false;
  int64_t axis = -1;
};
hx_status* softmax_create(const hxplugin::KernelCreate& create, bool log, SoftmaxState* out);
hx_status* softmax_kernel(const GpuKernelCall& call, const SoftmaxState& state);

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

// A reduction: every axis, or the `axes` listed (resolved against each call's rank).
struct ReduceState {
  Reduction reduction = Reduction::kSum;
  bool every_axis = false;
  size_t axis_count = 0;
  int64_t axes[HX_MAX_RANK] = {};
};
// hxrt's Sum: `axes` absent reduces every axis, [] none.
hx_status* sum_create(const hxplugin::KernelCreate& create, ReduceState* out);
// ONNX's ReduceSum ... ReduceL2: `axes` absent or [] reduces every axis, or none with
// `noop_with_empty_axes`.
hx_status* onnx_reduce_create(const hxplugin::KernelCreate& create, Reduction reduction,
                              ReduceState* out);
hx_status* reduce_kernel(const GpuKernelCall& call, const ReduceState& state);

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

// Transpose: `perm` as given (absent: the axes reversed).
struct TransposeState {
  bool perm_given = false;
  size_t rank = 0;
  int64_t perm[HX_MAX_RANK] = {};
};
hx_status* transpose_create(const hxplugin::KernelCreate& create, TransposeState* out);
hx_status* transpose_kernel(const GpuKernelCall& call, const TransposeState& state);

// Slice: for each of `count` sliced axes its start, axis and step as given (axes absent: 0, 1,
// ...; steps absent: 1).
struct SliceState {
  size_t count = 0;
  int64_t starts[HX_MAX_RANK] = {};
  int64_t axes[HX_MAX_RANK] = {};
  int64_t steps[HX_MAX_RANK] = {};
};
hx_status* slice_create(const hxplugin::KernelCreate& create, SliceState* out);
hx_status* slice_kernel(const GpuKernelCall& call, const SliceState& state);

// Concat and Gather: the `axis` attribute as given, resolved against each call's rank.
struct AxisState {
  int64_t axis = 0;
};
hx_status* concat_create(const hxplugin::KernelCreate& create, AxisState* out);
hx_status* concat_kernel(const GpuKernelCall& call, const AxisState& state);
// Declines data whose elements are not 2, 4 or 8 bytes, and indices not int32 or int64.
hx_status* gather_create(const hxplugin::KernelCreate& create, AxisState* out);
hx_status* gather_kernel(const GpuKernelCall& call, const AxisState& state);

}  // namespace hxcuda::kernels

// The GPU kernels, one function per op; each checks its operands and enqueues its work on the
// call's stream. The registry (kernel_registry.cpp) resolves the call's device and stream and
// catches exceptions before calling them.
//
// The kernels of ops with attributes (MatMul, the unary ops, Softmax, the reductions, Fill,
// Cast, Transpose, Slice, Concat, Gather, and the kernels on cuDNN and cuBLASLt) are made once
// per combination of attributes and dtypes: their create function reads the attributes and
// checks the dtypes into a state the core keeps as the instance, and compute receives that
// state, so no call looks an attribute up by name. A combination the GPU cannot run is
// declined there (UNIMPLEMENTED, with the reason), and the op falls back to another device.
// The kernels on cuDNN and cuBLASLt also keep a plan per combination of shapes in their
// instance (plan_cache.hpp).
#pragma once

#include <hxrt/plugin_api.h>
#include <hxplugin/kernel_call.hpp>
#include <hxplugin/kernel_create.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/fused_activation.hpp"
#include "kernels/gpu_kernel_call.hpp"
#include "kernels/launchers.hpp"
#include "kernels/onnx_window.hpp"
#include "kernels/plan_cache.hpp"

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

// Conv and FusedConv on cuDNN (conv.cpp): the attributes, and a plan per shape.
struct ConvPlan;
struct ConvState {
  const CudnnLibrary* cudnn = nullptr;
  int32_t dtype = HX_DTYPE_INVALID;
  int64_t group = 1;
  OnnxWindow window;
  FusedActivation activation;  // FusedConv's; none for Conv
  mutable PlanCache<ConvPlan> plans{kPlansPerInstance};
};
hx_status* conv_create(const hxplugin::KernelCreate& create, ConvState* out);
hx_status* fused_conv_create(const hxplugin::KernelCreate& create, ConvState* out);
// Declines what cuDNN cannot compute: other than 1 to 3 spatial axes, pads it cannot give
// (onnx_window.hpp), sizes beyond its 32-bit ints.
hx_status* conv_check(const hxplugin::KernelCall& call);
hx_status* conv_kernel(const GpuKernelCall& call, const ConvState& state);

// MaxPool, AveragePool, GlobalMaxPool and GlobalAveragePool on cuDNN (pool.cpp).
enum class PoolKind { kMax, kAverage, kGlobalMax, kGlobalAverage };
struct PoolPlan;
struct PoolState {
  const CudnnLibrary* cudnn = nullptr;
  PoolKind kind = PoolKind::kMax;
  std::vector<int64_t> kernel_shape;  // empty for the global pools: the input's extents
  OnnxWindow window;
  bool count_include_pad = false;
  mutable PlanCache<PoolPlan> plans{kPlansPerInstance};
};
// Declines MaxPool's Indices and dilations other than 1, which cuDNN's pooling has not.
hx_status* pool_create(const hxplugin::KernelCreate& create, PoolKind kind, PoolState* out);
// Declines what cuDNN cannot compute, as conv_check, and an AveragePool with
// count_include_pad whose last window reaches past the padding (ceil_mode).
hx_status* pool_check(const hxplugin::KernelCall& call);
hx_status* pool_kernel(const GpuKernelCall& call, const PoolState& state);

// BatchNormalization in inference mode on cuDNN (batch_norm.cpp).
struct BatchNormPlan;
struct BatchNormState {
  const CudnnLibrary* cudnn = nullptr;
  double epsilon = 1e-5;
  mutable PlanCache<BatchNormPlan> plans{kPlansPerInstance};
};
// Declines training mode.
hx_status* batch_norm_create(const hxplugin::KernelCreate& create, BatchNormState* out);
// Declines more channels than the f32 statistics of f16 and bf16 fit in the workspace, and
// sizes beyond cuDNN's 32-bit ints.
hx_status* batch_norm_check(const hxplugin::KernelCall& call);
hx_status* batch_norm_kernel(const GpuKernelCall& call, const BatchNormState& state);

// FusedGemm on cuBLASLt (fused_gemm.cpp): the product, C as a bias vector or a matrix, and
// the activation, in one matmul where cuBLASLt's epilogues can.
struct GemmPlan;
struct FusedGemmState {
  const CublasLtLibrary* cublaslt = nullptr;
  int32_t dtype = HX_DTYPE_INVALID;
  bool transpose_a = false;
  bool transpose_b = false;
  float alpha = 1.0f;
  float beta = 1.0f;
  FusedActivation activation;
  mutable PlanCache<GemmPlan> plans{kPlansPerInstance};
};
hx_status* fused_gemm_create(const hxplugin::KernelCreate& create, FusedGemmState* out);
// Declines a C other than a vector of the output's columns ([N] or [1, N], with beta 1) or a
// matrix of its shape.
hx_status* fused_gemm_check(const hxplugin::KernelCall& call);
hx_status* fused_gemm_kernel(const GpuKernelCall& call, const FusedGemmState& state);

}  // namespace hxcuda::kernels

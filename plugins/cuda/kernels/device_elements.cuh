// What every .cu file of the kernels shares: the C++ type of each float dtype, conversions that
// round once, dispatch from hx_dtype to a type, and the launch shape of grid-stride loops.
#pragma once

#include <hxrt/plugin_api.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

namespace hxcuda::kernels {

template <class T>
struct TypeTag {
  using type = T;
};

// Calls visit(TypeTag<T>{}) for f32, f16 and bf16 (the types the element-wise kernels compute),
// else returns cudaErrorNotSupported.
template <class Visit>
cudaError_t visit_elementwise_dtype(int32_t dtype, Visit&& visit) {
  switch (dtype) {
    case HX_DTYPE_F32: return visit(TypeTag<float>{});
    case HX_DTYPE_F16: return visit(TypeTag<__half>{});
    case HX_DTYPE_BF16: return visit(TypeTag<__nv_bfloat16>{});
    default: return cudaErrorNotSupported;
  }
}

// Like visit_elementwise_dtype, with f64 as well.
template <class Visit>
cudaError_t visit_float_dtype(int32_t dtype, Visit&& visit) {
  if (dtype == HX_DTYPE_F64) return visit(TypeTag<double>{});
  return visit_elementwise_dtype(dtype, visit);
}

// Widening is exact: f16 and bf16 to float, float and double to themselves.
__device__ __forceinline__ float widen(float x) { return x; }
__device__ __forceinline__ double widen(double x) { return x; }
__device__ __forceinline__ float widen(__half x) { return __half2float(x); }
__device__ __forceinline__ float widen(__nv_bfloat16 x) { return __bfloat162float(x); }

// Narrowing from float or double rounds once, to nearest even, overflowing to infinity
// (a double goes straight to f16 or bf16, never through float).
template <class To>
struct Narrow;
template <>
struct Narrow<float> {
  __device__ static float from(float x) { return x; }
  __device__ static float from(double x) { return static_cast<float>(x); }
};
template <>
struct Narrow<double> {
  __device__ static double from(float x) { return x; }
  __device__ static double from(double x) { return x; }
};
template <>
struct Narrow<__half> {
  __device__ static __half from(float x) { return __float2half_rn(x); }
  __device__ static __half from(double x) { return __double2half(x); }
};
template <>
struct Narrow<__nv_bfloat16> {
  __device__ static __nv_bfloat16 from(float x) { return __float2bfloat16_rn(x); }
  __device__ static __nv_bfloat16 from(double x) { return __double2bfloat16(x); }
};

template <class To, class Wide>
__device__ __forceinline__ To narrow(Wide x) {
  return Narrow<To>::from(x);
}

// Grid-stride loops: every kernel walks its elements as
//   for (i = first_index(); i < count; i += index_step())
// so any grid covers any count, and the grid can stay small enough for the launch limits.
inline constexpr int kThreadsPerBlock = 256;
inline constexpr int64_t kMaxBlocks = 65536;

inline unsigned blocks_for(int64_t count) {
  return static_cast<unsigned>(
      std::min<int64_t>((count + kThreadsPerBlock - 1) / kThreadsPerBlock, kMaxBlocks));
}

__device__ __forceinline__ int64_t first_index() {
  return static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ int64_t index_step() {
  return static_cast<int64_t>(gridDim.x) * blockDim.x;
}

}  // namespace hxcuda::kernels

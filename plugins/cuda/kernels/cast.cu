// Cast on the GPU between f32, f64, f16 and bf16: widen exactly, then round once to the target
// (a double becomes an f16 directly, never through float, so no double rounding).
#include "kernels/device_elements.cuh"
#include "kernels/launchers.hpp"

namespace hxcuda::kernels {
namespace {

template <class From, class To>
__global__ void cast_kernel(const From* __restrict__ in, To* __restrict__ out, int64_t count) {
  for (int64_t i = first_index(); i < count; i += index_step()) out[i] = narrow<To>(widen(in[i]));
}

}  // namespace

cudaError_t launch_cast(int32_t from, int32_t to, const void* in, void* out, int64_t count,
                        cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  return visit_float_dtype(from, [&](auto from_tag) {
    using From = typename decltype(from_tag)::type;
    return visit_float_dtype(to, [&](auto to_tag) {
      using To = typename decltype(to_tag)::type;
      cast_kernel<From, To><<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(
          static_cast<const From*>(in), static_cast<To*>(out), count);
      return cudaGetLastError();
    });
  });
}

}  // namespace hxcuda::kernels

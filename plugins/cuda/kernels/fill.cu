// Fill on the GPU: `value` is rounded to the output type on the device, once per thread, with
// the same round-to-nearest-even conversion Cast uses.
#include "kernels/device_elements.cuh"
#include "kernels/launchers.hpp"

namespace hxcuda::kernels {
namespace {

template <class T>
__global__ void fill_kernel(double value, T* __restrict__ out, int64_t count) {
  const T element = narrow<T>(value);
  for (int64_t i = first_index(); i < count; i += index_step()) out[i] = element;
}

}  // namespace

cudaError_t launch_fill(int32_t dtype, double value, void* out, int64_t count,
                        cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  return visit_float_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    fill_kernel<T>
        <<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(value, static_cast<T*>(out), count);
    return cudaGetLastError();
  });
}

}  // namespace hxcuda::kernels

// Softmax and LogSoftmax along one axis on the GPU, in two shapes: along the innermost axis (the
// common case: attention scores, logits) one warp per line, whose lanes read the line together;
// along another axis one thread per line, neighbouring threads reading neighbouring lines, so
// the reads coalesce either way. Each line: its maximum, the sum of exp(x - max), then the
// outputs, in float, rounded once.
#include <math_constants.h>

#include "kernels/device_elements.cuh"
#include "kernels/launchers.hpp"

namespace hxcuda::kernels {
namespace {

constexpr int kWarpSize = 32;
constexpr unsigned kFullWarp = 0xffffffffu;

// fmaxf ignores NaN here; a NaN in the line still makes its sum, and so every output, NaN.
__device__ float warp_max(float value) {
  for (int lanes = kWarpSize / 2; lanes > 0; lanes /= 2) {
    value = fmaxf(value, __shfl_xor_sync(kFullWarp, value, lanes));
  }
  return value;
}

__device__ float warp_sum(float value) {
  for (int lanes = kWarpSize / 2; lanes > 0; lanes /= 2) {
    value += __shfl_xor_sync(kFullWarp, value, lanes);
  }
  return value;
}

// `lines` lines of `extent` contiguous elements, a warp each. Every lane of a warp has the same
// line, so the loop's condition and the shuffles are uniform across the warp.
template <class T, bool kLog>
__global__ void softmax_warp_per_line(const T* __restrict__ in, T* __restrict__ out,
                                      int64_t lines, int64_t extent) {
  const int lane = static_cast<int>(threadIdx.x) % kWarpSize;
  const int64_t warps_per_block = blockDim.x / kWarpSize;
  const int64_t warp = static_cast<int64_t>(blockIdx.x) * warps_per_block + threadIdx.x / kWarpSize;
  for (int64_t line = warp; line < lines; line += gridDim.x * warps_per_block) {
    const T* x = in + line * extent;
    T* y = out + line * extent;
    float largest = -CUDART_INF_F;
    for (int64_t i = lane; i < extent; i += kWarpSize) largest = fmaxf(largest, widen(x[i]));
    largest = warp_max(largest);
    float sum = 0.0f;
    for (int64_t i = lane; i < extent; i += kWarpSize) sum += expf(widen(x[i]) - largest);
    sum = warp_sum(sum);
    if (kLog) {
      const float shift = largest + logf(sum);
      for (int64_t i = lane; i < extent; i += kWarpSize) y[i] = narrow<T>(widen(x[i]) - shift);
    } else {
      for (int64_t i = lane; i < extent; i += kWarpSize) {
        y[i] = narrow<T>(expf(widen(x[i]) - largest) / sum);
      }
    }
  }
}

// One thread per (outer, inner) position, walking its line at stride `inner`.
template <class T, bool kLog>
__global__ void softmax_thread_per_line(const T* __restrict__ in, T* __restrict__ out,
                                        int64_t lines, int64_t extent, int64_t inner) {
  for (int64_t line = first_index(); line < lines; line += index_step()) {
    const int64_t base = (line / inner) * extent * inner + line % inner;
    const T* x = in + base;
    T* y = out + base;
    float largest = -CUDART_INF_F;
    for (int64_t i = 0; i < extent; ++i) largest = fmaxf(largest, widen(x[i * inner]));
    float sum = 0.0f;
    for (int64_t i = 0; i < extent; ++i) sum += expf(widen(x[i * inner]) - largest);
    if (kLog) {
      const float shift = largest + logf(sum);
      for (int64_t i = 0; i < extent; ++i) y[i * inner] = narrow<T>(widen(x[i * inner]) - shift);
    } else {
      for (int64_t i = 0; i < extent; ++i) {
        y[i * inner] = narrow<T>(expf(widen(x[i * inner]) - largest) / sum);
      }
    }
  }
}

template <bool kLog>
cudaError_t launch_lines(int32_t dtype, const void* in, void* out, int64_t count,
                         int64_t extent, int64_t inner, cudaStream_t stream) {
  const int64_t lines = count / extent;
  return visit_elementwise_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* input = static_cast<const T*>(in);
    T* output = static_cast<T*>(out);
    if (inner == 1) {
      constexpr int64_t kLinesPerBlock = kThreadsPerBlock / kWarpSize;
      const auto blocks = static_cast<unsigned>(
          std::min((lines + kLinesPerBlock - 1) / kLinesPerBlock, kMaxBlocks));
      softmax_warp_per_line<T, kLog>
          <<<blocks, kThreadsPerBlock, 0, stream>>>(input, output, lines, extent);
    } else {
      softmax_thread_per_line<T, kLog>
          <<<blocks_for(lines), kThreadsPerBlock, 0, stream>>>(input, output, lines, extent, inner);
    }
    return cudaGetLastError();
  });
}

}  // namespace

cudaError_t launch_softmax(bool log, int32_t dtype, const void* in, void* out, int64_t count,
                           int64_t extent, int64_t inner, cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  if (extent <= 0 || inner <= 0) return cudaErrorInvalidValue;
  return log ? launch_lines<true>(dtype, in, out, count, extent, inner, stream)
             : launch_lines<false>(dtype, in, out, count, extent, inner, stream);
}

}  // namespace hxcuda::kernels

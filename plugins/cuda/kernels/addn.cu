// AddN on the GPU, one chunk of inputs per launch (see launch_addn_chunk).
#include "kernels/device_elements.cuh"
#include "kernels/launchers.hpp"

namespace hxcuda::kernels {
namespace {

template <class T>
struct AddNChunk {
  const T* inputs[kMaxAddNChunk];
  int count;
  bool add_to_out;
};

template <class T>
__global__ void addn_kernel(AddNChunk<T> chunk, T* __restrict__ out, int64_t count) {
  for (int64_t i = first_index(); i < count; i += index_step()) {
    // Left to right, as the CPU adds, so that f32 sums agree to the last bit.
    float sum = chunk.add_to_out ? widen(out[i]) : widen(chunk.inputs[0][i]);
    for (int input = chunk.add_to_out ? 0 : 1; input < chunk.count; ++input) {
      sum += widen(chunk.inputs[input][i]);
    }
    out[i] = narrow<T>(sum);
  }
}

}  // namespace

cudaError_t launch_addn_chunk(int32_t dtype, const void* const* inputs, size_t num_inputs,
                              bool add_to_out, void* out, int64_t count, cudaStream_t stream) {
  if (count == 0 || num_inputs == 0) return cudaSuccess;
  if (num_inputs > kMaxAddNChunk) return cudaErrorInvalidValue;
  return visit_elementwise_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    AddNChunk<T> chunk{};
    chunk.count = static_cast<int>(num_inputs);
    chunk.add_to_out = add_to_out;
    for (size_t i = 0; i < num_inputs; ++i) chunk.inputs[i] = static_cast<const T*>(inputs[i]);
    addn_kernel<T>
        <<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(chunk, static_cast<T*>(out), count);
    return cudaGetLastError();
  });
}

}  // namespace hxcuda::kernels

// Sum on the GPU, in two shapes chosen by how many addends each output element has: short
// reductions take one thread per output element, long ones one block per output element with
// a block-wide tree (CUB). Both accumulate in double and round once.
#include <cub/block/block_reduce.cuh>

#include "kernels/device_elements.cuh"
#include "kernels/launchers.hpp"

namespace hxcuda::kernels {
namespace {

// From this many addends per output element on, a block shares each element's work.
constexpr int64_t kBlockReductionFrom = 256;

// The input offset of the `index`-th point of a grid of `groups` extents (last fastest) whose
// coordinates step through the input by `stride`.
__device__ int64_t input_offset(int64_t index, int groups, const int64_t* extent,
                                const int64_t* stride) {
  int64_t offset = 0;
  for (int group = groups - 1; group >= 0; --group) {
    offset += (index % extent[group]) * stride[group];
    index /= extent[group];
  }
  return offset;
}

template <class T>
__global__ void sum_per_thread(SumPlan plan, const T* __restrict__ in, T* __restrict__ out) {
  for (int64_t o = first_index(); o < plan.out_count; o += index_step()) {
    const T* base = in + input_offset(o, plan.kept_groups, plan.kept_extent, plan.kept_stride);
    double sum = 0;
    for (int64_t r = 0; r < plan.reduced_count; ++r) {
      sum += widen(
          base[input_offset(r, plan.reduced_groups, plan.reduced_extent, plan.reduced_stride)]);
    }
    out[o] = narrow<T>(sum);
  }
}

template <class T>
__global__ void sum_per_block(SumPlan plan, const T* __restrict__ in, T* __restrict__ out) {
  using BlockReduce = cub::BlockReduce<double, kThreadsPerBlock>;
  __shared__ typename BlockReduce::TempStorage scratch;
  for (int64_t o = blockIdx.x; o < plan.out_count; o += gridDim.x) {
    const T* base = in + input_offset(o, plan.kept_groups, plan.kept_extent, plan.kept_stride);
    double partial = 0;
    for (int64_t r = threadIdx.x; r < plan.reduced_count; r += blockDim.x) {
      partial += widen(
          base[input_offset(r, plan.reduced_groups, plan.reduced_extent, plan.reduced_stride)]);
    }
    const double sum = BlockReduce(scratch).Sum(partial);
    if (threadIdx.x == 0) out[o] = narrow<T>(sum);
    __syncthreads();  // the next element's reduction reuses `scratch`
  }
}

}  // namespace

cudaError_t launch_sum(int32_t dtype, const SumPlan& plan, const void* in, void* out,
                       cudaStream_t stream) {
  if (plan.out_count == 0) return cudaSuccess;
  return visit_elementwise_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* input = static_cast<const T*>(in);
    T* output = static_cast<T*>(out);
    if (plan.reduced_count >= kBlockReductionFrom) {
      const auto blocks = static_cast<unsigned>(std::min(plan.out_count, kMaxBlocks));
      sum_per_block<T><<<blocks, kThreadsPerBlock, 0, stream>>>(plan, input, output);
    } else {
      sum_per_thread<T>
          <<<blocks_for(plan.out_count), kThreadsPerBlock, 0, stream>>>(plan, input, output);
    }
    return cudaGetLastError();
  });
}

}  // namespace hxcuda::kernels

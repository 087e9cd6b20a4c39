// The reductions (Sum, and ONNX's ReduceSum, ReduceMean, ReduceMax, ReduceMin and ReduceL2) on
// the GPU, in two shapes chosen by how many terms each output element has: short reductions
// take one thread per output element, long ones one block per output element with a
// block-wide tree (CUB). Both accumulate in double and round once.
#include <cub/block/block_reduce.cuh>
#include <math_constants.h>

#include "kernels/device_elements.cuh"
#include "kernels/launchers.hpp"

namespace hxcuda::kernels {
namespace {

// From this many terms per output element on, a block shares each element's work.
constexpr int64_t kBlockReductionFrom = 256;

// Each reduction: its value over no terms (start), a term added to a partial result
// (accumulate), two partial results joined (combine, for the block-wide tree), and the output
// made from the result over `count` terms (finish).
struct SumOp {
  __device__ static double start() { return 0; }
  __device__ static double accumulate(double partial, double x) { return partial + x; }
  __device__ static double combine(double a, double b) { return a + b; }
  __device__ static double finish(double total, int64_t) { return total; }
};
// 0 / 0 is NaN: the mean of no terms.
struct MeanOp : SumOp {
  __device__ static double finish(double total, int64_t count) {
    return total / static_cast<double>(count);
  }
};
// `x > partial` is false for NaN: the isnan test lets a NaN term in, after which no comparison
// replaces it.
struct MaxOp {
  __device__ static double start() { return -CUDART_INF; }
  __device__ static double accumulate(double partial, double x) {
    return isnan(x) || x > partial ? x : partial;
  }
  __device__ static double combine(double a, double b) { return accumulate(a, b); }
  __device__ static double finish(double result, int64_t) { return result; }
};
struct MinOp {
  __device__ static double start() { return CUDART_INF; }
  __device__ static double accumulate(double partial, double x) {
    return isnan(x) || x < partial ? x : partial;
  }
  __device__ static double combine(double a, double b) { return accumulate(a, b); }
  __device__ static double finish(double result, int64_t) { return result; }
};
struct L2Op : SumOp {
  __device__ static double accumulate(double partial, double x) { return partial + x * x; }
  __device__ static double finish(double total, int64_t) { return sqrt(total); }
};

template <class Visit>
cudaError_t visit_reduction(Reduction reduction, Visit&& visit) {
  switch (reduction) {
    case Reduction::kSum: return visit(SumOp{});
    case Reduction::kMean: return visit(MeanOp{});
    case Reduction::kMax: return visit(MaxOp{});
    case Reduction::kMin: return visit(MinOp{});
    case Reduction::kL2: return visit(L2Op{});
  }
  return cudaErrorNotSupported;
}

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

template <class Op, class T>
__global__ void reduce_per_thread(ReducePlan plan, const T* __restrict__ in, T* __restrict__ out) {
  for (int64_t o = first_index(); o < plan.out_count; o += index_step()) {
    const T* base = in + input_offset(o, plan.kept_groups, plan.kept_extent, plan.kept_stride);
    double result = Op::start();
    for (int64_t r = 0; r < plan.reduced_count; ++r) {
      result = Op::accumulate(
          result, widen(base[input_offset(r, plan.reduced_groups, plan.reduced_extent,
                                          plan.reduced_stride)]));
    }
    out[o] = narrow<T>(Op::finish(result, plan.reduced_count));
  }
}

template <class Op>
struct Combine {
  __device__ double operator()(double a, double b) const { return Op::combine(a, b); }
};

template <class Op, class T>
__global__ void reduce_per_block(ReducePlan plan, const T* __restrict__ in, T* __restrict__ out) {
  using BlockReduce = cub::BlockReduce<double, kThreadsPerBlock>;
  __shared__ typename BlockReduce::TempStorage scratch;
  for (int64_t o = blockIdx.x; o < plan.out_count; o += gridDim.x) {
    const T* base = in + input_offset(o, plan.kept_groups, plan.kept_extent, plan.kept_stride);
    double partial = Op::start();
    for (int64_t r = threadIdx.x; r < plan.reduced_count; r += blockDim.x) {
      partial = Op::accumulate(
          partial, widen(base[input_offset(r, plan.reduced_groups, plan.reduced_extent,
                                           plan.reduced_stride)]));
    }
    const double result = BlockReduce(scratch).Reduce(partial, Combine<Op>{});
    if (threadIdx.x == 0) out[o] = narrow<T>(Op::finish(result, plan.reduced_count));
    __syncthreads();  // the next element's reduction reuses `scratch`
  }
}

}  // namespace

cudaError_t launch_reduce(Reduction reduction, int32_t dtype, const ReducePlan& plan,
                          const void* in, void* out, cudaStream_t stream) {
  if (plan.out_count == 0) return cudaSuccess;
  return visit_reduction(reduction, [&](auto op_tag) {
    using Op = decltype(op_tag);
    return visit_elementwise_dtype(dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* input = static_cast<const T*>(in);
      T* output = static_cast<T*>(out);
      if (plan.reduced_count >= kBlockReductionFrom) {
        const auto blocks = static_cast<unsigned>(std::min(plan.out_count, kMaxBlocks));
        reduce_per_block<Op, T><<<blocks, kThreadsPerBlock, 0, stream>>>(plan, input, output);
      } else {
        reduce_per_thread<Op, T>
            <<<blocks_for(plan.out_count), kThreadsPerBlock, 0, stream>>>(plan, input, output);
      }
      return cudaGetLastError();
    });
  });
}

}  // namespace hxcuda::kernels

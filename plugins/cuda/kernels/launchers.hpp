// The boundary between the kernels' host side (.cpp: operand checks, statuses) and their device
// side (.cu: the CUDA kernels). Everything here takes raw device pointers and a stream and
// returns the cudaError_t of the launch (cudaGetLastError after it), so the .cu files need
// neither the core services nor the plugin, and a benchmark can launch the very same kernels.
//
// Element types are hx_dtype values, as int32_t like every dtype crossing the ABI; a launcher
// given a dtype it was not written for returns cudaErrorNotSupported (the kernels are
// registered for the dtypes they have, so that is a bug, not a user error).
// A count of 0 launches nothing and returns cudaSuccess.
#pragma once

#include <hxrt/plugin_api.h>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace hxcuda::kernels {

// The binary element-wise ops, of f32, f16 and bf16 operands, computed in float and rounded
// once to the operands' dtype (Pow in double, as C's pow is). The comparisons (kEqual on) write
// bool: one byte per element, 0 or 1.
enum class BinaryOp {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kPow,
  kMin,  // NaN in either operand gives NaN, as Max
  kMax,
  kEqual,
  kLess,
  kGreater,
  kLessOrEqual,
  kGreaterOrEqual,
};
// The comparisons are the values from kEqual on.
inline bool is_comparison(BinaryOp op) { return op >= BinaryOp::kEqual; }
// Which operand, if any, is one element repeated for every element of the output, when both
// are otherwise read element by element (dense).
enum class Broadcast { kNone, kX, kY };

cudaError_t launch_binary(BinaryOp op, int32_t dtype, Broadcast broadcast, const void* x,
                          const void* y, void* out, int64_t count, cudaStream_t stream);

// Where a binary op reads its operands in the general case: the output (dense) in rows of
// row_length elements; along a row x and y advance by x_step and y_step elements, and the rows
// are the points of a grid of outer_rank extents (outermost first, last fastest) whose
// coordinates move x and y by their outer strides. Built from hxplugin::plan_binary_rows,
// which has merged every dimension it could, so the grid is usually of rank 0 to 2.
struct BinaryLayout {
  int64_t row_length = 0;
  int64_t x_step = 0;
  int64_t y_step = 0;
  int outer_rank = 0;
  int64_t outer_shape[HX_MAX_RANK] = {};
  int64_t x_outer_stride[HX_MAX_RANK] = {};
  int64_t y_outer_stride[HX_MAX_RANK] = {};
};

// out = op(x, y) over `count` output elements laid out as `layout` says (broadcast inputs
// have stride 0 where they repeat).
cudaError_t launch_binary_strided(BinaryOp op, int32_t dtype, const BinaryLayout& layout,
                                  const void* x, const void* y, void* out, int64_t count,
                                  cudaStream_t stream);

// max(x, 0), NaN passed through; f32, f16, bf16.
cudaError_t launch_relu(int32_t dtype, const void* x, void* y, int64_t count, cudaStream_t stream);

// The unary element-wise ops of f32, f16 and bf16, computed in float and rounded once. NaN
// stays NaN in every one. kRound rounds halves to even; kGelu is the erf form and kGeluTanh
// the tanh approximation.
enum class UnaryOp {
  kExp,
  kLog,
  kSqrt,
  kNeg,
  kAbs,
  kReciprocal,
  kErf,
  kTanh,
  kSigmoid,
  kFloor,
  kCeil,
  kRound,
  kSign,
  kLeakyRelu,    // alpha: the slope below 0
  kHardSigmoid,  // max(0, min(1, alpha * x + beta))
  kHardSwish,
  kGelu,
  kGeluTanh,
};
// alpha and beta are the op's attributes where it has them, unused otherwise.
cudaError_t launch_unary(UnaryOp op, int32_t dtype, float alpha, float beta, const void* x,
                         void* y, int64_t count, cudaStream_t stream);

// The activation of a fused op (FusedConv's and FusedGemm's `activation`), or none. kGelu is
// the erf form.
enum class Activation { kNone, kRelu, kLeakyRelu, kSigmoid, kTanh, kGelu };

// y = activation(y + bias[channel]) in place, over the `count` elements of a dense y seen as
// [outer, channels, inner]: element i's channel is (i / inner) % channels. `bias` has y's
// dtype, or is NULL for none. f32, f16, bf16, computed in float and rounded once; `alpha` is
// LeakyRelu's slope. What a convolution or a matmul leaves for its bias and activation.
cudaError_t launch_bias_activation(int32_t dtype, Activation activation, float alpha,
                                   const void* bias, void* y, int64_t count, int64_t channels,
                                   int64_t inner, cudaStream_t stream);

// Softmax (or LogSoftmax, when `log`) of f32, f16 or bf16 along one axis of a dense input seen
// as [outer, extent, inner]: `count` elements in all. The maximum of each line is subtracted
// before exp, so no exp overflows; computed in float and rounded once.
cudaError_t launch_softmax(bool log, int32_t dtype, const void* in, void* out, int64_t count,
                           int64_t extent, int64_t inner, cudaStream_t stream);

// One chunk of an AddN: out = inputs[0] + ... + inputs[num_inputs - 1], added to what `out`
// holds when `add_to_out`, left to right; f32, f16, bf16, summed in float. The input pointers
// travel in the kernel's parameters (nothing to allocate), so a chunk has at most
// kMaxAddNChunk of them; f16 and bf16 sums are rounded once per chunk.
inline constexpr size_t kMaxAddNChunk = 32;
cudaError_t launch_addn_chunk(int32_t dtype, const void* const* inputs, size_t num_inputs,
                              bool add_to_out, void* out, int64_t count, cudaStream_t stream);

// Every element of out set to `value`, rounded once to `dtype` (f32, f64, f16, bf16).
cudaError_t launch_fill(int32_t dtype, double value, void* out, int64_t count,
                        cudaStream_t stream);

// Element-wise conversion between f32, f64, f16 and bf16, rounding once to nearest even.
cudaError_t launch_cast(int32_t from, int32_t to, const void* in, void* out, int64_t count,
                        cudaStream_t stream);

// A reduction over some axes of a dense row-major input, with the input's dimensions already
// merged into runs of kept and of reduced axes (see reduce.cpp). An output element's index
// decomposes over the kept extents, its terms' over the reduced extents (last fastest); each
// coordinate times its input stride gives the element's offset in the input.
struct ReducePlan {
  int kept_groups = 0;
  int64_t kept_extent[HX_MAX_RANK] = {};
  int64_t kept_stride[HX_MAX_RANK] = {};
  int reduced_groups = 0;
  int64_t reduced_extent[HX_MAX_RANK] = {};
  int64_t reduced_stride[HX_MAX_RANK] = {};
  int64_t out_count = 0;      // product of kept_extent
  int64_t reduced_count = 0;  // product of reduced_extent; 0: each output reduces nothing
};

// What each output element is of its terms. Over no terms: Sum and L2 give 0, Mean NaN, Max
// -inf and Min +inf; NaN among the terms makes Max and Min NaN.
enum class Reduction { kSum, kMean, kMax, kMin, kL2 };

// Terms accumulate in double, as the CPU plugin's sums do, and the result rounds once to
// `dtype` (f32, f16, bf16).
cudaError_t launch_reduce(Reduction reduction, int32_t dtype, const ReducePlan& plan,
                          const void* in, void* out, cudaStream_t stream);

// An element-by-element copy between a dense tensor and a strided view of another, for
// elements of `element_size` bytes (1, 2, 4 or 8) whatever their dtype: the view has `shape`,
// its element [0, ...] is at element `start` and each coordinate moves it by `stride` elements
// (negative for Slice's backward steps, 0 where Expand repeats).
struct StridedLayout {
  int rank = 0;
  int64_t shape[HX_MAX_RANK] = {};
  int64_t stride[HX_MAX_RANK] = {};
  int64_t start = 0;
};
// Dense `out` from the view of `in`: out[i] = in[view offset of i] (Transpose, Slice, Expand).
cudaError_t launch_gather_strided(size_t element_size, const StridedLayout& layout,
                                  const void* in, void* out, int64_t count, cudaStream_t stream);
// The view of `out` from dense `in`: out[view offset of i] = in[i] (Concat's parts).
cudaError_t launch_scatter_strided(size_t element_size, const StridedLayout& layout,
                                   const void* in, void* out, int64_t count,
                                   cudaStream_t stream);

// Gather along one axis: data seen as [outer, extent, inner], `count` output elements
// out[outer, j, inner] = data[outer, indices[j], inner] for the index_count indices (int32 or
// int64, `index_dtype`); elements of 2, 4 or 8 bytes. A negative index counts from the end; one
// still out of range gives 0 (see gather.cu).
cudaError_t launch_gather_axis(size_t element_size, int32_t index_dtype, const void* data,
                               const void* indices, void* out, int64_t count,
                               int64_t index_count, int64_t extent, int64_t inner,
                               cudaStream_t stream);

}  // namespace hxcuda::kernels

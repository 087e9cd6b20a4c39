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

// Add, Sub, Mul and Div, computed in float for f16 and bf16, for f32, f16 and bf16.
enum class BinaryOp { kAdd, kSub, kMul, kDiv };
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
// merged into runs of kept and of reduced axes (see sum.cpp). An output element's index
// decomposes over the kept extents, its addends' over the reduced extents (last fastest); each
// coordinate times its input stride gives the element's offset in the input.
struct SumPlan {
  int kept_groups = 0;
  int64_t kept_extent[HX_MAX_RANK] = {};
  int64_t kept_stride[HX_MAX_RANK] = {};
  int reduced_groups = 0;
  int64_t reduced_extent[HX_MAX_RANK] = {};
  int64_t reduced_stride[HX_MAX_RANK] = {};
  int64_t out_count = 0;      // product of kept_extent
  int64_t reduced_count = 0;  // product of reduced_extent; 0 makes every output 0
};

// Sums accumulate in double, as the CPU plugin's do, and round once to `dtype` (f32, f16,
// bf16).
cudaError_t launch_sum(int32_t dtype, const SumPlan& plan, const void* in, void* out,
                       cudaStream_t stream);

}  // namespace hxcuda::kernels

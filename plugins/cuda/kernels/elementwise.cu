// Add, Sub, Mul, Div and Relu on the GPU. f16 and bf16 are widened to float, computed, and
// rounded once, which gives the same result as the CPU computing in f32 and casting back.
#include "kernels/device_elements.cuh"
#include "kernels/launchers.hpp"

namespace hxcuda::kernels {
namespace {

struct AddOp {
  __device__ static float apply(float x, float y) { return x + y; }
};
struct SubOp {
  __device__ static float apply(float x, float y) { return x - y; }
};
struct MulOp {
  __device__ static float apply(float x, float y) { return x * y; }
};
// IEEE division: nvcc divides correctly rounded unless built with fast-math, which we are not.
struct DivOp {
  __device__ static float apply(float x, float y) { return x / y; }
};

// Dense operands, or one repeated element (read at index 0 for every element): the branch is
// uniform across the grid, so it costs nothing next to the memory traffic.
template <class Op, class T>
__global__ void binary_kernel(const T* __restrict__ x, const T* __restrict__ y, T* __restrict__ out,
                              int64_t count, bool broadcast_x, bool broadcast_y) {
  for (int64_t i = first_index(); i < count; i += index_step()) {
    const float a = widen(x[broadcast_x ? 0 : i]);
    const float b = widen(y[broadcast_y ? 0 : i]);
    out[i] = narrow<T>(Op::apply(a, b));
  }
}

// Element i of the output is column i % row_length of row i / row_length; the row's grid
// coordinates give each operand's row offset. The divisions cost little next to the memory
// traffic, and the merged layout keeps their number small.
template <class Op, class T>
__global__ void strided_binary_kernel(BinaryLayout layout, const T* __restrict__ x,
                                      const T* __restrict__ y, T* __restrict__ out,
                                      int64_t count) {
  for (int64_t i = first_index(); i < count; i += index_step()) {
    int64_t row = i / layout.row_length;
    const int64_t column = i - row * layout.row_length;
    int64_t x_offset = column * layout.x_step;
    int64_t y_offset = column * layout.y_step;
    for (int axis = layout.outer_rank - 1; axis >= 0; --axis) {
      const int64_t coordinate = row % layout.outer_shape[axis];
      row /= layout.outer_shape[axis];
      x_offset += coordinate * layout.x_outer_stride[axis];
      y_offset += coordinate * layout.y_outer_stride[axis];
    }
    out[i] = narrow<T>(Op::apply(widen(x[x_offset]), widen(y[y_offset])));
  }
}

template <class T>
__global__ void relu_kernel(const T* __restrict__ x, T* __restrict__ y, int64_t count) {
  for (int64_t i = first_index(); i < count; i += index_step()) {
    // `< 0` is false for NaN, so NaN (and -0) pass through unchanged.
    y[i] = widen(x[i]) < 0.0f ? narrow<T>(0.0f) : x[i];
  }
}

template <class Op>
cudaError_t launch_binary_op(int32_t dtype, Broadcast broadcast, const void* x, const void* y,
                             void* out, int64_t count, cudaStream_t stream) {
  return visit_elementwise_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    binary_kernel<Op, T><<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(
        static_cast<const T*>(x), static_cast<const T*>(y), static_cast<T*>(out), count,
        broadcast == Broadcast::kX, broadcast == Broadcast::kY);
    return cudaGetLastError();
  });
}

template <class Op>
cudaError_t launch_strided_binary_op(int32_t dtype, const BinaryLayout& layout, const void* x,
                                     const void* y, void* out, int64_t count,
                                     cudaStream_t stream) {
  return visit_elementwise_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    strided_binary_kernel<Op, T><<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(
        layout, static_cast<const T*>(x), static_cast<const T*>(y), static_cast<T*>(out), count);
    return cudaGetLastError();
  });
}

}  // namespace

cudaError_t launch_binary_strided(BinaryOp op, int32_t dtype, const BinaryLayout& layout,
                                  const void* x, const void* y, void* out, int64_t count,
                                  cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  if (layout.row_length <= 0) return cudaErrorInvalidValue;
  switch (op) {
    case BinaryOp::kAdd:
      return launch_strided_binary_op<AddOp>(dtype, layout, x, y, out, count, stream);
    case BinaryOp::kSub:
      return launch_strided_binary_op<SubOp>(dtype, layout, x, y, out, count, stream);
    case BinaryOp::kMul:
      return launch_strided_binary_op<MulOp>(dtype, layout, x, y, out, count, stream);
    case BinaryOp::kDiv:
      return launch_strided_binary_op<DivOp>(dtype, layout, x, y, out, count, stream);
  }
  return cudaErrorNotSupported;
}

cudaError_t launch_binary(BinaryOp op, int32_t dtype, Broadcast broadcast, const void* x,
                          const void* y, void* out, int64_t count, cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  switch (op) {
    case BinaryOp::kAdd: return launch_binary_op<AddOp>(dtype, broadcast, x, y, out, count, stream);
    case BinaryOp::kSub: return launch_binary_op<SubOp>(dtype, broadcast, x, y, out, count, stream);
    case BinaryOp::kMul: return launch_binary_op<MulOp>(dtype, broadcast, x, y, out, count, stream);
    case BinaryOp::kDiv: return launch_binary_op<DivOp>(dtype, broadcast, x, y, out, count, stream);
  }
  return cudaErrorNotSupported;
}

cudaError_t launch_relu(int32_t dtype, const void* x, void* y, int64_t count,
                        cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  return visit_elementwise_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    relu_kernel<T><<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(static_cast<const T*>(x),
                                                                       static_cast<T*>(y), count);
    return cudaGetLastError();
  });
}

}  // namespace hxcuda::kernels

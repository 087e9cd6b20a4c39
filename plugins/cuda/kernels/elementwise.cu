// The binary element-wise ops and Relu on the GPU. f16 and bf16 are widened to float, computed,
// and rounded once, which gives the same result as the CPU computing in f32 and casting back.
#include <math_constants.h>

#include <type_traits>

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
// In double, rounded once to the dtype: the core's reference is C's pow in double, and powf's
// few ulps of error would show in f32 results.
struct PowOp {
  __device__ static double apply(float x, float y) {
    return pow(static_cast<double>(x), static_cast<double>(y));
  }
};
// fminf and fmaxf would return the other operand for one NaN; ONNX's Min and Max propagate it.
struct MinOp {
  __device__ static float apply(float x, float y) {
    return isnan(x) || isnan(y) ? CUDART_NAN_F : fminf(x, y);
  }
};
struct MaxOp {
  __device__ static float apply(float x, float y) {
    return isnan(x) || isnan(y) ? CUDART_NAN_F : fmaxf(x, y);
  }
};
// Comparisons are exact in float for every operand dtype; NaN compares false, -0 equals 0.
struct EqualOp {
  __device__ static bool apply(float x, float y) { return x == y; }
};
struct LessOp {
  __device__ static bool apply(float x, float y) { return x < y; }
};
struct GreaterOp {
  __device__ static bool apply(float x, float y) { return x > y; }
};
struct LessOrEqualOp {
  __device__ static bool apply(float x, float y) { return x <= y; }
};
struct GreaterOrEqualOp {
  __device__ static bool apply(float x, float y) { return x >= y; }
};

// Calls visit(Op{}) for the op's struct above.
template <class Visit>
cudaError_t visit_binary_op(BinaryOp op, Visit&& visit) {
  switch (op) {
    case BinaryOp::kAdd: return visit(AddOp{});
    case BinaryOp::kSub: return visit(SubOp{});
    case BinaryOp::kMul: return visit(MulOp{});
    case BinaryOp::kDiv: return visit(DivOp{});
    case BinaryOp::kPow: return visit(PowOp{});
    case BinaryOp::kMin: return visit(MinOp{});
    case BinaryOp::kMax: return visit(MaxOp{});
    case BinaryOp::kEqual: return visit(EqualOp{});
    case BinaryOp::kLess: return visit(LessOp{});
    case BinaryOp::kGreater: return visit(GreaterOp{});
    case BinaryOp::kLessOrEqual: return visit(LessOrEqualOp{});
    case BinaryOp::kGreaterOrEqual: return visit(GreaterOrEqualOp{});
  }
  return cudaErrorNotSupported;
}

// The output element type of Op on operands of T: T, or one byte for a comparison's bool.
template <class Op, class T>
using OutputOf =
    std::conditional_t<std::is_same_v<decltype(Op::apply(0.0f, 0.0f)), bool>, uint8_t, T>;

template <class Out, class Value>
__device__ __forceinline__ Out to_output(Value value) {
  if constexpr (std::is_same_v<Value, bool>) {
    return static_cast<Out>(value ? 1 : 0);
  } else {
    return narrow<Out>(value);
  }
}

// Dense operands, or one repeated element (read at index 0 for every element): the branch is
// uniform across the grid, so it costs nothing next to the memory traffic.
template <class Op, class T>
__global__ void binary_kernel(const T* __restrict__ x, const T* __restrict__ y,
                              OutputOf<Op, T>* __restrict__ out, int64_t count, bool broadcast_x,
                              bool broadcast_y) {
  for (int64_t i = first_index(); i < count; i += index_step()) {
    const float a = widen(x[broadcast_x ? 0 : i]);
    const float b = widen(y[broadcast_y ? 0 : i]);
    out[i] = to_output<OutputOf<Op, T>>(Op::apply(a, b));
  }
}

// Element i of the output is column i % row_length of row i / row_length; the row's grid
// coordinates give each operand's row offset. The divisions cost little next to the memory
// traffic, and the merged layout keeps their number small.
template <class Op, class T>
__global__ void strided_binary_kernel(BinaryLayout layout, const T* __restrict__ x,
                                      const T* __restrict__ y, OutputOf<Op, T>* __restrict__ out,
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
    out[i] = to_output<OutputOf<Op, T>>(Op::apply(widen(x[x_offset]), widen(y[y_offset])));
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
        static_cast<const T*>(x), static_cast<const T*>(y), static_cast<OutputOf<Op, T>*>(out),
        count, broadcast == Broadcast::kX, broadcast == Broadcast::kY);
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
        layout, static_cast<const T*>(x), static_cast<const T*>(y),
        static_cast<OutputOf<Op, T>*>(out), count);
    return cudaGetLastError();
  });
}

}  // namespace

cudaError_t launch_binary_strided(BinaryOp op, int32_t dtype, const BinaryLayout& layout,
                                  const void* x, const void* y, void* out, int64_t count,
                                  cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  if (layout.row_length <= 0) return cudaErrorInvalidValue;
  return visit_binary_op(op, [&](auto op_tag) {
    return launch_strided_binary_op<decltype(op_tag)>(dtype, layout, x, y, out, count, stream);
  });
}

cudaError_t launch_binary(BinaryOp op, int32_t dtype, Broadcast broadcast, const void* x,
                          const void* y, void* out, int64_t count, cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  return visit_binary_op(op, [&](auto op_tag) {
    return launch_binary_op<decltype(op_tag)>(dtype, broadcast, x, y, out, count, stream);
  });
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

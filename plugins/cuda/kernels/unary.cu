// The unary element-wise ops on the GPU, one functor each: f16 and bf16 are widened to float,
// computed, and rounded once. Where a textbook form loses precision in float, the functor uses
// an equal form that does not (noted at the functor).
#include "kernels/device_elements.cuh"
#include "kernels/launchers.hpp"

namespace hxcuda::kernels {
namespace {

// Clamps to [0, 1] with comparisons that are false for NaN, so NaN stays NaN (fminf and fmaxf
// would turn it into a bound).
__device__ __forceinline__ float clamp_to_unit(float x) {
  return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
}

struct ExpOp {
  __device__ static float apply(float x, float, float) { return expf(x); }
};
struct LogOp {
  __device__ static float apply(float x, float, float) { return logf(x); }
};
// Correctly rounded: nvcc's -prec-sqrt is on unless built with fast-math, which we are not.
struct SqrtOp {
  __device__ static float apply(float x, float, float) { return sqrtf(x); }
};
struct NegOp {
  __device__ static float apply(float x, float, float) { return -x; }
};
struct AbsOp {
  __device__ static float apply(float x, float, float) { return fabsf(x); }
};
struct ReciprocalOp {
  __device__ static float apply(float x, float, float) { return 1.0f / x; }
};
struct ErfOp {
  __device__ static float apply(float x, float, float) { return erff(x); }
};
struct TanhOp {
  __device__ static float apply(float x, float, float) { return tanhf(x); }
};
// expf(-x) overflows to infinity for x below about -88, which gives the right 0.
struct SigmoidOp {
  __device__ static float apply(float x, float, float) { return 1.0f / (1.0f + expf(-x)); }
};
struct FloorOp {
  __device__ static float apply(float x, float, float) { return floorf(x); }
};
struct CeilOp {
  __device__ static float apply(float x, float, float) { return ceilf(x); }
};
// ONNX's Round takes halves to even, which rintf does in the default rounding mode.
struct RoundOp {
  __device__ static float apply(float x, float, float) { return rintf(x); }
};
struct SignOp {
  __device__ static float apply(float x, float, float) {
    return isnan(x) ? x : static_cast<float>((x > 0.0f) - (x < 0.0f));
  }
};
struct LeakyReluOp {
  __device__ static float apply(float x, float alpha, float) { return x >= 0.0f ? x : alpha * x; }
};
struct HardSigmoidOp {
  __device__ static float apply(float x, float alpha, float beta) {
    return clamp_to_unit(alpha * x + beta);
  }
};
struct HardSwishOp {
  __device__ static float apply(float x, float, float) {
    return x * clamp_to_unit(x / 6.0f + 0.5f);
  }
};
// x * Phi(x) with Phi(x) = erfc(-x / sqrt(2)) / 2: the textbook (1 + erf(x / sqrt(2))) / 2
// cancels to a few correct bits for x below about -3, where erfc keeps its relative precision.
struct GeluOp {
  __device__ static float apply(float x, float, float) {
    return 0.5f * x * erfcf(-x * 0.70710678118654752f);
  }
};
// 0.5 * x * (1 + tanh(u)) is x / (1 + exp(-2u)), which does not cancel for negative x.
struct GeluTanhOp {
  __device__ static float apply(float x, float, float) {
    const float u = 0.79788456080286536f * (x + 0.044715f * x * x * x);
    return x / (1.0f + expf(-2.0f * u));
  }
};

// Calls visit(Op{}) for the op's functor above.
template <class Visit>
cudaError_t visit_unary_op(UnaryOp op, Visit&& visit) {
  switch (op) {
    case UnaryOp::kExp: return visit(ExpOp{});
    case UnaryOp::kLog: return visit(LogOp{});
    case UnaryOp::kSqrt: return visit(SqrtOp{});
    case UnaryOp::kNeg: return visit(NegOp{});
    case UnaryOp::kAbs: return visit(AbsOp{});
    case UnaryOp::kReciprocal: return visit(ReciprocalOp{});
    case UnaryOp::kErf: return visit(ErfOp{});
    case UnaryOp::kTanh: return visit(TanhOp{});
    case UnaryOp::kSigmoid: return visit(SigmoidOp{});
    case UnaryOp::kFloor: return visit(FloorOp{});
    case UnaryOp::kCeil: return visit(CeilOp{});
    case UnaryOp::kRound: return visit(RoundOp{});
    case UnaryOp::kSign: return visit(SignOp{});
    case UnaryOp::kLeakyRelu: return visit(LeakyReluOp{});
    case UnaryOp::kHardSigmoid: return visit(HardSigmoidOp{});
    case UnaryOp::kHardSwish: return visit(HardSwishOp{});
    case UnaryOp::kGelu: return visit(GeluOp{});
    case UnaryOp::kGeluTanh: return visit(GeluTanhOp{});
  }
  return cudaErrorNotSupported;
}

template <class Op, class T>
__global__ void unary_kernel(const T* __restrict__ x, T* __restrict__ y, int64_t count,
                             float alpha, float beta) {
  for (int64_t i = first_index(); i < count; i += index_step()) {
    y[i] = narrow<T>(Op::apply(widen(x[i]), alpha, beta));
  }
}

}  // namespace

cudaError_t launch_unary(UnaryOp op, int32_t dtype, float alpha, float beta, const void* x,
                         void* y, int64_t count, cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  return visit_unary_op(op, [&](auto op_tag) {
    using Op = decltype(op_tag);
    return visit_elementwise_dtype(dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      unary_kernel<Op, T><<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(
          static_cast<const T*>(x), static_cast<T*>(y), count, alpha, beta);
      return cudaGetLastError();
    });
  });
}

}  // namespace hxcuda::kernels

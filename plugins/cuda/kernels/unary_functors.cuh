// The arithmetic of the unary element-wise ops, one functor each (apply(x, alpha, beta) in
// float): for unary.cu, which launches them as ops, and bias_activation.cu, which applies
// them as the activation of a fused op. Where a textbook form loses precision in float, the
// functor uses an equal form that does not (noted at the functor).
#pragma once

#include <cuda_runtime.h>

namespace hxcuda::kernels {

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
// Relu as the activation of a fused op (the op Relu has its own kernel, elementwise.cu, with the
// same answers): `< 0` is false for NaN, so NaN (and -0) pass through unchanged.
struct ReluOp {
  __device__ static float apply(float x, float, float) { return x < 0.0f ? 0.0f : x; }
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

}  // namespace hxcuda::kernels

// The epilogue of a convolution or matmul that the library did not fuse: each element plus its
// channel's bias, then the activation (unary_functors.cuh), in float, rounded once.
#include "kernels/device_elements.cuh"
#include "kernels/launchers.hpp"
#include "kernels/unary_functors.cuh"

namespace hxcuda::kernels {
namespace {

struct IdentityOp {
  __device__ static float apply(float x, float, float) { return x; }
};

template <class Visit>
cudaError_t visit_activation(Activation activation, Visit&& visit) {
  switch (activation) {
    case Activation::kNone:
      return visit(IdentityOp{});
    case Activation::kRelu:
      return visit(ReluOp{});
    case Activation::kLeakyRelu:
      return visit(LeakyReluOp{});
    case Activation::kSigmoid:
      return visit(SigmoidOp{});
    case Activation::kTanh:
      return visit(TanhOp{});
    case Activation::kGelu:
      return visit(GeluOp{});
  }
  return cudaErrorNotSupported;
}

// In place: each element is read and written by the same thread, once.
template <class Op, class T>
__global__ void bias_activation_kernel(const T* __restrict__ bias, T* y, int64_t count,
                                       int64_t channels, int64_t inner, float alpha) {
  for (int64_t i = first_index(); i < count; i += index_step()) {
    float value = widen(y[i]);
    if (bias != nullptr) value += widen(bias[(i / inner) % channels]);
    y[i] = narrow<T>(Op::apply(value, alpha, 0.0f));
  }
}

}  // namespace

cudaError_t launch_bias_activation(int32_t dtype, Activation activation, float alpha,
                                   const void* bias, void* y, int64_t count, int64_t channels,
                                   int64_t inner, cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  if (channels < 1 || inner < 1) return cudaErrorInvalidValue;
  return visit_activation(activation, [&](auto op_tag) {
    using Op = decltype(op_tag);
    return visit_elementwise_dtype(dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      bias_activation_kernel<Op, T><<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(
          static_cast<const T*>(bias), static_cast<T*>(y), count, channels, inner, alpha);
      return cudaGetLastError();
    });
  });
}

}  // namespace hxcuda::kernels

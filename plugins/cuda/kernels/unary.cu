// The unary element-wise ops on the GPU, one functor each (unary_functors.cuh): f16 and bf16
// are widened to float, computed, and rounded once.
#include "kernels/device_elements.cuh"
#include "kernels/launchers.hpp"
#include "kernels/unary_functors.cuh"

namespace hxcuda::kernels {
namespace {

// Calls visit(Op{}) for the op's functor (unary_functors.cuh).
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

// MatMul through cuBLAS (cublasGemmEx) for f32, f64, f16 and bf16.
//
// Precision: f64 computes in f64; f32, f16 and bf16 accumulate in f32. f32 uses TF32 tensor
// cores only when the call sets the bool attribute `allow_tf32` (default false): TF32 keeps
// 10 mantissa bits, which is a different answer, not just a faster one, so it is never
// chosen for the caller. The attribute is ignored for the other dtypes.
//
// Layout: hxrt's tensors are row-major and cuBLAS is column-major. A row-major matrix read as
// column-major is its transpose, so the row-major product C = op(A) op(B) is computed as the
// column-major product C^T = op(B)^T op(A)^T, which needs no copy: pass B before A, swap m and
// n, and keep each operand's own transpose flag.
#include <hxplugin/matmul_dims.hpp>

#include <climits>
#include <initializer_list>

#include "kernels/dtypes.hpp"
#include "kernels/kernels.hpp"

namespace hxcuda::kernels {
namespace {

struct GemmTypes {
  cudaDataType_t data;
  cublasComputeType_t compute;
};

GemmTypes gemm_types(hx_dtype dtype, bool allow_tf32) {
  switch (dtype) {
    case HX_DTYPE_F64: return {CUDA_R_64F, CUBLAS_COMPUTE_64F};
    case HX_DTYPE_F16: return {CUDA_R_16F, CUBLAS_COMPUTE_32F};
    case HX_DTYPE_BF16: return {CUDA_R_16BF, CUBLAS_COMPUTE_32F};
    default: return {CUDA_R_32F, allow_tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F};
  }
}

struct RowMajorGemm {
  int m, n, k;
  int lda, ldb;  // row lengths of a and b as stored, i.e. before the transposes
};

hx_status* run_gemm(const GpuKernelCall& call, const RowMajorGemm& gemm, bool transpose_a,
                    bool transpose_b, const GemmTypes& types) {
  // alpha and beta have the compute type's scalar type: double for CUBLAS_COMPUTE_64F,
  // float for every CUBLAS_COMPUTE_32F variant. cuBLAS reads them before it returns.
  const double alpha_f64 = 1.0, beta_f64 = 0.0;
  const float alpha_f32 = 1.0f, beta_f32 = 0.0f;
  const bool f64 = types.compute == CUBLAS_COMPUTE_64F;
  const void* alpha = f64 ? static_cast<const void*>(&alpha_f64) : &alpha_f32;
  const void* beta = f64 ? static_cast<const void*>(&beta_f64) : &beta_f32;

  CublasLease lease;
  if (hx_status* status = CublasLease::acquire(call.env(), &lease)) return status;
  const cublasStatus_t status = cublasGemmEx(
      lease.handle(), transpose_b ? CUBLAS_OP_T : CUBLAS_OP_N,
      transpose_a ? CUBLAS_OP_T : CUBLAS_OP_N, gemm.n, gemm.m, gemm.k, alpha, call.input(1).data,
      types.data, gemm.ldb, call.input(0).data, types.data, gemm.lda, beta, call.output(0).data,
      types.data, gemm.n, types.compute, CUBLAS_GEMM_DEFAULT);
  return cublas_error(*call.env().services, status, "cublasGemmEx");
}

}  // namespace

hx_status* matmul_kernel(const GpuKernelCall& call) {
  bool transpose_a = false;
  bool transpose_b = false;
  if (hx_status* status = hxplugin::matmul_transposes(call, &transpose_a, &transpose_b)) {
    return status;
  }
  bool allow_tf32 = false;
  if (hx_status* status = call.attr_bool("allow_tf32", &allow_tf32)) return status;

  const hx_tensor_view& a = call.input(0);
  const hx_tensor_view& b = call.input(1);
  const hx_tensor_view& c = call.output(0);
  if (a.rank != 2 || b.rank != 2 || c.rank != 2 || a.dtype != b.dtype || a.dtype != c.dtype) {
    return call.error(HX_INVALID_ARGUMENT,
                      "MatMul: expected three rank-2 tensors of one dtype, got ranks %d, %d -> "
                      "%d",
                      a.rank, b.rank, c.rank);
  }
  if (!is_float_dtype(a.dtype)) return call.no_variant("MatMul", a.dtype);
  hxplugin::MatMulDims dims{};
  if (hx_status* status = hxplugin::matmul_dims(call, transpose_a, transpose_b, &dims)) {
    return status;
  }
  if (dims.m == 0 || dims.n == 0) return nullptr;
  if (dims.k == 0) {  // an empty sum; cuBLAS is not asked, since its leading dimensions would be 0
    const size_t bytes = static_cast<size_t>(dims.m * dims.n) * dtype_size(c.dtype);
    return call.cuda_status(cudaMemsetAsync(c.data, 0, bytes, call.stream()), "cudaMemsetAsync");
  }
  for (const int64_t extent : {a.shape[0], a.shape[1], b.shape[0], b.shape[1]}) {
    if (extent > INT_MAX) {
      return call.error(HX_INVALID_ARGUMENT,
                        "MatMul: extent %lld exceeds cuBLAS's 32-bit limit of %d",
                        static_cast<long long>(extent), INT_MAX);
    }
  }
  const RowMajorGemm gemm{static_cast<int>(dims.m), static_cast<int>(dims.n),
                          static_cast<int>(dims.k), static_cast<int>(a.shape[1]),
                          static_cast<int>(b.shape[1])};
  return run_gemm(call, gemm, transpose_a, transpose_b, gemm_types(a.dtype, allow_tf32));
}

}  // namespace hxcuda::kernels

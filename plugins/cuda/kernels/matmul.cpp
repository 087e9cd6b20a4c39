// MatMul through cuBLAS (cublasGemmEx) for f32, f64, f16 and bf16. The instance (create) holds
// the transposes and cuBLAS's data and compute types; cuBLAS handles are per stream
// (CublasLease), since one instance serves every stream at once.
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

struct RowMajorGemm {
  int m, n, k;
  int lda, ldb;  // row lengths of a and b as stored, i.e. before the transposes
};

hx_status* run_gemm(const GpuKernelCall& call, const MatMulState& state, const RowMajorGemm& gemm) {
  // alpha and beta have the compute type's scalar type: double for CUBLAS_COMPUTE_64F,
  // float for every CUBLAS_COMPUTE_32F variant. cuBLAS reads them before it returns.
  static constexpr double kAlphaF64 = 1.0, kBetaF64 = 0.0;
  static constexpr float kAlphaF32 = 1.0f, kBetaF32 = 0.0f;
  const bool f64 = state.compute_type == CUBLAS_COMPUTE_64F;
  const void* alpha = f64 ? static_cast<const void*>(&kAlphaF64) : &kAlphaF32;
  const void* beta = f64 ? static_cast<const void*>(&kBetaF64) : &kBetaF32;

  CublasLease lease;
  if (hx_status* status = CublasLease::acquire(call.env(), *state.cublas, &lease)) return status;
  const cublasStatus_t status = state.cublas->gemm_ex(
      lease.handle(), state.transpose_b ? CUBLAS_OP_T : CUBLAS_OP_N,
      state.transpose_a ? CUBLAS_OP_T : CUBLAS_OP_N, gemm.n, gemm.m, gemm.k, alpha,
      hxplugin::element_address(call.input(1)), state.data_type, gemm.ldb,
      hxplugin::element_address(call.input(0)), state.data_type, gemm.lda, beta,
      hxplugin::element_address(call.output(0)), state.data_type, gemm.n, state.compute_type,
      CUBLAS_GEMM_DEFAULT);
  return cublas_error(*call.env().services, status, "cublasGemmEx");
}

}  // namespace

hx_status* matmul_create(const hxplugin::KernelCreate& create, MatMulState* out) {
  const hx_kernel_create_args& args = create.args();
  if (args.num_inputs != 2 || args.num_outputs != 1) {
    return create.error(HX_INVALID_ARGUMENT,
                        "MatMul: expected 2 inputs and 1 output, got %zu and %zu",
                        args.num_inputs, args.num_outputs);
  }
  const int32_t dtype = create.input_dtype(0);
  if (create.input_dtype(1) != dtype || create.output_dtype(0) != dtype) {
    return create.error(HX_INVALID_ARGUMENT, "MatMul: dtypes %s x %s -> %s differ",
                        hx_dtype_name(dtype), hx_dtype_name(create.input_dtype(1)),
                        hx_dtype_name(create.output_dtype(0)));
  }
  bool allow_tf32 = false;
  if (hx_status* status =
          hxplugin::matmul_transposes(create, &out->transpose_a, &out->transpose_b)) {
    return status;
  }
  if (hx_status* status = create.attr_bool("allow_tf32", &allow_tf32)) return status;
  switch (dtype) {
    case HX_DTYPE_F32:
      out->data_type = CUDA_R_32F;
      out->compute_type = allow_tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
      break;
    case HX_DTYPE_F64:
      out->data_type = CUDA_R_64F;
      out->compute_type = CUBLAS_COMPUTE_64F;
      break;
    case HX_DTYPE_F16:
      out->data_type = CUDA_R_16F;
      out->compute_type = CUBLAS_COMPUTE_32F;
      break;
    case HX_DTYPE_BF16:
      out->data_type = CUDA_R_16BF;
      out->compute_type = CUBLAS_COMPUTE_32F;
      break;
    default:
      return create.error(HX_UNIMPLEMENTED, "MatMul on GPU: no %s kernel (float types only)",
                          hx_dtype_name(dtype));
  }
  // cuBLAS is loaded here, the first time a MatMul is placed on a GPU, not when the plugin
  // loads. Without it the op falls back to another device, saying why.
  const char* why = nullptr;
  out->cublas = cublas_library(&why);
  if (out->cublas == nullptr) return create.error(HX_UNIMPLEMENTED, "MatMul on GPU: %s", why);
  return nullptr;
}

hx_status* matmul_check(const hxplugin::KernelCall& call) {
  const hx_tensor_view& a = call.input(0);
  const hx_tensor_view& b = call.input(1);
  if (hx_status* status = hxplugin::matmul_matrices_only(call, "MatMul on GPU")) return status;
  for (const int64_t extent : {a.shape[0], a.shape[1], b.shape[0], b.shape[1]}) {
    if (extent > INT_MAX) {
      return call.error(HX_UNIMPLEMENTED,
                        "MatMul on GPU: extent %lld exceeds cuBLAS's 32-bit limit of %d",
                        static_cast<long long>(extent), INT_MAX);
    }
  }
  return nullptr;
}

hx_status* matmul_kernel(const GpuKernelCall& call, const MatMulState& state) {
  const hx_tensor_view& a = call.input(0);
  const hx_tensor_view& b = call.input(1);
  const hx_tensor_view& c = call.output(0);
  hxplugin::MatMulDims dims{};
  if (hx_status* status =
          hxplugin::matmul_dims(call, state.transpose_a, state.transpose_b, &dims)) {
    return status;
  }
  if (dims.m == 0 || dims.n == 0) return nullptr;
  if (dims.k == 0) {  // an empty sum; cuBLAS is not asked, since its leading dimensions would be 0
    const size_t bytes = static_cast<size_t>(dims.m * dims.n) * hx_dtype_size(c.dtype);
    return call.cuda_status(
        cudaMemsetAsync(hxplugin::element_address(c), 0, bytes, call.stream()), "cudaMemsetAsync");
  }
  // check declined larger extents; a core that skipped it gets an error, not a wrapped int.
  if (hx_status* status = matmul_check(call)) return status;
  const RowMajorGemm gemm{static_cast<int>(dims.m), static_cast<int>(dims.n),
                          static_cast<int>(dims.k), static_cast<int>(a.shape[1]),
                          static_cast<int>(b.shape[1])};
  return run_gemm(call, state, gemm);
}

}  // namespace hxcuda::kernels

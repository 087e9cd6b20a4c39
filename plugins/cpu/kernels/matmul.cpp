// MatMul through OpenBLAS GEMM. The transposes are read once, at create; check declines the
// matrices whose extents BLAS's int arguments cannot carry, so that they run elsewhere.
#include <cblas.h>
#include <hxplugin/kernel_create.hpp>
#include <hxplugin/matmul_dims.hpp>

#include <climits>
#include <cstring>
#include <initializer_list>

#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

struct MatMulInstance {
  bool transpose_a;
  bool transpose_b;
};

struct GemmShape {
  int m, n, k;
  int lda, ldb;  // row strides of a and b as stored, i.e. before the transposes
};

void gemm(const GemmShape& shape, bool transpose_a, bool transpose_b, const float* a,
          const float* b, float* c) {
  cblas_sgemm(CblasRowMajor, transpose_a ? CblasTrans : CblasNoTrans,
              transpose_b ? CblasTrans : CblasNoTrans, shape.m, shape.n, shape.k, 1.0f, a,
              shape.lda, b, shape.ldb, 0.0f, c, shape.n);
}

void gemm(const GemmShape& shape, bool transpose_a, bool transpose_b, const double* a,
          const double* b, double* c) {
  cblas_dgemm(CblasRowMajor, transpose_a ? CblasTrans : CblasNoTrans,
              transpose_b ? CblasTrans : CblasNoTrans, shape.m, shape.n, shape.k, 1.0, a,
              shape.lda, b, shape.ldb, 0.0, c, shape.n);
}

}  // namespace

hx_status* matmul_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const hxplugin::KernelCreate create(*args,
                                      *static_cast<const CpuPlugin*>(args->user_data)->services);
  MatMulInstance instance{};
  if (hx_status* status =
          hxplugin::matmul_transposes(create, &instance.transpose_a, &instance.transpose_b)) {
    return status;
  }
  *out_instance = hxplugin::to_instance(new MatMulInstance(instance));
  return nullptr;
}

void matmul_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<MatMulInstance>(instance, user_data);
}

hx_status* matmul_check(const hx_kernel_args* args) {
  const KernelCall call(args);
  for (size_t i = 0; i < 2; ++i) {
    const hx_tensor_view& operand = call.input(i);
    for (int32_t axis = 0; axis < operand.rank; ++axis) {
      if (operand.shape[axis] > INT_MAX) {
        return call.error(HX_UNIMPLEMENTED,
                          "MatMul on CPU: extent %lld of input %zu exceeds the BLAS interface's "
                          "limit of %d",
                          static_cast<long long>(operand.shape[axis]), i, INT_MAX);
      }
    }
  }
  return nullptr;
}

hx_status* matmul_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const MatMulInstance& instance = hxplugin::instance_of<MatMulInstance>(call.instance());
  const bool transpose_a = instance.transpose_a;
  const bool transpose_b = instance.transpose_b;

  const hx_tensor_view& a = call.input(0);
  const hx_tensor_view& b = call.input(1);
  const hx_tensor_view& c = call.output(0);
  if (a.rank != 2 || b.rank != 2 || c.rank != 2 || a.dtype != b.dtype || a.dtype != c.dtype) {
    return call.error(HX_INVALID_ARGUMENT,
                      "MatMul: expected three rank-2 tensors of one dtype, got ranks %d, %d -> "
                      "%d",
                      a.rank, b.rank, c.rank);
  }
  hxplugin::MatMulDims dims{};
  if (hx_status* status = hxplugin::matmul_dims(call, transpose_a, transpose_b, &dims)) {
    return status;
  }
  const int64_t m = dims.m;
  const int64_t n = dims.n;
  const int64_t k = dims.k;
  if (m == 0 || n == 0) return nullptr;
  if (k == 0) {  // an empty sum; BLAS is not asked, since lda would be 0
    std::memset(output_data<char>(c), 0, static_cast<size_t>(m * n) * hx_dtype_size(c.dtype));
    return nullptr;
  }
  for (const int64_t extent : {a.shape[0], a.shape[1], b.shape[0], b.shape[1]}) {
    if (extent > INT_MAX) {  // check declined these; a core that skips check gets an error
      return call.error(HX_INVALID_ARGUMENT,
                        "MatMul: extent %lld exceeds the BLAS interface's limit of %d",
                        static_cast<long long>(extent), INT_MAX);
    }
  }
  const GemmShape shape{static_cast<int>(m), static_cast<int>(n), static_cast<int>(k),
                        static_cast<int>(a.shape[1]), static_cast<int>(b.shape[1])};
  switch (a.dtype) {
    case HX_DTYPE_F32:
      gemm(shape, transpose_a, transpose_b, input_data<float>(a), input_data<float>(b),
           output_data<float>(c));
      return nullptr;
    case HX_DTYPE_F64:
      gemm(shape, transpose_a, transpose_b, input_data<double>(a), input_data<double>(b),
           output_data<double>(c));
      return nullptr;
    default:
      return call.error(HX_INVALID_ARGUMENT, "MatMul: the CPU kernel has no %s variant",
                        hx_dtype_name(a.dtype));
  }
}

}  // namespace hxcpu

// MatMul: OpenBLAS GEMM, or the small path of gemm.hpp for tiny products. The transposes are
// read once, at create; the operands' row strides are the views' own; check declines the
// matrices whose extents BLAS's int arguments cannot carry, so that they run elsewhere.
#include <hxplugin/kernel_create.hpp>
#include <hxplugin/matmul_dims.hpp>

#include <climits>
#include <cstring>

#include "kernels/element_types.hpp"
#include "blas/gemm.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

struct MatMulInstance {
  bool transpose_a;
  bool transpose_b;
};

// True when a rank-2 view's rows are contiguous (unit column stride) and do not overlap (a
// row stride of at least the row's length): what both GEMM paths read and write, with the
// row stride as their lda, ldb or ldc. The dense views the core passes always qualify.
bool has_separate_rows(const hx_tensor_view& view) {
  return view.strides[1] == 1 && view.strides[0] >= view.shape[1];
}

// The message for an operand has_separate_rows refuses; out of line, off the hot path.
__attribute__((noinline, cold)) hx_status* rows_error(const KernelCall& call) {
  const char* names[] = {"input a", "input b", "the output"};
  const hx_tensor_view* views[] = {&call.input(0), &call.input(1), &call.output(0)};
  size_t i = 0;
  while (i < 2 && has_separate_rows(*views[i])) ++i;
  return call.error(HX_INVALID_ARGUMENT,
                    "MatMul: %s has strides [%lld, %lld] for shape [%lld, %lld]; the CPU kernel "
                    "needs rows of contiguous elements that do not overlap",
                    names[i], static_cast<long long>(views[i]->strides[0]),
                    static_cast<long long>(views[i]->strides[1]),
                    static_cast<long long>(views[i]->shape[0]),
                    static_cast<long long>(views[i]->shape[1]));
}

// True when BLAS's int arguments can carry every extent and stride of `shape`.
bool fits_blas(const GemmShape& shape) {
  return shape.m <= INT_MAX && shape.n <= INT_MAX && shape.k <= INT_MAX &&
         shape.lda <= INT_MAX && shape.ldb <= INT_MAX && shape.ldc <= INT_MAX;
}

// gemm(), with takes_small_path's answer known already (the kernel asked it to choose its
// checks).
template <class T>
void run_gemm(const GemmShape& shape, bool small, const T* a, const T* b, T* c) {
  if (small) {
    small_gemm(shape, a, b, c);
  } else {
    blas_gemm(shape, a, b, c);
  }
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
  hxplugin::MatMulDims dims{};
  if (hx_status* status = hxplugin::matmul_dims(call, transpose_a, transpose_b, &dims)) {
    return status;
  }
  if (!has_separate_rows(a) || !has_separate_rows(b) || !has_separate_rows(c)) {
    return rows_error(call);
  }
  const GemmShape shape{dims.m,       dims.n,      dims.k,      a.strides[0],
                        b.strides[0], c.strides[0], transpose_a, transpose_b};
  if (shape.m == 0 || shape.n == 0) return nullptr;
  if (shape.k == 0) {  // an empty sum; neither path is asked, since lda would be 0
    const size_t element_bytes = hx_dtype_size(c.dtype);
    for (int64_t row = 0; row < shape.m; ++row) {
      std::memset(output_data<char>(c) + static_cast<size_t>(row * shape.ldc) * element_bytes, 0,
                  static_cast<size_t>(shape.n) * element_bytes);
    }
    return nullptr;
  }
  // check declined extents beyond INT_MAX; a core that skips check gets an error
  const bool small = takes_small_path(shape);
  if (!small && !fits_blas(shape)) {
    return call.error(HX_INVALID_ARGUMENT,
                      "MatMul: an extent or row stride of [%lld, %lld] x [%lld, %lld] exceeds "
                      "the BLAS interface's limit of %d",
                      static_cast<long long>(a.shape[0]), static_cast<long long>(a.shape[1]),
                      static_cast<long long>(b.shape[0]), static_cast<long long>(b.shape[1]),
                      INT_MAX);
  }
  switch (a.dtype) {
    case HX_DTYPE_F32:
      run_gemm(shape, small, input_data<float>(a), input_data<float>(b), output_data<float>(c));
      return nullptr;
    case HX_DTYPE_F64:
      run_gemm(shape, small, input_data<double>(a), input_data<double>(b),
               output_data<double>(c));
      return nullptr;
    default:
      return call.error(HX_INVALID_ARGUMENT, "MatMul: the CPU kernel has no %s variant",
                        hx_dtype_name(a.dtype));
  }
}

}  // namespace hxcpu

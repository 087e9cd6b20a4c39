// MatMul as NumPy's matmul (vectors, matrices, stacks with broadcast batch axes):
// matmul_batches.hpp plans the products, each of them OpenBLAS GEMM or the small path of
// gemm.hpp. f16 products widen each operand's matrix to float, multiply in float and round the
// result once; bf16 runs on oneDNN's matmul (dnnl/dnnl_matmul.hpp), which is faster for it,
// where the CPU has oneDNN's bf16 kernels, and as f16 does where it has not; f32 runs there
// too for the products where oneDNN beats OpenBLAS (onednn_sgemm_wins).
// The transposes are read once, at create; check declines the extents BLAS's int arguments
// cannot carry, so that those calls run elsewhere.
#include <hxplugin/kernel_create.hpp>
#include <hxplugin/matmul_dims.hpp>

#include <climits>
#include <cstring>
#include <memory>

#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"
#include "dnnl/dnnl_matmul.hpp"
#include "kernels/gemm_products.hpp"
#include "kernels/matmul_batches.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

struct MatMulInstance {
  bool transpose_a = false;
  bool transpose_b = false;
  uint32_t threads = 0;
  // oneDNN's matmuls: bf16's, and f32's where oneDNN multiplies faster (onednn_sgemm_wins);
  // where the CPU has none for bf16 (AVX2) it is widened as f16 is.
  mutable PrimitiveCache primitives;
};

// A k = 0 product: an empty sum, which neither path is asked for (lda would be 0).
void write_zeros(const MatMulBatches& plan, size_t element_bytes, char* c) {
  const GemmShape& shape = plan.gemm;
  plan.for_each([&](int64_t, int64_t, int64_t c_offset) {
    for (int64_t row = 0; row < shape.m; ++row) {
      std::memset(c + static_cast<size_t>(c_offset + row * shape.ldc) * element_bytes, 0,
                  static_cast<size_t>(shape.n) * element_bytes);
    }
  });
}

// f16 and bf16: each product rounded once, from float.
template <class Narrow>
void narrow_products(const MatMulBatches& plan, const Narrow* a, const Narrow* b, Narrow* c) {
  const GemmShape& shape = plan.gemm;
  wide_products(plan, a, b, [&](int64_t c_offset, const float* product) {
    copy_matrix(product, shape.n, c + c_offset, shape.ldc, shape.m, shape.n);
  });
}

}  // namespace

hx_status* matmul_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const hxplugin::KernelCreate create(*args,
                                      *static_cast<const CpuPlugin*>(args->user_data)->services);
  auto instance = std::make_unique<MatMulInstance>();
  instance->threads = static_cast<const CpuPlugin*>(args->user_data)->intra_op_threads;
  if (hx_status* status =
          hxplugin::matmul_transposes(create, &instance->transpose_a, &instance->transpose_b)) {
    return status;
  }
  *out_instance = hxplugin::to_instance(instance.release());
  return nullptr;
}

void matmul_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<MatMulInstance>(instance, user_data);
}

hx_status* matmul_check(const hx_kernel_args* args) {
  return blas_extents_check(KernelCall(args), "MatMul");
}

hx_status* matmul_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const MatMulInstance& instance = hxplugin::instance_of<MatMulInstance>(call.instance());
  const hx_tensor_view& a = call.input(0);
  const hx_tensor_view& b = call.input(1);
  const hx_tensor_view& c = call.output(0);
  // Two dense float matrices, the tiny op of every benchmark and most layers: one GEMM, without
  // planning batches, whose checks cost a 2x2 product more than its arithmetic.
  if (a.rank == 2 && b.rank == 2 && a.dtype == c.dtype &&
      (a.dtype == HX_DTYPE_F32 || a.dtype == HX_DTYPE_F64)) {
    hxplugin::MatMulDims dims{};
    if (hx_status* status =
            hxplugin::matmul_dims(call, instance.transpose_a, instance.transpose_b, &dims)) {
      return status;
    }
    const GemmShape shape{dims.m,       dims.n,       dims.k,
                          a.strides[0], b.strides[0], c.strides[0],
                          instance.transpose_a, instance.transpose_b};
    const bool dense = a.strides[1] == 1 && b.strides[1] == 1 && c.strides[1] == 1 &&
                       a.strides[0] >= a.shape[1] && b.strides[0] >= b.shape[1] &&
                       c.strides[0] >= c.shape[1] && shape.m > 0 && shape.n > 0 && shape.k > 0;
    if (dense && takes_small_path(shape)) {
      if (a.dtype == HX_DTYPE_F32) {
        small_gemm(shape, input_data<float>(a), input_data<float>(b), output_data<float>(c));
      } else {
        small_gemm(shape, input_data<double>(a), input_data<double>(b), output_data<double>(c));
      }
      return nullptr;
    }
  }
  MatMulBatches plan;
  if (hx_status* status =
          plan_matmul(call, "MatMul", instance.transpose_a, instance.transpose_b, &plan)) {
    return status;
  }
  const GemmShape& shape = plan.gemm;
  if (plan.count == 0 || shape.m == 0 || shape.n == 0) return nullptr;
  if (shape.k == 0) {
    write_zeros(plan, hx_dtype_size(c.dtype), output_data<char>(c));
    return nullptr;
  }
  // check declined extents beyond INT_MAX; a core that skips check gets an error
  if (!takes_small_path(shape) && !fits_blas(shape)) {
    return call.error(HX_INVALID_ARGUMENT,
                      "MatMul: a product of %lld x %lld by %lld x %lld, or a row stride, "
                      "exceeds the BLAS interface's limit of %d",
                      static_cast<long long>(shape.m), static_cast<long long>(shape.k),
                      static_cast<long long>(shape.k), static_cast<long long>(shape.n), INT_MAX);
  }
  switch (a.dtype) {
    case HX_DTYPE_F32:
      if (onednn_sgemm_wins(shape)) {
        try {
          const std::shared_ptr<const Prepared> prepared =
              cached_dnnl_matmul(instance.primitives, call, instance.transpose_a,
                                 instance.transpose_b, instance.threads);
          if (prepared->primitive) {
            return run_prepared(call, "MatMul", *prepared, instance.threads);
          }
        } catch (const dnnl::error& error) {
          return dnnl_error(call, "MatMul", error);
        }
      }
      products(plan, input_data<float>(a), input_data<float>(b), output_data<float>(c));
      return nullptr;
    case HX_DTYPE_F64:
      products(plan, input_data<double>(a), input_data<double>(b), output_data<double>(c));
      return nullptr;
    case HX_DTYPE_F16:
      narrow_products(plan, input_data<Half>(a), input_data<Half>(b), output_data<Half>(c));
      return nullptr;
    case HX_DTYPE_BF16: {
      std::shared_ptr<const Prepared> prepared;
      try {
        prepared = cached_dnnl_matmul(instance.primitives, call, instance.transpose_a,
                                      instance.transpose_b, instance.threads);
        if (prepared->primitive) return run_prepared(call, "MatMul", *prepared, instance.threads);
      } catch (const dnnl::error& error) {
        return dnnl_error(call, "MatMul", error);
      }
      narrow_products(plan, input_data<BFloat16>(a), input_data<BFloat16>(b),
                      output_data<BFloat16>(c));
      return nullptr;
    }
    default:
      return call.error(HX_INVALID_ARGUMENT, "MatMul: the CPU kernel has no %s variant",
                        hx_dtype_name(a.dtype));
  }
}

}  // namespace hxcpu

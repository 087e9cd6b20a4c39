// Gemm: Y = alpha * op(A) x op(B) + beta * C. The product is MatMul's (a plan of one product,
// gemm_products.hpp); the scaling and C follow in one pass over Y, which costs M x N next to
// the product's M x N x K. C arrives as given (it broadcasts one way, which the core does not
// expand), so it is read at strides of 0 along the axes it repeats. A network's layer (f32,
// alpha and beta 1, several rows and columns) runs on oneDNN's matmul with C as its bias
// instead: faster than OpenBLAS's SGEMM there, and C added as the product is written.
// FusedGemm is the same kernel with an activation, which oneDNN applies as a post-op and the
// other paths in their last pass over Y. MatMulBias is too, its call read as Gemm's
// (hxplugin/matmul_bias_as_gemm.hpp); its absent attributes are Gemm's defaults.
#include <hxplugin/kernel_create.hpp>
#include <hxplugin/matmul_bias_as_gemm.hpp>

#include <cstring>
#include <memory>

#include "dnnl/dnnl_matmul.hpp"
#include "kernels/element_types.hpp"
#include "kernels/fused_activation.hpp"
#include "kernels/gemm_products.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"
#include "kernels/matmul_batches.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

struct GemmInstance {
  const char* op = "Gemm";  // the op the kernel was made for, as its messages name it
  bool trans_a = false;
  bool trans_b = false;
  double alpha = 1.0;
  double beta = 1.0;
  FusedActivation activation;  // FusedGemm's; none for Gemm
  uint32_t threads = 0;
  mutable PrimitiveCache primitives;  // the layers' oneDNN matmuls (on_onednn)
};

// C's steps along Y's rows and columns: 0 where it repeats.
struct Addend {
  const void* data = nullptr;  // nullptr: no C, or beta = 0 with C ignored
  int64_t row_step = 0;
  int64_t column_step = 0;
};

Addend addend_of(const KernelCall& call, double beta, int64_t m, int64_t n) {
  Addend addend;
  if (call.num_inputs() < 3 || beta == 0) return addend;
  const hx_tensor_view& c = call.input(2);
  addend.data = input_data<char>(c);
  if (c.rank >= 1 && c.shape[c.rank - 1] == n) addend.column_step = c.strides[c.rank - 1];
  if (c.rank == 2 && c.shape[0] == m) addend.row_step = c.strides[0];
  return addend;
}

// y = activation(alpha * product + beta * c), in the product's type W, rounded once to Y's type.
template <class W, class T>
void finish(const GemmInstance& gemm, const W* product, int64_t product_stride, T* y,
            int64_t y_stride, int64_t m, int64_t n, const Addend& addend) {
  const W alpha = static_cast<W>(gemm.alpha);
  const W beta = static_cast<W>(gemm.beta);
  const T* c = static_cast<const T*>(addend.data);
  for (int64_t i = 0; i < m; ++i) {
    const W* in = product + i * product_stride;
    T* out = y + i * y_stride;
    if (c == nullptr) {
      for (int64_t j = 0; j < n; ++j) {
        out[j] = convert_element<T>(gemm.activation.apply(alpha * in[j]));
      }
    } else {
      const T* c_row = c + i * addend.row_step;
      for (int64_t j = 0; j < n; ++j) {
        out[j] = convert_element<T>(gemm.activation.apply(
            alpha * in[j] + beta * convert_element<W>(c_row[j * addend.column_step])));
      }
    }
  }
}

// f32 and f64: the product written to Y, then finished in place.
template <class T>
void gemm_wide(const GemmInstance& gemm, const MatMulBatches& plan, const KernelCall& call,
               const Addend& addend) {
  const GemmShape& shape = plan.gemm;
  T* y = output_data<T>(call.output(0));
  if (shape.k == 0) {
    for (int64_t i = 0; i < shape.m; ++i) {
      std::memset(y + i * shape.ldc, 0, static_cast<size_t>(shape.n) * sizeof(T));
    }
  } else {
    products(plan, input_data<T>(call.input(0)), input_data<T>(call.input(1)), y);
  }
  if (gemm.alpha == 1 && addend.data == nullptr &&
      gemm.activation.kind == FusedActivation::Kind::kNone) {
    return;
  }
  finish(gemm, static_cast<const T*>(y), shape.ldc, y, shape.ldc, shape.m, shape.n, addend);
}

// Whether an f32 call runs on oneDNN: a plain layer (alpha 1, C absent or added as it is) of
// a product that oneDNN multiplies faster.
bool on_onednn(const GemmInstance& gemm, const GemmShape& shape, const Addend& addend) {
  return gemm.alpha == 1 && (addend.data == nullptr || gemm.beta == 1) &&
         onednn_sgemm_wins(shape);
}

template <class Narrow>
void gemm_narrow(const GemmInstance& gemm, const MatMulBatches& plan, const KernelCall& call,
                 const Addend& addend) {
  const GemmShape& shape = plan.gemm;
  Narrow* y = output_data<Narrow>(call.output(0));
  wide_products(plan, input_data<Narrow>(call.input(0)), input_data<Narrow>(call.input(1)),
                [&](int64_t, const float* product) {
                  finish(gemm, product, shape.n, y, shape.ldc, shape.m, shape.n, addend);
                });
}

}  // namespace

namespace {

hx_status* create_gemm(const hx_kernel_create_args* args, const char* fused_op,
                       hx_kernel_instance** out_instance) {
  const hxplugin::KernelCreate create(*args,
                                      *static_cast<const CpuPlugin*>(args->user_data)->services);
  auto instance = std::make_unique<GemmInstance>();
  if (fused_op != nullptr) {
    instance->op = fused_op;
    if (hx_status* status = read_fused_activation(create, fused_op, &instance->activation)) {
      return status;
    }
  }
  instance->threads = static_cast<const CpuPlugin*>(args->user_data)->intra_op_threads;
  int64_t trans_a = 0;
  int64_t trans_b = 0;
  if (hx_status* status = create.attr_int("transA", &trans_a)) return status;
  if (hx_status* status = create.attr_int("transB", &trans_b)) return status;
  if (hx_status* status = create.attr_float("alpha", &instance->alpha)) return status;
  if (hx_status* status = create.attr_float("beta", &instance->beta)) return status;
  instance->trans_a = trans_a != 0;
  instance->trans_b = trans_b != 0;
  *out_instance = hxplugin::to_instance(instance.release());
  return nullptr;
}

}  // namespace

hx_status* gemm_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  return create_gemm(args, nullptr, out_instance);
}

hx_status* fused_gemm_create(const hx_kernel_create_args* args,
                             hx_kernel_instance** out_instance) {
  return create_gemm(args, "FusedGemm", out_instance);
}

hx_status* matmul_bias_create(const hx_kernel_create_args* args,
                              hx_kernel_instance** out_instance) {
  return create_gemm(args, "MatMulBias", out_instance);
}

void gemm_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<GemmInstance>(instance, user_data);
}

hx_status* gemm_check(const hx_kernel_args* args) {
  return blas_extents_check(KernelCall(args), "Gemm");
}

hx_status* gemm_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const GemmInstance& gemm = hxplugin::instance_of<GemmInstance>(call.instance());
  const hx_tensor_view& a = call.input(0);
  MatMulBatches plan;
  if (hx_status* status = plan_matmul(call, gemm.op, gemm.trans_a, gemm.trans_b, &plan)) {
    return status;
  }
  const GemmShape& shape = plan.gemm;
  if (a.rank != 2 || plan.count != 1) {
    return call.error(HX_INVALID_ARGUMENT, "%s: A and B must be matrices, got ranks %d and %d",
                      gemm.op, static_cast<int>(a.rank), static_cast<int>(call.input(1).rank));
  }
  if (shape.m == 0 || shape.n == 0) return nullptr;
  if (!takes_small_path(shape) && !fits_blas(shape)) {
    return call.error(HX_INVALID_ARGUMENT,
                      "%s: a product of %lld x %lld by %lld x %lld, or a row stride, exceeds "
                      "the BLAS interface's limit of %d",
                      gemm.op, static_cast<long long>(shape.m), static_cast<long long>(shape.k),
                      static_cast<long long>(shape.k), static_cast<long long>(shape.n), INT_MAX);
  }
  const Addend addend = addend_of(call, gemm.beta, shape.m, shape.n);
  if (addend.data != nullptr && call.input(2).dtype != a.dtype) {
    return call.error(HX_INVALID_ARGUMENT, "%s: C is %s but A is %s", gemm.op,
                      hx_dtype_name(call.input(2).dtype), hx_dtype_name(a.dtype));
  }
  if (a.dtype == HX_DTYPE_F32 && on_onednn(gemm, shape, addend)) {
    try {
      const std::shared_ptr<const Prepared> prepared = cached_dnnl_matmul(
          gemm.primitives, call, gemm.trans_a, gemm.trans_b, gemm.threads, addend.data != nullptr,
          gemm.activation);
      if (prepared->primitive) return run_prepared(call, gemm.op, *prepared, gemm.threads);
    } catch (const dnnl::error& error) {
      return dnnl_error(call, gemm.op, error);
    }
  }
  switch (a.dtype) {
    case HX_DTYPE_F32: gemm_wide<float>(gemm, plan, call, addend); return nullptr;
    case HX_DTYPE_F64: gemm_wide<double>(gemm, plan, call, addend); return nullptr;
    case HX_DTYPE_F16: gemm_narrow<Half>(gemm, plan, call, addend); return nullptr;
    case HX_DTYPE_BF16: gemm_narrow<BFloat16>(gemm, plan, call, addend); return nullptr;
    default:
      return call.error(HX_INVALID_ARGUMENT, "%s: the CPU kernel has no %s variant", gemm.op,
                        hx_dtype_name(a.dtype));
  }
}

hx_status* matmul_bias_check(const hx_kernel_args* args) {
  return gemm_check(hxplugin::MatMulBiasAsGemm(*args).args());
}

hx_status* matmul_bias_kernel(const hx_kernel_args* args) {
  return gemm_kernel(hxplugin::MatMulBiasAsGemm(*args).args());
}

}  // namespace hxcpu

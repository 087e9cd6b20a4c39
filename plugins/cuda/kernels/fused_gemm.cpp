// FusedGemm on cuBLASLt: Y = activation(alpha * op(A) x op(B) + beta * C) for f32, f16 and
// bf16, accumulating in f32 (f32 without TF32, as MatMul, matmul.cpp). One cublasLtMatmul
// computes the product and C, which is either a bias vector of Y's columns ([N] or [1, N] with
// beta 1: the BIAS epilogue) or a matrix of Y's shape (cuBLASLt's C, scaled by beta), and Relu
// where the epilogue can (RELU_BIAS, RELU); the other activations, and the bias where cuBLASLt
// refuses its epilogue, are the plugin's own pass over Y (bias_activation.cu). cuBLASLt's GELU
// epilogue is not used: it is the tanh approximation, and the core's Gelu is the erf form. Any
// other C is declined, and the op falls back to another device.
//
// Layout: hxrt's tensors are row-major and cuBLASLt's column-major, so Y^T = op(B)^T op(A)^T
// is computed as matmul.cpp computes MatMul: B as cuBLASLt's A, A as its B, m and n swapped.
// Y's columns are then the rows of cuBLASLt's D, which is what its bias vector runs along.
//
// Each combination of shapes and of its operands' alignment gets a plan at its first call: the
// descriptors and the algorithm cuBLASLt's heuristics choose within the stream's workspace.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/dtypes.hpp"
#include "kernels/kernels.hpp"
#include "kernels/library_object.hpp"

namespace hxcuda::kernels {

using MatmulDescriptor = LibraryObject<cublasLtMatmulDesc_t, cublasStatus_t>;
using MatrixLayout = LibraryObject<cublasLtMatrixLayout_t, cublasStatus_t>;
using MatmulPreference = LibraryObject<cublasLtMatmulPreference_t, cublasStatus_t>;

struct GemmPlan {
  MatmulDescriptor matmul;  // its bias pointer is set per call, under the lease's lock
  MatrixLayout a, b, y;     // cuBLASLt's A (our B), B (our A), and C and D (Y's shape)
  cublasLtMatmulAlgo_t algorithm{};
  bool epilogue_bias = false;  // cuBLASLt adds the bias vector
  bool epilogue_relu = false;  // cuBLASLt applies Relu
};

namespace {

constexpr char kFusedGemmOp[] = "FusedGemm";

// What C is to the product.
enum class Addend { kNone, kBias, kMatrix };

struct GemmShapes {
  int64_t m = 0, n = 0, k = 0;
  Addend addend = Addend::kNone;
};

std::string gemm_shape_text(const hx_tensor_view& view) {
  std::string text = "[";
  for (int32_t axis = 0; axis < view.rank; ++axis) {
    text += (axis > 0 ? ", " : "") + std::to_string(view.shape[axis]);
  }
  return text + "]";
}

hx_status* gemm_shapes(const hxplugin::KernelCall& call, const FusedGemmState& state,
                       GemmShapes* out) {
  const hx_tensor_view& a = call.input(0);
  const hx_tensor_view& b = call.input(1);
  const hx_tensor_view& y = call.output(0);
  if (a.rank != 2 || b.rank != 2 || y.rank != 2) {
    return call.error(HX_INVALID_ARGUMENT, "%s: A, B and Y must be matrices", kFusedGemmOp);
  }
  for (size_t i = 0; i < call.num_inputs(); ++i) {
    if (!hxplugin::is_dense(call.input(i))) {
      return call.error(HX_UNIMPLEMENTED, "%s on GPU: the cuBLASLt kernel takes dense tensors",
                        kFusedGemmOp);
    }
  }
  out->m = a.shape[state.transpose_a ? 1 : 0];
  out->k = a.shape[state.transpose_a ? 0 : 1];
  out->n = b.shape[state.transpose_b ? 0 : 1];
  if (b.shape[state.transpose_b ? 1 : 0] != out->k || y.shape[0] != out->m ||
      y.shape[1] != out->n) {
    return call.error(HX_INVALID_ARGUMENT, "%s: A, B and Y's shapes disagree", kFusedGemmOp);
  }
  out->addend = Addend::kNone;
  if (call.num_inputs() < 3 || state.beta == 0.0f) return nullptr;  // C ignored, as the CPU does
  const hx_tensor_view& c = call.input(2);
  const bool row = (c.rank == 1 && c.shape[0] == out->n) ||
                   (c.rank == 2 && c.shape[0] == 1 && c.shape[1] == out->n);
  if (c.rank == 2 && c.shape[0] == out->m && c.shape[1] == out->n) {
    out->addend = Addend::kMatrix;
  } else if (row && state.beta == 1.0f) {
    out->addend = Addend::kBias;
  } else {
    return call.error(HX_UNIMPLEMENTED,
                      "%s on GPU: C of shape %s with beta %g; cuBLASLt adds a vector of the "
                      "output's columns ([N] or [1, N], with beta 1) or a matrix of its shape "
                      "[%lld, %lld]",
                      kFusedGemmOp, gemm_shape_text(c).c_str(), static_cast<double>(state.beta),
                      static_cast<long long>(out->m), static_cast<long long>(out->n));
  }
  if (out->k == 0 && out->addend == Addend::kMatrix) {
    return call.error(HX_UNIMPLEMENTED,
                      "%s on GPU: a product of K = 0 with a matrix C (beta * C alone) is not "
                      "computed here",
                      kFusedGemmOp);
  }
  return nullptr;
}

cudaDataType_t lt_data_type(int32_t dtype) {
  switch (dtype) {
    case HX_DTYPE_F16:
      return CUDA_R_16F;
    case HX_DTYPE_BF16:
      return CUDA_R_16BF;
    default:
      return CUDA_R_32F;
  }
}

// The alignment cuBLASLt may count on for every operand of the call: the largest power of two,
// up to 256 bytes (the alignment of hxrt's device tensors), dividing every address.
uint32_t common_alignment(const GpuKernelCall& call) {
  uintptr_t bits = 256;
  for (size_t i = 0; i < call.num_inputs(); ++i) {
    bits |= reinterpret_cast<uintptr_t>(hxplugin::element_address(call.input(i)));
  }
  bits |= reinterpret_cast<uintptr_t>(hxplugin::element_address(call.output(0)));
  return static_cast<uint32_t>(bits & (~bits + 1));
}

template <class Value>
cublasStatus_t set_matmul(const CublasLtLibrary& lt, const MatmulDescriptor& matmul,
                          cublasLtMatmulDescAttributes_t attribute, const Value& value) {
  return lt.set_matmul_attribute(matmul.get(), attribute, &value, sizeof value);
}

template <class Value>
cublasStatus_t set_preference(const CublasLtLibrary& lt, const MatmulPreference& preference,
                              cublasLtMatmulPreferenceAttributes_t attribute, const Value& value) {
  return lt.set_preference_attribute(preference.get(), attribute, &value, sizeof value);
}

hx_status* make_layout(const hx_core_services& services, const CublasLtLibrary& lt,
                       cudaDataType_t type, int64_t rows, int64_t columns, MatrixLayout* out) {
  // A row-major matrix of `rows` x `columns` is cuBLASLt's column-major one of `columns` x
  // `rows`, whose leading dimension is `columns`.
  cublasLtMatrixLayout_t layout = nullptr;
  if (hx_status* status =
          cublaslt_error(services, lt,
                         lt.create_layout(&layout, type, static_cast<uint64_t>(columns),
                                          static_cast<uint64_t>(rows), columns),
                         "cublasLtMatrixLayoutCreate")) {
    return status;
  }
  *out = MatrixLayout(layout, lt.destroy_layout);
  return nullptr;
}

// The matmul descriptor with `epilogue` and cuBLASLt's choice of algorithm for it, in *plan;
// NULL, or the status of the call that failed (CUBLAS_STATUS_NOT_SUPPORTED: no algorithm).
hx_status* try_epilogue(const GpuKernelCall& call, const FusedGemmState& state,
                        const CublasLtLease& lease, cublasLtEpilogue_t epilogue, uint32_t alignment,
                        GemmPlan* plan) {
  const hx_core_services& services = *call.env().services;
  const CublasLtLibrary& lt = *state.cublaslt;
  cublasLtMatmulDesc_t made = nullptr;
  if (hx_status* status =
          cublaslt_error(services, lt, lt.create_matmul(&made, CUBLAS_COMPUTE_32F, CUDA_R_32F),
                         "cublasLtMatmulDescCreate")) {
    return status;
  }
  plan->matmul = MatmulDescriptor(made, lt.destroy_matmul);
  const cublasOperation_t transpose_a = state.transpose_b ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t transpose_b = state.transpose_a ? CUBLAS_OP_T : CUBLAS_OP_N;
  // The heuristics read the bias pointer for its alignment only: the call's own is set per
  // call, so the plan is chosen for the alignment that every call of the plan has.
  const void* bias_alignment = reinterpret_cast<const void*>(uintptr_t{alignment});
  cublasStatus_t status = set_matmul(lt, plan->matmul, CUBLASLT_MATMUL_DESC_TRANSA, transpose_a);
  if (status == CUBLAS_STATUS_SUCCESS) {
    status = set_matmul(lt, plan->matmul, CUBLASLT_MATMUL_DESC_TRANSB, transpose_b);
  }
  if (status == CUBLAS_STATUS_SUCCESS) {
    status = set_matmul(lt, plan->matmul, CUBLASLT_MATMUL_DESC_EPILOGUE, epilogue);
  }
  const bool bias = epilogue == CUBLASLT_EPILOGUE_BIAS || epilogue == CUBLASLT_EPILOGUE_RELU_BIAS;
  if (status == CUBLAS_STATUS_SUCCESS && bias) {
    status = set_matmul(lt, plan->matmul, CUBLASLT_MATMUL_DESC_BIAS_POINTER, bias_alignment);
  }
  if (hx_status* failed = cublaslt_error(services, lt, status, "cublasLtMatmulDescSetAttribute")) {
    return failed;
  }
  cublasLtMatmulPreference_t made_preference = nullptr;
  if (hx_status* failed = cublaslt_error(services, lt, lt.create_preference(&made_preference),
                                         "cublasLtMatmulPreferenceCreate")) {
    return failed;
  }
  const MatmulPreference preference(made_preference, lt.destroy_preference);
  const uint64_t workspace = lease.workspace_size();
  status = set_preference(lt, preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, workspace);
  for (const cublasLtMatmulPreferenceAttributes_t attribute :
       {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
        CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES}) {
    if (status == CUBLAS_STATUS_SUCCESS) {
      status = set_preference(lt, preference, attribute, alignment);
    }
  }
  if (hx_status* failed =
          cublaslt_error(services, lt, status, "cublasLtMatmulPreferenceSetAttribute")) {
    return failed;
  }
  cublasLtMatmulHeuristicResult_t result{};
  int found = 0;
  status = lt.heuristic(lease.handle(), plan->matmul.get(), plan->a.get(), plan->b.get(),
                        plan->y.get(), plan->y.get(), preference.get(), 1, &result, &found);
  if (status == CUBLAS_STATUS_SUCCESS && (found == 0 || result.state != CUBLAS_STATUS_SUCCESS)) {
    status = CUBLAS_STATUS_NOT_SUPPORTED;
  }
  if (hx_status* failed = cublaslt_error(services, lt, status, "cublasLtMatmulAlgoGetHeuristic")) {
    return failed;
  }
  plan->algorithm = result.algo;
  plan->epilogue_bias = bias;
  plan->epilogue_relu =
      epilogue == CUBLASLT_EPILOGUE_RELU || epilogue == CUBLASLT_EPILOGUE_RELU_BIAS;
  return nullptr;
}

hx_status* make_gemm_plan(const GpuKernelCall& call, const FusedGemmState& state,
                          const GemmShapes& shapes, const CublasLtLease& lease, uint32_t alignment,
                          GemmPlan* plan) {
  const hx_core_services& services = *call.env().services;
  const CublasLtLibrary& lt = *state.cublaslt;
  const cudaDataType_t type = lt_data_type(state.dtype);
  const hx_tensor_view& a = call.input(0);
  const hx_tensor_view& b = call.input(1);
  hx_status* status = make_layout(services, lt, type, b.shape[0], b.shape[1], &plan->a);
  if (status == nullptr) status = make_layout(services, lt, type, a.shape[0], a.shape[1], &plan->b);
  if (status == nullptr) status = make_layout(services, lt, type, shapes.m, shapes.n, &plan->y);
  if (status != nullptr) return status;
  const bool bias = shapes.addend == Addend::kBias;
  const bool relu = state.activation.kind == Activation::kRelu;
  const cublasLtEpilogue_t fused =
      bias ? (relu ? CUBLASLT_EPILOGUE_RELU_BIAS : CUBLASLT_EPILOGUE_BIAS)
           : (relu ? CUBLASLT_EPILOGUE_RELU : CUBLASLT_EPILOGUE_DEFAULT);
  status = try_epilogue(call, state, lease, fused, alignment, plan);
  if (status == nullptr || fused == CUBLASLT_EPILOGUE_DEFAULT) return status;
  // No algorithm with the epilogue (or a refusal of it): the plain product, and the plugin's
  // own pass for the bias and the activation.
  services.status_destroy(status);
  return try_epilogue(call, state, lease, CUBLASLT_EPILOGUE_DEFAULT, alignment, plan);
}

// Y = activation(B) for K = 0, whose product is all zeros: the bias (or nothing) through the
// activation. (A matrix C with K = 0 was declined.)
hx_status* empty_product(const GpuKernelCall& call, const FusedGemmState& state,
                         const GemmShapes& shapes) {
  const hx_tensor_view& y = call.output(0);
  void* out = hxplugin::element_address(y);
  const int64_t count = shapes.m * shapes.n;
  const size_t bytes = static_cast<size_t>(count) * hx_dtype_size(y.dtype);
  if (hx_status* status =
          call.cuda_status(cudaMemsetAsync(out, 0, bytes, call.stream()), "cudaMemsetAsync")) {
    return status;
  }
  const void* bias =
      shapes.addend == Addend::kBias ? hxplugin::element_address(call.input(2)) : nullptr;
  return call.cuda_status(
      launch_bias_activation(state.dtype, state.activation.kind, state.activation.alpha, bias, out,
                             count, shapes.n, 1, call.stream()),
      "launching the bias and activation of a FusedGemm");
}

}  // namespace

hx_status* fused_gemm_create(const hxplugin::KernelCreate& create, FusedGemmState* out) {
  const int32_t dtype = create.input_dtype(0);
  if (!is_elementwise_dtype(dtype)) {
    return create.error(HX_UNIMPLEMENTED,
                        "%s on GPU: no %s kernel (float32, float16 and bfloat16 only)",
                        kFusedGemmOp, hx_dtype_name(dtype));
  }
  out->dtype = dtype;
  int64_t transpose_a = 0;
  int64_t transpose_b = 0;
  double alpha = 1.0;
  double beta = 1.0;
  if (hx_status* status = create.attr_int("transA", &transpose_a)) return status;
  if (hx_status* status = create.attr_int("transB", &transpose_b)) return status;
  if (hx_status* status = create.attr_float("alpha", &alpha)) return status;
  if (hx_status* status = create.attr_float("beta", &beta)) return status;
  out->transpose_a = transpose_a != 0;
  out->transpose_b = transpose_b != 0;
  out->alpha = static_cast<float>(alpha);
  out->beta = static_cast<float>(beta);
  if (hx_status* status = read_fused_activation(create, kFusedGemmOp, &out->activation)) {
    return status;
  }
  // cuBLASLt is loaded here, the first time the op is placed on a GPU; without it the op falls
  // back to another device, saying why.
  const char* why = nullptr;
  out->cublaslt = cublaslt_library(&why);
  if (out->cublaslt == nullptr) {
    return create.error(HX_UNIMPLEMENTED, "%s on GPU: %s", kFusedGemmOp, why);
  }
  return nullptr;
}

hx_status* fused_gemm_check(const hxplugin::KernelCall& call) {
  if (call.instance() == nullptr) {
    return call.error(HX_INVALID_ARGUMENT, "%s: checked without its instance", kFusedGemmOp);
  }
  GemmShapes shapes;
  return gemm_shapes(call, hxplugin::instance_of<FusedGemmState>(call.instance()), &shapes);
}

hx_status* fused_gemm_kernel(const GpuKernelCall& call, const FusedGemmState& state) {
  GemmShapes shapes;
  if (hx_status* status = gemm_shapes(call, state, &shapes)) return status;
  if (shapes.m == 0 || shapes.n == 0) return nullptr;
  if (shapes.k == 0) return empty_product(call, state, shapes);
  const CublasLtLibrary& lt = *state.cublaslt;
  CublasLtLease lease;
  if (hx_status* status = CublasLtLease::acquire(call.env(), lt, &lease)) return status;
  const uint32_t alignment = common_alignment(call);
  const std::vector<int64_t> key = {shapes.m, shapes.n, shapes.k,
                                    static_cast<int64_t>(shapes.addend), alignment};
  std::shared_ptr<const GemmPlan> plan;
  if (hx_status* status = find_plan(
          state.plans, key,
          [&](GemmPlan* made) {
            return make_gemm_plan(call, state, shapes, lease, alignment, made);
          },
          &plan)) {
    return status;
  }
  const hx_core_services& services = *call.env().services;
  const void* c =
      shapes.addend == Addend::kNone ? nullptr : hxplugin::element_address(call.input(2));
  void* y = hxplugin::element_address(call.output(0));
  if (plan->epilogue_bias) {
    if (hx_status* status = cublaslt_error(
            services, lt, set_matmul(lt, plan->matmul, CUBLASLT_MATMUL_DESC_BIAS_POINTER, c),
            "cublasLtMatmulDescSetAttribute")) {
      return status;
    }
  }
  // cuBLASLt reads alpha and beta (f32, the scale type) before it returns. C is read only as a
  // matrix; otherwise beta is 0 and C is Y, unread.
  const float beta = shapes.addend == Addend::kMatrix ? state.beta : 0.0f;
  if (hx_status* status = cublaslt_error(
          services, lt,
          lt.matmul(lease.handle(), plan->matmul.get(), &state.alpha,
                    hxplugin::element_address(call.input(1)), plan->a.get(),
                    hxplugin::element_address(call.input(0)), plan->b.get(), &beta,
                    shapes.addend == Addend::kMatrix ? c : y, plan->y.get(), y, plan->y.get(),
                    &plan->algorithm, lease.workspace(), lease.workspace_size(), call.stream()),
          "cublasLtMatmul")) {
    return status;
  }
  const bool bias_left = shapes.addend == Addend::kBias && !plan->epilogue_bias;
  const bool activation_left = state.activation.kind != Activation::kNone && !plan->epilogue_relu;
  if (!bias_left && !activation_left) return nullptr;
  return call.cuda_status(
      launch_bias_activation(state.dtype,
                             activation_left ? state.activation.kind : Activation::kNone,
                             state.activation.alpha, bias_left ? c : nullptr, y,
                             shapes.m * shapes.n, shapes.n, 1, call.stream()),
      "launching the bias and activation of a FusedGemm");
}

}  // namespace hxcuda::kernels

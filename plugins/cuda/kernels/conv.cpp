// Conv and FusedConv on cuDNN's convolution (its legacy API): f32, f16 and bf16, the latter two
// accumulating in f32 (cuDNN's pseudo-half and bf16 configurations). ONNX's 1-D convolution is
// cuDNN's 2-D one of height 1; 2-D and 3-D are cuDNN's own, with groups, strides, dilations
// and the pads cuDNN can give (onnx_window.hpp).
//
// The instance reads the attributes once; each combination of shapes gets a plan at its first
// call: the descriptors, and the algorithm, the fastest that cuDNN's heuristics
// (cudnnGetConvolutionForwardAlgorithm_v7, which runs nothing) offer within the stream's
// workspace. f32 computes in f32 only (CUDNN_FMA_MATH): cuDNN's default math would let it use
// TF32 tensor cores, a different answer that MatMul gives only when asked (matmul.cpp).
//
// The bias and the activation: a FusedConv of f32 with Relu and a bias is one call of
// cudnnConvolutionBiasActivationForward where cuDNN takes it; every other call is
// cudnnConvolutionForward and then the plugin's own kernel for the bias and the activation
// (bias_activation.cu), which does every activation in one pass (cuDNN has no LeakyRelu or
// Gelu). f16 and bf16 outputs are rounded once by the convolution and once more by that pass.
#include <memory>
#include <vector>

#include "kernels/cudnn_descriptors.hpp"
#include "kernels/dtypes.hpp"
#include "kernels/kernels.hpp"

namespace hxcuda::kernels {

struct ConvPlan {
  TensorDescriptor x, y;
  FilterDescriptor w;
  ConvolutionDescriptor convolution;
  cudnnConvolutionFwdAlgo_t algorithm = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
  size_t workspace_bytes = 0;
  // cudnnConvolutionBiasActivationForward, with the bias as [1, M, 1, ...] and Relu; cleared
  // when cuDNN refuses the configuration (which it says at the first call), under the device's
  // library lock that every call of the plan holds (CudnnLease).
  mutable bool fused = false;
  TensorDescriptor bias;
  ActivationDescriptor relu;
};

namespace {

hx_status* create_conv(const hxplugin::KernelCreate& create, bool fused, ConvState* out) {
  const char* op = op_name(create.args().user_data);
  const int32_t dtype = create.input_dtype(0);
  if (!is_elementwise_dtype(dtype)) {
    return create.error(HX_UNIMPLEMENTED,
                        "%s on GPU: no %s kernel (float32, float16 and bfloat16 only)", op,
                        hx_dtype_name(dtype));
  }
  out->dtype = dtype;
  if (fused) {
    if (hx_status* status = read_fused_activation(create, op, &out->activation)) return status;
  }
  if (hx_status* status = create.attr_int("group", &out->group)) return status;
  if (out->group < 1 || out->group > INT32_MAX) {
    return create.error(HX_UNIMPLEMENTED, "%s on GPU: group %lld is outside cuDNN's 1 to %d", op,
                        static_cast<long long>(out->group), INT32_MAX);
  }
  if (hx_status* status = read_onnx_window(create, &out->window)) return status;
  // cuDNN is loaded here, the first time a convolution is placed on a GPU, not when the plugin
  // loads. Without it the op falls back to another device, saying why.
  const char* why = nullptr;
  out->cudnn = cudnn_library(&why);
  if (out->cudnn == nullptr) return create.error(HX_UNIMPLEMENTED, "%s on GPU: %s", op, why);
  return nullptr;
}

// The window and cuDNN's extents of X, W and Y, or why cuDNN cannot take the call.
struct ConvShapes {
  CudnnDims x, w, y;
  CudnnWindow window;
};

hx_status* conv_shapes(const hxplugin::KernelCall& call, const ConvState& state, ConvShapes* out) {
  const char* op = op_name(call.args().user_data);
  const hx_tensor_view& x = call.input(0);
  const hx_tensor_view& w = call.input(1);
  const hx_tensor_view& y = call.output(0);
  if (w.rank != x.rank || (call.num_inputs() == 3 && !hxplugin::is_dense(call.input(2)))) {
    return call.error(HX_INVALID_ARGUMENT, "%s: W's rank is not X's, or B is not dense", op);
  }
  if (hx_status* status = cudnn_dims(call, op, x, &out->x)) return status;
  if (hx_status* status = cudnn_dims(call, op, w, &out->w)) return status;
  if (hx_status* status = cudnn_dims(call, op, y, &out->y)) return status;
  return cudnn_window(call, op, state.window, x, y, w.shape + 2, &out->window);
}

// The fastest algorithm cuDNN's heuristics offer that fits in `workspace_limit` bytes, with
// the convolution's math type set for it.
hx_status* choose_algorithm(const GpuKernelCall& call, const CudnnLibrary& cudnn,
                            cudnnHandle_t handle, size_t workspace_limit, bool f32,
                            ConvPlan* plan) {
  const hx_core_services& services = *call.env().services;
  const cudnnConvolutionDescriptor_t convolution = plan->convolution.get();
  if (f32) {
    if (hx_status* status =
            cudnn_error(services, cudnn, cudnn.set_math_type(convolution, CUDNN_FMA_MATH),
                        "cudnnSetConvolutionMathType")) {
      return status;
    }
  }
  cudnnConvolutionFwdAlgoPerf_t offered[CUDNN_CONVOLUTION_FWD_ALGO_COUNT] = {};
  int count = 0;
  if (hx_status* status = cudnn_error(
          services, cudnn,
          cudnn.forward_algorithms(handle, plan->x.get(), plan->w.get(), convolution, plan->y.get(),
                                   CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &count, offered),
          "cudnnGetConvolutionForwardAlgorithm_v7")) {
    return status;
  }
  for (int i = 0; i < count; ++i) {
    const cudnnConvolutionFwdAlgoPerf_t& candidate = offered[i];
    if (candidate.status != CUDNN_STATUS_SUCCESS) continue;
    const bool tensor_ops = candidate.mathType == CUDNN_TENSOR_OP_MATH ||
                            candidate.mathType == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION;
    if (f32 && tensor_ops) continue;
    // The math type goes with the algorithm: cuDNN picks tensor-core kernels by both.
    const cudnnMathType_t math = f32 ? CUDNN_FMA_MATH : candidate.mathType;
    if (cudnn.set_math_type(convolution, math) != CUDNN_STATUS_SUCCESS) continue;
    size_t bytes = 0;
    if (cudnn.forward_workspace_size(handle, plan->x.get(), plan->w.get(), convolution,
                                     plan->y.get(), candidate.algo,
                                     &bytes) != CUDNN_STATUS_SUCCESS ||
        bytes > workspace_limit) {
      continue;
    }
    plan->algorithm = candidate.algo;
    plan->workspace_bytes = bytes;
    return nullptr;
  }
  return call.error(HX_INTERNAL,
                    "%s on GPU: cuDNN offers no convolution algorithm for these shapes within "
                    "the workspace of %zu bytes (%d considered)",
                    call.op(), workspace_limit, count);
}

// Whether the call is one cudnnConvolutionBiasActivationForward is asked for: f32 (whose
// configuration takes an f32 bias), a bias, and Relu.
bool fuses_in_cudnn(const GpuKernelCall& call, const ConvState& state) {
  return state.dtype == HX_DTYPE_F32 && call.num_inputs() == 3 &&
         state.activation.kind == Activation::kRelu;
}

hx_status* make_conv_plan(const GpuKernelCall& call, const ConvState& state,
                          const ConvShapes& shapes, const CudnnLease& lease, ConvPlan* plan) {
  const hx_core_services& services = *call.env().services;
  const CudnnLibrary& cudnn = *state.cudnn;
  const cudnnDataType_t type = cudnn_data_type(state.dtype);
  hx_status* status = make_tensor(services, cudnn, type, shapes.x, &plan->x);
  if (status == nullptr) status = make_filter(services, cudnn, type, shapes.w, &plan->w);
  if (status == nullptr) status = make_tensor(services, cudnn, type, shapes.y, &plan->y);
  if (status == nullptr) {
    status = make_convolution(services, cudnn, shapes.window, static_cast<int>(state.group),
                              &plan->convolution);
  }
  if (status == nullptr) {
    status = choose_algorithm(call, cudnn, lease.handle(), lease.workspace_size(),
                              state.dtype == HX_DTYPE_F32, plan);
  }
  if (status != nullptr || !fuses_in_cudnn(call, state)) return status;
  CudnnDims bias{shapes.y.rank, {1, 1, 1, 1, 1}};
  bias.extents[1] = shapes.y.extents[1];
  status = make_tensor(services, cudnn, type, bias, &plan->bias);
  if (status == nullptr) {
    status = make_activation(services, cudnn, CUDNN_ACTIVATION_RELU, &plan->relu);
  }
  plan->fused = status == nullptr;
  return status;
}

// The call's key among the instance's plans: the extents of X, W and Y, and whether B is given.
std::vector<int64_t> conv_plan_key(const GpuKernelCall& call) {
  std::vector<int64_t> key;
  for (const hx_tensor_view* view : {&call.input(0), &call.input(1), &call.output(0)}) {
    key.insert(key.end(), view->shape, view->shape + view->rank);
  }
  key.push_back(static_cast<int64_t>(call.num_inputs()));
  return key;
}

// A refusal of cudnnConvolutionBiasActivationForward made before anything was enqueued (a
// configuration it does not take), after which the unfused calls compute the same.
bool refused(cudnnStatus_t status) {
  const int category = static_cast<int>(status) / 1000 * 1000;
  return category == CUDNN_STATUS_BAD_PARAM || category == CUDNN_STATUS_NOT_SUPPORTED;
}

// Y = activation(X * W + B) through `plan`, on the lease's stream.
hx_status* convolve(const GpuKernelCall& call, const ConvState& state, const ConvPlan& plan,
                    const CudnnLease& lease) {
  const hx_core_services& services = *call.env().services;
  const CudnnLibrary& cudnn = *state.cudnn;
  // cuDNN reads alpha and beta as floats for f32, f16 and bf16 data, before it returns.
  const float one = 1.0f;
  const float zero = 0.0f;
  const void* x = hxplugin::element_address(call.input(0));
  const void* w = hxplugin::element_address(call.input(1));
  const void* bias = call.num_inputs() == 3 ? hxplugin::element_address(call.input(2)) : nullptr;
  void* y = hxplugin::element_address(call.output(0));
  if (plan.fused) {
    // z is y with a weight of 0: cuDNN requires a z, and reads none of it.
    const cudnnStatus_t fused = cudnn.convolution_bias_activation_forward(
        lease.handle(), &one, plan.x.get(), x, plan.w.get(), w, plan.convolution.get(),
        plan.algorithm, lease.workspace(), plan.workspace_bytes, &zero, plan.y.get(), y,
        plan.bias.get(), bias, plan.relu.get(), plan.y.get(), y);
    if (fused == CUDNN_STATUS_SUCCESS) return nullptr;
    if (!refused(fused)) {
      return cudnn_error(services, cudnn, fused, "cudnnConvolutionBiasActivationForward");
    }
    plan.fused = false;
  }
  if (hx_status* status = cudnn_error(
          services, cudnn,
          cudnn.convolution_forward(lease.handle(), &one, plan.x.get(), x, plan.w.get(), w,
                                    plan.convolution.get(), plan.algorithm, lease.workspace(),
                                    plan.workspace_bytes, &zero, plan.y.get(), y),
          "cudnnConvolutionForward")) {
    return status;
  }
  if (bias == nullptr && state.activation.kind == Activation::kNone) return nullptr;
  const hx_tensor_view& out = call.output(0);
  const int64_t count = element_count(out);
  return call.cuda_status(
      launch_bias_activation(state.dtype, state.activation.kind, state.activation.alpha, bias, y,
                             count, out.shape[1], count / (out.shape[0] * out.shape[1]),
                             call.stream()),
      "launching the bias and activation of a convolution");
}

}  // namespace

hx_status* conv_create(const hxplugin::KernelCreate& create, ConvState* out) {
  return create_conv(create, false, out);
}

hx_status* fused_conv_create(const hxplugin::KernelCreate& create, ConvState* out) {
  return create_conv(create, true, out);
}

hx_status* conv_check(const hxplugin::KernelCall& call) {
  if (call.instance() == nullptr) {
    return call.error(HX_INVALID_ARGUMENT, "%s: checked without its instance",
                      op_name(call.args().user_data));
  }
  ConvShapes shapes;
  return conv_shapes(call, hxplugin::instance_of<ConvState>(call.instance()), &shapes);
}

hx_status* conv_kernel(const GpuKernelCall& call, const ConvState& state) {
  const hx_tensor_view& y = call.output(0);
  const int64_t count = element_count(y);
  if (count == 0) return nullptr;
  const void* bias = call.num_inputs() == 3 ? hxplugin::element_address(call.input(2)) : nullptr;
  if (element_count(call.input(0)) == 0 || element_count(call.input(1)) == 0) {
    // No channels, or windows only in the padding: every sum is empty, Y the bias alone.
    void* out = hxplugin::element_address(y);
    const size_t bytes = static_cast<size_t>(count) * hx_dtype_size(y.dtype);
    if (hx_status* status =
            call.cuda_status(cudaMemsetAsync(out, 0, bytes, call.stream()), "cudaMemsetAsync")) {
      return status;
    }
    return call.cuda_status(
        launch_bias_activation(state.dtype, state.activation.kind, state.activation.alpha, bias,
                               out, count, y.shape[1], count / (y.shape[0] * y.shape[1]),
                               call.stream()),
        "launching the bias and activation of a convolution");
  }
  // check declined what cuDNN cannot take; a core that skipped it gets an error here.
  ConvShapes shapes;
  if (hx_status* status = conv_shapes(call, state, &shapes)) return status;
  CudnnLease lease;
  if (hx_status* status = CudnnLease::acquire(call.env(), *state.cudnn, &lease)) return status;
  std::shared_ptr<const ConvPlan> plan;
  if (hx_status* status = find_plan(
          state.plans, conv_plan_key(call),
          [&](ConvPlan* made) { return make_conv_plan(call, state, shapes, lease, made); },
          &plan)) {
    return status;
  }
  return convolve(call, state, *plan, lease);
}

}  // namespace hxcuda::kernels

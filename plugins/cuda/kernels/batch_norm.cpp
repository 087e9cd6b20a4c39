// BatchNormalization in inference mode on cuDNN (cudnnBatchNormalizationForwardInference, per
// channel): Y = (X - mean) / sqrt(var + epsilon) * scale + B for X of f32, f16 or bf16. X of
// any rank is cuDNN's [N, C, S, 1], S the product of its spatial extents, since the statistics
// are per channel whatever the spatial axes. cuDNN takes the four statistics in f32 for f16
// and bf16 data; ONNX gives them in X's dtype, so they are widened into the stream's workspace
// first (4 C floats, which check keeps within the least workspace). The running statistics
// (outputs 1 and 2) are the given ones, copied. Training mode is declined.
#include <climits>
#include <memory>
#include <vector>

#include "kernels/cudnn_descriptors.hpp"
#include "kernels/dtypes.hpp"
#include "kernels/kernels.hpp"

namespace hxcuda::kernels {

struct BatchNormPlan {
  TensorDescriptor x;           // and Y's
  TensorDescriptor statistics;  // [1, C, 1, 1] of f32
};

namespace {

constexpr char kBatchNormOp[] = "BatchNormalization";
constexpr size_t kStatistics = 4;  // scale, B, input_mean, input_var: inputs 1 to 4

// The bytes between two widened statistics in the workspace: C floats, rounded up so that each
// starts 256-byte aligned, as cudaMalloc's memory and the core's tensors do.
size_t widened_stride(size_t channels) {
  constexpr size_t kAlignment = 256;
  return (channels * sizeof(float) + kAlignment - 1) / kAlignment * kAlignment;
}

// X as cuDNN's [N, C, S, 1], or why cuDNN cannot take it.
hx_status* batch_norm_dims(const hxplugin::KernelCall& call, CudnnDims* out) {
  const hx_tensor_view& x = call.input(0);
  if (x.rank < 2 || call.num_inputs() != 1 + kStatistics) {
    return call.error(HX_INVALID_ARGUMENT, "%s: expected X of rank 2 or more and 4 statistics",
                      kBatchNormOp);
  }
  for (size_t i = 0; i < call.num_inputs(); ++i) {
    if (!hxplugin::is_dense(call.input(i))) {
      return call.error(HX_UNIMPLEMENTED, "%s on GPU: the cuDNN kernel takes dense tensors only",
                        kBatchNormOp);
    }
  }
  const int64_t count = element_count(x);
  const int64_t channels = x.shape[1];
  if (count > INT_MAX || channels > INT_MAX) {
    return call.error(HX_UNIMPLEMENTED,
                      "%s on GPU: X of %lld elements is beyond cuDNN's 32-bit indexing",
                      kBatchNormOp, static_cast<long long>(count));
  }
  if (x.dtype != HX_DTYPE_F32 &&
      kStatistics * widened_stride(static_cast<size_t>(channels)) > kLeastWorkspaceBytes) {
    return call.error(HX_UNIMPLEMENTED,
                      "%s on GPU: the f32 statistics of %lld channels do not fit in the "
                      "workspace of %zu bytes",
                      kBatchNormOp, static_cast<long long>(channels), kLeastWorkspaceBytes);
  }
  // The core's shape inference guarantees these; checking costs nothing and keeps a core bug
  // from becoming an out-of-bounds access on the device.
  const hx_tensor_view& y = call.output(0);
  bool shapes_agree = y.dtype == x.dtype && element_count(y) == count;
  for (size_t i = 1; i <= kStatistics; ++i) {
    shapes_agree =
        shapes_agree && call.input(i).dtype == x.dtype && element_count(call.input(i)) == channels;
  }
  if (!shapes_agree) {
    return call.error(HX_INVALID_ARGUMENT,
                      "%s: Y is not X's dtype and shape, or a statistic not [C] of X's dtype",
                      kBatchNormOp);
  }
  int64_t spatial = 1;
  for (int32_t axis = 2; axis < x.rank; ++axis) spatial *= x.shape[axis];
  *out = CudnnDims{
      4,
      {static_cast<int>(x.shape[0]), static_cast<int>(channels), static_cast<int>(spatial), 1, 0}};
  return nullptr;
}

hx_status* make_batch_norm_plan(const GpuKernelCall& call, const BatchNormState& state,
                                const CudnnDims& dims, BatchNormPlan* plan) {
  const hx_core_services& services = *call.env().services;
  const CudnnLibrary& cudnn = *state.cudnn;
  if (hx_status* status =
          make_tensor(services, cudnn, cudnn_data_type(call.input(0).dtype), dims, &plan->x)) {
    return status;
  }
  const CudnnDims statistics{4, {1, dims.extents[1], 1, 1, 0}};
  return make_tensor(services, cudnn, CUDNN_DATA_FLOAT, statistics, &plan->statistics);
}

// The running statistics, outputs 1 and 2 where the call has them: input_mean and input_var.
hx_status* copy_running_statistics(const GpuKernelCall& call) {
  for (size_t output = 1; output < call.num_outputs() && output < 3; ++output) {
    const hx_tensor_view& from = call.input(output + 2);
    const hx_tensor_view& to = call.output(output);
    if (to.dtype != from.dtype || element_count(to) != element_count(from)) {
      return call.error(HX_INVALID_ARGUMENT, "%s: output %zu is not [C] of X's dtype", kBatchNormOp,
                        output);
    }
    const size_t bytes = static_cast<size_t>(element_count(to)) * hx_dtype_size(to.dtype);
    if (bytes == 0) continue;
    if (hx_status* status = call.cuda_status(
            cudaMemcpyAsync(hxplugin::element_address(to), hxplugin::element_address(from), bytes,
                            cudaMemcpyDeviceToDevice, call.stream()),
            "cudaMemcpyAsync (the running statistics)")) {
      return status;
    }
  }
  return nullptr;
}

}  // namespace

hx_status* batch_norm_create(const hxplugin::KernelCreate& create, BatchNormState* out) {
  const int32_t dtype = create.input_dtype(0);
  if (!is_elementwise_dtype(dtype)) {
    return create.error(HX_UNIMPLEMENTED,
                        "%s on GPU: no %s kernel (float32, float16 and bfloat16 only)",
                        kBatchNormOp, hx_dtype_name(dtype));
  }
  int64_t training_mode = 0;
  if (hx_status* status = create.attr_int("training_mode", &training_mode)) return status;
  if (training_mode != 0) {
    return create.error(HX_UNIMPLEMENTED, "%s on GPU: inference only (training_mode is %lld)",
                        kBatchNormOp, static_cast<long long>(training_mode));
  }
  if (hx_status* status = create.attr_float("epsilon", &out->epsilon)) return status;
  // cuDNN is loaded here, the first time the op is placed on a GPU; without it the op falls
  // back to another device, saying why.
  const char* why = nullptr;
  out->cudnn = cudnn_library(&why);
  if (out->cudnn == nullptr) {
    return create.error(HX_UNIMPLEMENTED, "%s on GPU: %s", kBatchNormOp, why);
  }
  return nullptr;
}

hx_status* batch_norm_check(const hxplugin::KernelCall& call) {
  CudnnDims dims;
  return batch_norm_dims(call, &dims);
}

hx_status* batch_norm_kernel(const GpuKernelCall& call, const BatchNormState& state) {
  CudnnDims dims;
  if (hx_status* status = batch_norm_dims(call, &dims)) return status;
  if (hx_status* status = copy_running_statistics(call)) return status;
  const hx_tensor_view& x = call.input(0);
  const int64_t count = element_count(x);
  if (count == 0) return nullptr;
  CudnnLease lease;
  if (hx_status* status = CudnnLease::acquire(call.env(), *state.cudnn, &lease)) return status;
  std::shared_ptr<const BatchNormPlan> plan;
  if (hx_status* status = find_plan(
          state.plans, std::vector<int64_t>(dims.extents, dims.extents + dims.rank),
          [&](BatchNormPlan* made) { return make_batch_norm_plan(call, state, dims, made); },
          &plan)) {
    return status;
  }
  const void* statistics[kStatistics];
  const size_t channels = static_cast<size_t>(dims.extents[1]);
  for (size_t i = 0; i < kStatistics; ++i) {
    const hx_tensor_view& given = call.input(1 + i);
    if (x.dtype == HX_DTYPE_F32) {
      statistics[i] = hxplugin::element_address(given);
      continue;
    }
    void* widened = static_cast<char*>(lease.workspace()) + i * widened_stride(channels);
    if (hx_status* status =
            call.cuda_status(launch_cast(x.dtype, HX_DTYPE_F32, hxplugin::element_address(given),
                                         widened, static_cast<int64_t>(channels), call.stream()),
                             "launching the widening of BatchNormalization's statistics")) {
      return status;
    }
    statistics[i] = widened;
  }
  const float one = 1.0f;
  const float zero = 0.0f;
  return cudnn_error(*call.env().services, *state.cudnn,
                     state.cudnn->batch_norm_inference(
                         lease.handle(), CUDNN_BATCHNORM_SPATIAL, &one, &zero, plan->x.get(),
                         hxplugin::element_address(x), plan->x.get(),
                         hxplugin::element_address(call.output(0)), plan->statistics.get(),
                         statistics[0], statistics[1], statistics[2], statistics[3], state.epsilon),
                     "cudnnBatchNormalizationForwardInference");
}

}  // namespace hxcuda::kernels

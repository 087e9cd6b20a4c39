// MaxPool, AveragePool, GlobalMaxPool and GlobalAveragePool on cuDNN's pooling: f32, f16 and
// bf16 (averages summed in f32). A 1-D pool is cuDNN's 2-D one of height 1; a global pool is
// a pool whose one window is the input's spatial extents. The instance reads the attributes
// once; each combination of shapes gets its descriptors at its first call.
//
// cuDNN's windows are ONNX's where onnx_window.hpp takes the pads: its maximum leaves padding
// out, as ONNX's does; its averages divide by the window's taps inside the input
// (count_include_pad 0) or by the whole window (count_include_pad 1), which is ONNX's count
// of taps inside the padded input unless a window reaches past it (ceil_mode's last one):
// that call is declined. Declined too: MaxPool's Indices, which cuDNN's forward pooling does
// not give, and dilations, which it has not.
#include <memory>
#include <vector>

#include "kernels/cudnn_descriptors.hpp"
#include "kernels/dtypes.hpp"
#include "kernels/kernels.hpp"

namespace hxcuda::kernels {

struct PoolPlan {
  TensorDescriptor x, y;
  PoolingDescriptor pooling;
};

namespace {

bool is_global(PoolKind kind) {
  return kind == PoolKind::kGlobalMax || kind == PoolKind::kGlobalAverage;
}

cudnnPoolingMode_t pooling_mode(const PoolState& state) {
  switch (state.kind) {
    case PoolKind::kMax:
    case PoolKind::kGlobalMax:
      return CUDNN_POOLING_MAX;
    case PoolKind::kAverage:
      return state.count_include_pad ? CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING
                                     : CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING;
    case PoolKind::kGlobalAverage:
      break;
  }
  return CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING;  // no padding: the divisor is the window
}

hx_status* read_pool_attributes(const hxplugin::KernelCreate& create, const char* op,
                                PoolState* out) {
  if (out->kind == PoolKind::kMax && create.args().num_outputs != 1) {
    return create.error(HX_UNIMPLEMENTED,
                        "%s on GPU: cuDNN's pooling does not give Indices (the second output)", op);
  }
  if (hx_status* status = read_ints(create, "kernel_shape", &out->kernel_shape)) return status;
  if (hx_status* status = read_onnx_window(create, &out->window)) return status;
  for (const int64_t dilation : out->window.dilations) {
    if (dilation != 1) {
      return create.error(HX_UNIMPLEMENTED,
                          "%s on GPU: cuDNN's pooling has no dilations (got %lld)", op,
                          static_cast<long long>(dilation));
    }
  }
  // ceil_mode needs no reading: the output's extents, which the core inferred with it, say
  // how many windows there are, and cudnn_window compares cuDNN's count with them.
  int64_t count_include_pad = 0;
  if (out->kind == PoolKind::kAverage) {
    if (hx_status* status = create.attr_int("count_include_pad", &count_include_pad)) {
      return status;
    }
  }
  out->count_include_pad = count_include_pad != 0;
  return nullptr;
}

// The window and cuDNN's extents of X and Y, or why cuDNN cannot take the call.
struct PoolShapes {
  CudnnDims x, y;
  CudnnWindow window;
};

hx_status* pool_shapes(const hxplugin::KernelCall& call, const PoolState& state, PoolShapes* out) {
  const char* op = op_name(call.args().user_data);
  const hx_tensor_view& x = call.input(0);
  const hx_tensor_view& y = call.output(0);
  if (hx_status* status = cudnn_dims(call, op, x, &out->x)) return status;
  if (hx_status* status = cudnn_dims(call, op, y, &out->y)) return status;
  const int64_t* kernel = is_global(state.kind) ? x.shape + 2 : state.kernel_shape.data();
  if (!is_global(state.kind) && state.kernel_shape.size() != static_cast<size_t>(x.rank - 2)) {
    return call.error(HX_INVALID_ARGUMENT, "%s: kernel_shape has %zu extents for %d spatial axes",
                      op, state.kernel_shape.size(), static_cast<int>(x.rank - 2));
  }
  // A global pool's window is the whole input: no padding, and one window per axis.
  const OnnxWindow whole;
  if (hx_status* status = cudnn_window(call, op, is_global(state.kind) ? whole : state.window, x, y,
                                       kernel, &out->window)) {
    return status;
  }
  if (pooling_mode(state) == CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING &&
      out->window.past_end_padding) {
    return call.error(HX_UNIMPLEMENTED,
                      "%s on GPU: with count_include_pad a window reaching past the padding "
                      "(ceil_mode) counts fewer taps than cuDNN's, which counts the whole window",
                      op);
  }
  return nullptr;
}

hx_status* make_pool_plan(const GpuKernelCall& call, const PoolState& state,
                          const PoolShapes& shapes, PoolPlan* plan) {
  const hx_core_services& services = *call.env().services;
  const CudnnLibrary& cudnn = *state.cudnn;
  const cudnnDataType_t type = cudnn_data_type(call.output(0).dtype);
  hx_status* status = make_tensor(services, cudnn, type, shapes.x, &plan->x);
  if (status == nullptr) status = make_tensor(services, cudnn, type, shapes.y, &plan->y);
  if (status != nullptr) return status;
  return make_pooling(services, cudnn, pooling_mode(state), shapes.window, &plan->pooling);
}

}  // namespace

hx_status* pool_create(const hxplugin::KernelCreate& create, PoolKind kind, PoolState* out) {
  const char* op = op_name(create.args().user_data);
  const int32_t dtype = create.input_dtype(0);
  if (!is_elementwise_dtype(dtype)) {
    return create.error(HX_UNIMPLEMENTED,
                        "%s on GPU: no %s kernel (float32, float16 and bfloat16 only)", op,
                        hx_dtype_name(dtype));
  }
  out->kind = kind;
  if (!is_global(kind)) {
    if (hx_status* status = read_pool_attributes(create, op, out)) return status;
  }
  // cuDNN is loaded here, the first time a pool is placed on a GPU; without it the op falls
  // back to another device, saying why.
  const char* why = nullptr;
  out->cudnn = cudnn_library(&why);
  if (out->cudnn == nullptr) return create.error(HX_UNIMPLEMENTED, "%s on GPU: %s", op, why);
  return nullptr;
}

hx_status* pool_check(const hxplugin::KernelCall& call) {
  if (call.instance() == nullptr) {
    return call.error(HX_INVALID_ARGUMENT, "%s: checked without its instance",
                      op_name(call.args().user_data));
  }
  PoolShapes shapes;
  return pool_shapes(call, hxplugin::instance_of<PoolState>(call.instance()), &shapes);
}

hx_status* pool_kernel(const GpuKernelCall& call, const PoolState& state) {
  // Every window holds an input element (the core's shape inference sees to it), so an empty
  // output is the only empty call.
  if (element_count(call.output(0)) == 0) return nullptr;
  PoolShapes shapes;
  if (hx_status* status = pool_shapes(call, state, &shapes)) return status;
  CudnnLease lease;
  if (hx_status* status = CudnnLease::acquire(call.env(), *state.cudnn, &lease)) return status;
  std::vector<int64_t> key(call.input(0).shape, call.input(0).shape + call.input(0).rank);
  key.insert(key.end(), call.output(0).shape, call.output(0).shape + call.output(0).rank);
  std::shared_ptr<const PoolPlan> plan;
  if (hx_status* status = find_plan(
          state.plans, key,
          [&](PoolPlan* made) { return make_pool_plan(call, state, shapes, made); }, &plan)) {
    return status;
  }
  const float one = 1.0f;
  const float zero = 0.0f;
  return cudnn_error(
      *call.env().services, *state.cudnn,
      state.cudnn->pooling_forward(lease.handle(), plan->pooling.get(), &one, plan->x.get(),
                                   hxplugin::element_address(call.input(0)), &zero, plan->y.get(),
                                   hxplugin::element_address(call.output(0))),
      "cudnnPoolingForward");
}

}  // namespace hxcuda::kernels

#include "kernels/cudnn_descriptors.hpp"

#include <climits>

namespace hxcuda::kernels {
namespace {

// Creates a descriptor with `create`, sets it with `set` (given its handle) and keeps it in
// *out; a failure of either is a status naming the call.
template <class Handle, class Set>
hx_status* make_descriptor(const hx_core_services& services, const CudnnLibrary& cudnn,
                           cudnnStatus_t (*create)(Handle*), cudnnStatus_t (*destroy)(Handle),
                           const char* create_call, const char* set_call, Set&& set,
                           CudnnDescriptor<Handle>* out) {
  Handle handle = nullptr;
  if (hx_status* status = cudnn_error(services, cudnn, create(&handle), create_call)) {
    return status;
  }
  CudnnDescriptor<Handle> made(handle, destroy);
  if (hx_status* status = cudnn_error(services, cudnn, set(handle), set_call)) return status;
  *out = std::move(made);
  return nullptr;
}

}  // namespace

hx_status* cudnn_dims(const hxplugin::KernelCall& call, const char* op, const hx_tensor_view& view,
                      CudnnDims* out) {
  if (view.rank < 3 || view.rank > 5) {
    return call.error(HX_UNIMPLEMENTED, "%s on GPU: cuDNN takes tensors of rank 3 to 5, got %d", op,
                      static_cast<int>(view.rank));
  }
  if (!hxplugin::is_dense(view)) {
    return call.error(HX_UNIMPLEMENTED, "%s on GPU: the cuDNN kernel takes dense tensors only", op);
  }
  const int64_t count = hxplugin::element_count(view);
  if (count < 0 || count > INT_MAX) {
    return call.error(HX_UNIMPLEMENTED,
                      "%s on GPU: a tensor of %lld elements is beyond cuDNN's 32-bit indexing", op,
                      static_cast<long long>(count));
  }
  *out = CudnnDims{};
  const bool one_spatial = view.rank == 3;
  for (int32_t axis = 0; axis < view.rank; ++axis) {
    if (one_spatial && axis == 2) out->extents[out->rank++] = 1;
    out->extents[out->rank++] = static_cast<int>(view.shape[axis]);
  }
  return nullptr;
}

cudnnDataType_t cudnn_data_type(int32_t dtype) {
  switch (dtype) {
    case HX_DTYPE_F16:
      return CUDNN_DATA_HALF;
    case HX_DTYPE_BF16:
      return CUDNN_DATA_BFLOAT16;
    default:
      return CUDNN_DATA_FLOAT;
  }
}

hx_status* make_tensor(const hx_core_services& services, const CudnnLibrary& cudnn,
                       cudnnDataType_t type, const CudnnDims& dims, TensorDescriptor* out) {
  // Dense row-major strides; cuDNN refuses a stride of 0, which an extent of 0 would give, and
  // an empty tensor never reaches cuDNN, so every stride is at least 1.
  int strides[5] = {};
  int stride = 1;
  for (int axis = dims.rank; axis-- > 0;) {
    strides[axis] = stride;
    stride *= dims.extents[axis] > 0 ? dims.extents[axis] : 1;
  }
  return make_descriptor(
      services, cudnn, cudnn.create_tensor, cudnn.destroy_tensor, "cudnnCreateTensorDescriptor",
      "cudnnSetTensorNdDescriptor",
      [&](cudnnTensorDescriptor_t handle) {
        return cudnn.set_tensor(handle, type, dims.rank, dims.extents, strides);
      },
      out);
}

hx_status* make_filter(const hx_core_services& services, const CudnnLibrary& cudnn,
                       cudnnDataType_t type, const CudnnDims& dims, FilterDescriptor* out) {
  return make_descriptor(
      services, cudnn, cudnn.create_filter, cudnn.destroy_filter, "cudnnCreateFilterDescriptor",
      "cudnnSetFilterNdDescriptor",
      [&](cudnnFilterDescriptor_t handle) {
        return cudnn.set_filter(handle, type, CUDNN_TENSOR_NCHW, dims.rank, dims.extents);
      },
      out);
}

hx_status* make_convolution(const hx_core_services& services, const CudnnLibrary& cudnn,
                            const CudnnWindow& window, int group, ConvolutionDescriptor* out) {
  hx_status* status = make_descriptor(
      services, cudnn, cudnn.create_convolution, cudnn.destroy_convolution,
      "cudnnCreateConvolutionDescriptor", "cudnnSetConvolutionNdDescriptor",
      [&](cudnnConvolutionDescriptor_t handle) {
        return cudnn.set_convolution(handle, window.spatial, window.pad, window.stride,
                                     window.dilation, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT);
      },
      out);
  if (status != nullptr || group == 1) return status;
  return cudnn_error(services, cudnn, cudnn.set_group_count(out->get(), group),
                     "cudnnSetConvolutionGroupCount");
}

hx_status* make_pooling(const hx_core_services& services, const CudnnLibrary& cudnn,
                        cudnnPoolingMode_t mode, const CudnnWindow& window,
                        PoolingDescriptor* out) {
  // NaN propagates: a window holding NaN has NaN as its maximum, as in ONNX's reference.
  return make_descriptor(
      services, cudnn, cudnn.create_pooling, cudnn.destroy_pooling, "cudnnCreatePoolingDescriptor",
      "cudnnSetPoolingNdDescriptor",
      [&](cudnnPoolingDescriptor_t handle) {
        return cudnn.set_pooling(handle, mode, CUDNN_PROPAGATE_NAN, window.spatial, window.kernel,
                                 window.pad, window.stride);
      },
      out);
}

hx_status* make_activation(const hx_core_services& services, const CudnnLibrary& cudnn,
                           cudnnActivationMode_t mode, ActivationDescriptor* out) {
  return make_descriptor(
      services, cudnn, cudnn.create_activation, cudnn.destroy_activation,
      "cudnnCreateActivationDescriptor", "cudnnSetActivationDescriptor",
      [&](cudnnActivationDescriptor_t handle) {
        return cudnn.set_activation(handle, mode, CUDNN_PROPAGATE_NAN, 0.0);
      },
      out);
}

}  // namespace hxcuda::kernels

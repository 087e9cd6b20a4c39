// cuDNN's descriptors as objects (library_object.hpp), for the plans of the kernels on cuDNN.
// Each make_* function creates and sets one, turning a failed cuDNN call into a status that
// names it.
#pragma once

#include <hxrt/plugin_api.h>
#include <hxplugin/kernel_call.hpp>

#include <cudnn.h>

#include "kernel_env.hpp"
#include "kernels/library_object.hpp"
#include "kernels/onnx_window.hpp"

namespace hxcuda::kernels {

template <class Handle>
using CudnnDescriptor = LibraryObject<Handle, cudnnStatus_t>;
using TensorDescriptor = CudnnDescriptor<cudnnTensorDescriptor_t>;
using FilterDescriptor = CudnnDescriptor<cudnnFilterDescriptor_t>;
using ConvolutionDescriptor = CudnnDescriptor<cudnnConvolutionDescriptor_t>;
using PoolingDescriptor = CudnnDescriptor<cudnnPoolingDescriptor_t>;
using ActivationDescriptor = CudnnDescriptor<cudnnActivationDescriptor_t>;

// The extents of a tensor as cuDNN takes them: 4 or 5 of them, [N, C, spatial...], with a
// leading spatial axis of extent 1 added to one of rank 3 (as CudnnWindow adds to its window).
struct CudnnDims {
  int rank = 0;
  int extents[5] = {};
};

// `view`'s extents as CudnnDims, or UNIMPLEMENTED naming `op` where cuDNN cannot take the
// view: a rank other than 3 to 5, an extent beyond int, more than INT_MAX elements (which the
// legacy API's kernels index with 32-bit ints), or strides other than dense row-major.
hx_status* cudnn_dims(const hxplugin::KernelCall& call, const char* op, const hx_tensor_view& view,
                      CudnnDims* out);

// The cuDNN type of an element of `dtype`: f32, f16 or bf16 (the dtypes the cuDNN kernels are
// registered for).
cudnnDataType_t cudnn_data_type(int32_t dtype);

// A dense row-major tensor of `dims`.
hx_status* make_tensor(const hx_core_services& services, const CudnnLibrary& cudnn,
                       cudnnDataType_t type, const CudnnDims& dims, TensorDescriptor* out);
// Convolution weights [M, C / group, k...] of `dims`.
hx_status* make_filter(const hx_core_services& services, const CudnnLibrary& cudnn,
                       cudnnDataType_t type, const CudnnDims& dims, FilterDescriptor* out);
// A cross-correlation (ONNX's Conv) over `window` with `group` channel groups, accumulating
// in f32.
hx_status* make_convolution(const hx_core_services& services, const CudnnLibrary& cudnn,
                            const CudnnWindow& window, int group, ConvolutionDescriptor* out);
hx_status* make_pooling(const hx_core_services& services, const CudnnLibrary& cudnn,
                        cudnnPoolingMode_t mode, const CudnnWindow& window, PoolingDescriptor* out);
hx_status* make_activation(const hx_core_services& services, const CudnnLibrary& cudnn,
                           cudnnActivationMode_t mode, ActivationDescriptor* out);

}  // namespace hxcuda::kernels

// cuDNN (its legacy API: descriptors and one call per operation), loaded the first time a
// kernel that needs it is made rather than with the plugin, as cuBLAS is (toolkit_library.hpp):
// the plugin does not link cuDNN; it opens libcudnn.so.<major>, which loads its sub-libraries
// (ops, cnn) itself, and calls it through these pointers.
#pragma once

#include <cudnn.h>

#include <string>

namespace hxcuda {

// The cuDNN functions the plugin calls.
struct CudnnLibrary {
  decltype(&cudnnGetVersion) version;
  decltype(&cudnnGetErrorString) status_name;
  // NULL where the library predates it; else the message of the calling thread's last error.
  decltype(&cudnnGetLastErrorString) last_error;
  decltype(&cudnnCreate) create;
  decltype(&cudnnDestroy) destroy;
  decltype(&cudnnSetStream) set_stream;
  decltype(&cudnnCreateTensorDescriptor) create_tensor;
  decltype(&cudnnSetTensorNdDescriptor) set_tensor;
  decltype(&cudnnDestroyTensorDescriptor) destroy_tensor;
  decltype(&cudnnCreateFilterDescriptor) create_filter;
  decltype(&cudnnSetFilterNdDescriptor) set_filter;
  decltype(&cudnnDestroyFilterDescriptor) destroy_filter;
  decltype(&cudnnCreateConvolutionDescriptor) create_convolution;
  decltype(&cudnnSetConvolutionNdDescriptor) set_convolution;
  decltype(&cudnnSetConvolutionGroupCount) set_group_count;
  decltype(&cudnnSetConvolutionMathType) set_math_type;
  decltype(&cudnnDestroyConvolutionDescriptor) destroy_convolution;
  decltype(&cudnnGetConvolutionForwardAlgorithm_v7) forward_algorithms;
  decltype(&cudnnGetConvolutionForwardWorkspaceSize) forward_workspace_size;
  decltype(&cudnnConvolutionForward) convolution_forward;
  decltype(&cudnnConvolutionBiasActivationForward) convolution_bias_activation_forward;
  decltype(&cudnnCreateActivationDescriptor) create_activation;
  decltype(&cudnnSetActivationDescriptor) set_activation;
  decltype(&cudnnDestroyActivationDescriptor) destroy_activation;
  decltype(&cudnnCreatePoolingDescriptor) create_pooling;
  decltype(&cudnnSetPoolingNdDescriptor) set_pooling;
  decltype(&cudnnDestroyPoolingDescriptor) destroy_pooling;
  decltype(&cudnnPoolingForward) pooling_forward;
  decltype(&cudnnBatchNormalizationForwardInference) batch_norm_inference;
};

// The library, loaded by the first call (from any thread) and kept until the process ends.
// NULL when it cannot be loaded or is not a cuDNN the plugin can use; *why then says what was
// tried, what failed and what to install.
const CudnnLibrary* cudnn_library(const char** why);

// One attempt to load cuDNN from `soname`: its functions, or why not. The library opens, has
// every function above, is of the major version the plugin was built with, and loads its ops
// and cnn sub-libraries (their version checks, which need no GPU). cudnn_library makes one
// attempt, with HXRT_CUDNN_SONAME; tests make others.
struct CudnnLoad {
  CudnnLibrary functions{};
  bool ok = false;
  std::string why;
};
CudnnLoad load_cudnn(const char* soname);

}  // namespace hxcuda

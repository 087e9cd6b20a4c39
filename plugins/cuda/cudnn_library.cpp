#include "cudnn_library.hpp"

#include <cuda_runtime_api.h>

#include <string>

#include "toolkit_library.hpp"

namespace hxcuda {
namespace {

bool find_functions(ToolkitLibrary& library, CudnnLibrary& f) {
  library.find_optional("cudnnGetLastErrorString", &f.last_error);
  return library.find("cudnnGetVersion", &f.version) &&
         library.find("cudnnGetErrorString", &f.status_name) &&
         library.find("cudnnCreate", &f.create) && library.find("cudnnDestroy", &f.destroy) &&
         library.find("cudnnSetStream", &f.set_stream) &&
         library.find("cudnnCreateTensorDescriptor", &f.create_tensor) &&
         library.find("cudnnSetTensorNdDescriptor", &f.set_tensor) &&
         library.find("cudnnDestroyTensorDescriptor", &f.destroy_tensor) &&
         library.find("cudnnCreateFilterDescriptor", &f.create_filter) &&
         library.find("cudnnSetFilterNdDescriptor", &f.set_filter) &&
         library.find("cudnnDestroyFilterDescriptor", &f.destroy_filter) &&
         library.find("cudnnCreateConvolutionDescriptor", &f.create_convolution) &&
         library.find("cudnnSetConvolutionNdDescriptor", &f.set_convolution) &&
         library.find("cudnnSetConvolutionGroupCount", &f.set_group_count) &&
         library.find("cudnnSetConvolutionMathType", &f.set_math_type) &&
         library.find("cudnnDestroyConvolutionDescriptor", &f.destroy_convolution) &&
         library.find("cudnnGetConvolutionForwardAlgorithm_v7", &f.forward_algorithms) &&
         library.find("cudnnGetConvolutionForwardWorkspaceSize", &f.forward_workspace_size) &&
         library.find("cudnnConvolutionForward", &f.convolution_forward) &&
         library.find("cudnnConvolutionBiasActivationForward",
                      &f.convolution_bias_activation_forward) &&
         library.find("cudnnCreateActivationDescriptor", &f.create_activation) &&
         library.find("cudnnSetActivationDescriptor", &f.set_activation) &&
         library.find("cudnnDestroyActivationDescriptor", &f.destroy_activation) &&
         library.find("cudnnCreatePoolingDescriptor", &f.create_pooling) &&
         library.find("cudnnSetPoolingNdDescriptor", &f.set_pooling) &&
         library.find("cudnnDestroyPoolingDescriptor", &f.destroy_pooling) &&
         library.find("cudnnPoolingForward", &f.pooling_forward) &&
         library.find("cudnnBatchNormalizationForwardInference", &f.batch_norm_inference);
}

// Empty when the library is one the plugin can use, else why not. libcudnn.so.<major> opens
// its sub-libraries only when a function of theirs is first called, so a missing or
// mismatched libcudnn_ops or libcudnn_cnn would otherwise surface as a failed kernel call
// rather than as a kernel that declines.
std::string check_version(ToolkitLibrary& library, const CudnnLibrary& f, const char* soname) {
  const size_t version = f.version();
  if (version / 10000 != CUDNN_MAJOR) {
    return std::string("cuDNN (") + soname + ") is version " + std::to_string(version) +
           "; the plugin was built with cuDNN " + std::to_string(CUDNN_VERSION);
  }
  decltype(&cudnnOpsVersionCheck) ops_check = nullptr;
  decltype(&cudnnCnnVersionCheck) cnn_check = nullptr;
  if (!library.find("cudnnOpsVersionCheck", &ops_check) ||
      !library.find("cudnnCnnVersionCheck", &cnn_check)) {
    return library.why();
  }
  const struct {
    const char* sublibrary;
    cudnnStatus_t status;
  } checks[] = {{"ops", ops_check()}, {"cnn", cnn_check()}};
  for (const auto& check : checks) {
    if (check.status == CUDNN_STATUS_SUCCESS) continue;
    return std::string("cuDNN (") + soname + ") cannot use its " + check.sublibrary +
           " library (libcudnn_" + check.sublibrary + ".so." + std::to_string(CUDNN_MAJOR) +
           "): " + f.status_name(check.status);
  }
  return "";
}

}  // namespace

CudnnLoad load_cudnn(const char* soname) {
  CudnnLoad loaded;
  ToolkitLibrary library("cuDNN", soname);
  std::string why;
  if (!find_functions(library, loaded.functions)) {
    why = library.why();
  } else {
    why = check_version(library, loaded.functions, soname);
  }
  if (why.empty()) {
    loaded.ok = true;
    return loaded;
  }
  loaded.why = why + " (install cuDNN " + std::to_string(CUDNN_MAJOR) + " for CUDA " +
               std::to_string(CUDART_VERSION / 1000) +
               " where the loader finds it: the CUDA toolkit's library folder, or a folder on "
               "LD_LIBRARY_PATH)";
  return loaded;
}

const CudnnLibrary* cudnn_library(const char** why) {
  // A function-local static: loaded once, and every thread waits for that one load.
  static const CudnnLoad loaded = load_cudnn(HXRT_CUDNN_SONAME);
  *why = loaded.why.c_str();
  return loaded.ok ? &loaded.functions : nullptr;
}

}  // namespace hxcuda

#include "errors.hpp"

#include <hxplugin/status.hpp>

#include <cstdio>

#include "cublas_library.hpp"
#include "cublaslt_library.hpp"
#include "cudnn_library.hpp"
#include "kernel_env.hpp"

namespace hxcuda {

bool is_sticky(cudaError_t error) {
  switch (error) {
    case cudaErrorContained:
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchTimeout:
    case cudaErrorAssert:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorLaunchFailure:
    case cudaErrorTensorMemoryLeak:
    case cudaErrorMpsClientTerminated:
    case cudaErrorExternalDevice:
      return true;
    default:
      return false;
  }
}

void describe_cuda_error(cudaError_t error, const char* call, char* buffer, size_t size) {
  std::snprintf(buffer, size, "%s: %s: %s%s", call, cudaGetErrorName(error),
                cudaGetErrorString(error),
                is_sticky(error) ? " (a sticky error: the process's CUDA context is lost and "
                                   "every later CUDA call fails; the device must be reset, "
                                   "which means restarting the process)"
                                 : "");
}

hx_status* cuda_error(const hx_core_services& services, cudaError_t error, const char* call) {
  if (error == cudaSuccess) return nullptr;
  // The runtime also keeps the error as the thread's "last error"; a kernel launch checked
  // later with cudaGetLastError would report it as its own. Reported here, it is consumed.
  // (A sticky error cannot be cleared, and stays.)
  (void)cudaGetLastError();
  char message[512];
  describe_cuda_error(error, call, message, sizeof message);
  const hx_status_code code = error == cudaErrorMemoryAllocation ? HX_OUT_OF_MEMORY : HX_INTERNAL;
  return services.status_create(code, message);
}

hx_status* completion_query(const hx_core_services& services, cudaError_t error, const char* call,
                            bool* out_done) {
  if (error == cudaErrorNotReady) {
    // Not a failure, so it must not linger as the thread's last error either.
    (void)cudaGetLastError();
    *out_done = false;
    return nullptr;
  }
  *out_done = error == cudaSuccess;
  return cuda_error(services, error, call);
}

hx_status* cublas_error(const hx_core_services& services, cublasStatus_t status, const char* call) {
  if (status == CUBLAS_STATUS_SUCCESS) return nullptr;
  const hx_status_code code = status == CUBLAS_STATUS_ALLOC_FAILED ? HX_OUT_OF_MEMORY : HX_INTERNAL;
  // A cuBLAS status comes from a cuBLAS call, so the library is loaded and this returns at once.
  const char* why = nullptr;
  const CublasLibrary* cublas = cublas_library(&why);
  if (cublas == nullptr) {
    return hxplugin::make_status(services, code, "%s: cuBLAS status %d", call,
                                 static_cast<int>(status));
  }
  return hxplugin::make_status(services, code, "%s: %s: %s", call, cublas->status_name(status),
                               cublas->status_string(status));
}

hx_status* cublaslt_error(const hx_core_services& services, const CublasLtLibrary& cublaslt,
                          cublasStatus_t status, const char* call) {
  if (status == CUBLAS_STATUS_SUCCESS) return nullptr;
  const hx_status_code code = status == CUBLAS_STATUS_ALLOC_FAILED ? HX_OUT_OF_MEMORY : HX_INTERNAL;
  return hxplugin::make_status(services, code, "%s: %s: %s", call, cublaslt.status_name(status),
                               cublaslt.status_string(status));
}

hx_status* cudnn_error(const hx_core_services& services, const CudnnLibrary& cudnn,
                       cudnnStatus_t status, const char* call) {
  if (status == CUDNN_STATUS_SUCCESS) return nullptr;
  const bool allocation = status == CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED ||
                          status == CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED;
  // cuDNN's name of a status is the whole of what cudnnGetErrorString says; the thread's last
  // error message (cuDNN 9) says what was wrong, e.g. which dimension a descriptor refused.
  char detail[400] = "";
  if (cudnn.last_error != nullptr) cudnn.last_error(detail, sizeof detail);
  return hxplugin::make_status(services, allocation ? HX_OUT_OF_MEMORY : HX_INTERNAL,
                               "%s: %s%s%s", call, cudnn.status_name(status),
                               detail[0] != '\0' ? ": " : "", detail);
}

}  // namespace hxcuda

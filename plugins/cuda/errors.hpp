// CUDA and library failures as statuses. cuda_error, cublas_error, cublaslt_error and
// cudnn_error (declared in kernel_env.hpp, for the kernels too) are defined in errors.cpp with
// what is declared here.
#pragma once

#include <hxrt/plugin_api.h>

#include <cuda_runtime_api.h>

#include <cstddef>

namespace hxcuda {

// True for the errors after which the process's CUDA context is unusable: every later call
// returns the same error until the process ends (CUDA's documentation of each says "the
// process must be terminated and relaunched").
bool is_sticky(cudaError_t error);

// Writes "<call>: <error name>: <error text>" into `buffer`, followed for a sticky error by
// what it means for the device. Truncates to `size`.
void describe_cuda_error(cudaError_t error, const char* call, char* buffer, size_t size);

// The answer of cudaStreamQuery or cudaEventQuery: *out_done is true on success, false on
// cudaErrorNotReady (an answer, not a failure); any other error is a status.
hx_status* completion_query(const hx_core_services& services, cudaError_t error, const char* call,
                            bool* out_done);

}  // namespace hxcuda

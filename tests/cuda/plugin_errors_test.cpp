// How CUDA and cuBLAS failures become statuses, and how a missing driver or device is worded:
// the plugin's own functions, compiled into this test, since a machine without a GPU cannot
// make the calls fail for real.
#include <catch2/catch.hpp>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "discovery.hpp"
#include "errors.hpp"
#include "kernel_env.hpp"
#include "plugin_direct.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::Equals;
using Catch::Matchers::StartsWith;
using cuda_direct::DirectPlugin;
using cuda_direct::Outcome;
using hxrt_test::PluginHost;

namespace {

Outcome cuda_outcome(cudaError_t error, const char* call) {
  return DirectPlugin::outcome(hxcuda::cuda_error(PluginHost::services(), error, call));
}

}  // namespace

TEST_CASE("A CUDA failure is a status naming the call, the error and its text", "[cuda][errors]") {
  CHECK(hxcuda::cuda_error(PluginHost::services(), cudaSuccess, "cudaMalloc") == nullptr);

  const Outcome invalid = cuda_outcome(cudaErrorInvalidValue, "cudaMemcpyAsync");
  CHECK(invalid.code == HX_INTERNAL);
  CHECK_THAT(invalid.message, Equals("cudaMemcpyAsync: cudaErrorInvalidValue: invalid argument"));

  const Outcome out_of_memory = cuda_outcome(cudaErrorMemoryAllocation, "cudaMalloc");
  CHECK(out_of_memory.code == HX_OUT_OF_MEMORY);
  CHECK_THAT(out_of_memory.message, Equals("cudaMalloc: cudaErrorMemoryAllocation: out of memory"));
}

TEST_CASE("A sticky CUDA error says that the device must be reset", "[cuda][errors]") {
  CHECK(hxcuda::is_sticky(cudaErrorIllegalAddress));
  CHECK(hxcuda::is_sticky(cudaErrorLaunchFailure));
  CHECK_FALSE(hxcuda::is_sticky(cudaErrorInvalidValue));
  CHECK_FALSE(hxcuda::is_sticky(cudaErrorMemoryAllocation));

  const Outcome sticky = cuda_outcome(cudaErrorIllegalAddress, "cudaStreamSynchronize");
  CHECK(sticky.code == HX_INTERNAL);
  CHECK_THAT(sticky.message,
             StartsWith("cudaStreamSynchronize: cudaErrorIllegalAddress: an illegal memory "
                        "access was encountered (a sticky error") &&
                 Contains("the device must be reset"));
}

TEST_CASE("A cuBLAS failure is a status naming the call, the status and its text",
          "[cuda][errors]") {
  const hx_core_services& services = PluginHost::services();
  CHECK(hxcuda::cublas_error(services, CUBLAS_STATUS_SUCCESS, "cublasGemmEx") == nullptr);

  const Outcome unsupported = DirectPlugin::outcome(
      hxcuda::cublas_error(services, CUBLAS_STATUS_NOT_SUPPORTED, "cublasGemmEx"));
  CHECK(unsupported.code == HX_INTERNAL);
  CHECK_THAT(unsupported.message,
             Equals("cublasGemmEx: CUBLAS_STATUS_NOT_SUPPORTED: the requested functionality is "
                    "not supported"));

  const Outcome alloc = DirectPlugin::outcome(
      hxcuda::cublas_error(services, CUBLAS_STATUS_ALLOC_FAILED, "cublasCreate"));
  CHECK(alloc.code == HX_OUT_OF_MEMORY);
  CHECK_THAT(alloc.message, StartsWith("cublasCreate: CUBLAS_STATUS_ALLOC_FAILED: "));
}

TEST_CASE("A query answers 'not yet' without an error, and fails on a real one", "[cuda][errors]") {
  const hx_core_services& services = PluginHost::services();
  bool done = false;
  CHECK(hxcuda::completion_query(services, cudaSuccess, "cudaEventQuery", &done) == nullptr);
  CHECK(done);
  CHECK(hxcuda::completion_query(services, cudaErrorNotReady, "cudaEventQuery", &done) == nullptr);
  CHECK_FALSE(done);
  const Outcome failed = DirectPlugin::outcome(
      hxcuda::completion_query(services, cudaErrorLaunchFailure, "cudaStreamQuery", &done));
  CHECK(failed.code == HX_INTERNAL);
  CHECK_THAT(failed.message, StartsWith("cudaStreamQuery: cudaErrorLaunchFailure: "));
}

TEST_CASE("The reason for no devices tells a missing driver from a missing device",
          "[cuda][errors]") {
  CHECK_THAT(hxcuda::unavailable_reason(cudaErrorInsufficientDriver, 0),
             Equals("no CUDA driver: cudaGetDeviceCount: cudaErrorInsufficientDriver: CUDA driver "
                    "version is insufficient for CUDA runtime version"));
  CHECK_THAT(hxcuda::unavailable_reason(cudaErrorNoDevice, 13000),
             StartsWith("no CUDA device: cudaGetDeviceCount: cudaErrorNoDevice: "));
  int runtime_version = 0;
  REQUIRE(cudaRuntimeGetVersion(&runtime_version) == cudaSuccess);
  const std::string built_with =
      std::to_string(runtime_version / 1000) + "." + std::to_string(runtime_version % 1000 / 10);
  CHECK_THAT(
      hxcuda::unavailable_reason(cudaErrorInsufficientDriver, 12020),
      Equals("CUDA driver too old: it supports CUDA 12.2, the plugin was built with " + built_with +
             ": cudaGetDeviceCount: cudaErrorInsufficientDriver: CUDA driver version is "
             "insufficient for CUDA runtime version"));
  CHECK_THAT(hxcuda::unavailable_reason(cudaErrorSystemDriverMismatch, 13000),
             StartsWith("CUDA unavailable: cudaGetDeviceCount: cudaErrorSystemDriverMismatch: "));
}

#include "cuda_support.hpp"

#include <stdexcept>
#include <string>

namespace hxrt_bench {

void check_cuda(cudaError_t error, const char* call) {
  if (error == cudaSuccess) return;
  throw std::runtime_error(std::string(call) + ": " + cudaGetErrorName(error) + ": " +
                           cudaGetErrorString(error));
}

void check_cublas(cublasStatus_t status, const char* call) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  throw std::runtime_error(std::string(call) + ": " + cublasGetStatusName(status) + ": " +
                           cublasGetStatusString(status));
}

void synchronize_device() { check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }

DeviceBuffer::DeviceBuffer(size_t bytes) { check_cuda(cudaMalloc(&data_, bytes), "cudaMalloc"); }
DeviceBuffer::~DeviceBuffer() { cudaFree(data_); }

Stream::Stream() {
  check_cuda(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
}
Stream::~Stream() { cudaStreamDestroy(stream_); }

CublasHandle::CublasHandle(const Stream& stream) {
  check_cublas(cublasCreate(&handle_), "cublasCreate");
  const cublasStatus_t status = cublasSetStream(handle_, stream.get());
  if (status != CUBLAS_STATUS_SUCCESS) {
    cublasDestroy(handle_);
    check_cublas(status, "cublasSetStream");
  }
}
CublasHandle::~CublasHandle() { cublasDestroy(handle_); }

PinnedBuffer::PinnedBuffer(size_t bytes) {
  check_cuda(cudaMallocHost(&data_, bytes), "cudaMallocHost");
}
PinnedBuffer::~PinnedBuffer() { cudaFreeHost(data_); }

}  // namespace hxrt_bench

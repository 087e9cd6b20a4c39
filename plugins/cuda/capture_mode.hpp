// The calling thread's stream-capture mode, relaxed for one scope. A stream that records
// (recordings.hpp) is a CUDA stream capture, and a capture forbids calls such as cudaMalloc on
// the threads it polices (the host application may run a capture of its own, too): made
// there, an allocation fails and invalidates the capture. An allocation the plugin makes
// once and keeps (a cuBLAS handle, a workspace) is not work to record, so it is made in this
// mode, where CUDA allows it and does not capture it.
#pragma once

#include <cuda_runtime_api.h>

namespace hxcuda {

class RelaxedCaptureMode {
 public:
  RelaxedCaptureMode() { (void)cudaThreadExchangeStreamCaptureMode(&previous_); }
  ~RelaxedCaptureMode() { (void)cudaThreadExchangeStreamCaptureMode(&previous_); }
  RelaxedCaptureMode(const RelaxedCaptureMode&) = delete;
  RelaxedCaptureMode& operator=(const RelaxedCaptureMode&) = delete;

 private:
  // The mode to set, then, once swapped, the one to restore.
  cudaStreamCaptureMode previous_ = cudaStreamCaptureModeRelaxed;
};

}  // namespace hxcuda

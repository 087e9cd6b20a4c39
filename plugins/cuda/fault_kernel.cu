#include "fault_kernel.hpp"

namespace hxcuda {
namespace {

__global__ void trap_kernel() { __trap(); }

}  // namespace

cudaError_t launch_fault_kernel(cudaStream_t stream) {
  trap_kernel<<<1, 1, 0, stream>>>();
  return cudaGetLastError();
}

}  // namespace hxcuda

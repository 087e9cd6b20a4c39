#include "device_errors.hpp"

#include <hxplugin/status.hpp>

#include <string>

#include "device.hpp"
#include "errors.hpp"
#include "lost_contexts.hpp"

namespace hxcuda {

void note_if_sticky(const CudaDevice& device, cudaError_t error, const char* call) {
  if (!is_sticky(error)) return;
  char text[512];
  describe_cuda_error(error, call, text, sizeof text);
  note_lost_context(device.cuda_ordinal(), text);
}

hx_status* device_error(const CudaDevice& device, cudaError_t error, const char* call) {
  if (error == cudaSuccess) return nullptr;
  // Consumed, as cuda_error does, so that no later launch check reports it as its own. (A
  // sticky error stays whatever is done.)
  (void)cudaGetLastError();
  note_if_sticky(device, error, call);
  char text[512];
  describe_cuda_error(error, call, text, sizeof text);
  const hx_status_code code = error == cudaErrorMemoryAllocation ? HX_OUT_OF_MEMORY : HX_INTERNAL;
  return hxplugin::make_status(device.services(), code, "%s: %s", device.label().c_str(), text);
}

hx_status* device_query(const CudaDevice& device, cudaError_t error, const char* call,
                        bool* out_done) {
  // "Not yet" and "done" are answers, by completion_query's rule; anything else is a failure.
  if (error == cudaErrorNotReady || error == cudaSuccess) {
    return completion_query(device.services(), error, call, out_done);
  }
  *out_done = false;
  return device_error(device, error, call);
}

hx_status* check_usable(const CudaDevice& device) {
  const std::string why = lost_context(device.cuda_ordinal());
  if (why.empty()) return nullptr;
  return hxplugin::make_status(
      device.services(), HX_INTERNAL,
      "%s is unusable: an earlier failure lost its CUDA context (%s); every later call on it "
      "fails. Restart the process (and reset the GPU, nvidia-smi -r, if the failure persists)",
      device.label().c_str(), why.c_str());
}

}  // namespace hxcuda

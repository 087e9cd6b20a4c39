// Streams: the function-table entries, and how every stream-ordered call (copy, memset,
// kernel) finds the CUDA stream its work goes on.
//
// A NULL hx_stream means "complete before returning" (the ABI's synchronous calls; the core's
// host reads after an event synchronize are these): that work goes on the calling thread's
// per-thread default stream, which the call then waits for. The plugin's own streams are
// created non-blocking, so they never synchronise with a default stream: NULL-stream work
// neither waits for work queued on them nor makes it wait, and, per-thread, two threads'
// NULL-stream calls do not wait for each other either (the legacy default stream would
// serialise them). Nothing in the plugin uses the legacy default stream.
#pragma once

#include <hxrt/plugin_api.h>

#include <cuda_runtime_api.h>

#include "cuda_stream.hpp"
#include "device.hpp"
#include "device_errors.hpp"
#include "kernel_env.hpp"

namespace hxcuda {

// *out is the stream behind `handle`, or nullptr for a NULL handle. INVALID_ARGUMENT when
// `handle` is neither NULL nor a live stream of `device`.
hx_status* resolve_stream(const CudaDevice& device, const hx_stream* handle, CudaStream** out);
// resolve_stream for the entry points that take a stream handle as their subject, where NULL
// is not a stream: INVALID_ARGUMENT for NULL too.
hx_status* live_stream(const CudaDevice& device, const hx_stream* handle, CudaStream** out);

// Makes `device` current and gives the CUDA stream that work for `stream` (from
// resolve_stream) goes on: its own, made now if this is its first work, or the per-thread
// default stream for NULL.
hx_status* stream_for_work(CudaDevice& device, CudaStream* stream, cudaStream_t* out);

// Enqueues `work` (a callable taking the cudaStream_t and returning the cudaError_t of the
// CUDA call named `call`) on the stream of `handle`, and for a NULL handle waits for it.
template <class Work>
hx_status* run_ordered(CudaDevice& device, const hx_stream* handle, const char* call, Work work) {
  CudaStream* stream = nullptr;
  if (hx_status* status = resolve_stream(device, handle, &stream)) return status;
  cudaStream_t cuda_stream = nullptr;
  if (hx_status* status = stream_for_work(device, stream, &cuda_stream)) return status;
  if (hx_status* status = device_error(device, work(cuda_stream), call)) return status;
  if (stream != nullptr) return nullptr;
  return device_error(device, cudaStreamSynchronize(cuda_stream), "cudaStreamSynchronize");
}

// Function-table entries.
hx_status* stream_create(hx_device* device, hx_stream** out_stream);
void stream_destroy(hx_device* device, hx_stream* stream);
hx_status* stream_synchronize(hx_device* device, hx_stream* stream);
hx_status* stream_query(hx_device* device, hx_stream* stream, bool* out_done);
hx_status* stream_wait_event(hx_device* device, hx_stream* stream, hx_event* event);

}  // namespace hxcuda

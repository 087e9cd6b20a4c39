// Failures of calls made for one device: statuses that name the device (the core reports
// errors of queued work at a later wait, where the call that failed is long gone, so the
// message must say where it happened), and the lost-context rule: once a sticky error has
// been seen on a device, every later call for it fails with the cause (lost_contexts.hpp).
#pragma once

#include <hxrt/plugin_api.h>

#include <cuda_runtime_api.h>

namespace hxcuda {

class CudaDevice;

// NULL for cudaSuccess; else "<device label>: <call>: <error name>: <error text>" (plus what a
// sticky error means), and a sticky error marks the device's context lost.
hx_status* device_error(const CudaDevice& device, cudaError_t error, const char* call);

// device_error for cudaStreamQuery and cudaEventQuery: cudaErrorNotReady is the answer
// "not yet" (*out_done = false), not a failure.
hx_status* device_query(const CudaDevice& device, cudaError_t error, const char* call,
                        bool* out_done);

// Marks the device's context lost when `error` (what a call made for it returned, already
// reported in a status some other way) is sticky.
void note_if_sticky(const CudaDevice& device, cudaError_t error, const char* call);

// NULL while the device's context is usable; else INTERNAL naming the device, the failure
// that lost its context and what to do (restart the process).
hx_status* check_usable(const CudaDevice& device);

}  // namespace hxcuda

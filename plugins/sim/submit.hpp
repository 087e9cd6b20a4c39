// How every kernel, copy and memset runs: at once in the caller when its stream is NULL (the ABI
// says it then completes before returning), otherwise enqueued on the stream's worker and
// returned from at once. Either way it takes the time the performance model gives it, and the
// buffers it uses are pinned until it has run (device_memory.hpp).
#pragma once

#include <hxrt/plugin_api.h>

#include <chrono>
#include <memory>

#include "device_memory.hpp"
#include "work_queue.hpp"

namespace hxsim {

struct SimDevice;

// Pins `buffer` of `device` into `pins`; INVALID_ARGUMENT naming `what` when it is not a live
// buffer of the device (callers resolve it first, so this only fails on a concurrent free).
hx_status* pin_buffer(const SimDevice& device, const hx_buffer* buffer, const char* what,
                      BufferPins& pins);

// What a call submits: kernels, memsets and copies between devices may be recorded; copies
// to or from the host may not (plugin_api.h, "Recorded work").
enum class WorkKind { kKernel, kMemset, kDeviceCopy, kHostCopy };

// Runs or enqueues `item` on `stream`, a stream of `device` that check_stream accepted (or
// NULL), or records it when the stream records. The pins are released once the item has run
// (a recorded item's, when its recording goes). With a NULL stream the item's failure is the
// returned status; on a stream it fails the stream (work_queue.hpp). The caller's thread is
// kept for the model's host launch time first. FAILED_PRECONDITION for a host copy on a
// stream that records.
hx_status* submit(const SimDevice& device, hx_stream* stream, WorkKind kind, WorkItem item,
                  std::unique_ptr<BufferPins> pins);

// Keeps the calling thread busy for `duration`: the host's side of a launch, which a driver
// spends on the CPU rather than asleep (and which a sleep could not time at microseconds).
void spend_host_time(std::chrono::nanoseconds duration);

}  // namespace hxsim

// How every kernel, copy and memset runs: at once in the caller when its stream is NULL (the ABI
// says it then completes before returning), otherwise enqueued on the stream's worker and
// returned from at once. Either way it takes the time the performance model gives it, and the
// buffers it uses are pinned until it has run (device_memory.hpp).
#pragma once

#include <hxrt/plugin_api.h>

#include <memory>

#include "device_memory.hpp"
#include "work_queue.hpp"

namespace hxsim {

struct SimDevice;

// Pins `buffer` of `device` into `pins`; INVALID_ARGUMENT naming `what` when it is not a live
// buffer of the device (callers resolve it first, so this only fails on a concurrent free).
hx_status* pin_buffer(const SimDevice& device, const hx_buffer* buffer, const char* what,
                      BufferPins& pins);

// Runs or enqueues `item` on `stream`, a stream of `device` that check_stream accepted (or
// NULL). The pins are released once the item has run. With a NULL stream the item's failure
// is the returned status; on a stream it fails the stream (work_queue.hpp).
hx_status* submit(const SimDevice& device, hx_stream* stream, WorkItem item,
                  std::unique_ptr<BufferPins> pins);

}  // namespace hxsim

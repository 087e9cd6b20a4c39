// Streams and events. A stream runs its work on a worker thread, in order (work_queue.hpp); an
// event records the point after the work enqueued so far, and query, synchronize and another
// stream's wait_event (on any device of this plugin) follow that point's completion. Recording
// on a NULL stream marks a point that is complete, as all NULL-stream work is by the time its
// call returns. The handles are real objects, checked on every use (see handles.hpp). Work that
// fails as it runs fails its stream: the events recorded after it and the stream's query and
// synchronize report it, and synchronize clears it (work_queue.hpp, plugin_api.h).
#pragma once

#include <hxrt/plugin_api.h>

namespace hxsim {

struct SimDevice;

// NULL when `stream` is NULL (synchronous work) or a live stream of `device`; otherwise
// INVALID_ARGUMENT. Copies, memsets and kernels check the stream they are given with this.
hx_status* check_stream(const SimDevice& device, const hx_stream* stream);

// The optional groups of the function table.
extern const hx_stream_api kStreamApi;
extern const hx_event_api kEventApi;

}  // namespace hxsim

// Streams and events. Every simulated operation (kernel, copy, memset) completes before its
// call returns, so a stream is in order by construction and an event is complete as soon as it
// is recorded; the handles are real objects, checked on every use (see handles.hpp).
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

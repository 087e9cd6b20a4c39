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

// Function-table entries.
hx_status* stream_create(hx_device* device, hx_stream** out_stream);
void stream_destroy(hx_device* device, hx_stream* stream);
hx_status* stream_synchronize(hx_device* device, hx_stream* stream);
hx_status* stream_query(hx_device* device, hx_stream* stream, bool* out_done);
hx_status* stream_wait_event(hx_device* device, hx_stream* stream, hx_event* event);

hx_status* event_create(hx_device* device, hx_event** out_event);
void event_destroy(hx_device* device, hx_event* event);
hx_status* event_record(hx_device* device, hx_event* event, hx_stream* stream);
hx_status* event_synchronize(hx_device* device, hx_event* event);
hx_status* event_query(hx_device* device, hx_event* event, bool* out_done);

}  // namespace hxsim

// Streams and events, implemented trivially: every CPU operation (kernel, copy, memset)
// completes before its call returns, so a stream orders nothing that is not already ordered
// and an event is complete as soon as it is recorded. They exist so that core code written
// for asynchronous devices runs unchanged on the CPU.
#pragma once

#include <hxrt/plugin_api.h>

namespace hxcpu {

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

}  // namespace hxcpu

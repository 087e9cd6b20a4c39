// Events: the function-table entries. An event belongs to the device it was created for and
// is recorded on that device's streams; any device's stream may wait for it
// (stream_wait_event), which is how work on one GPU waits for work on another.
#pragma once

#include <hxrt/plugin_api.h>

namespace hxcuda {

hx_status* event_create(hx_device* device, hx_event** out_event);
void event_destroy(hx_device* device, hx_event* event);
hx_status* event_record(hx_device* device, hx_event* event, hx_stream* stream);
hx_status* event_synchronize(hx_device* device, hx_event* event);
hx_status* event_query(hx_device* device, hx_event* event, bool* out_done);

}  // namespace hxcuda

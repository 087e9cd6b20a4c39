// Events: the function-table entries. An event belongs to the device it was created for and
// is recorded on that device's streams; any device's stream may wait for it
// (stream_wait_event), which is how work on one GPU waits for work on another, and two events
// of one stream time the work between them (event_elapsed_ns).
#pragma once

#include <hxrt/plugin_api.h>

namespace hxcuda {

hx_status* event_create(hx_device* device, hx_event** out_event);
void event_destroy(hx_device* device, hx_event* event);
hx_status* event_record(hx_device* device, hx_event* event, hx_stream* stream);
hx_status* event_synchronize(hx_device* device, hx_event* event);
hx_status* event_query(hx_device* device, hx_event* event, bool* out_done);
// The GPU's time between two events of one stream (cudaEventElapsedTime, whose resolution is
// about half a microsecond). An event recorded while its stream had no work stands for the
// start of that stream's first work.
hx_status* event_elapsed_ns(hx_device* device, hx_event* start, hx_event* end,
                            uint64_t* out_ns);

}  // namespace hxcuda

// Streams and events, implemented trivially: every CPU operation (kernel, copy, memset)
// completes before its call returns, so a stream orders nothing that is not already ordered
// and an event is complete as soon as it is recorded. They exist so that core code written
// for asynchronous devices runs unchanged on the CPU.
#pragma once

#include <hxrt/plugin_api.h>

namespace hxcpu {

// The optional groups of the function table.
extern const hx_stream_api kStreamApi;
extern const hx_event_api kEventApi;

}  // namespace hxcpu

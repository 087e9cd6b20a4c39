// Turns the drained events into Chrome's Trace Event Format (the JSON object form), which
// Perfetto and chrome://tracing open. Layout: process 0 is the host, with one thread per
// recording thread; each device is a process named by its canonical name, with its stream as
// a thread and a counter of the bytes its allocator hands out.
#pragma once

#include <cstdint>
#include <ostream>

#include "trace/event_log.hpp"

namespace hxrt::detail {

// `origin_ns`: the trace's start, time zero in the file. `max_events`: the cap, named in the
// note written when events were dropped.
void write_chrome_trace(std::ostream& out, DrainedEvents drained, int64_t origin_ns,
                        uint64_t max_events);

}  // namespace hxrt::detail

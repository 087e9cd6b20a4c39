// Turns the drained events into Chrome's Trace Event Format (the JSON object form), which
// Perfetto and chrome://tracing open. Layout: process 0 is the host, with one thread per
// recording thread; each device is a process named by its canonical name, with a thread per
// stream ("GPU:0 stream 0"), one for calls that complete before they return ("GPU:0
// synchronous"), one for its memory, and a counter of the bytes its allocator hands out.
// Every string is written as valid JSON, whatever its bytes: those that are not UTF-8 become
// U+FFFD, so that a name from the user never makes the file unreadable.
#pragma once

#include <cstdint>
#include <ostream>

#include "trace/event_log.hpp"

namespace hxrt::detail {

struct TraceWriteOptions {
  int64_t origin_ns;         // the trace's start: time zero in the file
  uint64_t max_events;       // the cap, named in the note written when events were dropped
  int64_t settle_bound_ms;   // how long stop waited for pending device work, for its note
};

void write_chrome_trace(std::ostream& out, DrainedEvents drained,
                        const TraceWriteOptions& options);

}  // namespace hxrt::detail

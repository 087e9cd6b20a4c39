// The checks of the streams section, each on one device, recording in the section's log.
// check_streams (streams.cpp) runs them when the plugin offers the groups they need.
#pragma once

#include "check_log.hpp"
#include "sections/stream_work.hpp"

namespace hxrt_conformance::stream_section {

// Needs the stream functions. create, destroy (NULL too) and a new stream's query; returns
// whether streams can be created, which every later stream check needs.
bool check_stream_lifetime(const DeviceUnderTest& device, SectionLog& log);
void check_stream_synchronize(const DeviceUnderTest& device, RandomBytes& random, SectionLog& log);
void check_stream_query_after_synchronize(const DeviceUnderTest& device, RandomBytes& random,
                                          SectionLog& log);
void check_stream_query(const DeviceUnderTest& device, RandomBytes& random, SectionLog& log);
void check_stream_order(const DeviceUnderTest& device, RandomBytes& random, SectionLog& log);

// Needs the event functions. create, destroy (NULL too) and a never-recorded event; returns
// whether events can be created.
bool check_event_lifetime(const DeviceUnderTest& device, SectionLog& log);

// Need both groups: events are recorded on streams.
void check_event_synchronize(const DeviceUnderTest& device, RandomBytes& random, SectionLog& log);
void check_event_query_after_synchronize(const DeviceUnderTest& device, RandomBytes& random,
                                         SectionLog& log);
void check_event_query(const DeviceUnderTest& device, RandomBytes& random, SectionLog& log);
void check_stream_wait_event(const DeviceUnderTest& device, RandomBytes& random, SectionLog& log);
// A stream of `waiting` waits for an event recorded on `recording`, then copies what
// `recording`'s stream wrote across: the wait must hold the copy back.
void check_wait_across_devices(const DeviceUnderTest& waiting, const DeviceUnderTest& recording,
                               RandomBytes& random, SectionLog& log);

// Need both groups and the recording group (stream_recording.cpp): a recorded memset and copy
// replayed, and the group's refusals.
void check_recording(const DeviceUnderTest& device, RandomBytes& random, SectionLog& log);

// Need both groups and events.elapsed_ns (stream_timing.cpp). The time between events around
// memsets on one stream, and the misuse elapsed_ns must refuse.
void check_event_timing(const DeviceUnderTest& device, SectionLog& log);
// elapsed_ns on `timing` refuses an event of `other`.
void check_timing_across_devices(const DeviceUnderTest& timing, const DeviceUnderTest& other,
                                 SectionLog& log);

}  // namespace hxrt_conformance::stream_section

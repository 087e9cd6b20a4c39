// The checks of the in_flight section, each on one device, recording in the section's log.
// check_in_flight (in_flight.cpp) runs them. Each takes `cannot_run`: "" when what it needs
// works, else why not, which it records as its skip, so that a plugin whose copies or
// stream_synchronize are wrong (which the memory and streams sections fail) is not failed
// again here for the same fault.
#pragma once

#include <cstddef>
#include <string>

#include "check_log.hpp"
#include "device_under_test.hpp"
#include "sections/memory_bytes.hpp"

namespace hxrt_conformance::in_flight_section {

using memory_section::Bytes;
using memory_section::RandomBytes;

// The byte the `index`-th of many streams or events writes: never 0, which the buffers start
// as, so that a write that never ran shows.
inline unsigned char marker_byte(size_t index) {
  return static_cast<unsigned char>(1 + index % 255);
}

// What the checks need, each "" when it works, else why not.
// A small host -> device -> host round trip with stream NULL: how device memory is read.
std::string round_trip_failure(const DeviceUnderTest& device, RandomBytes& random);
// A few memsets queued on one stream have all run once stream_synchronize returns. Checked
// before queueing thousands: a plugin that answers early would leave the kit waiting for
// thousands of operations at stream_destroy.
std::string short_queue_failure(const DeviceUnderTest& device);

// Small buffers until 8192 are live or allocate refuses with OUT_OF_MEMORY: distinct, each
// with bytes of its own, and as many again once all were deallocated.
void check_many_buffers(const DeviceUnderTest& device, const std::string& cannot_read,
                        RandomBytes& random, SectionLog& log);
// 10000 memsets and copies queued on one stream without a wait, run in order.
void check_many_queued(const DeviceUnderTest& device, const std::string& cannot_run,
                       RandomBytes& random, SectionLog& log);
// Events until 4096 are live or event_create refuses, each recorded after a memset; each
// event_synchronize returns, every event is then done, and every memset has run.
void check_many_events(const DeviceUnderTest& device, const std::string& cannot_run,
                       SectionLog& log);
// Streams until 256 are live or stream_create refuses, each given a memset and a copy to the
// host, each synchronized.
void check_many_streams(const DeviceUnderTest& device, const std::string& cannot_run,
                        SectionLog& log);

// The check names, for the skips the section records when a group is missing.
std::string many_queued_check(const DeviceUnderTest& device);
std::string many_events_check(const DeviceUnderTest& device);
std::string many_streams_check(const DeviceUnderTest& device);

}  // namespace hxrt_conformance::in_flight_section

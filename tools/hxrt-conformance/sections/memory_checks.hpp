// The checks of the memory section, each on one device (or a pair), recording in the section's
// log. check_memory (memory.cpp) runs them in order. Device memory is reached only through
// the plugin's copies: a device's memory need not be addressable from the host.
#pragma once

#include <string>
#include <vector>

#include "call_text.hpp"
#include "check_log.hpp"
#include "device_memory.hpp"
#include "device_transfers.hpp"
#include "sections/memory_bytes.hpp"

namespace hxrt_conformance::memory_section {

// Buffers of several sizes, live at once, each read back intact after all were written; and,
// for a device that declares HOST memory, their handles are host addresses at the declared
// alignment that do not overlap.
void check_live_buffers(const DeviceUnderTest& device, bool copies_work, RandomBytes& random,
                        SectionLog& log);
void check_deallocate_null(const DeviceUnderTest& device, SectionLog& log);
// allocate(max_allocation + 1) is refused, when the device declares a max_allocation.
void check_max_allocation(const DeviceUnderTest& device, SectionLog& log);
// A large buffer is usable at both ends when `copies_work`.
void check_large_allocation(const DeviceUnderTest& device, bool copies_work, RandomBytes& random,
                            SectionLog& log);

// Host -> device -> host round trips of 1 byte to several MiB, at offsets into the
// allocation; returns whether they work. The checks below that take `copies_work` read device
// memory through these copies, so they record a skip when it is false.
bool check_round_trips(const DeviceUnderTest& device, RandomBytes& random, SectionLog& log);
void check_copies_within(const DeviceUnderTest& device, bool copies_work, RandomBytes& random,
                         SectionLog& log);
// copy_device_to_device between two ranges of one buffer, at non-zero offsets.
void check_copies_inside_buffer(const DeviceUnderTest& device, bool copies_work,
                                RandomBytes& random, SectionLog& log);
void check_copies_between(const DeviceUnderTest& dst, const DeviceUnderTest& src,
                          RandomBytes& random, SectionLog& log);
void check_memset(const DeviceUnderTest& device, bool copies_work, RandomBytes& random,
                  SectionLog& log);
// size-0 copies and memsets change nothing and succeed, even with NULL buffers.
void check_empty_transfers(const DeviceUnderTest& device, bool copies_work, RandomBytes& random,
                           SectionLog& log);

// Pinned host memory is an optional group: true when the plugin offers it; otherwise records
// the skip.
bool pinned_memory_offered(const hx_plugin_api& api, SectionLog& log);
void check_pinned_round_trip(const DeviceUnderTest& device, bool copies_work, RandomBytes& random,
                             SectionLog& log);
void check_host_deallocate_null(const DeviceUnderTest& device, SectionLog& log);
// The host_memory group's buffer functions (ABI 2.5), where offered.
void check_pinned_buffers(const DeviceUnderTest& device, bool copies_work, RandomBytes& random,
                          SectionLog& log);

// Why a check that reads device memory is skipped when the round trips fail.
std::string needs_round_trips(const DeviceUnderTest& device);
// For a check `name` that reads device memory: true when `copies_work`, else records the skip
// and returns false.
bool can_read_device_memory(const DeviceUnderTest& device, bool copies_work,
                            const std::string& name, SectionLog& log);

}  // namespace hxrt_conformance::memory_section

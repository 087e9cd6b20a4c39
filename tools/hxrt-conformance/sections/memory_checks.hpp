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

// Allocations of several sizes at alignments 64, 128, 256 and 4096, one check per alignment;
// returns the allocations, still live, for check_no_overlap.
std::vector<DeviceAllocation> check_alignment(const DeviceUnderTest& device, SectionLog& log);
// The live allocations `buffers` occupy disjoint ranges.
void check_no_overlap(const DeviceUnderTest& device, const std::vector<DeviceAllocation>& buffers,
                      SectionLog& log);
// allocate of 0 bytes, and deallocate(NULL).
void check_allocation_edges(const DeviceUnderTest& device, SectionLog& log);
// A large allocation is aligned and, when `copies_work`, usable at both ends.
void check_large_allocation(const DeviceUnderTest& device, bool copies_work, RandomBytes& random,
                            SectionLog& log);

// Host -> device -> host round trips of 1 byte to several MiB, at offsets into the
// allocation; returns whether they work. The checks below that take `copies_work` read device
// memory through these copies, so they record a skip when it is false.
bool check_round_trips(const DeviceUnderTest& device, RandomBytes& random, SectionLog& log);
void check_copies_within(const DeviceUnderTest& device, bool copies_work, RandomBytes& random,
                         SectionLog& log);
void check_copies_between(const DeviceUnderTest& dst, const DeviceUnderTest& src,
                          RandomBytes& random, SectionLog& log);
void check_memset(const DeviceUnderTest& device, bool copies_work, RandomBytes& random,
                  SectionLog& log);
// size-0 copies and memsets change nothing and succeed, even with NULL pointers.
void check_empty_transfers(const DeviceUnderTest& device, bool copies_work, RandomBytes& random,
                           SectionLog& log);

// Pinned host memory is optional: true when the plugin offers it; otherwise records why the
// pinned checks do not run (a skip, or a failure for half a pair).
bool pinned_memory_offered(const hx_plugin_api& api, SectionLog& log);
void check_pinned_round_trip(const DeviceUnderTest& device, bool copies_work, RandomBytes& random,
                             SectionLog& log);
void check_host_deallocate_null(const DeviceUnderTest& device, SectionLog& log);

// Why a check that reads device memory is skipped when the round trips fail.
std::string needs_round_trips(const DeviceUnderTest& device);
// For a check `name` that reads device memory: true when `copies_work`, else records the skip
// and returns false.
bool can_read_device_memory(const DeviceUnderTest& device, bool copies_work,
                            const std::string& name, SectionLog& log);

}  // namespace hxrt_conformance::memory_section

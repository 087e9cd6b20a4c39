// The memory section: allocation, copies in every direction and memset on every device, all
// synchronous (stream NULL); stream-ordered transfers are the streams section's.
#include "sections/memory_checks.hpp"
#include "sections/sections.hpp"

namespace hxrt_conformance {

void check_memory(const Target& target, PluginSession& session, SectionLog& log) {
  using namespace memory_section;
  if (!require_devices(session, log, "memory")) return;
  const std::vector<DeviceUnderTest> devices = devices_under_test(session);
  RandomBytes random(target.seed);
  const bool pinned = pinned_memory_offered(session.api(), log);
  std::vector<const DeviceUnderTest*> copying;  // the devices whose round trips work
  for (const DeviceUnderTest& device : devices) {
    check_deallocate_null(device, log);
    check_max_allocation(device, log);
    const bool copies_work = check_round_trips(device, random, log);
    if (copies_work) copying.push_back(&device);
    check_live_buffers(device, copies_work, random, log);
    check_copies_within(device, copies_work, random, log);
    check_copies_inside_buffer(device, copies_work, random, log);
    check_memset(device, copies_work, random, log);
    check_large_allocation(device, copies_work, random, log);
    if (pinned) {
      check_pinned_round_trip(device, copies_work, random, log);
      check_pinned_buffers(device, copies_work, random, log);
      check_host_deallocate_null(device, log);
    }
    // Last, as NULL pointers are the likeliest to crash a plugin and end the section.
    check_empty_transfers(device, copies_work, random, log);
  }
  if (devices.size() < 2) {
    log.skip("copies between devices",
             "the plugin has one device; copies between devices need two");
  } else if (copying.size() < 2) {
    log.skip("copies between devices",
             "fewer than two devices pass their round trips through the host");
  } else {
    // The first two in both directions: a third device would add time, not new paths.
    check_copies_between(*copying[1], *copying[0], random, log);
    check_copies_between(*copying[0], *copying[1], random, log);
  }
}

}  // namespace hxrt_conformance

#include "sections/sections.hpp"

namespace hxrt_conformance {

const std::vector<Section>& sections() {
  static const std::vector<Section> all = {
      {"abi", "entry point, version negotiation, the table, registrations, loading in the core",
       check_abi, nullptr},
      {"lifecycle", "init, shutdown, a second init, unload and load again", check_lifecycle,
       nullptr},
      {"devices", "device count, handles, properties, memory info", nullptr, check_devices},
      {"memory", "allocation sizes and alignment, copies in every direction, memset", nullptr,
       check_memory},
      {"streams", "stream order, synchronize, query, events, cross-stream waits", nullptr,
       check_streams},
      {"kernels", "every registered kernel against reference results on random inputs",
       nullptr, check_kernels},
      {"errors", "bad arguments and options give a status, never a crash", check_errors,
       nullptr},
      {"threads", "several threads allocating, copying and running kernels at once", nullptr,
       check_threads},
      {"in_flight", "thousands of live buffers, events and queued operations; hundreds of streams",
       nullptr, check_in_flight},
  };
  return all;
}

const Section* find_section(const std::string& name) {
  for (const Section& section : sections()) {
    if (name == section.name) return &section;
  }
  return nullptr;
}

bool require_devices(const PluginSession& session, SectionLog& log, const std::string& check) {
  if (!session.devices().empty()) return true;
  log.skip(check, "the plugin has no devices (" + session.no_devices_reason() + ")");
  return false;
}

}  // namespace hxrt_conformance

// The conformance sections, in the order the suite runs them. Each is a function that records
// its checks in a SectionLog; the suite runs each in a child process of its own (see
// child_process.hpp), so a plugin that crashes or hangs fails one section, not the kit.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "check_log.hpp"
#include "plugin_session.hpp"

namespace hxrt_conformance {

// The plugin under test.
struct Target {
  std::string path;     // the shared object
  std::string options;  // JSON object text given to hx_plugin_init
  uint64_t seed = 1;    // for the random inputs of the kernel and memory checks
};

// A section that loads and initialises the plugin itself, as often as it needs (abi,
// lifecycle, errors), one init at a time.
using TargetChecks = void (*)(const Target& target, SectionLog& log);
// A section that works on one initialised plugin (the others). The runner records a skip for
// the whole section when the plugin cannot be loaded or initialised: the abi section says why.
using SessionChecks = void (*)(const Target& target, PluginSession& session, SectionLog& log);

struct Section {
  const char* name;     // "memory": what --section takes
  const char* summary;  // one line for --help
  TargetChecks target_checks;    // exactly one of the two is set
  SessionChecks session_checks;
};

const std::vector<Section>& sections();
// The section called `name`, or nullptr.
const Section* find_section(const std::string& name);

void check_abi(const Target& target, SectionLog& log);
void check_lifecycle(const Target& target, SectionLog& log);
void check_devices(const Target& target, PluginSession& session, SectionLog& log);
void check_memory(const Target& target, PluginSession& session, SectionLog& log);
void check_streams(const Target& target, PluginSession& session, SectionLog& log);
void check_kernels(const Target& target, PluginSession& session, SectionLog& log);
void check_errors(const Target& target, SectionLog& log);
void check_threads(const Target& target, PluginSession& session, SectionLog& log);
void check_in_flight(const Target& target, PluginSession& session, SectionLog& log);

// For the sections that need a device: true when the plugin has one, else records one skip
// `check` with the reason and returns false.
bool require_devices(const PluginSession& session, SectionLog& log, const std::string& check);

}  // namespace hxrt_conformance

// One probe of one plugin: hxrt-probe started as a child process (posix_spawn, so it is safe
// in a host with threads), watched until it reports or the time limit passes, then killed if
// need be and reaped. The host's signal handlers, signal mask and other file descriptors are
// neither changed nor inherited; what the plugin prints is read by the core, never shown.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace hxrt::detail {

struct ProbeOutcome {
  enum class Verdict {
    kSurvived,  // every step returned: loading the plugin in-process will not take us down
    kFatal,     // the plugin crashed, called exit() or hung (the probe did not finish in
                // time); `reason` says which and where
    kUnknown,   // the probe could not run (`reason` says why): nothing was learnt
  };
  Verdict verdict = Verdict::kUnknown;
  std::string reason;
};

// Runs `program` (hxrt-probe) on the plugin file `plugin_path`, passing `options` (the JSON
// text its init will get) and `intra_op_threads` (its init's hx_plugin_init_args field).
// `plugin_name` names the plugin in the reason: "plugin 'x' crashed in hx_plugin_init: SIGSEGV
// (Segmentation fault)".
ProbeOutcome run_probe(const std::string& program, const std::string& plugin_path,
                       const std::string& plugin_name, const std::string& options,
                       uint32_t intra_op_threads, std::chrono::milliseconds time_limit);

}  // namespace hxrt::detail

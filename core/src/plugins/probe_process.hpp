// One probe of one plugin: hxrt-probe started as a child process (posix_spawn, so it is safe
// in a host with threads) in a process group of its own, given a fresh key on its standard
// input and watched until it ends or the time limit passes; then its whole process group is
// killed, so that nothing the plugin started outlives the probe, and it is reaped. The host's
// signal handlers, signal mask and other file descriptors are neither changed nor inherited;
// what the plugin prints is read by the core, never shown.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "plugins/probe_verdict.hpp"

namespace hxrt::detail {

// Runs `program` (hxrt-probe) on the plugin file `plugin_path`, passing `options` (the JSON
// text its init will get) and `intra_op_threads` (its init's hx_plugin_init_args field).
// `plugin_name` names the plugin in the reason: "plugin 'x' crashed in hx_plugin_init: SIGSEGV
// (Segmentation fault)".
ProbeOutcome run_probe(const std::string& program, const std::string& plugin_path,
                       const std::string& plugin_name, const std::string& options,
                       uint32_t intra_op_threads, std::chrono::milliseconds time_limit);

}  // namespace hxrt::detail

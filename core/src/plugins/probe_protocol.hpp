// What hxrt-probe (tools/hxrt-probe) tells the core (plugins/probe_process.cpp) about the one
// plugin it loads: lines on file descriptor kProbeReportFd, each one of
//   "step <call>"   written before each call into the plugin, so that a crash, an exit() or a
//                   hang is blamed on the last step named ("crashed in <call>");
//   "done"          every step returned: the plugin survived being loaded, enumerated and shut
//                   down (whether the core will accept it is the in-process loader's question);
//   "error <why>"   the probe itself could not run, which says nothing about the plugin.
#pragma once

namespace hxrt::detail::probe_protocol {

// The first descriptor after stdin, stdout and stderr: the plugin's own output goes to those.
constexpr int kReportFd = 3;
constexpr const char* kStep = "step ";
constexpr const char* kDone = "done";
constexpr const char* kError = "error ";

}  // namespace hxrt::detail::probe_protocol

// The verdict on one probe of a plugin, from what its process did first (hung, killed by a
// signal, its exit status) and what it reported second: a report cannot overrule its process,
// so a plugin that fakes the probe's words still needs the probe's own ending behind them.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "plugins/probe_report.hpp"

namespace hxrt::detail {

struct ProbeOutcome {
  enum class Verdict {
    kSurvived,  // every step returned: loading the plugin in-process will not take us down
    kFatal,     // the plugin crashed, called exit() or hung (the probe did not finish in
                // time); `reason` says which and where
    kUnknown,   // the probe could not run, or never reached the plugin (`reason` says why):
                // nothing was learnt
  };
  Verdict verdict = Verdict::kUnknown;
  std::string reason;
};

// How the probe process ended.
struct ProbeEnd {
  bool timed_out = false;  // it was still running at the time limit, and was killed
  // Its wait status; nullopt when that went elsewhere: a host that ignores SIGCHLD, or reaps
  // every child itself, leaves none to collect.
  std::optional<int> wait_status;
};

// What the reason names.
struct ProbeNames {
  std::string program;      // hxrt-probe's path
  std::string plugin_name;  // "plugin 'x' crashed in ..."
  std::chrono::milliseconds time_limit{0};
  std::string last_output;  // the last line the plugin printed, "" for none
};

// kSurvived only when the process exited with the probe's own "finished" status and the probe
// said "done"; kUnknown only when the plugin was never reached, or the process exited with the
// probe's "could not probe" status and the probe said why; kFatal for everything else.
// Without a wait status a "done" has to be taken at its word: a crash after it (in an exit
// handler) goes unseen then.
ProbeOutcome judge_probe(const ProbeEnd& end, const ProbeReport& report, const ProbeNames& names);

}  // namespace hxrt::detail

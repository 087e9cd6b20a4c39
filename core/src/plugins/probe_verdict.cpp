#include "plugins/probe_verdict.hpp"

#include <signal.h>
#include <sys/wait.h>

#include <cstring>

#include "plugins/probe_protocol.hpp"

namespace hxrt::detail {
namespace {

namespace protocol = probe_protocol;

// Where a crash or an exit after "done" happened: in what the process runs on its way out
// (destructors, atexit handlers, threads the plugin left running).
constexpr const char* kAfterDone = "the exit of its probe process, after every step returned";

// "SIGSEGV (Segmentation fault)".
std::string signal_description(int signal) {
  const char* abbreviation = sigabbrev_np(signal);
  std::string description = abbreviation != nullptr ? std::string("SIG") + abbreviation
                                                    : "signal " + std::to_string(signal);
  if (const char* text = strsignal(signal)) description += std::string(" (") + text + ")";
  return description;
}

// "5 s", "1500 ms".
std::string duration_text(std::chrono::milliseconds limit) {
  if (limit.count() % 1000 == 0) return std::to_string(limit.count() / 1000) + " s";
  return std::to_string(limit.count()) + " ms";
}

// " (exit status 127)", " (SIGSEGV (Segmentation fault))", "" when unknown.
std::string ending_text(const std::optional<int>& wait_status) {
  if (!wait_status) return "";
  if (WIFSIGNALED(*wait_status)) return " (" + signal_description(WTERMSIG(*wait_status)) + ")";
  if (WIFEXITED(*wait_status)) {
    return " (exit status " + std::to_string(WEXITSTATUS(*wait_status)) + ")";
  }
  return "";
}

ProbeOutcome fatal(std::string reason) {
  return {ProbeOutcome::Verdict::kFatal, std::move(reason)};
}
ProbeOutcome unknown(std::string reason) {
  return {ProbeOutcome::Verdict::kUnknown, std::move(reason)};
}

}  // namespace

ProbeOutcome judge_probe(const ProbeEnd& end, const ProbeReport& report, const ProbeNames& names) {
  const std::string last_output =
      names.last_output.empty() ? "" : "; its last output: \"" + names.last_output + "\"";
  const std::string plugin = "plugin '" + names.plugin_name + "' ";
  const std::optional<std::string> where =
      report.done() ? std::optional<std::string>(kAfterDone) : report.last_step();

  if (end.timed_out) {
    // Even before the probe reached the plugin: loading a plugin that may hang is no fallback.
    return fatal(
        plugin +
        (where ? "did not return from " + *where : std::string("was not reached by its probe")) +
        " within " + duration_text(names.time_limit) +
        " in a probe process, which was killed; fix or remove the plugin, or raise "
        "plugins.probe_timeout_ms if it is only slow" +
        last_output);
  }
  if (!where) {
    // No step was signed, and the probe signs "step dlopen" where the plugin cannot take it
    // back before it loads the plugin: the plugin never ran.
    return unknown(names.program +
                   (report.error()
                        ? " could not probe it: " + *report.error()
                        : " ended before it reached the plugin" + ending_text(end.wait_status)) +
                   last_output);
  }
  const std::string blame = " in a probe process; fix or remove the plugin" + last_output;
  if (!end.wait_status) {
    if (report.done()) return {ProbeOutcome::Verdict::kSurvived, {}};
    if (report.error()) return unknown(names.program + " could not probe it: " + *report.error());
    return fatal(plugin + "ended its probe process in " + *where +
                 " (how is unknown: this process ignores SIGCHLD or reaps its children itself)" +
                 blame);
  }
  const int status = *end.wait_status;
  if (WIFSIGNALED(status)) {
    return fatal(plugin + "crashed in " + *where + ": " + signal_description(WTERMSIG(status)) +
                 blame);
  }
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code == protocol::kFinishedExit && report.done()) {
    return {ProbeOutcome::Verdict::kSurvived, {}};
  }
  if (code == protocol::kCouldNotProbeExit && report.error() && !report.done()) {
    return unknown(names.program + " could not probe it: " + *report.error() + last_output);
  }
  return fatal(plugin + "called exit(" + std::to_string(code) + ") in " + *where + blame);
}

}  // namespace hxrt::detail

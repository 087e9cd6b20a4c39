#include "suite.hpp"

#include <nlohmann/json.hpp>

#include <memory>
#include <sstream>

#include "child_process.hpp"
#include "plugin_library.hpp"
#include "plugin_session.hpp"

namespace hxrt_conformance {
namespace {

// One check per line of JSON on the channel, written as soon as it is recorded.
std::string encode(const Check& check) {
  const nlohmann::json line = {{"section", check.section},
                               {"check", check.name},
                               {"result", result_name(check.result)},
                               {"detail", check.detail}};
  return line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

Result result_from(const std::string& name) {
  if (name == "pass") return Result::kPass;
  if (name == "skip") return Result::kSkip;
  return Result::kFail;
}

// The checks the child wrote; a last line cut short by a crash is dropped.
std::vector<Check> decode(const std::string& output) {
  std::vector<Check> checks;
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    const nlohmann::json parsed = nlohmann::json::parse(line, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object()) continue;
    checks.push_back(Check{parsed.value("section", ""), parsed.value("check", ""),
                           result_from(parsed.value("result", "")),
                           parsed.value("detail", "")});
  }
  return checks;
}

void run_section_here(const Section& section, const Target& target, SectionLog& log) {
  if (section.target_checks != nullptr) {
    section.target_checks(target, log);
    return;
  }
  PluginLibrary library(target.path);
  if (library.init() == nullptr) {
    log.skip("section " + std::string(section.name),
             "the plugin cannot be loaded (" + library.error() + "); see the abi section");
    return;
  }
  auto session = std::make_unique<PluginSession>(library, target.options);
  if (!session->initialised()) {
    log.skip("section " + std::string(section.name),
             "hx_plugin_init failed (" + describe(session->init_outcome()) +
                 "); see the abi section");
    return;
  }
  if (!session->table_problem().empty()) {
    log.skip("section " + std::string(section.name),
             "the kit cannot use the plugin's table: " + session->table_problem() +
                 "; see the abi section");
    return;
  }
  section.session_checks(target, *session, log);
  session.reset();  // shutdown before the library is closed
}

// What the section's checks do not say when the child did not finish.
std::string how_it_ended(const ChildOutcome& outcome, const std::string& last_check,
                         int timeout_seconds) {
  const std::string where = last_check.empty()
                                ? "before its first check finished"
                                : "after the check '" + last_check + "'";
  switch (outcome.end) {
    case ChildOutcome::End::kSignalled:
      return "the process died of " + signal_description(outcome.signal) + " " + where +
             ": a call into the plugin crashed or aborted; run the section under a debugger "
             "(gdb -ex 'set follow-fork-mode child' --args hxrt-conformance ...)";
    case ChildOutcome::End::kTimedOut:
      return "no answer within " + std::to_string(timeout_seconds) + " s " + where +
             ": a call into the plugin did not return (a deadlock, or a wait that never "
             "ends); raise --timeout if the plugin is merely slow";
    case ChildOutcome::End::kExited:
      break;
  }
  return "the process exited with code " + std::to_string(outcome.exit_code) + " " + where +
         ": the plugin called exit(), or the kit failed (see stderr)";
}

}  // namespace

PluginResult run_suite(const Target& target, const std::vector<const Section*>& chosen,
                       int timeout_seconds) {
  PluginResult result{target, {}, 0, 0, 0};
  for (const Section* section : chosen) {
    const ChildOutcome outcome = run_in_child(
        [&](int channel) {
          SectionLog log(section->name, [channel](const Check& check) {
            write_all(channel, encode(check));
          });
          run_section_here(*section, target, log);
        },
        timeout_seconds);
    std::vector<Check> checks = decode(outcome.output);
    const bool finished = outcome.end == ChildOutcome::End::kExited && outcome.exit_code == 0;
    if (!finished) {
      const std::string last = checks.empty() ? std::string() : checks.back().name;
      checks.push_back(Check{section->name, "section " + std::string(section->name) +
                                                " runs to the end",
                             Result::kFail, how_it_ended(outcome, last, timeout_seconds)});
    }
    for (Check& check : checks) {
      if (check.result == Result::kPass) ++result.passed;
      if (check.result == Result::kFail) ++result.failed;
      if (check.result == Result::kSkip) ++result.skipped;
      result.checks.push_back(std::move(check));
    }
  }
  return result;
}

}  // namespace hxrt_conformance

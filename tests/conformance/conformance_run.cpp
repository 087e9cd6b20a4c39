#include "conformance_run.hpp"

#include <catch2/catch.hpp>

#include "run_program.hpp"

namespace hxrt_test {

ConformanceRun run_conformance(const std::string& plugin, const std::string& arguments) {
  const ProgramResult program = run_program(std::string(kCleanEnvironment) + " " +
                                            built_program("hxrt-conformance") + " --json " +
                                            arguments + " " + shell_quote(plugin));
  ConformanceRun run;
  run.exit_code = program.exit_code;
  run.output = program.output;
  const nlohmann::json report = nlohmann::json::parse(program.output, nullptr, false);
  if (report.is_discarded()) FAIL("hxrt-conformance printed no JSON:\n" << program.output);
  for (const nlohmann::json& check : report.at("plugins").at(0).at("checks")) {
    run.checks.push_back({check.at("section"), check.at("check"), check.at("result"),
                          check.at("detail")});
  }
  const nlohmann::json& summary = report.at("plugins").at(0).at("summary");
  run.passed = summary.at("passed");
  run.failed = summary.at("failed");
  run.skipped = summary.at("skipped");
  return run;
}

std::vector<ConformanceCheck> ConformanceRun::with(const std::string& section,
                                                   const std::string& result) const {
  std::vector<ConformanceCheck> found;
  for (const ConformanceCheck& check : checks) {
    if (check.section == section && check.result == result) found.push_back(check);
  }
  return found;
}

std::vector<std::string> ConformanceRun::names(const std::string& section,
                                               const std::string& result) const {
  std::vector<std::string> found;
  for (const ConformanceCheck& check : with(section, result)) found.push_back(check.check);
  return found;
}

ConformanceCheck ConformanceRun::check(const std::string& name) const {
  for (const ConformanceCheck& found : checks) {
    if (found.check == name) return found;
  }
  FAIL("no check '" << name << "' in:\n" << output);
  return {};
}

std::string ConformanceRun::detail(const std::string& name) const { return check(name).detail; }

std::string ConformanceRun::failures() const {
  std::string text;
  for (const ConformanceCheck& check : checks) {
    if (check.result == "fail") text += check.section + " / " + check.check + ": " + check.detail + "\n";
  }
  return text;
}

std::string built_plugin(const std::string& name) {
  return std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_" + name + ".so";
}

std::string conformance_fixture(const std::string& name) {
  return std::string(HXRT_CONFORMANCE_FIXTURE_DIR) + "/libhx_conformance_" + name + ".so";
}

}  // namespace hxrt_test

// Runs build/bin/hxrt-conformance on one plugin with --json and reads its checks.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace hxrt_test {

struct ConformanceCheck {
  std::string section;
  std::string check;
  std::string result;  // "pass", "fail", "skip"
  std::string detail;
};

struct ConformanceRun {
  int exit_code = -1;
  std::string output;  // what the kit printed on stdout
  std::vector<ConformanceCheck> checks;
  int passed = 0;
  int failed = 0;
  int skipped = 0;

  // The checks of `section` with `result` ("fail", ...).
  std::vector<ConformanceCheck> with(const std::string& section, const std::string& result) const;
  // Their names, in the order they ran.
  std::vector<std::string> names(const std::string& section, const std::string& result) const;
  // The check called `name`; fails the test when there is none.
  ConformanceCheck check(const std::string& name) const;
  // Its detail.
  std::string detail(const std::string& name) const;
  // Every failed check as "section / check: detail" lines, for failure messages.
  std::string failures() const;
};

// `plugin`: a path; `arguments`: more command-line words, already shell-quoted.
ConformanceRun run_conformance(const std::string& plugin, const std::string& arguments = {});

// A plugin the build put in its plugin folder ("cpu" -> .../libhx_cpu.so).
std::string built_plugin(const std::string& name);
// A conformance fixture ("truncating_copy" -> .../libhx_conformance_truncating_copy.so).
std::string conformance_fixture(const std::string& name);

}  // namespace hxrt_test

// What the loader tests share: where the CPU plugin and the fixtures are, a runtime built from
// an explicit list of plugin paths, lookups in its load report, and the check that the CPU
// plugin survived whatever a broken fixture did.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "error_from.hpp"
#include "hxrt/runtime.hpp"

namespace loader_test {

// HXRT_TEST_PLUGIN_DIR/libhx_cpu.so
std::string cpu_plugin_path();
// "libhx_fixture_<what>.so"
std::string fixture_file(const std::string& what);
// HXRT_TEST_FIXTURE_DIR/libhx_fixture_<what>.so
std::string fixture_path(const std::string& what);

// A runtime that loads exactly `plugin_paths` (plus whatever the environment adds), not the
// installed plugin folder.
hxrt::Runtime runtime_with(const std::vector<std::string>& plugin_paths);

// The load report entries whose file is named `file_name`, in any folder.
std::vector<hxrt::PluginReport> reports_for(const hxrt::Runtime& runtime,
                                            const std::string& file_name);
// The one load report entry for `file_name`; fails the test when there is not exactly one.
hxrt::PluginReport report_for(const hxrt::Runtime& runtime, const std::string& file_name);

// The CPU plugin is loaded and a MatMul placed on CPU:0 gives the right answer.
void check_cpu_plugin_works(hxrt::Runtime& runtime);

using hxrt_test::error_from;

// Sets an environment variable for the life of the object, then restores what was there.
class ScopedEnv {
 public:
  ScopedEnv(std::string name, const std::string& value);
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  std::optional<std::string> saved_;
};

}  // namespace loader_test

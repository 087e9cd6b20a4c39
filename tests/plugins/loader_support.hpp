// What the loader tests share: where the CPU plugin and the fixtures are, a runtime built from
// an explicit list of plugin paths, lookups in its load report, and the check that the CPU
// plugin survived whatever a broken fixture did.
#pragma once

#include <memory>
#include <mutex>
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
// installed plugin folder; its log goes to `log_sink` when one is given.
hxrt::Runtime runtime_with(const std::vector<std::string>& plugin_paths,
                           hxrt::LogSink log_sink = {});

// The load report entries whose file is named `file_name`, in any folder.
std::vector<hxrt::PluginReport> reports_for(const hxrt::Runtime& runtime,
                                            const std::string& file_name);
// The one load report entry for `file_name`; fails the test when there is not exactly one.
hxrt::PluginReport report_for(const hxrt::Runtime& runtime, const std::string& file_name);

// The physical devices of `type`, each as "<short name> from <plugin>", in id order.
std::vector<std::string> physical_devices_of_type(const hxrt::Runtime& runtime,
                                                  const std::string& type);

// The CPU plugin is loaded and a MatMul placed on CPU:0 gives the right answer.
void check_cpu_plugin_works(hxrt::Runtime& runtime);

// Loads the CPU plugin and then the fixture; returns the fixture's report after checking that
// it was skipped and that the CPU plugin still runs a MatMul.
hxrt::PluginReport skipped_fixture_report(const std::string& what);

using hxrt_test::error_from;

// Collects the lines of a log sink, with their levels.
class LogLines {
 public:
  struct Line {
    hxrt::LogLevel level;
    std::string text;
  };
  // A sink that appends to this collection (which it shares, so it may outlive this object).
  hxrt::LogSink sink() const;
  std::vector<Line> lines() const;
  // Whether some line contains `text`.
  bool contains(const std::string& text) const;
  // Every line, one per row, for the test's messages.
  std::string all() const;

 private:
  struct Shared {
    std::mutex mutex;
    std::vector<Line> lines;
  };
  std::shared_ptr<Shared> shared_ = std::make_shared<Shared>();
};

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

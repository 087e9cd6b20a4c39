// A probe whose program is missing, with the core's probe settings driven directly: a Runtime
// always finds hxrt-probe beside libhxrt.so, where the build and the install put it.
#include <catch2/catch.hpp>

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "loader_support.hpp"
#include "base/logger.hpp"
#include "plugins/plugin_probe.hpp"
#include "temp_dir.hpp"

using Catch::Matchers::Contains;
using loader_test::cpu_plugin_path;

TEST_CASE("without hxrt-probe a plugin is loaded unprobed, with a warning") {
  // Probe verdicts go to a scratch cache, as in probe_test.cpp.
  const hxrt_test::TempDir cache_home("hxrt_probe_program_test");
  const loader_test::ScopedEnv cache_env("XDG_CACHE_HOME", cache_home.path().string());
  auto logger = std::make_shared<hxrt::detail::Logger>();
  std::string log;
  logger->set_sink([&log](hxrt::LogLevel, std::string_view line) {
    log.append(line).append("\n");
  });
  hxrt::detail::ProbeSettings settings =
      hxrt::detail::probe_settings(true, std::chrono::milliseconds(5000));
  settings.program = "/nonexistent/hxrt-probe";
  hxrt::detail::PluginProbe probe(settings, logger);
  CHECK(probe.check(cpu_plugin_path(), "cpu", "{}", 0).empty());
  CHECK_THAT(log, Contains("plugin " + cpu_plugin_path() + " is loaded without a probe"));
  CHECK_THAT(log, Contains("cannot start /nonexistent/hxrt-probe: No such file or directory"));
}

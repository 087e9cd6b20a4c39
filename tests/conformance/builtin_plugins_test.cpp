// The plugins the build makes pass the kit: what a plugin author is told is conformant is.
#include <catch2/catch.hpp>

#include "conformance_run.hpp"

using hxrt_test::built_plugin;
using hxrt_test::ConformanceRun;
using hxrt_test::run_conformance;

TEST_CASE("the CPU plugin passes every section", "[conformance]") {
  const ConformanceRun run = run_conformance(built_plugin("cpu"));
  INFO(run.failures());
  CHECK(run.failed == 0);
  CHECK(run.exit_code == 0);
  CHECK(run.passed > 0);
  // The CPU plugin has kernels for every core op, and the core a reference for each: none of
  // its checks is skipped for want of one.
  CHECK(run.output.find("no reference") == std::string::npos);
}

TEST_CASE("the sim plugin passes every section with two devices", "[conformance]") {
  const ConformanceRun run =
      run_conformance(built_plugin("sim"), "--options '{\"device_count\": 2}'");
  INFO(run.failures());
  CHECK(run.failed == 0);
  CHECK(run.exit_code == 0);
  CHECK(run.passed > 0);
}

// The CUDA plugin against the whole kit, on a machine with a GPU: every section passes (a
// feature it lacks would be a skip). Without a GPU the plugin reports no devices and the
// test says so, which CTest reports as skipped.
#include <catch2/catch.hpp>

#include <iostream>

#include "conformance_run.hpp"

TEST_CASE("the CUDA plugin passes every section on a GPU", "[conformance][cuda]") {
  const hxrt_test::ConformanceRun run = hxrt_test::run_conformance(hxrt_test::built_plugin("cuda"));
  INFO(run.failures());
  CHECK(run.failed == 0);
  CHECK(run.exit_code == 0);
  for (const hxrt_test::ConformanceCheck& check : run.with("devices", "pass")) {
    if (check.check == "device_count" && check.detail.rfind("UNAVAILABLE", 0) == 0) {
      std::cout << "no CUDA device here: " << check.detail << '\n';
    }
  }
}

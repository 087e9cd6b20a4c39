// The threads section: several threads allocating, copying and running a kernel at once pass
// on the plugins the build makes, and a wrong kernel result is reported with the thread and
// iteration that saw it.
#include <catch2/catch.hpp>
#include <string>

#include "conformance_run.hpp"

using Catch::Matchers::Contains;
using hxrt_test::built_plugin;
using hxrt_test::conformance_fixture;
using hxrt_test::ConformanceCheck;
using hxrt_test::ConformanceRun;
using hxrt_test::run_conformance;

namespace {

const ConformanceCheck* find_check(const ConformanceRun& run, const std::string& name) {
  for (const ConformanceCheck& check : run.checks) {
    if (check.section == "threads" && check.check == name) return &check;
  }
  return nullptr;
}

void require_passes(const ConformanceRun& run, const std::string& name) {
  INFO(run.output);
  const ConformanceCheck* check = find_check(run, name);
  REQUIRE(check != nullptr);
  CHECK(check->result == "pass");
}

}  // namespace

TEST_CASE("four threads of the CPU plugin allocate, copy and run MatMul at once", "[conformance]") {
  const ConformanceRun run = run_conformance(built_plugin("cpu"), "--section threads");
  INFO(run.failures());
  CHECK(run.failed == 0);
  require_passes(run, "4 threads allocate, copy and free at once");
  require_passes(run, "4 threads run MatMul f32 at once");
}

TEST_CASE("four threads of the sim plugin work at once, spread over two devices", "[conformance]") {
  const ConformanceRun run =
      run_conformance(built_plugin("sim"), "--section threads --options '{\"device_count\": 2}'");
  INFO(run.failures());
  CHECK(run.failed == 0);
  require_passes(run, "4 threads allocate, copy and free at once");
  require_passes(run, "4 threads run MatMul f32 at once");
  CHECK_THAT(find_check(run, "4 threads run MatMul f32 at once")->detail,
             Contains("on 2 device(s)"));
}

TEST_CASE("the threads section names the thread and iteration of a wrong kernel result",
          "[conformance]") {
  const ConformanceRun run =
      run_conformance(conformance_fixture("wrong_result"), "--section threads");
  require_passes(run, "4 threads allocate, copy and free at once");
  const ConformanceCheck* relu = find_check(run, "4 threads run Relu f32 at once");
  REQUIRE(relu != nullptr);
  CHECK(relu->result == "fail");
  CHECK_THAT(relu->detail, Contains("thread 0 (device 0, "));
  CHECK_THAT(relu->detail, Contains(" in 25 iterations), iteration "));
  CHECK_THAT(relu->detail, Contains(", the reference is 0 (tolerance 1e-05, seed 1)"));
}

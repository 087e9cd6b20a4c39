// The kernels section: a kernel that computes a wrong result fails with the element, its value
// and the reference named; the plugins the build makes match the reference in every kernel
// they register.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "conformance_run.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using hxrt_test::built_plugin;
using hxrt_test::conformance_fixture;
using hxrt_test::ConformanceCheck;
using hxrt_test::ConformanceRun;
using hxrt_test::run_conformance;

namespace {

// The one check of `section` whose name starts with `prefix`; fails the test when there is
// none.
ConformanceCheck check_starting(const ConformanceRun& run, const std::string& section,
                                const std::string& prefix) {
  for (const ConformanceCheck& check : run.checks) {
    if (check.section == section && check.check.rfind(prefix, 0) == 0) return check;
  }
  FAIL("no check '" << prefix << "...' in section " << section << "; output:\n" << run.output);
  return {};
}

int count_containing(const std::vector<ConformanceCheck>& checks, const std::string& text) {
  int count = 0;
  for (const ConformanceCheck& check : checks) count += check.check.find(text) != std::string::npos;
  return count;
}

int count_starting(const std::vector<ConformanceCheck>& checks, const std::string& prefix) {
  int count = 0;
  for (const ConformanceCheck& check : checks) count += check.check.rfind(prefix, 0) == 0;
  return count;
}

}  // namespace

TEST_CASE("the kernels section fails a Relu that computes a wrong result and passes a right Add",
          "[conformance]") {
  const ConformanceRun run =
      run_conformance(conformance_fixture("wrong_result"), "--section kernels");
  CHECK(run.exit_code == 1);
  const ConformanceCheck relu = check_starting(run, "kernels", "Relu f32 matches the reference");
  CHECK(relu.result == "fail");
  CHECK_THAT(relu.detail, StartsWith("Relu f32 on shape ["));
  CHECK_THAT(relu.detail, Contains(": element "));
  CHECK_THAT(relu.detail, Contains(" is -0."));
  CHECK_THAT(relu.detail, Contains(", the reference is 0 (tolerance 1e-05, seed 1)"));
  CHECK_THAT(relu.detail, Contains("the kernel computes a wrong result"));
  CHECK(check_starting(run, "kernels", "Add f32 matches the reference").result == "pass");
  CHECK(run.failed == 1);
}

TEST_CASE("a kernel failure names the seed its inputs came from", "[conformance]") {
  const ConformanceRun run =
      run_conformance(conformance_fixture("wrong_result"), "--section kernels --seed 7");
  CHECK_THAT(check_starting(run, "kernels", "Relu f32 matches").detail, Contains("seed 7)"));
}

TEST_CASE("the CPU plugin's kernels match the reference for every op and dtype they register",
          "[conformance]") {
  const ConformanceRun run = run_conformance(built_plugin("cpu"), "--section kernels");
  INFO(run.failures() << run.output);
  CHECK(run.failed == 0);
  CHECK(run.skipped == 0);
  const std::vector<ConformanceCheck> passed = run.with("kernels", "pass");
  // MatMul for f32 and f64; Add, Sub, Mul, Div, AddN, Relu and Sum for f32, f64, i32 and i64;
  // Cast from each of the 7 dtypes to each of the 7; Fill and Identity for all 7.
  CHECK(count_containing(passed, " matches the reference (") == 2 + 7 * 4 + 7 * 7 + 7 + 7);
  for (const char* op :
       {"MatMul", "Add", "Sub", "Mul", "Div", "AddN", "Relu", "Sum", "Fill", "Identity"}) {
    INFO(op);
    CHECK(count_starting(passed, std::string(op) + " f32 matches the reference (") == 1);
  }
  CHECK(count_starting(passed, "Cast f32 to ") == 7);
  CHECK(check_starting(run, "kernels", "Div i32 by zero returns an error status").result == "pass");
  CHECK(check_starting(run, "kernels", "Div i64 by zero returns an error status").result == "pass");
}

TEST_CASE("the sim plugin's kernels match the reference on the first of two devices",
          "[conformance]") {
  const ConformanceRun run =
      run_conformance(built_plugin("sim"), "--section kernels --options '{\"device_count\": 2}'");
  INFO(run.failures() << run.output);
  CHECK(run.failed == 0);
  CHECK(run.exit_code == 0);
  // MatMul, Add, Mul, Relu, AddN, Identity and Fill, f32 only.
  CHECK(count_containing(run.with("kernels", "pass"), " f32 matches the reference (") == 7);
}

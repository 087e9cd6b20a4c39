// The kernels section: a kernel that computes a wrong result fails with the element, its value
// and the reference named; the plugins the build makes match the reference in every kernel
// they register.
#include <catch2/catch.hpp>
#include <algorithm>
#include <string>
#include <vector>

#include "conformance_run.hpp"
#include "hxrt/runtime.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using hxrt_test::built_plugin;
using hxrt_test::conformance_fixture;
using hxrt_test::ConformanceCheck;
using hxrt_test::ConformanceRun;
using hxrt_test::run_conformance;

namespace {

// The kernels the CPU plugin registers, as the runtime lists them.
std::vector<hxrt::KernelInfo> cpu_kernels_of(const std::string& plugin) {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {plugin};
  std::vector<hxrt::KernelInfo> kernels = hxrt::Runtime::create(options).kernels();
  kernels.erase(std::remove_if(kernels.begin(), kernels.end(),
                               [](const hxrt::KernelInfo& k) { return k.plugin != "cpu"; }),
                kernels.end());
  return kernels;
}

bool converts_to_attribute(const std::string& op) {
  for (const hxrt::OpInfo& info : hxrt::core_ops()) {
    if (info.name == op) return !info.type_parameter.output_dtype_attribute.empty();
  }
  return false;
}

bool broadcasts(const std::string& op) {
  for (const hxrt::OpInfo& info : hxrt::core_ops()) {
    if (info.name == op) return info.broadcasts;
  }
  return false;
}

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
  const ConformanceCheck relu =
      check_starting(run, "kernels", "Relu float32 matches the reference");
  CHECK(relu.result == "fail");
  CHECK_THAT(relu.detail, StartsWith("Relu float32 on shape ["));
  CHECK_THAT(relu.detail, Contains(": element "));
  CHECK_THAT(relu.detail, Contains(" is -0."));
  CHECK_THAT(relu.detail, Contains(", the reference is 0 (tolerance 1e-05, seed 1)"));
  CHECK_THAT(relu.detail, Contains("the kernel computes a wrong result"));
  CHECK(check_starting(run, "kernels", "Add float32 matches the reference").result == "pass");
  CHECK(check_starting(run, "kernels", "Add float32 reads broadcast inputs by their strides")
            .result == "pass");
  CHECK(run.failed == 1);
}

TEST_CASE("the kernels section compares every output: a wrong InvStdDev fails "
          "LayerNormalization, naming output 2",
          "[conformance]") {
  const ConformanceRun run =
      run_conformance(conformance_fixture("wrong_statistics"), "--section kernels");
  CHECK(run.exit_code == 1);
  const ConformanceCheck norm =
      check_starting(run, "kernels", "LayerNormalization float32 matches the reference");
  CHECK(norm.result == "fail");
  CHECK_THAT(norm.detail, StartsWith("LayerNormalization float32 on shapes ["));
  CHECK_THAT(norm.detail, Contains(": output 2 element 0 "));
  CHECK_THAT(norm.detail, Contains("the kernel computes a wrong result"));
  CHECK(run.failed == 1);
}

TEST_CASE("a kernel failure names the seed its inputs came from", "[conformance]") {
  const ConformanceRun run =
      run_conformance(conformance_fixture("wrong_result"), "--section kernels --seed 7");
  CHECK_THAT(check_starting(run, "kernels", "Relu float32 matches").detail, Contains("seed 7)"));
}

TEST_CASE("the CPU plugin's kernels match the reference for every op and dtype they register",
          "[conformance]") {
  const ConformanceRun run = run_conformance(built_plugin("cpu"), "--section kernels");
  INFO(run.failures() << run.output);
  CHECK(run.failed == 0);
  CHECK(run.skipped == 0);
  const std::vector<ConformanceCheck> passed = run.with("kernels", "pass");
  // One check per kernel and dtype T the CPU plugin registers, and per output dtype of an op
  // whose output dtype is an attribute (Cast, which converts to every dtype).
  const std::vector<hxrt::KernelInfo> cpu_kernels = cpu_kernels_of(built_plugin("cpu"));
  size_t variants = 0;
  for (const hxrt::KernelInfo& kernel : cpu_kernels) {
    variants += kernel.dtypes.size() *
                (converts_to_attribute(kernel.op) ? std::size(hxrt::kAllDTypes) : 1);
  }
  CHECK(static_cast<size_t>(count_containing(passed, " matches the reference (")) == variants);
  for (const hxrt::KernelInfo& kernel : cpu_kernels) {
    INFO(kernel.op);
    if (converts_to_attribute(kernel.op)) continue;
    for (hxrt::DType dtype : kernel.dtypes) {
      const std::string variant = kernel.op + " " + hxrt::dtype_name(dtype);
      CHECK(count_starting(passed, variant + " matches the reference (") == 1);
    }
  }
  // Each dtype of each op that broadcasts, whose reference cases all have broadcast inputs.
  size_t broadcast_variants = 0;
  for (const hxrt::KernelInfo& kernel : cpu_kernels) {
    if (broadcasts(kernel.op)) broadcast_variants += kernel.dtypes.size();
  }
  const int broadcast_checks =
      count_containing(passed, " reads broadcast inputs by their strides (");
  CHECK(static_cast<size_t>(broadcast_checks) == broadcast_variants);
  CHECK(count_starting(passed, "Cast float32 to ") ==
        static_cast<int>(std::size(hxrt::kAllDTypes)));
  CHECK(check_starting(run, "kernels", "Div int32 by zero returns an error status").result ==
        "pass");
  CHECK(check_starting(run, "kernels", "Div int64 by zero returns an error status").result ==
        "pass");
  CHECK(check_starting(run, "kernels", "Div uint8 by zero returns an error status").result ==
        "pass");
}

TEST_CASE("the sim plugin's kernels match the reference on the first of two devices",
          "[conformance]") {
  const ConformanceRun run =
      run_conformance(built_plugin("sim"), "--section kernels --options '{\"device_count\": 2}'");
  INFO(run.failures() << run.output);
  CHECK(run.failed == 0);
  CHECK(run.exit_code == 0);
  // MatMul, Gemm, Add, Mul, Relu, AddN, AllReduce, AllGather, Broadcast, Identity and Fill,
  // float32 only.
  CHECK(count_containing(run.with("kernels", "pass"), " float32 matches the reference (") == 11);
  // Its MatMul declines transpose_a at create: a pass that names the reason.
  CHECK_THAT(check_starting(run, "kernels", "MatMul float32 matches the reference").detail,
             Contains("declined ") && Contains("transpose_a is not supported"));
}

TEST_CASE("a kernel that declines with a reason passes, one that declines without fails",
          "[conformance]") {
  const ConformanceRun run = run_conformance(conformance_fixture("declining"), "--section kernels");
  INFO(run.output);
  CHECK(run.exit_code == 1);
  CHECK(run.failed == 1);
  const ConformanceCheck relu =
      check_starting(run, "kernels", "Relu float32 matches the reference");
  CHECK(relu.result == "fail");
  CHECK_THAT(relu.detail, StartsWith("Relu float32 on shape []: check declined with "
                                     "UNIMPLEMENTED and an empty message") &&
                              Contains("so say what is not supported"));
  const ConformanceCheck add = check_starting(run, "kernels", "Add float32 matches the reference");
  CHECK(add.result == "pass");
  CHECK_THAT(add.detail, Contains("declined 1, first on shapes [2, 3, 4] and [2, 3, 4]: Add on "
                                  "DECLINING: rank 3 and more is not supported"));
}

TEST_CASE("UNIMPLEMENTED from compute fails the call and names where to decline",
          "[conformance]") {
  const ConformanceRun run =
      run_conformance(conformance_fixture("undeclined_compute"), "--section kernels");
  INFO(run.output);
  CHECK(run.exit_code == 1);
  CHECK(run.failed == 1);
  const ConformanceCheck add =
      check_starting(run, "kernels", "Add float32 reads broadcast inputs by their strides");
  CHECK(add.result == "fail");
  CHECK_THAT(add.detail,
             Contains("compute returned UNIMPLEMENTED (Add on UNDECLINED: broadcasting is not "
                      "supported)") &&
                 Contains("never a fallback: decline the call in create or check instead"));
  CHECK(check_starting(run, "kernels", "Add float32 matches the reference").result == "pass");
}

TEST_CASE("an Add that ignores broadcast strides fails only the broadcast check",
          "[conformance]") {
  const ConformanceRun run =
      run_conformance(conformance_fixture("dense_broadcast"), "--section kernels");
  INFO(run.output);
  CHECK(run.exit_code == 1);
  CHECK(run.failed == 1);
  CHECK(check_starting(run, "kernels", "Add float32 matches the reference").result == "pass");
  const ConformanceCheck broadcast =
      check_starting(run, "kernels", "Add float32 reads broadcast inputs by their strides");
  CHECK(broadcast.result == "fail");
  CHECK_THAT(broadcast.detail,
             StartsWith("Add float32 on shapes [2, 3] and [3]: element 3 (at [1, 0])") &&
                 Contains("with stride 0 where it repeats"));
}

TEST_CASE("a check that changes its answer for the same call fails, saying why",
          "[conformance]") {
  const ConformanceRun run =
      run_conformance(conformance_fixture("changing_check"), "--section kernels");
  INFO(run.output);
  CHECK(run.exit_code == 1);
  const ConformanceCheck relu =
      check_starting(run, "kernels", "Relu float32 matches the reference");
  CHECK(relu.result == "fail");
  CHECK_THAT(relu.detail, Contains("check answered OK, then UNIMPLEMENTED") &&
                              Contains("a check must answer from its arguments alone"));
  CHECK(check_starting(run, "kernels", "Add float32 matches the reference").result == "pass");
}

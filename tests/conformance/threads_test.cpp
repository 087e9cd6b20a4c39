// The threads section: several threads allocating, copying and running a kernel at once pass
// on the plugins the build makes, and a wrong result is reported with the thread and
// iteration that saw it.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "conformance_run.hpp"

using Catch::Matchers::Contains;
using hxrt_test::built_plugin;
using hxrt_test::conformance_fixture;
using hxrt_test::ConformanceCheck;
using hxrt_test::ConformanceRun;
using hxrt_test::run_conformance;

TEST_CASE("four threads of the CPU plugin allocate, copy and run MatMul at once", "[conformance]") {
  const ConformanceRun run = run_conformance(built_plugin("cpu"), "--section threads");
  INFO(run.failures());
  CHECK(run.failed == 0);
  CHECK(run.check("4 threads allocate, copy and free at once").result == "pass");
  CHECK(run.check("4 threads run MatMul float32 at once, sharing its instances").result ==
        "pass");
}

TEST_CASE("four threads of the sim plugin work at once, spread over two devices", "[conformance]") {
  const ConformanceRun run =
      run_conformance(built_plugin("sim"), "--section threads --options '{\"device_count\": 2}'");
  INFO(run.failures());
  CHECK(run.failed == 0);
  CHECK(run.check("4 threads allocate, copy and free at once").result == "pass");
  const ConformanceCheck matmul =
      run.check("4 threads run MatMul float32 at once, sharing its instances");
  CHECK(matmul.result == "pass");
  CHECK_THAT(matmul.detail, Contains("on 2 device(s)"));
}

TEST_CASE("the threads section names the thread and iteration of a wrong kernel result",
          "[conformance]") {
  const ConformanceRun run =
      run_conformance(conformance_fixture("wrong_result"), "--section threads");
  INFO(run.output);
  CHECK(run.check("4 threads allocate, copy and free at once").result == "pass");
  const ConformanceCheck relu =
      run.check("4 threads run Relu float32 at once, sharing its instances");
  CHECK(relu.result == "fail");
  CHECK_THAT(relu.detail, Contains("thread 0 (device 0, "));
  CHECK_THAT(relu.detail, Contains(" in 25 iterations), iteration "));
  CHECK_THAT(relu.detail, Contains(", the reference is 0 (tolerance 1e-05, seed 1)"));
}

// The copies land after the early "done": the section must report the wrong bytes, not die
// of the copies landing in memory it has freed (a crash adds "section threads runs to the
// end").
TEST_CASE("the threads section fails a stream_synchronize that returns early on the data",
          "[conformance]") {
  const ConformanceRun run =
      run_conformance(conformance_fixture("early_stream"), "--section threads");
  INFO(run.output);
  CHECK(run.exit_code == 1);
  CHECK(run.names("threads", "fail") ==
        std::vector<std::string>{"4 threads allocate, copy and free at once"});
  CHECK_THAT(run.detail("4 threads allocate, copy and free at once"),
             Contains("thread 0 (device 0, ") && Contains(" in 25 iterations), iteration ") &&
                 Contains(" copied to the device and back on a stream, read once "
                          "stream_synchronize returned: byte ") &&
                 Contains(" came back as "));
}

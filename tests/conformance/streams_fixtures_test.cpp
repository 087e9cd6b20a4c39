// The streams section fails a plugin whose synchronize and query answer before the work is
// done, or whose events.elapsed_ns takes events it must refuse, saying what to fix; skips what
// a plugin does not offer; and passes the plugins the build makes.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "conformance_run.hpp"

using Catch::Matchers::Contains;
using hxrt_test::built_plugin;
using hxrt_test::conformance_fixture;
using hxrt_test::ConformanceRun;
using hxrt_test::run_conformance;

TEST_CASE("streams: synchronize and query that report done before the work has run fail",
          "[conformance][streams]") {
  const ConformanceRun run =
      run_conformance(conformance_fixture("early_stream"), "--section memory --section streams");
  INFO(run.output);
  CHECK(run.exit_code == 1);
  CHECK(run.with("memory", "fail").empty());
  CHECK(run.names("streams", "fail") ==
        std::vector<std::string>{
            "device 0: stream_synchronize waits for the copies enqueued on the stream",
            "device 0: stream_query reports done only once the enqueued copies have completed",
            "device 0: memset and copy_device_to_device keep their place in stream order",
            "device 0: event_synchronize waits for the work recorded before the event",
            "device 0: event_query reports done only once the recorded work has completed",
            "device 0: stream_wait_event makes a second stream wait for the first"});
  CHECK_THAT(
      run.detail("device 0: stream_synchronize waits for the copies enqueued on the stream"),
      Contains("stream_synchronize returned before the work enqueued on the stream had "
               "completed: bytes from offset 0 still differed") &&
          Contains("block until all enqueued work has finished"));
  CHECK_THAT(run.detail("device 0: stream_query reports done only once the enqueued copies "
                       "have completed"),
             Contains("stream_query reported done before the copies enqueued on the stream had "
                      "completed") &&
                 Contains("report done only when all enqueued work has finished"));
  CHECK_THAT(run.detail("device 0: event_query reports done only once the recorded work has "
                       "completed"),
             Contains("event_query reported done before"));
  // What does not depend on waiting passes.
  const std::vector<std::string> passed = run.names("streams", "pass");
  CHECK_THAT(passed, Catch::Matchers::VectorContains(std::string(
                         "device 0: stream_create gives distinct streams that stream_destroy "
                         "takes back")));
  CHECK_THAT(passed, Catch::Matchers::VectorContains(
                         std::string("device 0: a never-recorded event is done at once")));
  // Its events group leaves elapsed_ns out: no timing to check.
  CHECK_THAT(run.detail("event timing"), Contains("the events group has no elapsed_ns"));
}

TEST_CASE("streams: a plugin without streams or events is skipped with the reason",
          "[conformance][streams]") {
  const ConformanceRun run =
      run_conformance(conformance_fixture("misaligned_alloc"), "--section streams");
  INFO(run.output);
  CHECK(run.exit_code == 0);
  CHECK(run.failed == 0);
  CHECK(run.passed == 0);
  CHECK_THAT(run.detail("streams"),
             Contains("the plugin has no streams group: everything it does is synchronous"));
  CHECK_THAT(run.detail("events"), Contains("the plugin has no events group"));
}

TEST_CASE("streams: the CPU plugin has none (it is synchronous), which the kit skips",
          "[conformance][streams]") {
  const ConformanceRun run = run_conformance(built_plugin("cpu"), "--section streams");
  INFO(run.output);
  CHECK(run.failed == 0);
  CHECK(run.exit_code == 0);
  CHECK(run.passed == 0);
  CHECK_THAT(run.detail("streams"),
             Contains("the plugin has no streams group: everything it does is synchronous"));
}

TEST_CASE("streams: the sim plugin passes on both of two devices", "[conformance][streams]") {
  const ConformanceRun run =
      run_conformance(built_plugin("sim"), "--section streams --options '{\"device_count\": 2}'");
  INFO(run.failures());
  CHECK(run.failed == 0);
  CHECK(run.exit_code == 0);
  CHECK_THAT(run.names("streams", "pass"),
             Catch::Matchers::VectorContains(std::string(
                 "device 1: stream_wait_event makes a second stream wait for the first")));
  CHECK_THAT(run.names("streams", "pass"),
             Catch::Matchers::VectorContains(std::string(
                 "device 0 -> device 1: stream_wait_event on another device's event")));
}

TEST_CASE("streams: the sim plugin times the work between its events and refuses misuse",
          "[conformance][streams][timing]") {
  const ConformanceRun run =
      run_conformance(built_plugin("sim"), "--section streams --options '{\"device_count\": 2}'");
  INFO(run.failures());
  CHECK(run.failed == 0);
  const std::vector<std::string> passed = run.names("streams", "pass");
  for (const char* device : {"device 0", "device 1"}) {
    for (const char* check :
         {": events.elapsed_ns times the work between two events of a stream",
          ": events.elapsed_ns refuses a start recorded after the end",
          ": events.elapsed_ns refuses an event never recorded on a stream",
          ": events.elapsed_ns refuses events of two streams"}) {
      CHECK_THAT(passed, Catch::Matchers::VectorContains(device + std::string(check)));
    }
  }
  CHECK_THAT(passed, Catch::Matchers::VectorContains(
                         std::string("device 0: events.elapsed_ns refuses an event of device 1")));
}

TEST_CASE("streams: an elapsed_ns that takes any events fails each refusal, naming the code",
          "[conformance][streams][timing]") {
  const ConformanceRun run =
      run_conformance(conformance_fixture("careless_timing"), "--section streams");
  INFO(run.output);
  CHECK(run.exit_code == 1);
  CHECK(run.names("streams", "fail") ==
        std::vector<std::string>{
            "device 0: events.elapsed_ns refuses a start recorded after the end",
            "device 0: events.elapsed_ns refuses an event never recorded on a stream",
            "device 0: events.elapsed_ns refuses events of two streams"});
  // What it times, it times right: the spans of a stream add up.
  CHECK(run.check("device 0: events.elapsed_ns times the work between two events of a stream")
            .result == "pass");
  CHECK_THAT(run.detail("device 0: events.elapsed_ns refuses a start recorded after the end"),
             Contains("events.elapsed_ns(third, first) returned ") &&
                 Contains("start must be recorded no later than end: return INVALID_ARGUMENT"));
  CHECK_THAT(
      run.detail("device 0: events.elapsed_ns refuses an event never recorded on a stream"),
      Contains("from an event never recorded returned") &&
          Contains("return FAILED_PRECONDITION"));
  CHECK_THAT(run.detail("device 0: events.elapsed_ns refuses events of two streams"),
             Contains("both events must be recorded on the same stream: return "
                      "INVALID_ARGUMENT"));
}

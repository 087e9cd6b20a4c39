// The in_flight section passes the plugins the build makes with thousands of live buffers,
// events and queued operations and hundreds of live streams, passes a device's own limit
// refused with OUT_OF_MEMORY with the count it reached, and fails a plugin that hands out a
// live buffer's handle again, saying so.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "conformance_run.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using hxrt_test::built_plugin;
using hxrt_test::conformance_fixture;
using hxrt_test::ConformanceRun;
using hxrt_test::run_conformance;

namespace {

const std::string kLiveBuffers =
    "device 0: allocate gives 8192 live buffers, or OUT_OF_MEMORY at its limit";
const std::string kOwnBytes = "device 0: each of the many live buffers keeps its own bytes";
const std::string kAgain =
    "device 0: allocate gives as many buffers again once all are deallocated";
const std::string kQueued = "device 0: 10000 memsets and copies queued on one stream run in order";
const std::string kEvents =
    "device 0: up to 4096 live events, each recorded after queued work, complete";
const std::string kStreams = "device 0: up to 256 live streams each run their work";

}  // namespace

TEST_CASE("in_flight: the CPU plugin keeps 8192 buffers live, and queues nothing without streams",
          "[conformance][in_flight]") {
  const ConformanceRun run = run_conformance(built_plugin("cpu"), "--section in_flight");
  INFO(run.output);
  CHECK(run.exit_code == 0);
  CHECK(run.failed == 0);
  CHECK(run.check(kLiveBuffers).result == "pass");
  CHECK(run.detail(kLiveBuffers) == "8192 live buffers");
  CHECK(run.check(kOwnBytes).result == "pass");
  CHECK(run.detail(kAgain) == "8192 live buffers");
  for (const std::string& check : {kQueued, kEvents, kStreams}) {
    CHECK(run.check(check).result == "skip");
    CHECK_THAT(run.detail(check), Contains("the plugin has no streams group"));
  }
}

TEST_CASE("in_flight: the sim plugin passes with everything in flight",
          "[conformance][in_flight]") {
  const ConformanceRun run =
      run_conformance(built_plugin("sim"), "--section in_flight --options '{\"device_count\": 2}'");
  INFO(run.output);
  CHECK(run.exit_code == 0);
  CHECK(run.failed == 0);
  CHECK(run.passed == 6);
  CHECK(run.detail(kLiveBuffers) == "8192 live buffers");
  CHECK_THAT(run.detail(kQueued), StartsWith("10000 operations: "));
  CHECK(run.detail(kEvents) == "4096 live events");
  CHECK(run.detail(kStreams) == "256 live streams");
}

TEST_CASE(
    "in_flight: a limit of the device's own, refused with OUT_OF_MEMORY, passes with the "
    "count it reached",
    "[conformance][in_flight]") {
  // The fixtures' device has 4096 buffer handles; this one has correct streams and events.
  const ConformanceRun run =
      run_conformance(conformance_fixture("careless_timing"), "--section in_flight");
  INFO(run.output);
  CHECK(run.failed == 0);
  CHECK(run.passed == 6);
  CHECK(run.detail(kLiveBuffers) ==
        "OUT_OF_MEMORY after 4096 live buffers: the fixture device has no buffer handle left");
  CHECK(run.detail(kAgain) == "4096 live buffers");
}

TEST_CASE("in_flight: a live buffer's handle given again fails, naming the count and the buffer",
          "[conformance][in_flight]") {
  const ConformanceRun run =
      run_conformance(conformance_fixture("handle_reuse"),
                      "--section memory --section threads --section in_flight");
  INFO(run.output);
  CHECK(run.exit_code == 1);
  // Fewer than 1000 buffers are ever live in the other sections.
  CHECK(run.with("memory", "fail").empty());
  CHECK(run.with("threads", "fail").empty());
  REQUIRE(run.names("in_flight", "fail") == std::vector<std::string>{kLiveBuffers});
  CHECK_THAT(run.detail(kLiveBuffers),
             Contains("allocate(256 bytes, alignment 256) with 1000 live buffers returned the "
                      "same handle as live buffer 1") &&
                 Contains("give each live buffer a handle of its own") &&
                 Contains("at its limit refuse with OUT_OF_MEMORY"));
  // What needs those buffers is skipped, not failed again.
  CHECK_THAT(run.detail(kOwnBytes), Contains("needs the live buffers of"));
  CHECK_THAT(run.detail(kAgain), Contains("needs the live buffers of"));
}

TEST_CASE("in_flight: a stream_synchronize that returns early skips what queues thousands",
          "[conformance][in_flight]") {
  // Its streams take 30 ms an operation: waiting for 10000 at stream_destroy would take five
  // minutes, so the section finds the early answer with a few first and says why it skips.
  const ConformanceRun run =
      run_conformance(conformance_fixture("early_stream"), "--section in_flight");
  INFO(run.output);
  CHECK(run.exit_code == 0);
  CHECK(run.failed == 0);
  for (const std::string& check : {kQueued, kEvents, kStreams}) {
    CHECK(run.check(check).result == "skip");
    CHECK_THAT(run.detail(check), Contains("had not all run when stream_synchronize returned") &&
                                      Contains("see the streams section"));
  }
}

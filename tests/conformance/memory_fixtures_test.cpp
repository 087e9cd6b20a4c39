// The memory section fails plugins whose allocations or copies are wrong, saying what to fix,
// and passes the plugins the build makes.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "conformance_run.hpp"

using Catch::Matchers::Contains;
using hxrt_test::built_plugin;
using hxrt_test::conformance_fixture;
using hxrt_test::ConformanceRun;
using hxrt_test::run_conformance;

TEST_CASE("memory: a copy_host_to_device that stops at 64 KiB fails the round trips at byte 65536",
          "[conformance][memory]") {
  const ConformanceRun run = run_conformance(conformance_fixture("truncating_copy"),
                                             "--section memory --section streams --seed 7");
  INFO(run.output);
  CHECK(run.exit_code == 1);
  REQUIRE(run.names("memory", "fail") ==
          std::vector<std::string>{"device 0: host -> device -> host round trips keep every byte"});
  CHECK_THAT(run.detail("device 0: host -> device -> host round trips keep every byte"),
             Contains("copy_host_to_device of 1048576 bytes then copy_device_to_host: first wrong "
                      "byte at offset 65536") &&
                 Contains("a copy must move all `size` bytes") && Contains("--seed 7"));
  // What reads device memory through the broken copies is skipped, not failed twice.
  CHECK_THAT(
      run.detail("device 0: memset fills whole and partial ranges and nothing around them"),
      Contains("round trips fail"));
  CHECK(run.with("streams", "fail").empty());
}

TEST_CASE(
    "memory: a HOST device whose addresses are 16 bytes off its declared alignment fails, "
    "naming the call and the address",
    "[conformance][memory]") {
  const ConformanceRun run = run_conformance(conformance_fixture("misaligned_alloc"),
                                             "--section memory --section streams");
  INFO(run.output);
  CHECK(run.exit_code == 1);
  const std::string check =
      "device 0: buffer handles are host addresses at the declared alignment";
  CHECK(run.names("memory", "fail") == std::vector<std::string>{check});
  CHECK_THAT(run.detail(check), Contains("allocate(1 byte, alignment 256) returned 0x") &&
                                    Contains(": not a multiple of the declared alignment 256"));
  CHECK(run.with("streams", "fail").empty());
}

TEST_CASE("memory: handles that are not addresses are never read or compared",
          "[conformance][memory]") {
  // The fixture's handles are small integers: a kit that read one as an address would crash,
  // one that ordered them to find overlaps would report nonsense.
  const ConformanceRun run =
      run_conformance(conformance_fixture("wrong_result"), "--section memory");
  INFO(run.failures());
  CHECK(run.failed == 0);
  CHECK(run.check("device 0: live buffers do not overlap").result == "pass");
  CHECK_THAT(run.detail("device 0: buffer handles are host addresses at the declared alignment"),
             Contains("memory_kind is not HOST: handles are opaque"));
  CHECK(run.check("device 0: copy_device_to_device between offsets of one buffer keeps every "
                  "byte")
            .result == "pass");
}

TEST_CASE("memory: allocate beyond the declared max_allocation fails", "[conformance][memory]") {
  const ConformanceRun run =
      run_conformance(conformance_fixture("unlimited_allocate"), "--section memory");
  INFO(run.output);
  CHECK(run.exit_code == 1);
  const std::string check = "device 0: allocate refuses more than max_allocation";
  CHECK(run.names("memory", "fail") == std::vector<std::string>{check});
  CHECK_THAT(run.detail(check),
             Contains("allocate(1048577 bytes, alignment 256) succeeded, one byte over the "
                      "declared max_allocation 1048576"));
}

TEST_CASE("memory: a plugin with pinned host memory uses it as the host side of copies",
          "[conformance][memory]") {
  const ConformanceRun run =
      run_conformance(conformance_fixture("early_stream"), "--section memory");
  INFO(run.failures());
  CHECK(run.failed == 0);
  CHECK(run.exit_code == 0);
  const std::vector<std::string> passed = run.names("memory", "pass");
  CHECK_THAT(passed, Catch::Matchers::VectorContains(std::string(
                         "device 0: pinned host memory works as the host side of copies")));
  CHECK_THAT(passed, Catch::Matchers::VectorContains(
                         std::string("device 0: host_memory.deallocate accepts NULL")));
}

TEST_CASE("memory: the CPU plugin passes, and with one device copies between devices are skipped",
          "[conformance][memory]") {
  const ConformanceRun run = run_conformance(built_plugin("cpu"), "--section memory");
  INFO(run.failures());
  CHECK(run.failed == 0);
  CHECK(run.exit_code == 0);
  CHECK(run.passed >= 9);
  CHECK_THAT(run.detail("copies between devices"), Contains("the plugin has one device"));
  CHECK_THAT(run.detail("pinned host memory"),
             Contains("the plugin offers no pinned host memory (host_memory is NULL)"));
}

TEST_CASE("memory: the sim plugin passes with two devices, copies between them included",
          "[conformance][memory]") {
  const ConformanceRun run =
      run_conformance(built_plugin("sim"), "--section memory --options '{\"device_count\": 2}'");
  INFO(run.failures());
  CHECK(run.failed == 0);
  CHECK(run.exit_code == 0);
  const std::vector<std::string> passed = run.names("memory", "pass");
  CHECK_THAT(passed, Catch::Matchers::VectorContains(std::string(
                         "device 0 -> device 1: copies between devices keep every byte")));
  CHECK_THAT(passed, Catch::Matchers::VectorContains(std::string(
                         "device 1 -> device 0: copies between devices keep every byte")));
  CHECK_THAT(passed, Catch::Matchers::VectorContains(std::string(
                         "device 1: host -> device -> host round trips keep every byte")));
}

TEST_CASE("memory: a host_memory.copy_to_device that ignores src_offset fails the buffer round "
          "trip, and nothing else", "[conformance][memory]") {
  const ConformanceRun run =
      run_conformance(conformance_fixture("offset_blind_host_buffer"), "--section memory");
  INFO(run.output);
  CHECK(run.exit_code == 1);
  const std::string name = "device 0: pinned host memory as buffers works as the host side of "
                           "copies";
  REQUIRE(run.names("memory", "fail") == std::vector<std::string>{name});
  CHECK_THAT(run.detail(name),
             Contains("host_memory.copy_to_device of 1048579 bytes from byte 256 of an "
                      "allocate_buffer buffer") &&
                 Contains("first wrong byte at offset 0"));
  // The pointer copies through the same memory pass.
  CHECK(run.check("device 0: pinned host memory works as the host side of copies").result ==
        "pass");
}

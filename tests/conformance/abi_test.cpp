// The abi, lifecycle, devices and errors sections: the loader's fixtures (tests/fixtures),
// each broken in one way the core rejects, fail with the fix named; a careless plugin fails
// the rules the core cannot see at load time.
#include <catch2/catch.hpp>

#include "abi_text.hpp"
#include "conformance_run.hpp"

using hxrt_test::ConformanceCheck;
using hxrt_test::ConformanceRun;
using hxrt_test::run_conformance;

namespace {

std::string loader_fixture(const std::string& name) {
  return std::string(HXRT_TEST_FIXTURE_DIR) + "/libhx_fixture_" + name + ".so";
}

// The one failed check named `check` in `section`; fails the test when there is none.
ConformanceCheck failed_check(const ConformanceRun& run, const std::string& section,
                              const std::string& check) {
  for (const ConformanceCheck& found : run.with(section, "fail")) {
    if (found.check == check) return found;
  }
  FAIL("no failed check '" << check << "' in section " << section << "; failures:\n"
                           << run.failures() << "output:\n" << run.output);
  return {};
}

}  // namespace

TEST_CASE("the abi section fails each plugin the loader skips, saying what to fix",
          "[conformance]") {
  struct Case {
    const char* fixture;
    const char* check;
    std::string says;
  };
  const Case cases[] = {
      {"no_entry", "exports hx_plugin_init", "export it with HX_EXPORT"},
      {"not_a_library", "dlopen", "invalid ELF header"},
      {"wrong_major", "table speaks ABI major 2",
       "built for ABI 1.0 and this kit checks ABI " + abi_text() +
           "; rebuild it against the 2.x headers"},
      {"small_table", "table struct_size covers ABI 2.0",
       "struct_size is 64, the ABI 2.0 table is"},
      {"missing_function", "required functions are set",
       "allocate is NULL; the core skips a plugin without it"},
      {"init_fails", "init", "option 'x' missing"},
      {"unknown_op", "init", "register_kernel(op 'Frobnicate'): no such op"},
  };
  for (const Case& c : cases) {
    INFO("fixture " << c.fixture);
    const ConformanceRun run = run_conformance(loader_fixture(c.fixture), "--section abi");
    CHECK(run.exit_code == 1);
    CHECK_THAT(failed_check(run, "abi", c.check).detail, Catch::Contains(c.says));
  }
}

TEST_CASE("the abi section checks loading in the real core", "[conformance]") {
  const ConformanceRun skipped = run_conformance(loader_fixture("wrong_major"), "--section abi");
  CHECK_THAT(failed_check(skipped, "abi", "loads in hxrt " HXRT_TEST_VERSION).detail,
             Catch::Contains("was built for plugin ABI 1.0, and this core speaks ABI " + abi_text()));
  const ConformanceRun loaded = run_conformance(hxrt_test::built_plugin("cpu"), "--section abi");
  INFO(loaded.failures());
  CHECK(loaded.failed == 0);
  CHECK(loaded.with("abi", "pass").size() >= 15);
}

TEST_CASE("the abi section fails a plugin that refuses a core of an older minor",
          "[conformance]") {
  const ConformanceRun refuses = run_conformance(
      hxrt_test::conformance_fixture("current_minor_only"), "--section abi");
  INFO(refuses.output);
  CHECK(refuses.exit_code == 1);
  CHECK(refuses.failed == 1);
  CHECK_THAT(failed_check(refuses, "abi", "initialises under an older core (ABI 2.0)").detail,
             Catch::Contains("init failed: FAILED_PRECONDITION: this plugin needs the core's "
                             "minor to be its own") &&
                 Catch::Contains("must be accepted") &&
                 Catch::Contains("only when its struct_size covers it"));
  // The bundled plugins read intra_op_threads only when the core passes it.
  const ConformanceRun cpu = run_conformance(hxrt_test::built_plugin("cpu"), "--section abi");
  CHECK(cpu.check("initialises under an older core (ABI 2.0)").result == "pass");
}

TEST_CASE("the abi section fails a plugin that reads services past an older core's table",
          "[conformance]") {
  // The older core's table ends before the option getters (2.5); the kit leaves their places
  // NULL, as past the end of a real 2.0 core's table nothing is there to call.
  const ConformanceRun careless = run_conformance(
      hxrt_test::conformance_fixture("unchecked_services"), "--section abi");
  INFO(careless.output);
  CHECK(careless.exit_code == 1);
  CHECK(careless.failed >= 1);
  // The plugin calls NULL in the check after the newer core's, and the section dies there
  // (of SIGSEGV; under AddressSanitizer, whose handler catches it, with exit code 1).
  CHECK_THAT(careless.check("section abi runs to the end").detail,
             Catch::StartsWith("the process ") &&
                 Catch::Contains("after the check 'initialises under a newer core"));
}

TEST_CASE("a plugin without the options it needs is told to pass them", "[conformance]") {
  const ConformanceRun run = run_conformance(loader_fixture("init_fails"));
  CHECK_THAT(failed_check(run, "abi", "init").detail,
             Catch::Contains("pass the options the plugin needs with --options"));
  // Every section that needs an initialised plugin says why it did not run.
  for (const char* section :
       {"devices", "memory", "streams", "kernels", "errors", "threads", "in_flight"}) {
    INFO(section);
    REQUIRE(run.with(section, "skip").size() == 1);
    CHECK_THAT(run.with(section, "skip").front().detail, Catch::Contains("see the abi section"));
  }
}

TEST_CASE("a careless plugin fails lifecycle, devices and errors, each with the fix",
          "[conformance]") {
  const ConformanceRun run = run_conformance(
      hxrt_test::conformance_fixture("careless"),
      "--section lifecycle --section devices --section errors");
  CHECK(run.exit_code == 1);
  CHECK_THAT(failed_check(run, "lifecycle", "init again after shutdown, same load").detail,
             Catch::Contains("the first init gave 1 device(s), 1 kernel(s), this one 1 "
                             "device(s), 0 kernel(s)") &&
                 Catch::Contains("shutdown must leave the plugin ready for another init"));
  // A new load starts from fresh globals.
  CHECK(run.with("lifecycle", "fail").size() == 1);
  CHECK_THAT(failed_check(run, "devices", "device 0: device_properties honours struct_size").detail,
             Catch::Contains("write a field only if struct_size covers it"));
  CHECK_THAT(failed_check(run, "errors", "init refuses an unknown option").detail,
             Catch::Contains("return INVALID_ARGUMENT naming what is wrong"));
  CHECK_THAT(failed_check(run, "errors", "device_get(1) with 1 device(s) is an error").detail,
             Catch::Contains("device_get(1) succeeded"));
  CHECK_THAT(failed_check(run, "errors", "allocate far beyond the device's memory is refused").detail,
             Catch::Contains("returned INTERNAL: allocation failed"));
}

TEST_CASE("a kernel with create but no destroy is a registration the abi section fails",
          "[conformance]") {
  const ConformanceRun run = run_conformance(hxrt_test::conformance_fixture("instance_leak"));
  INFO(run.output);
  CHECK(run.exit_code == 1);
  CHECK(run.failed == 1);
  CHECK_THAT(failed_check(run, "abi", "every registration is valid").detail,
             Catch::Contains("register_kernel(op 'Relu'): create is set but destroy is NULL") &&
                 Catch::Contains("set destroy too"));
}

TEST_CASE("the abi section skips the optional groups a plugin leaves out", "[conformance]") {
  const ConformanceRun run =
      run_conformance(hxrt_test::conformance_fixture("wrong_result"), "--section abi");
  INFO(run.output);
  CHECK(run.failed == 0);
  for (const char* group : {"streams group", "events group", "host_memory group"}) {
    INFO(group);
    CHECK(run.check(group).result == "skip");
    CHECK_THAT(run.detail(group), Catch::Contains("absent (NULL)"));
  }
}

TEST_CASE("the devices section fails a memory kind and an alignment the header does not allow",
          "[conformance]") {
  const ConformanceRun run = run_conformance(hxrt_test::conformance_fixture("undeclared_memory"),
                                             "--section devices");
  INFO(run.output);
  CHECK(run.exit_code == 1);
  CHECK(run.failed == 2);
  CHECK_THAT(
      failed_check(run, "devices", "device 0: memory kind, placement class and waits are declared")
          .detail,
      Catch::Contains("memory_kind is 7, not an hx_memory_kind") &&
          Catch::Contains("cross_device_wait is 5, not an hx_cross_device_wait") &&
          Catch::Contains("the core leaves a device with any other value out"));
  CHECK_THAT(
      failed_check(run, "devices", "device 0: alignment is 0 or a power of two from 1 to 4096")
          .detail,
      Catch::Contains("alignment is 48"));
}

TEST_CASE("the devices section passes the CPU plugin's declared memory and placement",
          "[conformance]") {
  const ConformanceRun run =
      run_conformance(hxrt_test::built_plugin("cpu"), "--section devices");
  INFO(run.failures());
  CHECK(run.failed == 0);
  CHECK_THAT(run.detail("device 0: memory and placement"), Catch::Contains("host memory, CPU"));
}

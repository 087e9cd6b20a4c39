// Fixtures that load but misbehave later, or load with nothing to offer.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "loader_support.hpp"

using Catch::Matchers::Contains;
using loader_test::check_cpu_plugin_works;
using loader_test::cpu_plugin_path;
using loader_test::error_from;
using loader_test::fixture_file;
using loader_test::fixture_path;
using loader_test::LogLines;
using loader_test::report_for;
using loader_test::runtime_with;

TEST_CASE("a kernel's error reaches the caller as hxrt::Error, and the runtime carries on") {
  hxrt::Runtime runtime = runtime_with({cpu_plugin_path(), fixture_path("failing_kernel")});
  hxrt::PluginReport report = report_for(runtime, fixture_file("failing_kernel"));
  INFO("skipped: " << report.reason);
  REQUIRE(report.loaded);
  CHECK(report.device_type == "FAILDEV");
  CHECK(report.device_count == 1);

  hxrt::Tensor x = runtime.tensor<float>({4}, {-1, 2, -3, 4});
  // Twice: a failed call must leave nothing behind that changes the next one.
  for (int attempt = 0; attempt < 2; ++attempt) {
    INFO("attempt " << attempt);
    auto error = error_from([&] { runtime.execute("Relu", {x}, {}, "/device:FAILDEV:0"); });
    REQUIRE(error.has_value());
    CHECK(error->code() == hxrt::StatusCode::kInternal);
    CHECK_THAT(error->what(), Contains("fixture kernel failed on purpose"));
  }

  // The device itself still works: data goes there and comes back.
  hxrt::Tensor on_faildev = runtime.to_device(x, "/device:FAILDEV:0");
  CHECK(on_faildev.device() == "/job:localhost/replica:0/task:0/device:FAILDEV:0");
  CHECK(on_faildev.to_vector<float>() == std::vector<float>{-1, 2, -3, 4});

  hxrt::Tensor relu = runtime.execute("Relu", {x}, {}, "/device:CPU:0");
  CHECK(relu.to_vector<float>() == std::vector<float>{0, 2, 0, 4});
  check_cpu_plugin_works(runtime);
}

TEST_CASE("a kernel that throws a C++ exception across the C ABI fails its call with an error "
          "naming the plugin, and the runtime carries on") {
  const std::string path =
      std::string(HXRT_TEST_FIXTURE_DIR) + "/throwing/" + fixture_file("throwing_kernel");
  hxrt::Runtime runtime = runtime_with({cpu_plugin_path(), path});
  REQUIRE(report_for(runtime, fixture_file("throwing_kernel")).loaded);
  const hxrt::Tensor x =
      runtime.to_device(runtime.tensor<float>({4}, {-1, 2, -3, 4}), "/device:THROWDEV:0");
  // Three times: the first call plans, the later ones repeat its kind of call (the quick way).
  for (int attempt = 0; attempt < 3; ++attempt) {
    INFO("attempt " << attempt);
    auto error = error_from([&] { runtime.execute("Relu", {x}, {}, "/device:THROWDEV:0"); });
    REQUIRE(error.has_value());
    CHECK(error->code() == hxrt::StatusCode::kInternal);
    CHECK_THAT(error->what(),
               Contains("Relu on /job:localhost/replica:0/task:0/device:THROWDEV:0: the kernel "
                        "of plugin 'fixture_throwing_kernel' threw a C++ exception across the "
                        "C ABI"));
  }
  CHECK(runtime.execute("Relu", {x}, {}, "/device:CPU:0").to_vector<float>() ==
        std::vector<float>{0, 2, 0, 4});
  check_cpu_plugin_works(runtime);
}

TEST_CASE("a plugin whose device_count says UNAVAILABLE loads with no devices and a note") {
  hxrt::Runtime runtime = runtime_with({cpu_plugin_path(), fixture_path("no_devices")});
  hxrt::PluginReport report = report_for(runtime, fixture_file("no_devices"));
  INFO("skipped: " << report.reason);
  REQUIRE(report.loaded);
  CHECK(report.name == "fixture_no_devices");
  CHECK(report.device_type == "FIXTURE");
  CHECK(report.device_count == 0);
  CHECK(report.note == "no FIXTURE hardware present");
  for (const hxrt::DeviceInfo& device : runtime.devices()) CHECK(device.type != "FIXTURE");
  check_cpu_plugin_works(runtime);
}

namespace {

// The CPU plugin, the no_devices fixture and the sim plugin as one device of the fixture's
// type, FIXTURE, in the given order.
hxrt::Runtime fixture_type_twice(bool sim_first) {
  const std::string sim = std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_sim.so";
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {cpu_plugin_path()};
  if (sim_first) options.plugin_paths.push_back(sim);
  options.plugin_paths.push_back(fixture_path("no_devices"));
  if (!sim_first) options.plugin_paths.push_back(sim);
  options.plugin_options = {{"sim", R"({"device_type": "FIXTURE", "device_count": 1})"}};
  return hxrt::Runtime::create(options);
}

}  // namespace

TEST_CASE("a plugin without devices and one with devices share a device type, in either order") {
  for (bool sim_first : {false, true}) {
    INFO("sim first: " << sim_first);
    hxrt::Runtime runtime = fixture_type_twice(sim_first);
    const hxrt::PluginReport sim = report_for(runtime, "libhx_sim.so");
    INFO("sim skipped: " << sim.reason);
    REQUIRE(sim.loaded);
    CHECK(sim.device_type == "FIXTURE");
    CHECK(sim.device_count == 1);
    // No hand-over: the plugin without devices keeps its type and says only why it has none.
    const hxrt::PluginReport none = report_for(runtime, fixture_file("no_devices"));
    INFO("no_devices skipped: " << none.reason);
    REQUIRE(none.loaded);
    CHECK(none.device_type == "FIXTURE");
    CHECK(none.note == "no FIXTURE hardware present");
    CHECK(loader_test::physical_devices_of_type(runtime, "FIXTURE") ==
          std::vector<std::string>{"FIXTURE:0 from sim"});
    // sim's Relu runs on its device.
    hxrt::Tensor x = runtime.tensor<float>({3}, {-1, 0, 4});
    CHECK(runtime.execute("Relu", {x}, {}, "/device:FIXTURE:0").to_vector<float>() ==
          std::vector<float>{0, 0, 4});
    check_cpu_plugin_works(runtime);
  }
}

TEST_CASE("a plugin with streams but no events is warned about and run synchronously") {
  LogLines log;
  hxrt::Runtime runtime =
      runtime_with({cpu_plugin_path(), fixture_path("streams_without_events")}, log.sink());
  const hxrt::PluginReport report = report_for(runtime, fixture_file("streams_without_events"));
  INFO("skipped: " << report.reason);
  REQUIRE(report.loaded);
  const std::string note =
      "it has streams but no events, and the core orders work across streams only with "
      "events: it runs synchronously";
  CHECK(report.note == note);
  CHECK(log.contains("plugin 'fixture_streams_without_events': " + note));
  // Its streams refuse every call: the op, the copies to and from it and the result's wait
  // succeed only because none of them is used.
  hxrt::Tensor x = runtime.tensor<float>({4}, {-1, 2, -3, 4});
  hxrt::Tensor y = runtime.execute("Relu", {x}, {}, "/device:NOEVENTS:0");
  CHECK(y.device() == "/job:localhost/replica:0/task:0/device:NOEVENTS:0");
  CHECK(y.to_vector<float>() == std::vector<float>{0, 2, 0, 4});
  CHECK_FALSE(log.contains("must not be called"));
  check_cpu_plugin_works(runtime);
}

TEST_CASE("a kernel registered twice with one priority keeps the first registration") {
  hxrt::Runtime runtime = runtime_with({cpu_plugin_path(), fixture_path("duplicate_kernel")});
  hxrt::PluginReport report = report_for(runtime, fixture_file("duplicate_kernel"));
  INFO("skipped: " << report.reason);
  REQUIRE(report.loaded);

  std::vector<hxrt::KernelInfo> kernels;
  for (const hxrt::KernelInfo& kernel : runtime.kernels()) {
    if (kernel.plugin == "fixture_duplicate_kernel") kernels.push_back(kernel);
  }
  REQUIRE(kernels.size() == 1);
  CHECK(kernels[0].op == "Relu");
  CHECK(kernels[0].device_type == "DUP_KERNEL");

  // The second registration's kernel always fails; the first computes Relu.
  hxrt::Tensor x = runtime.tensor<float>({3}, {-2, 0, 5});
  hxrt::Tensor y = runtime.execute("Relu", {x}, {}, "/device:DUP_KERNEL:0");
  CHECK(y.to_vector<float>() == std::vector<float>{0, 0, 5});
  check_cpu_plugin_works(runtime);
}

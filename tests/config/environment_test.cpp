// The environment layer: every HXRT_ variable, its errors, "" as unset, and the precedence
// default < file < environment < API.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "config/config.hpp"
#include "error_from.hpp"
#include "scoped_environment.hpp"

using Catch::Matchers::Contains;
using config_test::ScopedEnvironment;
using hxrt::detail::Config;
using hxrt::detail::resolve_config;
using hxrt_test::error_from;

namespace {

// A config file for one test, removed after it.
class TemporaryConfig {
 public:
  explicit TemporaryConfig(const std::string& text)
      : path_(std::filesystem::temp_directory_path() /
              ("hxrt_environment_test_" + std::to_string(getpid()) + ".json")) {
    std::ofstream(path_) << text;
  }
  ~TemporaryConfig() { std::filesystem::remove(path_); }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

std::string environment_error(ScopedEnvironment& environment, const std::string& name,
                              const std::string& value) {
  environment.set(name, value);
  auto error = error_from([] { resolve_config(hxrt::RuntimeOptions{}); });
  environment.unset(name);
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  return error->what();
}

}  // namespace

TEST_CASE("with no file, environment or options, every value is the default") {
  ScopedEnvironment environment;
  config_test::clear_config_environment(environment);
  environment.set("HXRT_CONFIG", "  ");  // blank: no file, not a file named "  "
  const Config config = resolve_config(hxrt::RuntimeOptions{});
  CHECK(config.file.empty());
  CHECK(config.origins.empty());
  CHECK_FALSE(config.devices.visible_devices);
  CHECK_FALSE(config.devices.force_memory_growth);
  CHECK(config.log_level == hxrt::LogLevel::kWarning);
  CHECK_FALSE(config.log_device_placement);
}

TEST_CASE("HXRT_PLUGIN_PATH: colon-separated, empty entries skipped") {
  ScopedEnvironment environment;
  config_test::clear_config_environment(environment);
  environment.set("HXRT_PLUGIN_PATH", "/x::/y/libhx_y.so:");
  const Config config = resolve_config(hxrt::RuntimeOptions{});
  CHECK(config.env_plugin_paths == std::vector<std::string>{"/x", "/y/libhx_y.so"});
  CHECK(config.origins.at("/env/HXRT_PLUGIN_PATH") == "environment HXRT_PLUGIN_PATH");
}

TEST_CASE("HXRT_LOG_DEVICE_PLACEMENT and HXRT_FORCE_MEMORY_GROWTH are flags") {
  ScopedEnvironment environment;
  config_test::clear_config_environment(environment);
  for (const char* yes : {"1", "true", "YES", "On", " true "}) {
    INFO(yes);
    environment.set("HXRT_LOG_DEVICE_PLACEMENT", yes);
    environment.set("HXRT_FORCE_MEMORY_GROWTH", yes);
    const Config config = resolve_config(hxrt::RuntimeOptions{});
    CHECK(config.log_device_placement);
    CHECK(config.devices.force_memory_growth);
    CHECK(config.origins.at("/log_device_placement") == "environment HXRT_LOG_DEVICE_PLACEMENT");
    CHECK(config.origins.at("/env/HXRT_FORCE_MEMORY_GROWTH") ==
          "environment HXRT_FORCE_MEMORY_GROWTH");
  }
  for (const char* no : {"0", "false", "No", "OFF"}) {
    INFO(no);
    environment.set("HXRT_LOG_DEVICE_PLACEMENT", no);
    environment.set("HXRT_FORCE_MEMORY_GROWTH", no);
    const Config config = resolve_config(hxrt::RuntimeOptions{});
    CHECK_FALSE(config.log_device_placement);
    CHECK_FALSE(config.devices.force_memory_growth);
  }
  environment.unset("HXRT_LOG_DEVICE_PLACEMENT");
  environment.unset("HXRT_FORCE_MEMORY_GROWTH");
  CHECK_THAT(environment_error(environment, "HXRT_LOG_DEVICE_PLACEMENT", "maybe"),
             Contains("environment HXRT_LOG_DEVICE_PLACEMENT: /log_device_placement: expected 1, "
                      "0, true, false, yes, no, on or off (any case), got \"maybe\""));
  CHECK_THAT(environment_error(environment, "HXRT_FORCE_MEMORY_GROWTH", "2"),
             Contains("environment HXRT_FORCE_MEMORY_GROWTH: /env/HXRT_FORCE_MEMORY_GROWTH: "
                      "expected 1, 0, true, false, yes, no, on or off (any case), got \"2\""));
}

TEST_CASE("HXRT_LOG_LEVEL: a level in any case") {
  ScopedEnvironment environment;
  config_test::clear_config_environment(environment);
  environment.set("HXRT_LOG_LEVEL", "Debug");
  const Config config = resolve_config(hxrt::RuntimeOptions{});
  CHECK(config.log_level == hxrt::LogLevel::kDebug);
  CHECK(config.origins.at("/log_level") == "environment HXRT_LOG_LEVEL");
  environment.unset("HXRT_LOG_LEVEL");
  CHECK_THAT(environment_error(environment, "HXRT_LOG_LEVEL", "loud"),
             Contains("environment HXRT_LOG_LEVEL: /log_level: expected one of \"debug\", "
                      "\"info\", \"warning\", \"error\" (any case), got string \"loud\""));
}

TEST_CASE("HXRT_VISIBLE_DEVICES: comma-separated names, spaces allowed, checked as the file's") {
  ScopedEnvironment environment;
  config_test::clear_config_environment(environment);
  environment.set("HXRT_VISIBLE_DEVICES", " gpu:1 , /physical_device:GPU:0,SIM:0 ");
  const Config config = resolve_config(hxrt::RuntimeOptions{});
  CHECK(config.devices.visible_devices == std::vector<std::string>{"GPU:1", "GPU:0", "SIM:0"});
  CHECK(config.origins.at("/visible_devices") == "environment HXRT_VISIBLE_DEVICES");
  environment.unset("HXRT_VISIBLE_DEVICES");

  CHECK_THAT(environment_error(environment, "HXRT_VISIBLE_DEVICES", "GPU:0,GPU"),
             Contains("environment HXRT_VISIBLE_DEVICES: /visible_devices/1: expected a physical "
                      "device like \"GPU:0\", got \"GPU\""));
  CHECK_THAT(environment_error(environment, "HXRT_VISIBLE_DEVICES", "GPU:0,,GPU:1"),
             Contains("environment HXRT_VISIBLE_DEVICES: /visible_devices/1: expected a physical "
                      "device like \"GPU:0\""));
  CHECK_THAT(environment_error(environment, "HXRT_VISIBLE_DEVICES", "GPU:0,"),
             Contains("/visible_devices/1: expected a physical device"));
  CHECK_THAT(environment_error(environment, "HXRT_VISIBLE_DEVICES", "GPU:1, gpu:1"),
             Contains("/visible_devices/1: \"gpu:1\" names GPU:1 again"));
}

TEST_CASE("HXRT_INTER_OP_THREADS and HXRT_INTRA_OP_THREADS: counts, checked as the file's") {
  ScopedEnvironment environment;
  config_test::clear_config_environment(environment);
  environment.set("HXRT_INTER_OP_THREADS", " 12 ");
  environment.set("HXRT_INTRA_OP_THREADS", "0");
  Config config = resolve_config(hxrt::RuntimeOptions{});
  CHECK(config.execution.inter_op_threads == 12);
  CHECK(config.execution.intra_op_threads == 0);
  CHECK(config.origins.at("/execution/inter_op_threads") == "environment HXRT_INTER_OP_THREADS");
  CHECK(config.origins.at("/execution/intra_op_threads") == "environment HXRT_INTRA_OP_THREADS");
  environment.unset("HXRT_INTER_OP_THREADS");
  environment.unset("HXRT_INTRA_OP_THREADS");

  CHECK_THAT(environment_error(environment, "HXRT_INTER_OP_THREADS", "-1"),
             Contains("environment HXRT_INTER_OP_THREADS: /execution/inter_op_threads: expected "
                      "an integer from 0 to 4096 (0: one per core), got number -1"));
  CHECK_THAT(environment_error(environment, "HXRT_INTRA_OP_THREADS", "four"),
             Contains("environment HXRT_INTRA_OP_THREADS: /execution/intra_op_threads: expected "
                      "an integer from 0 to 4096 (0: each plugin's default), got string "
                      "\"four\""));
  CHECK_THAT(environment_error(environment, "HXRT_INTRA_OP_THREADS", "2.5"),
             Contains("/execution/intra_op_threads: expected an integer from 0 to 4096 (0: each "
                      "plugin's default), got number 2.5"));
  CHECK_THAT(environment_error(environment, "HXRT_INTRA_OP_THREADS", "4097"),
             Contains("got number 4097"));
  CHECK_THAT(environment_error(environment, "HXRT_INTER_OP_THREADS", "99999999999999999999999"),
             Contains("environment HXRT_INTER_OP_THREADS: /execution/inter_op_threads: expected "
                      "an integer from 0 to 4096"));
  // Text that only starts like a number is text, never parsed as JSON beyond that.
  CHECK_THAT(environment_error(environment, "HXRT_INTER_OP_THREADS", "4 threads"),
             Contains("got string \"4 threads\""));
  CHECK_THAT(environment_error(environment, "HXRT_INTER_OP_THREADS", "[4]"),
             Contains("got string \"[4]\""));
}

TEST_CASE("a variable set to \"\" or blanks counts as unset") {
  ScopedEnvironment environment;
  config_test::clear_config_environment(environment);
  TemporaryConfig file(R"({"log_device_placement": true, "log_level": "info",
                           "visible_devices": ["GPU:0"], "execution": {"intra_op_threads": 3}})");
  environment.set("HXRT_CONFIG", file.path());
  for (const char* name : {"HXRT_PLUGIN_PATH", "HXRT_LOG_DEVICE_PLACEMENT", "HXRT_LOG_LEVEL",
                           "HXRT_VISIBLE_DEVICES", "HXRT_FORCE_MEMORY_GROWTH",
                           "HXRT_INTER_OP_THREADS", "HXRT_INTRA_OP_THREADS"}) {
    environment.set(name, " ");
  }
  const Config config = resolve_config(hxrt::RuntimeOptions{});
  CHECK(config.log_device_placement);
  CHECK(config.log_level == hxrt::LogLevel::kInfo);
  CHECK(config.devices.visible_devices == std::vector<std::string>{"GPU:0"});
  CHECK(config.env_plugin_paths.empty());
  CHECK_FALSE(config.devices.force_memory_growth);
  CHECK(config.execution.intra_op_threads == 3);
  CHECK(config.execution.inter_op_threads == 0);
  for (const auto& [path, source] : config.origins) {
    INFO(path);
    CHECK(source == "file " + file.path());
  }
}

TEST_CASE("precedence: default < file < environment < API, each recorded as the origin") {
  ScopedEnvironment environment;
  config_test::clear_config_environment(environment);
  TemporaryConfig file(R"({"log_device_placement": true, "log_level": "info",
                           "visible_devices": ["GPU:0"],
                           "placement": {"soft_placement": "soft"},
                           "plugins": {"use_installed": true, "options": {"sim": {"a": 1}}}})");
  hxrt::RuntimeOptions options;
  options.config_path = file.path();

  Config config = resolve_config(options);
  CHECK(config.log_level == hxrt::LogLevel::kInfo);
  CHECK(config.origins.at("/log_level") == "file " + file.path());
  CHECK(config.origins.count("/placement/device_priority") == 0);  // still the default

  environment.set("HXRT_LOG_DEVICE_PLACEMENT", "0");
  environment.set("HXRT_LOG_LEVEL", "error");
  environment.set("HXRT_VISIBLE_DEVICES", "GPU:1");
  config = resolve_config(options);
  CHECK_FALSE(config.log_device_placement);
  CHECK(config.log_level == hxrt::LogLevel::kError);
  CHECK(config.devices.visible_devices == std::vector<std::string>{"GPU:1"});
  CHECK(config.origins.at("/log_device_placement") == "environment HXRT_LOG_DEVICE_PLACEMENT");
  CHECK(config.origins.at("/log_level") == "environment HXRT_LOG_LEVEL");
  CHECK(config.origins.at("/visible_devices") == "environment HXRT_VISIBLE_DEVICES");
  CHECK(config.origins.at("/placement/soft_placement") == "file " + file.path());

  options.log_device_placement = true;
  options.log_level = hxrt::LogLevel::kDebug;
  options.soft_placement = hxrt::SoftPlacement::kStrict;
  options.device_priority = std::vector<std::string>{"sim"};
  options.use_installed_plugins = false;
  options.plugin_paths = {"/api/plugins"};
  options.plugin_options["sim"] = R"({"b": 2})";
  config = resolve_config(options);
  CHECK(config.log_device_placement);
  CHECK(config.log_level == hxrt::LogLevel::kDebug);
  CHECK(config.soft_placement == hxrt::SoftPlacement::kStrict);
  CHECK(config.device_priority == std::vector<std::string>{"SIM"});
  CHECK_FALSE(config.use_installed_plugins);
  CHECK(config.plugin_options.at("sim") == R"({"b":2})");  // replaced, not merged
  CHECK(config.api_plugin_paths == std::vector<std::string>{"/api/plugins"});
  for (const char* path : {"/log_device_placement", "/log_level", "/placement/soft_placement",
                           "/placement/device_priority", "/plugins/use_installed",
                           "/plugins/options/sim", "/api/plugin_paths"}) {
    INFO(path);
    CHECK(config.origins.at(path) == "API");
  }
  // No RuntimeOptions field for visible devices: Runtime::set_visible_devices is the API's.
  CHECK(config.origins.at("/visible_devices") == "environment HXRT_VISIBLE_DEVICES");
  set_visible_devices(config, {"GPU:2"}, "API");
  CHECK(config.devices.visible_devices == std::vector<std::string>{"GPU:2"});
  CHECK(config.origins.at("/visible_devices") == "API");
}

TEST_CASE("RuntimeOptions are checked as the file is, naming the API and the JSON pointer") {
  ScopedEnvironment environment;
  config_test::clear_config_environment(environment);
  hxrt::RuntimeOptions options;
  options.plugin_options["cpu"] = "{\"a\": ";
  auto error = error_from([&] { resolve_config(options); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Contains("API: /plugins/options/cpu: malformed JSON at line 1"));

  options.plugin_options["cpu"] = "[]";
  error = error_from([&] { resolve_config(options); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Contains("API: /plugins/options/cpu: expected an object of options "
                                     "for plugin 'cpu', got array []"));

  options.plugin_options.clear();
  options.device_priority = std::vector<std::string>{"GPU", "not a type"};
  error = error_from([&] { resolve_config(options); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Contains("API: /placement/device_priority/1: expected a device type"));

  options.device_priority.reset();
  options.inter_op_threads = -2;
  error = error_from([&] { resolve_config(options); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Contains("API: /execution/inter_op_threads: expected an integer from "
                                     "0 to 4096 (0: one per core), got number -2"));
  options.inter_op_threads.reset();
  options.intra_op_threads = 5000;
  error = error_from([&] { resolve_config(options); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Contains("API: /execution/intra_op_threads: expected an integer from "
                                     "0 to 4096 (0: each plugin's default), got number 5000"));
}

TEST_CASE("the thread counts: default < file < environment < API, each recorded as the origin") {
  ScopedEnvironment environment;
  config_test::clear_config_environment(environment);
  TemporaryConfig file(R"({"execution": {"inter_op_threads": 2, "intra_op_threads": 3}})");
  hxrt::RuntimeOptions options;
  options.config_path = file.path();
  Config config = resolve_config(options);
  CHECK(config.execution.inter_op_threads == 2);
  CHECK(config.execution.intra_op_threads == 3);
  CHECK(config.origins.at("/execution/intra_op_threads") == "file " + file.path());

  environment.set("HXRT_INTRA_OP_THREADS", "4");
  config = resolve_config(options);
  CHECK(config.execution.inter_op_threads == 2);
  CHECK(config.execution.intra_op_threads == 4);
  CHECK(config.origins.at("/execution/inter_op_threads") == "file " + file.path());
  CHECK(config.origins.at("/execution/intra_op_threads") == "environment HXRT_INTRA_OP_THREADS");

  options.inter_op_threads = 0;  // 0 set by the API is a value, not "unset"
  options.intra_op_threads = 1;
  config = resolve_config(options);
  CHECK(config.execution.inter_op_threads == 0);
  CHECK(config.execution.intra_op_threads == 1);
  CHECK(config.origins.at("/execution/inter_op_threads") == "API");
  CHECK(config.origins.at("/execution/intra_op_threads") == "API");
}

// Config files and environment variables: every mistake names the file and the JSON path.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "config/config.hpp"
#include "runtime_fixture.hpp"

using Catch::Matchers::Contains;
using hxrt::detail::apply_config_text;
using hxrt::detail::Config;
using runtime_test::error_from;

namespace {

std::string config_error(const std::string& text) {
  Config config;
  auto error = error_from([&] { apply_config_text(text, "test.json", config); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  return error->what();
}

}  // namespace

TEST_CASE("a valid config sets every key") {
  Config config;
  apply_config_text(R"({"plugins": {"search_paths": ["/a", "/b"], "libraries": ["/c/libhx_x.so"],
                        "use_installed": false, "options": {"sim": {"count": 4}}},
                        "log_device_placement": true, "log_level": "info"})",
                    "test.json", config);
  CHECK(config.plugin_search_paths == std::vector<std::string>{"/a", "/b"});
  CHECK(config.plugin_libraries == std::vector<std::string>{"/c/libhx_x.so"});
  CHECK_FALSE(config.use_installed_plugins);
  CHECK(config.plugin_options.at("sim") == R"({"count":4})");
  CHECK(config.log_device_placement);
  CHECK(config.log_level == hxrt::LogLevel::kInfo);
  CHECK(config.plugin_candidates("/installed") ==
        std::vector<std::string>{"/c/libhx_x.so", "/a", "/b"});
}

TEST_CASE("config errors name the JSON path and what was expected") {
  CHECK_THAT(config_error(R"({"log_device_placement": "yes"})"),
             Contains("test.json: /log_device_placement: expected true or false, got string \"yes\""));
  CHECK_THAT(config_error(R"({"plugins": {"search_paths": ["/a", 3]}})"),
             Contains("/plugins/search_paths/1: expected a string, got number 3"));
  CHECK_THAT(config_error(R"({"plugins": {"options": {"sim": 4}}})"),
             Contains("/plugins/options/sim: expected an object"));
  CHECK_THAT(config_error(R"({"log_level": "loud"})"), Contains("/log_level: "));
  CHECK_THAT(config_error(R"([1, 2])"), Contains("expected a JSON object"));
}

TEST_CASE("an unknown key is an error that suggests the nearest known key") {
  CHECK_THAT(config_error(R"({"plugins": {"serch_paths": []}})"),
             Contains("/plugins/serch_paths: unknown key; did you mean 'search_paths'?"));
  CHECK_THAT(config_error(R"({"zzzzzzzzzz": 1})"), Contains("known keys here: plugins"));
}

TEST_CASE("malformed JSON gives line and column") {
  CHECK_THAT(config_error("{\n  \"log_level\": \"info\",\n  oops\n}"),
             Contains("malformed JSON at line 3, column 3"));
}

TEST_CASE("the environment overrides the file and the API overrides both") {
  setenv("HXRT_LOG_DEVICE_PLACEMENT", "1", 1);
  setenv("HXRT_LOG_LEVEL", "error", 1);
  setenv("HXRT_PLUGIN_PATH", "/x:/y", 1);
  hxrt::RuntimeOptions options;
  Config from_env = hxrt::detail::resolve_config(options);
  CHECK(from_env.log_device_placement);
  CHECK(from_env.log_level == hxrt::LogLevel::kError);
  CHECK(from_env.env_plugin_paths == std::vector<std::string>{"/x", "/y"});

  options.log_device_placement = false;
  options.log_level = hxrt::LogLevel::kDebug;
  Config from_api = hxrt::detail::resolve_config(options);
  CHECK_FALSE(from_api.log_device_placement);
  CHECK(from_api.log_level == hxrt::LogLevel::kDebug);

  setenv("HXRT_LOG_DEVICE_PLACEMENT", "maybe", 1);
  auto error = error_from([&] { hxrt::detail::resolve_config(hxrt::RuntimeOptions{}); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Contains("HXRT_LOG_DEVICE_PLACEMENT='maybe'"));
  unsetenv("HXRT_LOG_DEVICE_PLACEMENT");
  unsetenv("HXRT_LOG_LEVEL");
  setenv("HXRT_PLUGIN_PATH", "", 1);
}

TEST_CASE("a config file that cannot be read names the path and where it came from") {
  hxrt::RuntimeOptions options;
  options.config_path = "/nonexistent/hxrt.json";
  auto error = error_from([&] { hxrt::Runtime::create(options); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kNotFound);
  CHECK_THAT(error->what(), Contains("/nonexistent/hxrt.json"));
}

TEST_CASE("malformed plugin options from the API name the plugin") {
  hxrt::RuntimeOptions options = runtime_test::cpu_only_options();
  options.plugin_options["cpu"] = "{\"a\": ";
  auto error = error_from([&] { hxrt::Runtime::create(options); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Contains("RuntimeOptions::plugin_options['cpu']: malformed JSON"));
}

TEST_CASE("a plugin refusing an unknown option is skipped with the plugin's reason") {
  hxrt::RuntimeOptions options = runtime_test::cpu_only_options();
  options.plugin_options["cpu"] = R"({"threads": 4})";
  hxrt::Runtime rt = hxrt::Runtime::create(options);
  REQUIRE(rt.load_report().size() == 1);
  CHECK_FALSE(rt.load_report()[0].loaded);
  CHECK_THAT(rt.load_report()[0].reason, Contains("init failed: INVALID_ARGUMENT"));
  CHECK_THAT(rt.load_report()[0].reason, Contains("threads"));
}

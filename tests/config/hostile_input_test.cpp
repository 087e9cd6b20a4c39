// Config input meant to break the loader: numbers beyond a double, nesting deep enough to
// overflow a recursive reader, values and keys of megabytes, bytes that are not UTF-8, lists
// long enough to expose quadratic checks. Each must give a short hxrt::Error naming its
// source and JSON path, or be accepted, and never crash or hang.
#include <catch2/catch.hpp>

#include <string>

#include "config/config.hpp"
#include "error_from.hpp"
#include "scoped_environment.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using config_test::ScopedEnvironment;
using hxrt::detail::apply_config_text;
using hxrt::detail::Config;
using hxrt::detail::resolve_config;
using hxrt_test::error_from;

namespace {

// Long enough that a message quoting it whole, or a check of it letter by letter against
// every key, would show.
constexpr size_t kHuge = size_t{1} << 20;

// The error of loading `text` as the file "test.json"; fails the test if there is none.
std::string file_error(const std::string& text) {
  Config config;
  auto error = error_from([&] { apply_config_text(text, "test.json", config); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  return error->what();
}

// The error of resolving the config with `options`, with no file or environment.
std::string api_error(const hxrt::RuntimeOptions& options) {
  ScopedEnvironment environment;
  config_test::clear_config_environment(environment);
  auto error = error_from([&] { resolve_config(options); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  return error->what();
}

// `levels` nested arrays, innermost empty: "[[[]]]" for 3.
std::string nested_arrays(size_t levels) {
  return std::string(levels, '[') + std::string(levels, ']');
}

}  // namespace

TEST_CASE("a number beyond a double's range fails with its JSON pointer and position") {
  CHECK_THAT(file_error(R"({"devices": {"GPU": {"memory": {"limit_mb": 1e400}}}})"),
             StartsWith("file test.json: /devices/GPU/memory/limit_mb: the number 1e400 at "
                        "line 1, column 45 is beyond the range of a double"));
  CHECK_THAT(file_error("{\"visible_devices\": [\"GPU:0\",\n -1e999]}"),
             StartsWith("file test.json: /visible_devices/1: the number -1e999 at line 2, "
                        "column 2"));
  CHECK_THAT(file_error(R"({"devices": {"GPU": {"device_count": 1)" + std::string(400, '0') +
                        "}}}"),
             Contains("/devices/GPU/device_count: the number 1" + std::string(79, '0') +
                      "... (401 bytes) at"));
  hxrt::RuntimeOptions options;
  options.plugin_options["sim"] = R"({"a": [[1], 2e308]})";
  CHECK_THAT(api_error(options), StartsWith("API: /plugins/options/sim/a/1: the number 2e308"));
}

TEST_CASE("a NUL byte is malformed JSON, not the end of the text") {
  using namespace std::string_literals;
  CHECK_THAT(file_error("{}\n \0{\"log_level\": 3}"s),
             Contains("file test.json: malformed JSON at line 2, column 2: a NUL byte"));
}

TEST_CASE("numbers too large for integer settings fail naming the setting's range") {
  CHECK_THAT(file_error(R"({"devices": {"GPU": {"device_count": 1e18}}})"),
             Contains("/devices/GPU/device_count: expected an integer from 0 to 2147483647, got "
                      "number 1e+18"));
  CHECK_THAT(file_error(R"({"devices": {"GPU": {"memory": {"limit_mb": 18446744073709551615}}}})"),
             Contains("/devices/GPU/memory/limit_mb: expected a positive integer of at most "
                      "17592186044415"));
  CHECK_THAT(file_error(R"({"devices": {"GPU": {"memory": {"limit_mb": -0.0}}}})"),
             Contains("/devices/GPU/memory/limit_mb: expected a positive integer, got number "
                      "-0.0"));
}

TEST_CASE("logical devices whose limits add up beyond a 64-bit byte count fail") {
  hxrt::detail::Config config;
  std::vector<hxrt::LogicalDeviceConfig> devices(3);
  devices[0].memory_limit_mb = uint64_t{1} << 43;
  devices[1].memory_limit_mb = (uint64_t{1} << 43) - 1;  // together the most there may be
  devices[2].memory_limit_mb = 1;
  auto error = error_from(
      [&] { hxrt::detail::set_logical_devices(config, "GPU:0", devices, "API"); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Contains("API: /devices/GPU:0/logical/2/memory_limit_mb: the logical "
                                     "devices' memory_limit_mb add up to more than "
                                     "17592186044415 MiB"));
  CHECK(config.devices.logical.empty());
  devices.pop_back();
  hxrt::detail::set_logical_devices(config, "GPU:0", devices, "API");
  CHECK(config.devices.logical.at("GPU:0").size() == 2);
}

TEST_CASE("nesting deeper than 64 levels fails while parsing, with its line and column") {
  // 80,000 levels overflow the stack of anything recursive that reads them.
  CHECK_THAT(file_error(nested_arrays(80000)),
             Contains("file test.json: nesting deeper than 64 levels at line 1, column 65"));
  // Four objects, then arrays: the 65th level is the 61st '['. The brackets in the string
  // before it do not count.
  const std::string prefix = R"({"plugins": {"search_paths": ["[{[{"],
 "options": {"sim": {"a": )";
  CHECK_THAT(file_error(prefix + nested_arrays(80000) + "}}}}"),
             Contains("nesting deeper than 64 levels at line 2, column " +
                      std::to_string(prefix.size() - prefix.find('\n') + 60)));
  // 64 levels are allowed.
  Config config;
  apply_config_text(prefix + nested_arrays(60) + "}}}}", "test.json", config);
  CHECK(config.plugin_options.at("sim") == "{\"a\":" + nested_arrays(60) + "}");

  hxrt::RuntimeOptions options;
  options.plugin_options["sim"] = "{\"a\": " + nested_arrays(80000) + "}";
  CHECK_THAT(api_error(options),
             Contains("API: /plugins/options/sim: nesting deeper than 64 levels at line 1, "
                      "column 70"));
}

TEST_CASE("a message quotes at most 80 bytes of a value and says how long it was") {
  const std::string huge(kHuge, 'a');
  std::string message = file_error(R"({"log_level": ")" + huge + "\"}");
  CHECK_THAT(message, Contains("got string \"" + std::string(80, 'a') + "... (1048576 bytes)\""));
  CHECK(message.size() < 300);

  message = file_error(R"({"placement": {"device_priority": [")" + huge + "-\"]}}");
  CHECK_THAT(message, Contains("got \"" + std::string(80, 'A') + "... (1048577 bytes)\""));
  CHECK(message.size() < 300);

  message = file_error(R"({"plugins": {"libraries": [[")" + huge + "\"]]}}");
  CHECK_THAT(message, Contains("/plugins/libraries/0: expected a string, got array [\"" +
                               std::string(78, 'a') + "... (1048580 bytes)"));
  CHECK(message.size() < 300);

  // A multi-byte character is never cut in two: 79 ASCII bytes, then 'é' (2 bytes).
  message = file_error(R"({"log_level": ")" + std::string(79, 'a') + "\xC3\xA9 and more\"}");
  CHECK_THAT(message, Contains("got string \"" + std::string(79, 'a') + "... (90 bytes)\""));
}

TEST_CASE("a key of megabytes makes a short message, quickly, wherever it is") {
  const std::string key(kHuge, 'k');
  for (const std::string& text :
       {R"({")" + key + R"(": 1})", R"({"plugins": {")" + key + R"(": 1}})",
        R"({"plugins": {"options": {")" + key + R"(": 1}}})",
        R"({"devices": {")" + key + R"(": 1}})",
        R"({"devices": {"GPU:0": {"logical": [{"memory_limit_mb": 1, ")" + key + R"(": 2}]}}})",
        R"({"plugins": {"options": {")" + key + R"(": {}, ")" + key + R"(": {}}}})"}) {
    const std::string message = file_error(text);
    INFO(message);
    CHECK_THAT(message, Contains(std::string(80, 'k') + "... (1048576 bytes)"));
    CHECK(message.size() < 600);
  }
}

TEST_CASE("bytes that are not UTF-8 and control characters are escaped in messages") {
  ScopedEnvironment environment;
  config_test::clear_config_environment(environment);
  environment.set("HXRT_VISIBLE_DEVICES", "GPU:0,\xff\xfe");
  auto error = error_from([] { resolve_config(hxrt::RuntimeOptions{}); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Contains("/visible_devices/1: expected a physical device like "
                                     "\"GPU:0\""));
  CHECK_THAT(error->what(), Contains("got \"\xEF\xBF\xBD\xEF\xBF\xBD\""));  // U+FFFD twice
  environment.unset("HXRT_VISIBLE_DEVICES");

  environment.set("HXRT_LOG_LEVEL", "a\x01" "b");
  error = error_from([] { resolve_config(hxrt::RuntimeOptions{}); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Contains("got string \"a\\u0001b\""));
}

TEST_CASE("settings that hold bytes that are not UTF-8 are shown, not thrown on") {
  ScopedEnvironment environment;
  config_test::clear_config_environment(environment);
  environment.set("HXRT_PLUGIN_PATH", "/plugins/\xff");
  hxrt::RuntimeOptions options;
  options.plugin_paths = {"/api/\xfe"};
  const Config config = resolve_config(options);
  std::vector<hxrt::ConfigSetting> settings;
  REQUIRE_NOTHROW(settings = hxrt::detail::effective_settings(config));
  std::map<std::string, std::string> values;
  for (const hxrt::ConfigSetting& setting : settings) values[setting.path] = setting.value;
  CHECK(values.at("/env/HXRT_PLUGIN_PATH") == "[\"/plugins/\xEF\xBF\xBD\"]");
  CHECK(values.at("/api/plugin_paths") == "[\"/api/\xEF\xBF\xBD\"]");
}

TEST_CASE("long environment values are read whole and quoted short") {
  ScopedEnvironment environment;
  config_test::clear_config_environment(environment);
  std::string names;
  for (int i = 0; i < 20000; ++i) names += "GPU:" + std::to_string(i) + ",";
  environment.set("HXRT_VISIBLE_DEVICES", names + "GPU:7");
  auto error = error_from([] { resolve_config(hxrt::RuntimeOptions{}); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Contains("/visible_devices/20000: \"GPU:7\" names GPU:7 again (as "
                                     "/visible_devices/7 does)"));
  names.pop_back();
  environment.set("HXRT_VISIBLE_DEVICES", names);
  CHECK(resolve_config(hxrt::RuntimeOptions{}).devices.visible_devices->size() == 20000);
  environment.unset("HXRT_VISIBLE_DEVICES");

  environment.set("HXRT_FORCE_MEMORY_GROWTH", std::string(kHuge, 'y'));
  error = error_from([] { resolve_config(hxrt::RuntimeOptions{}); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Contains("got \"" + std::string(80, 'y') + "... (1048576 bytes)\""));
  CHECK(std::string(error->what()).size() < 300);
  environment.unset("HXRT_FORCE_MEMORY_GROWTH");

  // A megabyte of digits reads as one number too large for a thread count, or as text; either
  // way the message is short.
  environment.set("HXRT_INTRA_OP_THREADS", std::string(kHuge, '9'));
  error = error_from([] { resolve_config(hxrt::RuntimeOptions{}); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Contains("environment HXRT_INTRA_OP_THREADS: "
                                     "/execution/intra_op_threads: expected an integer from 0"));
  CHECK(std::string(error->what()).size() < 300);
}

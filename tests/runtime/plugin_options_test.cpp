// Plugin options reach the plugin's init, which may refuse them: options the configuration
// gave and the plugin refused fail Runtime::create with their JSON path (a mistake in the
// configuration, not a plugin to skip). (How the config reads options is tested in
// tests/config.)
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <vector>

#include "plugins/refused_options.hpp"
#include "runtime_fixture.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

const std::string kCpuPlugin = std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so";
const std::string kInitFails = std::string(HXRT_TEST_FIXTURE_DIR) + "/libhx_fixture_init_fails.so";

// Every line logged, for checking what start-up said.
struct LogLines {
  std::mutex mutex;
  std::vector<std::string> lines;
  hxrt::LogSink sink() {
    return [this](hxrt::LogLevel, std::string_view line) {
      std::lock_guard<std::mutex> lock(mutex);
      lines.emplace_back(line);
    };
  }
  bool any_contains(const std::string& text) {
    std::lock_guard<std::mutex> lock(mutex);
    for (const std::string& line : lines) {
      if (line.find(text) != std::string::npos) return true;
    }
    return false;
  }
};

}  // namespace

TEST_CASE("options the API gave and a plugin refused fail create with their JSON path") {
  hxrt::RuntimeOptions options = runtime_test::cpu_only_options();
  options.plugin_options["cpu"] = R"({"threads": 4})";
  const auto error = runtime_test::error_from([&] { hxrt::Runtime::create(options); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(),
             StartsWith("API: /plugins/options/cpu/threads: plugin " + kCpuPlugin +
                        " refused its options: INVALID_ARGUMENT: ") &&
                 Contains("unknown option 'threads'") &&
                 Contains("correct the option or remove it from the configuration"));
}

TEST_CASE("options a config file gave and a plugin refused name the file, with no second "
          "warning") {
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / "hxrt_refused_options_test.json";
  std::ofstream(file) << R"({"plugins": {"use_installed": false, "libraries": [")" << kCpuPlugin
                      << R"("], "options": {"cpu": {"memory": 1}}}})";
  LogLines log;
  hxrt::RuntimeOptions options;
  options.config_path = file.string();
  options.log_sink = log.sink();
  const auto error = runtime_test::error_from([&] { hxrt::Runtime::create(options); });
  std::filesystem::remove(file);
  REQUIRE(error);
  CHECK_THAT(error->what(), StartsWith("file " + file.string() +
                                       ": /plugins/options/cpu/memory: plugin " + kCpuPlugin +
                                       " refused its options: "));
  CHECK_FALSE(log.any_contains("no plugin of that name loaded"));
  CHECK_FALSE(log.any_contains("skipped plugin"));
}

TEST_CASE("a refusal quoting none of the options names the plugin's options as a whole") {
  hxrt::RuntimeOptions options = runtime_test::cpu_only_options();
  options.plugin_paths.push_back(kInitFails);
  options.plugin_options["fixture_init_fails"] = R"({"y": 1})";  // it complains of 'x'
  const auto error = runtime_test::error_from([&] { hxrt::Runtime::create(options); });
  REQUIRE(error);
  CHECK_THAT(error->what(), StartsWith("API: /plugins/options/fixture_init_fails: plugin " +
                                       kInitFails + " refused its options: INVALID_ARGUMENT: "
                                       "fixture refuses to start: option 'x' missing"));
}

TEST_CASE("a plugin given no options whose init fails is skipped with its reason") {
  hxrt::RuntimeOptions options = runtime_test::cpu_only_options();
  options.plugin_paths.push_back(kInitFails);
  const hxrt::Runtime rt = hxrt::Runtime::create(options);
  REQUIRE(rt.load_report().size() == 2);
  CHECK(rt.load_report()[0].loaded);
  CHECK_FALSE(rt.load_report()[1].loaded);
  CHECK(rt.load_report()[1].reason ==
        "init failed: INVALID_ARGUMENT: fixture refuses to start: option 'x' missing");
}

TEST_CASE("the refused option is the key the plugin's message quotes first") {
  using hxrt::detail::refused_options_path;
  const std::string options = R"({"alpha": 1, "beta": 2, "a/b~": 3})";
  CHECK(refused_options_path("p", options, "option 'beta' clashes with 'alpha'") ==
        "/plugins/options/p/beta");
  CHECK(refused_options_path("p", options, "\"alpha\" is too large") == "/plugins/options/p/alpha");
  CHECK(refused_options_path("p", options, "`beta` is unknown") == "/plugins/options/p/beta");
  CHECK(refused_options_path("p", options, "'a/b~' is bad") == "/plugins/options/p/a~1b~0");
  // A path into a key names the key.
  CHECK(refused_options_path("p", options, "'beta.inner': bad") == "/plugins/options/p/beta");
  CHECK(refused_options_path("p", options, "'alpha[2].x': bad") == "/plugins/options/p/alpha");
  // A key that appears unquoted, or inside another word, is not taken for the one refused.
  CHECK(refused_options_path("p", options, "alpha and betas are wrong") == "/plugins/options/p");
  CHECK(refused_options_path("p", "not json", "'alpha'") == "/plugins/options/p");
  CHECK(refused_options_path("a/b", "{}", "no") == "/plugins/options/a~1b");
}

// The config file: what each key sets, how device settings are stored, the origin of each
// value, and the file itself (unreadable, relative paths). Error messages for each key are
// in cases/ (config_cases_test.cpp).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <sys/stat.h>
#include <unistd.h>

#include "config/config.hpp"
#include "error_from.hpp"
#include "scoped_environment.hpp"
#include "temp_dir.hpp"

using Catch::Matchers::Contains;
using hxrt::detail::apply_config_text;
using hxrt::detail::Config;
using hxrt_test::error_from;

TEST_CASE("a config file sets every plugin, placement and log key, each with its origin") {
  Config config;
  apply_config_text(R"({"plugins": {"search_paths": ["/a", "/b"], "libraries": ["/c/libhx_x.so"],
                        "use_installed": false, "options": {"sim": {"count": 4}}},
                        "placement": {"device_priority": ["sim", "CPU"], "soft_placement": "soft"},
                        "log_device_placement": true, "log_level": "info"})",
                    "test.json", config);
  CHECK(config.plugin_search_paths == std::vector<std::string>{"/a", "/b"});
  CHECK(config.plugin_libraries == std::vector<std::string>{"/c/libhx_x.so"});
  CHECK_FALSE(config.use_installed_plugins);
  CHECK(config.plugin_options.at("sim") == R"({"count":4})");
  CHECK(config.device_priority == std::vector<std::string>{"SIM", "CPU"});
  CHECK(config.soft_placement == hxrt::SoftPlacement::kSoft);
  CHECK(config.log_device_placement);
  CHECK(config.log_level == hxrt::LogLevel::kInfo);
  CHECK(config.plugin_candidates("/installed") ==
        std::vector<std::string>{"/c/libhx_x.so", "/a", "/b"});
  for (const char* path : {"/plugins/search_paths", "/plugins/libraries", "/plugins/use_installed",
                           "/plugins/options/sim", "/placement/device_priority",
                           "/placement/soft_placement", "/log_device_placement", "/log_level"}) {
    INFO(path);
    CHECK(config.origins.at(path) == "file test.json");
  }
  CHECK(config.origins.size() == 8);
}

TEST_CASE("the execution section sets both thread counts, each with its origin") {
  Config config;
  CHECK(config.execution.inter_op_threads == 0);
  CHECK(config.execution.intra_op_threads == 0);
  apply_config_text(R"({"execution": {"inter_op_threads": 6, "intra_op_threads": 2}})",
                    "test.json", config);
  CHECK(config.execution.inter_op_threads == 6);
  CHECK(config.execution.intra_op_threads == 2);
  CHECK(config.origins.at("/execution/inter_op_threads") == "file test.json");
  CHECK(config.origins.at("/execution/intra_op_threads") == "file test.json");

  // One key leaves the other as it was.
  Config one;
  apply_config_text(R"({"execution": {"intra_op_threads": 1}})", "test.json", one);
  CHECK(one.execution.inter_op_threads == 0);
  CHECK(one.execution.intra_op_threads == 1);
  CHECK(one.origins.count("/execution/inter_op_threads") == 0);
}

TEST_CASE("device keys and names are stored canonical, in the order given") {
  Config config;
  apply_config_text(R"({"visible_devices": ["gpu:1", "/physical_device:GPU:0", "/device:sim:3"],
                        "devices": {"gpu": {"device_count": 2},
                                    "/Physical_Device:gpu:0": {"memory": {"limit_mb": 64}},
                                    "/cpu:0": {"logical": [{}, {"memory_limit_mb": 8}]}}})",
                    "test.json", config);
  const auto& devices = config.devices;
  CHECK(devices.visible_devices == std::vector<std::string>{"GPU:1", "GPU:0", "SIM:3"});
  CHECK(devices.device_count == std::map<std::string, int>{{"GPU", 2}});
  REQUIRE(devices.memory.count("GPU:0") == 1);
  CHECK(devices.memory.at("GPU:0").limit_mb == 64u);
  REQUIRE(devices.logical.count("CPU:0") == 1);
  REQUIRE(devices.logical.at("CPU:0").size() == 2);
  CHECK_FALSE(devices.logical.at("CPU:0")[0].memory_limit_mb);
  CHECK(devices.logical.at("CPU:0")[1].memory_limit_mb == 8u);
  // Origins are keyed by the canonical names, so a later layer's setting replaces them.
  CHECK(config.origins.at("/visible_devices") == "file test.json");
  CHECK(config.origins.at("/devices/GPU/device_count") == "file test.json");
  CHECK(config.origins.at("/devices/GPU:0/memory/limit_mb") == "file test.json");
  CHECK(config.origins.at("/devices/CPU:0/logical") == "file test.json");
}

TEST_CASE("a memory policy is stored normalised: preallocate carries the mode") {
  Config config;
  apply_config_text(R"({"devices": {"GPU": {"memory": {"growth": true, "fraction": 0.5,
                                                       "release_unused": true}},
                                    "GPU:0": {"memory": {"preallocate": true, "limit_mb": 512}},
                                    "GPU:1": {"memory": {"growth": false, "preallocate": true}}}})",
                    "test.json", config);
  const hxrt::MemoryPolicy& gpu = config.devices.memory.at("GPU");
  CHECK_FALSE(gpu.growth);
  CHECK(gpu.preallocate == false);
  CHECK(gpu.fraction == 0.5);
  CHECK_FALSE(gpu.limit_mb);
  CHECK(gpu.release_unused == true);
  CHECK(config.devices.memory.at("GPU:0").preallocate == true);
  CHECK(config.devices.memory.at("GPU:1").preallocate == true);
  CHECK_FALSE(config.devices.memory.at("GPU:1").growth);
  // The origin stays under the name that was written.
  CHECK(config.origins.at("/devices/GPU/memory/growth") == "file test.json");
  CHECK(config.origins.count("/devices/GPU/memory/preallocate") == 0);
  CHECK(config.origins.at("/devices/GPU:0/memory/preallocate") == "file test.json");
  CHECK(config.origins.count("/devices/GPU:1/memory/growth") == 1);
  CHECK(config.origins.count("/devices/GPU:1/memory/preallocate") == 1);
}

TEST_CASE("integers written as 1024.0 count as integers, as JSON Schema counts them") {
  Config config;
  apply_config_text(R"({"devices": {"GPU": {"device_count": 2.0, "memory": {"limit_mb": 1024.0}}}})",
                    "test.json", config);
  CHECK(config.devices.device_count.at("GPU") == 2);
  CHECK(config.devices.memory.at("GPU").limit_mb == 1024u);
}

TEST_CASE("a key with '/' or '~' is escaped in the JSON pointer of its error") {
  Config config;
  auto error = error_from([&] {
    apply_config_text(R"({"devices": {"/GPU:0": {"memory": {"limit_mb": "4G"}}}})", "test.json",
                      config);
  });
  REQUIRE(error);
  CHECK_THAT(error->what(), Contains("file test.json: /devices/~1GPU:0/memory/limit_mb: expected "
                                     "a positive integer, got string \"4G\""));
  error = error_from([&] {
    apply_config_text(R"({"plugins": {"options": {"a~b/c": 1}}})", "test.json", config);
  });
  REQUIRE(error);
  CHECK_THAT(error->what(), Contains("/plugins/options/a~0b~1c: expected an object"));
}

TEST_CASE("a key given twice is an error even deep inside arrays") {
  Config config;
  auto error = error_from([&] {
    apply_config_text(R"({"devices": {"GPU:0": {"logical": [{}, {"memory_limit_mb": 1,
                                                                  "memory_limit_mb": 2}]}}})",
                      "test.json", config);
  });
  REQUIRE(error);
  CHECK_THAT(error->what(),
             Contains("file test.json: /devices/GPU:0/logical/1/memory_limit_mb: the key appears "
                      "twice in one object"));
}

TEST_CASE("a config file that cannot be read names the path and what gave it") {
  config_test::ScopedEnvironment environment;
  config_test::clear_config_environment(environment);
  hxrt::RuntimeOptions options;
  options.config_path = "/nonexistent/hxrt.json";
  auto error = error_from([&] { hxrt::detail::resolve_config(options); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kNotFound);
  CHECK_THAT(error->what(), Contains("'/nonexistent/hxrt.json' cannot be read"));
  CHECK_THAT(error->what(), Contains("given by RuntimeOptions"));

  environment.set("HXRT_CONFIG", "/nonexistent/env.json");
  error = error_from([&] { hxrt::detail::resolve_config(hxrt::RuntimeOptions{}); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Contains("given by $HXRT_CONFIG"));
}

TEST_CASE("a config path that is not a regular file is refused by kind, before it is read") {
  config_test::ScopedEnvironment environment;
  config_test::clear_config_environment(environment);
  const hxrt_test::TempDir folder("hxrt_config_kinds");
  const std::string fifo = (folder.path() / "hxrt.json").string();
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  // Opening a FIFO for reading waits for a writer: a loader that did so would hang here.
  for (const auto& [path, kind] : std::vector<std::pair<std::string, std::string>>{
           {fifo, "a FIFO"}, {folder.path().string(), "a directory"},
           {"/dev/zero", "a character device"}}) {
    INFO(path);
    hxrt::RuntimeOptions options;
    options.config_path = path;
    auto error = error_from([&] { hxrt::detail::resolve_config(options); });
    REQUIRE(error);
    CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
    CHECK_THAT(error->what(), Contains("config file '" + path + "' is " + kind +
                                       ", not a regular file: point RuntimeOptions at a JSON "
                                       "file"));
  }
  environment.set("HXRT_CONFIG", fifo);
  auto error = error_from([&] { hxrt::detail::resolve_config(hxrt::RuntimeOptions{}); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Contains("is a FIFO, not a regular file: point $HXRT_CONFIG at"));
}

TEST_CASE("a config file larger than 16 MiB is refused without reading it") {
  config_test::ScopedEnvironment environment;
  config_test::clear_config_environment(environment);
  const hxrt_test::TempDir folder("hxrt_config_size");
  const std::filesystem::path file = folder.path() / "hxrt.json";
  std::ofstream(file) << "{}";
  std::filesystem::resize_file(file, (16u << 20) + 1);  // sparse: no disk needed
  hxrt::RuntimeOptions options;
  options.config_path = file.string();
  auto error = error_from([&] { hxrt::detail::resolve_config(options); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(), Contains("config file '" + file.string() +
                                     "' is larger than the 16 MiB a config file may have: check "
                                     "that RuntimeOptions names the config file"));
}

TEST_CASE("the file is read from $HXRT_CONFIG, and its relative plugin paths from its folder") {
  config_test::ScopedEnvironment environment;
  config_test::clear_config_environment(environment);
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / ("hxrt_config_test_" + std::to_string(getpid()));
  std::filesystem::create_directories(folder);
  const std::filesystem::path file = folder / "hxrt.json";
  std::ofstream(file) << R"({"plugins": {"search_paths": ["plugins", "/abs"]}, "log_level": "error"})";
  environment.set("HXRT_CONFIG", file.string());

  const Config config = hxrt::detail::resolve_config(hxrt::RuntimeOptions{});
  CHECK(config.file == file.string());
  CHECK(config.plugin_search_paths ==
        std::vector<std::string>{(folder / "plugins").string(), "/abs"});
  CHECK(config.origins.at("/log_level") == "file " + file.string());
  std::filesystem::remove_all(folder);
}

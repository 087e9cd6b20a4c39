// The OpenCL device cache ($XDG_CACHE_HOME/hxrt/opencl-devices): a start-up whose installation
// matches the cache lists its devices without loading any OpenCL driver, and the driver is
// loaded when a device is first used; a cache that is stale, of another installation, corrupt
// or not writable costs a discovery or a clear error, never a wrong device. Each test case
// runs in a process of its own (CTest), so "no driver loaded yet" is this process's state.
#include <catch2/catch.hpp>

#include <hxrt/hxrt.hpp>
#include <nlohmann/json.hpp>
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "opencl_harness.hpp"
#include "temp_dir.hpp"

namespace opencl_test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr char kGhost[] = "hxrt test: a device that is not there";

std::string text_of(const fs::path& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The OpenCL driver libraries the ICD loader would load, by file name (the vendor files of
// $OCL_ICD_VENDORS, else /etc/OpenCL/vendors).
std::vector<std::string> driver_libraries() {
  const char* vendors = std::getenv("OCL_ICD_VENDORS");
  const fs::path folder =
      vendors != nullptr && vendors[0] != '\0' ? vendors : "/etc/OpenCL/vendors";
  std::vector<std::string> names;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    std::string library = text_of(entry.path());
    library.erase(library.find_last_not_of(" \t\r\n") + 1);
    if (!library.empty()) names.push_back(fs::path(library).filename().string());
  }
  return names;
}

// Whether any OpenCL driver library is mapped into this process.
bool driver_loaded() {
  const std::string maps = text_of("/proc/self/maps");
  const std::vector<std::string> drivers = driver_libraries();
  return std::any_of(drivers.begin(), drivers.end(), [&](const std::string& name) {
    return maps.find("/" + name) != std::string::npos;
  });
}

// A cache folder of the test's own, filled by hxrt-info in a process of its own (which
// discovers the devices and keeps them), as an earlier program on the machine would have.
class WrittenCache {
 public:
  WrittenCache() : home_("hxrt_opencl_cache") {
    REQUIRE(setenv("XDG_CACHE_HOME", home_.path().c_str(), 1) == 0);
    const std::string command =
        std::string(HXRT_TEST_BIN_DIR) + "/hxrt-info --no-probe > /dev/null 2>&1";
    REQUIRE(std::system(command.c_str()) == 0);
  }
  // False when the machine has no OpenCL device (then nothing is kept, and the test skips).
  bool written() const { return fs::exists(file()); }
  fs::path file() const { return home_.path() / "hxrt" / "opencl-devices"; }
  json read() const { return json::parse(text_of(file())); }
  void write(const json& cache) const { std::ofstream(file()) << cache.dump(1); }
  void write_text(const std::string& text) const { std::ofstream(file()) << text; }

 private:
  hxrt_test::TempDir home_;
};

int32_t device_count(const DirectPlugin& plugin) {
  Outcome ignored;
  return plugin.device_count(&ignored);
}

std::string device_name(const DirectPlugin& plugin, int32_t ordinal) {
  return plugin.properties(plugin.device(ordinal)).name;
}

TEST_CASE("With a current device cache the OpenCL plugin lists its devices without loading a "
          "driver, and loads it when a device is first used",
          "[opencl][device_cache]") {
  const WrittenCache cache;
  if (!cache.written()) {
    WARN("no OpenCL device on this machine: nothing to cache");
    return;
  }
  const json listed = cache.read();
  REQUIRE_FALSE(driver_loaded());
  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  REQUIRE(device_count(plugin) == static_cast<int32_t>(listed["devices"].size()));
  const hx_device_properties props = plugin.properties(plugin.device(0));
  CHECK(std::string(props.name) == listed["devices"][0]["name"].get<std::string>());
  CHECK(props.memory_total == listed["devices"][0]["memory_total"].get<uint64_t>());
  CHECK(props.alignment == listed["devices"][0]["alignment"].get<uint64_t>());
  // A stream made now (the core makes one per device at start-up) does not load the driver.
  hx_stream* stream = nullptr;
  REQUIRE(DirectPlugin::outcome(plugin.api().streams->create(plugin.device(0), &stream)).code ==
          HX_OK);
  bool done = false;
  CHECK(DirectPlugin::outcome(plugin.api().streams->query(plugin.device(0), stream, &done))
            .code == HX_OK);
  CHECK(done);
  CHECK(DirectPlugin::outcome(plugin.api().streams->synchronize(plugin.device(0), stream))
            .code == HX_OK);
  CHECK_FALSE(driver_loaded());

  {
    const Buffer buffer(plugin, plugin.device(0), 4 * sizeof(float));
    CHECK(driver_loaded());
    // The stream made before the device was bound works.
    const std::vector<float> values = {1.0f, -2.0f, 3.5f, -4.0f};
    REQUIRE(DirectPlugin::outcome(plugin.api().copy_host_to_device(
                                      plugin.device(0), stream, buffer.handle(), 0,
                                      values.data(), values.size() * sizeof(float)))
                .code == HX_OK);
    REQUIRE(DirectPlugin::outcome(plugin.api().streams->synchronize(plugin.device(0), stream))
                .code == HX_OK);
    CHECK(buffer.read_elements<float>(0, 4) == values);
    const Tensor in(buffer, 0, HX_DTYPE_F32, {4});
    const Buffer out_buffer(plugin, plugin.device(0), 4 * sizeof(float));
    const Tensor out(out_buffer, 0, HX_DTYPE_F32, {4});
    REQUIRE(run_kernel(plugin, "Relu", {in}, {out}, {}, stream).message.empty());
    CHECK(out_buffer.read_elements<float>(0, 4) == std::vector<float>{1.0f, 0.0f, 3.5f, 0.0f});
  }
  plugin.api().streams->destroy(plugin.device(0), stream);
}

TEST_CASE("A stream of a listed device that goes before the device is used costs nothing",
          "[opencl][device_cache]") {
  const WrittenCache cache;
  if (!cache.written()) return;
  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  hx_stream* stream = nullptr;
  REQUIRE(DirectPlugin::outcome(plugin.api().streams->create(plugin.device(0), &stream)).code ==
          HX_OK);
  plugin.api().streams->destroy(plugin.device(0), stream);
  // Binding afterwards must not reach the stream that went.
  const Buffer buffer(plugin, plugin.device(0), 64);
  CHECK(driver_loaded());
}

TEST_CASE("A host app with a current device cache runs CPU ops without loading an OpenCL "
          "driver, and OpenCL ops when asked",
          "[opencl][device_cache][runtime]") {
  const WrittenCache cache;
  if (!cache.written()) return;
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so",
                          std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_opencl.so"};
  hxrt::Runtime rt = hxrt::Runtime::create(options);
  const std::vector<hxrt::DeviceInfo> devices = rt.devices();
  CHECK(std::any_of(devices.begin(), devices.end(),
                    [](const hxrt::DeviceInfo& d) { return d.type == "OPENCL"; }));
  const hxrt::Tensor a = rt.tensor<float>({2, 2}, {1.0f, 2.0f, 3.0f, 4.0f});
  const hxrt::Tensor on_default = rt.execute("MatMul", {a, a});
  CHECK(on_default.to_vector<float>() == std::vector<float>{7.0f, 10.0f, 15.0f, 22.0f});
  if (on_default.device().find("CPU") != std::string::npos) CHECK_FALSE(driver_loaded());
  const hxrt::Tensor on_opencl = rt.execute("MatMul", {a, a}, {}, "/OPENCL:0");
  CHECK(on_opencl.device().find("OPENCL:0") != std::string::npos);
  CHECK(on_opencl.to_vector<float>() == std::vector<float>{7.0f, 10.0f, 15.0f, 22.0f});
  CHECK(driver_loaded());
}

TEST_CASE("A device the cache lists but OpenCL no longer has says so at its first use, and the "
          "cache is rewritten",
          "[opencl][device_cache]") {
  const WrittenCache cache;
  if (!cache.written()) return;
  json edited = cache.read();
  const std::string real_name = edited["devices"][0]["name"];
  edited["devices"][0]["name"] = kGhost;
  cache.write(edited);

  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  CHECK(device_name(plugin, 0) == kGhost);  // believed: the fingerprint matches
  hx_buffer* buffer = nullptr;
  const Outcome got =
      DirectPlugin::outcome(plugin.api().allocate(plugin.device(0), 64, 1, &buffer));
  CHECK(got.code == HX_UNAVAILABLE);
  CHECK_THAT(got.message, Catch::Contains(std::string("device 0 ('") + kGhost) &&
                              Catch::Contains("was listed from the device cache " +
                                              cache.file().string()) &&
                              Catch::Contains("restart the program"));
  // The same answer again, without a second discovery.
  CHECK(DirectPlugin::outcome(plugin.api().allocate(plugin.device(0), 64, 1, &buffer)).message ==
        got.message);
  CHECK(cache.read()["devices"][0]["name"] == real_name);

  const DirectPlugin restarted;
  REQUIRE(restarted.init_outcome().code == HX_OK);
  CHECK(device_name(restarted, 0) == real_name);
  const Buffer works(restarted, restarted.device(0), 64);
}

TEST_CASE("A listed device whose memory figures moved since (PoCL derives them from the memory "
          "free) is the same device",
          "[opencl][device_cache]") {
  const WrittenCache cache;
  if (!cache.written()) return;
  json edited = cache.read();
  const uint64_t total = edited["devices"][0]["memory_total"];
  edited["devices"][0]["memory_total"] = total + (uint64_t{1} << 30);
  cache.write(edited);

  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  CHECK(plugin.properties(plugin.device(0)).memory_total == total + (uint64_t{1} << 30));
  const Buffer works(plugin, plugin.device(0), 64);
  CHECK(cache.read() == edited);  // bound as listed: nothing to rewrite
}

TEST_CASE("A device cache of another installation, or one that is corrupt, is not believed",
          "[opencl][device_cache]") {
  const WrittenCache cache;
  if (!cache.written()) return;
  const json written = cache.read();
  const std::string real_name = written["devices"][0]["name"];
  json edited = written;
  edited["devices"][0]["name"] = kGhost;

  SECTION("another fingerprint") {
    edited["fingerprint"] = written["fingerprint"].get<std::string>() + "env POCL_OTHER=1\n";
    cache.write(edited);
  }
  SECTION("an environment variable an OpenCL driver reads, changed since") {
    cache.write(edited);
    REQUIRE(setenv("POCL_HXRT_TEST_VARIABLE", "1", 1) == 0);
  }
  SECTION("another format") {
    edited["format"] = 99;
    cache.write(edited);
  }
  SECTION("facts out of range") {
    edited["devices"][0]["alignment"] = 8192;
    cache.write(edited);
  }
  SECTION("not JSON") { cache.write_text("{\"format\": 1, \"devices\": ["); }
  SECTION("JSON of another shape") { cache.write_text("[1, 2, 3]"); }

  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  CHECK(device_name(plugin, 0) == real_name);  // discovered
  const json rewritten = cache.read();
  CHECK(rewritten["devices"][0]["name"] == real_name);
  CHECK(rewritten["format"] == 1);
  const Buffer works(plugin, plugin.device(0), 64);
}

TEST_CASE("With no cache folder to write in the OpenCL plugin still lists its devices",
          "[opencl][device_cache]") {
  const hxrt_test::TempDir home("hxrt_opencl_no_cache");
  const fs::path file = home.path() / "a file";
  std::ofstream(file) << "not a folder";
  REQUIRE(setenv("XDG_CACHE_HOME", file.c_str(), 1) == 0);
  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  Outcome counted;
  const int32_t count = plugin.device_count(&counted);
  if (count == 0) return;  // no OpenCL device here
  const Buffer works(plugin, plugin.device(0), 64);
  const DirectPlugin again;  // discovers again: nothing was kept
  CHECK(device_count(again) == count);
}

TEST_CASE("Threads that first use listed OpenCL devices at once bind them once",
          "[opencl][device_cache]") {
  const WrittenCache cache;
  if (!cache.written()) return;
  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  hx_device* device = plugin.device(0);
  constexpr int kThreads = 4;
  std::atomic<int> failures{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      while (!go.load()) std::this_thread::yield();
      hx_stream* stream = nullptr;
      hx_buffer* buffer = nullptr;
      if (plugin.api().streams->create(device, &stream) != nullptr) ++failures;
      if (plugin.api().allocate(device, 256, 1, &buffer) != nullptr) {
        ++failures;
        return;
      }
      const float value = 2.5f;
      if (plugin.api().copy_host_to_device(device, stream, buffer, 0, &value, sizeof value) !=
              nullptr ||
          plugin.api().streams->synchronize(device, stream) != nullptr) {
        ++failures;
      }
      float back = 0.0f;
      if (plugin.api().copy_device_to_host(device, nullptr, &back, buffer, 0, sizeof back) !=
              nullptr ||
          back != value) {
        ++failures;
      }
      plugin.api().deallocate(device, buffer, 256);
      plugin.api().streams->destroy(device, stream);
    });
  }
  go = true;
  for (std::thread& thread : threads) thread.join();
  CHECK(failures == 0);
}

}  // namespace
}  // namespace opencl_test

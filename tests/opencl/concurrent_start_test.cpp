// Runtimes that start in one process at once, each with the OpenCL plugin: with no device cache
// every init discovers the OpenCL devices, and with a current one every runtime's first OpenCL
// op does. PoCL sets its devices up in the first clGetDeviceIDs of a process and is not safe
// for two such calls at once (plugins/opencl/driver_setup_lock.hpp says how the plugin keeps
// them apart). That happens once per process, so each round runs in a child process of its own
// (child_process.hpp) in which OpenCL has not been touched; this process never touches it.
#include <catch2/catch.hpp>

#include <hxrt/hxrt.hpp>
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "child_process.hpp"
#include "temp_dir.hpp"

namespace opencl_test {
namespace {

namespace fs = std::filesystem;

constexpr char kOpenCl0[] = "/job:localhost/replica:0/task:0/device:OPENCL:0";
constexpr int kRuntimes = 8;
// Rounds per test. Without the plugin's lock (driver_setup_lock.hpp), 30 of 34 cold rounds
// and 30 of 31 first-use rounds failed on PoCL 3.1 (most crashed, the others lost the device);
// with it a cold round takes about 0.1 s, and a first-use round about 0.7 s (PoCL builds the
// program, from its kernel cache, in each runtime's context).
constexpr int kColdRounds = 20;
constexpr int kFirstUseRounds = 5;
// Far more than a round takes, even under ThreadSanitizer; a round still running then hangs.
constexpr std::chrono::seconds kRoundLimit{120};

// A child's exit codes.
constexpr int kPassed = 0;
constexpr int kFailed = 1;
constexpr int kNoOpenClDevice = 2;

hxrt::Runtime make_runtime() {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so",
                          std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_opencl.so"};
  return hxrt::Runtime::create(options);
}

bool has_opencl_device(const hxrt::Runtime& rt) {
  const std::vector<hxrt::DeviceInfo> devices = rt.devices();
  return std::any_of(devices.begin(), devices.end(),
                     [](const hxrt::DeviceInfo& device) { return device.name == kOpenCl0; });
}

// MatMul on /OPENCL:0 of a 2x2 matrix scaled by `scale` (each runtime its own), checked.
void multiply_on_opencl(hxrt::Runtime& rt, float scale) {
  const hxrt::Tensor a = rt.tensor<float>({2, 2}, {scale, 2 * scale, 3 * scale, 4 * scale});
  const hxrt::Tensor product = rt.execute("MatMul", {a, a}, {}, "/OPENCL:0");
  const float s2 = scale * scale;
  const std::vector<float> expected = {7 * s2, 10 * s2, 15 * s2, 22 * s2};
  if (product.device() != kOpenCl0) {
    throw std::runtime_error("MatMul ran on " + product.device() + ", not " + kOpenCl0);
  }
  if (product.to_vector<float>() != expected) throw std::runtime_error("MatMul: wrong values");
}

// Counts the calling thread in, then waits until every thread counted in `not_arrived` is in.
void arrive_and_wait(std::atomic<int>& not_arrived) {
  --not_arrived;
  while (not_arrived.load() > 0) std::this_thread::yield();
}

// In a child: makes a runtime on each of kRuntimes threads, released at once, then (released at
// once again) runs `use(runtime, index)` on each. Every failure is printed; kPassed when there
// was none.
int on_runtimes_at_once(const std::function<void(hxrt::Runtime&, int)>& use) {
  std::atomic<int> not_started{kRuntimes};
  std::atomic<int> not_made{kRuntimes};
  std::atomic<int> failures{0};
  const auto fail = [&](int index, const char* what) {
    std::fprintf(stderr, "runtime %d: %s\n", index, what);
    ++failures;
  };
  std::vector<std::thread> threads;
  for (int index = 0; index < kRuntimes; ++index) {
    threads.emplace_back([&, index] {
      arrive_and_wait(not_started);
      std::optional<hxrt::Runtime> rt;
      try {
        rt.emplace(make_runtime());
      } catch (const std::exception& error) {
        fail(index, error.what());
      }
      arrive_and_wait(not_made);  // whether or not it was made: the others wait for all
      if (!rt) return;
      try {
        use(*rt, index);
      } catch (const std::exception& error) {
        fail(index, error.what());
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  return failures == 0 ? kPassed : kFailed;
}

// Runs `body` in a child whose device cache (and PoCL's kernel cache) is `cache_home`.
ChildEnd in_child_with_cache(const fs::path& cache_home, const std::function<int()>& body) {
  return run_in_child(
      [&] {
        setenv("XDG_CACHE_HOME", cache_home.c_str(), 1);
        return body();
      },
      kRoundLimit);
}

// Whether this machine has an OpenCL device, asked in a child with a cache of its own; the
// test skips when it has none.
bool machine_has_opencl_device() {
  const hxrt_test::TempDir cache("hxrt_opencl_probe");
  const ChildEnd end = in_child_with_cache(cache.path(), [] {
    return has_opencl_device(make_runtime()) ? kPassed : kNoOpenClDevice;
  });
  INFO("the child that looked for an OpenCL device: " << end.description);
  REQUIRE(end.exited);
  REQUIRE((end.exit_code == kPassed || end.exit_code == kNoOpenClDevice));
  return end.exit_code == kPassed;
}

TEST_CASE("Runtimes that start at once with no OpenCL device cache each find the OpenCL device",
          "[opencl][concurrent]") {
  if (!machine_has_opencl_device()) {
    WARN("no OpenCL device on this machine: nothing to discover");
    return;
  }
  for (int round = 1; round <= kColdRounds; ++round) {
    const hxrt_test::TempDir empty_cache("hxrt_opencl_cold_start");
    const ChildEnd end = in_child_with_cache(empty_cache.path(), [] {
      return on_runtimes_at_once([](hxrt::Runtime& rt, int) {
        if (!has_opencl_device(rt)) throw std::runtime_error("no OpenCL device listed");
      });
    });
    INFO("round " << round << " of " << kColdRounds << ": " << kRuntimes
                  << " runtimes started at once (their failures are printed above)");
    REQUIRE(end.description == "exit code 0");
  }
}

TEST_CASE("Runtimes that each first use the OpenCL device at once all get its results",
          "[opencl][concurrent]") {
  const hxrt_test::TempDir cache("hxrt_opencl_first_use");
  // One runtime alone writes the device cache (so that the runtimes of the rounds list their
  // device from it, and discover the platform at its first use) and PoCL's kernel cache (so
  // that a round does not compile the program from scratch, eight times over).
  const ChildEnd warm_up = in_child_with_cache(cache.path(), [] {
    hxrt::Runtime rt = make_runtime();
    if (!has_opencl_device(rt)) return kNoOpenClDevice;
    multiply_on_opencl(rt, 1.0f);
    return kPassed;
  });
  if (warm_up.exit_code == kNoOpenClDevice) {
    WARN("no OpenCL device on this machine: nothing to use");
    return;
  }
  INFO("the child that filled the caches: " << warm_up.description);
  REQUIRE(warm_up.description == "exit code 0");
  REQUIRE(fs::exists(cache.path() / "hxrt" / "opencl-devices"));

  for (int round = 1; round <= kFirstUseRounds; ++round) {
    const ChildEnd end = in_child_with_cache(cache.path(), [] {
      return on_runtimes_at_once([](hxrt::Runtime& rt, int index) {
        multiply_on_opencl(rt, static_cast<float>(index + 1));
      });
    });
    INFO("round " << round << " of " << kFirstUseRounds << ": " << kRuntimes
                  << " runtimes' first OpenCL op at once (their failures are printed above)");
    REQUIRE(end.description == "exit code 0");
  }
}

}  // namespace
}  // namespace opencl_test

// memory.thread_caches, the memory layer's one switch: on by default; off (from the file or
// HXRT_MEMORY_THREAD_CACHES) on every device, so that a small block freed on one thread is free
// for every other thread at once.
#include <catch2/catch.hpp>

#include <condition_variable>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "../config/scoped_environment.hpp"
#include "devices_runtime.hpp"
#include "temp_dir.hpp"

namespace {

using namespace devices_test;

hxrt::Runtime runtime_with_config(const std::string& config_json,
                                  const hxrt_test::TempDir& folder) {
  const std::string path = (folder.path() / "hxrt.json").string();
  std::ofstream(path) << config_json;
  hxrt::RuntimeOptions options = cpu_and_sim(kOneSimGpu);
  options.config_path = path;
  return hxrt::Runtime::create(options);
}

bool caches_off_everywhere(const hxrt::Runtime& rt) {
  for (const hxrt::DeviceInfo& device : rt.devices()) {
    if (device.memory_policy.find("no thread caches") == std::string::npos) return false;
  }
  return true;
}

// Under a 1 MiB limit, a thread takes eight blocks of 64 KiB and frees them, then stays alive
// (a thread that exits hands its cache back) while this thread asks for 768 KiB. Whether the
// request fits says whether the freed blocks went back to the allocator or wait in the other
// thread's cache.
bool large_request_fits_after_small_frees_elsewhere(hxrt::Runtime& rt) {
  hxrt::MemoryPolicy policy;
  policy.limit_mb = 1;
  rt.set_memory_policy("GPU:0", policy);
  std::mutex mutex;
  std::condition_variable changed;
  bool freed = false;
  bool done = false;
  std::thread small_blocks([&] {
    {
      std::vector<hxrt::Tensor> tensors;
      for (int i = 0; i < 8; ++i) tensors.push_back(counting_tensor(rt, 64 * 1024, 0, "GPU:0"));
    }
    std::unique_lock<std::mutex> lock(mutex);
    freed = true;
    changed.notify_all();
    changed.wait(lock, [&] { return done; });
  });
  bool fits = false;
  {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return freed; });
  }
  try {
    const hxrt::Tensor large = counting_tensor(rt, 768 * 1024, 0, "GPU:0");
    fits = true;
  } catch (const hxrt::Error& error) {
    CHECK(error.code() == hxrt::StatusCode::kOutOfMemory);
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    done = true;
  }
  changed.notify_all();
  small_blocks.join();
  return fits;
}

}  // namespace

TEST_CASE("Thread caches are on by default, and memory.thread_caches false turns them off",
          "[devices][memory]") {
  const hxrt_test::TempDir folder("hxrt_thread_caches");
  {
    hxrt::Runtime rt = make_runtime(kOneSimGpu);
    CHECK_FALSE(large_request_fits_after_small_frees_elsewhere(rt));
    CHECK(find_device(rt.devices(), "GPU:0").memory_policy == "growth, limit 1.00 MiB");
  }
  hxrt::Runtime rt = runtime_with_config(R"({"memory": {"thread_caches": false}})", folder);
  CHECK(large_request_fits_after_small_frees_elsewhere(rt));
  CHECK(find_device(rt.devices(), "GPU:0").memory_policy ==
        "growth, limit 1.00 MiB, no thread caches");
  CHECK(caches_off_everywhere(rt));
}

TEST_CASE("HXRT_MEMORY_THREAD_CACHES overrides the file's memory.thread_caches",
          "[devices][memory]") {
  const hxrt_test::TempDir folder("hxrt_thread_caches");
  config_test::ScopedEnvironment environment;
  environment.set("HXRT_MEMORY_THREAD_CACHES", "false");
  CHECK(caches_off_everywhere(runtime_with_config("{}", folder)));
  environment.set("HXRT_MEMORY_THREAD_CACHES", "true");
  const hxrt::Runtime on =
      runtime_with_config(R"({"memory": {"thread_caches": false}})", folder);
  CHECK(find_device(on.devices(), "GPU:0").memory_policy == "growth, no limit");
}

TEST_CASE("memory.thread_caches must be a bool, and memory holds no other key",
          "[devices][memory]") {
  const hxrt_test::TempDir folder("hxrt_thread_caches");
  auto error = error_from([&] {
    runtime_with_config(R"({"memory": {"thread_caches": "off"}})", folder).initialize();
  });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(), Catch::Contains("/memory/thread_caches") &&
                                Catch::Contains("\"off\""));
  error = error_from([&] {
    runtime_with_config(R"({"memory": {"thread_cache": false}})", folder).initialize();
  });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("/memory/thread_cache") &&
                                Catch::Contains("did you mean 'thread_caches'?"));
}

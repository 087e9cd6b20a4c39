// Per-device memory through the API: statistics, peak reset, giving memory back, policies as
// applied, and an out-of-memory error under a hard limit that loses nothing.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>
#include <vector>

#include "devices_runtime.hpp"

namespace {

using namespace devices_test;

hxrt::MemoryPolicy limit(uint64_t mb) {
  hxrt::MemoryPolicy policy;
  policy.limit_mb = mb;
  return policy;
}

// The sim reports its free memory (report_memory is on by default).
uint64_t sim_free(const hxrt::Runtime& rt) {
  return find_device(rt.devices(), "GPU:0").memory_free.value();
}

}  // namespace

TEST_CASE("memory_stats follows tensors: in use, peak, count, reset_peak_memory restarts the peak",
          "[devices][memory]") {
  hxrt::Runtime rt = make_runtime(kOneSimGpu);
  CHECK(rt.memory_stats("GPU:0").bytes_in_use == 0);
  {
    const hxrt::Tensor a = counting_tensor(rt, 1 * kMiB, 0, "GPU:0");
    const hxrt::Tensor b = counting_tensor(rt, 1 * kMiB, 0, "GPU:0");
    const hxrt::MemoryStats stats = rt.memory_stats("GPU:0");
    CHECK(stats.bytes_in_use == 2 * kMiB);
    CHECK(stats.allocation_count == 2);
    CHECK(stats.peak_bytes_in_use == 2 * kMiB);
    CHECK(stats.bytes_reserved >= 2 * kMiB);
    CHECK(stats.bytes_limit == SIZE_MAX);
  }
  hxrt::MemoryStats stats = rt.memory_stats("GPU:0");
  CHECK(stats.bytes_in_use == 0);
  CHECK(stats.allocation_count == 0);
  CHECK(stats.peak_bytes_in_use == 2 * kMiB);
  CHECK(stats.total_allocations == 2);
  rt.reset_peak_memory("GPU:0");
  CHECK(rt.memory_stats("GPU:0").peak_bytes_in_use == 0);
}

TEST_CASE("memory_stats of a device that does not exist, or of no single device, is an error",
          "[devices][memory]") {
  hxrt::Runtime rt = make_runtime(kOneSimGpu);
  auto error = error_from([&] { rt.memory_stats("GPU:3"); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(), Catch::Contains("device:GPU:3 unknown device") &&
                                Catch::Contains("Existing devices:"));
  error = error_from([&] { rt.memory_stats("/GPU"); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
}

TEST_CASE("release_unused_memory gives cached regions back and leaves live tensors",
          "[devices][memory]") {
  hxrt::Runtime rt = make_runtime(kOneSimGpu);
  const uint64_t free_at_start = sim_free(rt);
  const hxrt::Tensor kept = counting_tensor(rt, 1 * kMiB, 5, "CPU:0");
  { const hxrt::Tensor dropped = counting_tensor(rt, 8 * kMiB, 0, "GPU:0"); }
  CHECK(rt.memory_stats("GPU:0").bytes_reserved >= 8 * kMiB);
  CHECK(sim_free(rt) < free_at_start);

  const size_t released = rt.release_unused_memory("GPU:0");
  CHECK(released >= 8 * kMiB);
  CHECK(rt.memory_stats("GPU:0").bytes_reserved == 0);
  CHECK(sim_free(rt) == free_at_start);
  // All devices at once: CPU:0 keeps the region its live tensor is in.
  rt.release_unused_memory();
  CHECK(rt.memory_stats("CPU:0").bytes_in_use == 1 * kMiB);
  CHECK(holds_counting(kept, 5));
}

TEST_CASE("release_unused gives a region back as soon as it is empty", "[devices][memory]") {
  hxrt::Runtime rt = make_runtime(kOneSimGpu);
  hxrt::MemoryPolicy policy;
  policy.release_unused = true;
  rt.set_memory_policy("GPU", policy);
  { const hxrt::Tensor dropped = counting_tensor(rt, 8 * kMiB, 0, "GPU:0"); }
  CHECK(rt.memory_stats("GPU:0").bytes_reserved == 0);
  CHECK(find_device(rt.devices(), "GPU:0").memory_policy == "growth, no limit, release unused");
}

TEST_CASE("preallocate takes the budget at initialisation, growth takes nothing until asked",
          "[devices][memory]") {
  hxrt::Runtime grows = make_runtime(kOneSimGpu);
  grows.initialize();
  CHECK(grows.memory_stats("GPU:0").bytes_reserved == 0);

  hxrt::Runtime takes_all = make_runtime(kOneSimGpu);
  hxrt::MemoryPolicy policy = limit(16);
  policy.growth = false;
  takes_all.set_memory_policy("GPU:0", policy);
  takes_all.initialize();
  CHECK(takes_all.memory_stats("GPU:0").bytes_reserved == 16 * kMiB);
  CHECK(find_device(takes_all.devices(), "GPU:0").memory_policy == "preallocate, limit 16.00 MiB");
  // Served from the budget, and never beyond it.
  const hxrt::Tensor a = counting_tensor(takes_all, 4 * kMiB, 0, "GPU:0");
  CHECK(takes_all.memory_stats("GPU:0").bytes_reserved == 16 * kMiB);
  const auto error = error_from([&] { counting_tensor(takes_all, 16 * kMiB, 0, "GPU:0"); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kOutOfMemory);
}

TEST_CASE("A hard limit reached: the error names device, request and figures, nothing is lost",
          "[devices][memory]") {
  hxrt::Runtime rt = make_runtime(kOneSimGpu);
  rt.set_memory_policy("GPU:0", limit(8));
  std::vector<hxrt::Tensor> held;
  std::optional<hxrt::Error> error;
  for (int i = 0; i < 8 && !error; ++i) {
    error = error_from([&] { held.push_back(counting_tensor(rt, 3 * kMiB, float(i), "GPU:0")); });
  }
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kOutOfMemory);
  CHECK_THAT(error->what(),
             Catch::Contains("Out of memory on /job:localhost/replica:0/task:0/device:GPU:0") &&
                 Catch::Contains("cannot allocate 3145728 bytes (3.00 MiB)") &&
                 Catch::Contains("in use") && Catch::Contains("peak") &&
                 Catch::Contains("reserved") && Catch::Contains("limit 8.00 MiB") &&
                 Catch::Contains("largest free block"));
  REQUIRE_FALSE(held.empty());
  for (size_t i = 0; i < held.size(); ++i) CHECK(holds_counting(held[i], float(i)));
  CHECK(rt.memory_stats("GPU:0").bytes_reserved <= 8 * kMiB);

  // A request that fits succeeds, and freeing one tensor makes room for another.
  const hxrt::Tensor small = counting_tensor(rt, 64 * 1024, 7, "GPU:0");
  CHECK(holds_counting(small, 7));
  held.pop_back();
  held.push_back(counting_tensor(rt, 3 * kMiB, 9, "GPU:0"));
  CHECK(holds_counting(held.back(), 9));
}

TEST_CASE("HXRT_FORCE_MEMORY_GROWTH=true makes a preallocating device grow, with a warning",
          "[devices][memory]") {
  LogLines log;
  hxrt::RuntimeOptions options = cpu_and_sim(kOneSimGpu);
  log.attach(options);
  setenv("HXRT_FORCE_MEMORY_GROWTH", "true", 1);
  hxrt::Runtime rt = [&] {
    struct Unset {
      ~Unset() { unsetenv("HXRT_FORCE_MEMORY_GROWTH"); }
    } unset;
    return hxrt::Runtime::create(options);
  }();
  hxrt::MemoryPolicy policy = limit(16);
  policy.preallocate = true;
  rt.set_memory_policy("GPU", policy);  // the API too: the variable is the operator's override
  rt.initialize();
  CHECK(rt.memory_stats("GPU:0").bytes_reserved == 0);
  CHECK(find_device(rt.devices(), "GPU:0").memory_policy == "growth, limit 16.00 MiB");
  CHECK(log.contains("HXRT_FORCE_MEMORY_GROWTH=true: GPU:0 grows its memory instead of "
                     "preallocating as configured"));
}

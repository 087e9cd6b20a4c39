#include "allocator_bench.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <queue>
#include <random>
#include <utility>
#include <vector>

#include "memory/bfc_allocator.hpp"

namespace hxrt_bench {
namespace {

// Host memory stands in for a device: what is timed is the allocator's bookkeeping.
hxrt::detail::RawMemory host_memory() {
  hxrt::detail::RawMemory raw;
  raw.allocate = [](size_t bytes) {
    return std::aligned_alloc(hxrt::detail::BfcAllocator::kAlignment, bytes);
  };
  raw.deallocate = [](void* ptr, size_t) { std::free(ptr); };
  return raw;
}

void bfc_hit(benchmark::State& state, size_t bytes) {
  hxrt::detail::BfcAllocator allocator("bench", host_memory());
  allocator.deallocate(allocator.allocate(bytes));  // the size is cached from here on
  for (auto _ : state) {
    void* ptr = allocator.allocate(bytes);
    benchmark::DoNotOptimize(ptr);
    allocator.deallocate(ptr);
  }
}

void malloc_hit(benchmark::State& state, size_t bytes) {
  std::free(std::malloc(bytes));
  for (auto _ : state) {
    void* ptr = std::malloc(bytes);
    benchmark::DoNotOptimize(ptr);
    std::free(ptr);
  }
}

// A device that hands out bare addresses and counts them: the allocator never touches the
// memory it manages, so gigabytes cost nothing.
struct AddressSpace {
  uintptr_t next = uintptr_t{1} << 40;
  size_t outstanding = 0;
  size_t peak_outstanding = 0;
  uint64_t allocations = 0;

  hxrt::detail::RawMemory raw() {
    hxrt::detail::RawMemory memory;
    memory.allocate = [this](size_t bytes) {
      void* ptr = reinterpret_cast<void*>(next);
      next += bytes + hxrt::detail::BfcAllocator::kAlignment;  // a gap: regions never touch
      outstanding += bytes;
      peak_outstanding = std::max(peak_outstanding, outstanding);
      ++allocations;
      return ptr;
    };
    memory.deallocate = [this](void*, size_t bytes) { outstanding -= bytes; };
    return memory;
  }
};

// The workload of tests/memory/bfc_allocator_stress_test.cpp ("a mixed workload reserves at
// most 1.15 times what it uses at its peak"), default options: 10,000 requests of 2^x bytes,
// x uniform in [8, 26] (256 B to 64 MiB), each freed just before the request that comes a
// uniform 1 to 100 requests after it (mt19937_64, seed 7). Counters: the most the device had
// handed out over the peak in use, and the device allocations per 1,000 requests.
void mixed_workload(benchmark::State& state) {
  constexpr int kRequests = 10000;
  double reserved_per_use = 0;
  double device_calls = 0;
  for (auto _ : state) {
    AddressSpace device;
    hxrt::detail::BfcAllocator allocator("bench", device.raw());
    std::mt19937_64 random(7);
    std::uniform_real_distribution<double> exponent(8, 26);
    std::uniform_int_distribution<int> lifetime(1, 100);
    using Death = std::pair<int, void*>;  // (step, block)
    std::priority_queue<Death, std::vector<Death>, std::greater<Death>> deaths;
    for (int step = 0; step < kRequests; ++step) {
      while (!deaths.empty() && deaths.top().first <= step) {
        allocator.deallocate(deaths.top().second);
        deaths.pop();
      }
      void* block = allocator.allocate(static_cast<size_t>(std::exp2(exponent(random))));
      deaths.emplace(step + lifetime(random), block);
    }
    reserved_per_use = static_cast<double>(device.peak_outstanding) /
                       static_cast<double>(allocator.stats().peak_bytes_in_use);
    device_calls = static_cast<double>(device.allocations) * 1000 / kRequests;
    for (; !deaths.empty(); deaths.pop()) allocator.deallocate(deaths.top().second);
  }
  state.counters[kReservedPerUse] = reserved_per_use;
  state.counters["device_allocations_per_1k"] = device_calls;
}

}  // namespace

void register_allocator_benchmarks() {
  const struct {
    const char* bfc;
    const char* malloc;
    size_t bytes;
  } sizes[] = {{kHitBfc1K, kHitMalloc1K, size_t{1} << 10},
               {kHitBfc64K, kHitMalloc64K, size_t{64} << 10},
               {kHitBfc16M, kHitMalloc16M, size_t{16} << 20}};
  for (const auto& size : sizes) {
    benchmark::RegisterBenchmark(size.bfc, bfc_hit, size.bytes)->Unit(benchmark::kNanosecond);
    benchmark::RegisterBenchmark(size.malloc, malloc_hit, size.bytes)
        ->Unit(benchmark::kNanosecond);
  }
  benchmark::RegisterBenchmark(kFragmentation, mixed_workload)->Unit(benchmark::kMillisecond);
}

}  // namespace hxrt_bench

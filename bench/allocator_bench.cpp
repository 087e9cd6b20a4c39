#include "allocator_bench.hpp"

#include <benchmark/benchmark.h>

#include <cstdlib>

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
}

}  // namespace hxrt_bench

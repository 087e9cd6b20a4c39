// The BFC allocator under long random sequences, under threads, and under a mixed workload
// whose waste is measured.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <functional>
#include <mutex>
#include <queue>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "fake_device_memory.hpp"
#include "memory/bfc_allocator.hpp"

using hxrt::StatusCode;
using hxrt::detail::BfcAllocator;
using hxrt::detail::BfcOptions;
using hxrt_test::FakeDeviceMemory;
using hxrt_test::KiB;
using hxrt_test::MiB;

namespace {

const char* const kStressedDevice = "/job:localhost/replica:0/task:0/device:SIM:0";

// Sizes spread evenly over their powers of two, from `smallest` to `largest` bytes.
size_t log_uniform_size(std::mt19937_64& random, size_t smallest, size_t largest) {
  std::uniform_real_distribution<double> exponent(std::log2(static_cast<double>(smallest)),
                                                  std::log2(static_cast<double>(largest)));
  return static_cast<size_t>(std::exp2(exponent(random)));
}

// A live block: what the allocator handed out (`ptr`, its own address) and the host memory
// behind it (`bytes`, FakeDeviceMemory's kHost buffer at the block's offset).
struct Block {
  void* ptr;
  unsigned char* bytes;
  size_t size;
  unsigned char tag;
};

Block allocate_block(BfcAllocator& allocator, size_t size, unsigned char tag) {
  void* ptr = allocator.allocate(size);
  return {ptr, hxrt_test::host_bytes(allocator, ptr), size, tag};
}

bool holds_tag(const Block& block) {
  return std::all_of(block.bytes, block.bytes + block.size,
                     [&](unsigned char byte) { return byte == block.tag; });
}

// Only the ends and the middle: enough to see an overlap, cheap enough for many steps.
void mark(const Block& block) {
  block.bytes[0] = block.bytes[block.size / 2] = block.bytes[block.size - 1] = block.tag;
}
bool marked(const Block& block) {
  return block.bytes[0] == block.tag && block.bytes[block.size / 2] == block.tag &&
         block.bytes[block.size - 1] == block.tag;
}

}  // namespace

TEST_CASE("a random sequence of requests keeps the bookkeeping consistent and the data intact") {
  FakeDeviceMemory device(FakeDeviceMemory::Backing::kHost);
  BfcOptions options;
  options.first_region_bytes = 1 * MiB;
  options.limit_bytes = 48 * MiB;  // small enough that some requests run out
  BfcAllocator allocator(kStressedDevice, device.raw(), options);
  std::mt19937_64 random(20240611);
  std::vector<Block> live;
  int out_of_memory = 0;
  unsigned char next_tag = 1;

  for (int step = 0; step < 4000; ++step) {
    INFO("step " << step);
    if (live.empty() || random() % 100 < 55) {
      const size_t size = log_uniform_size(random, 1, 4 * MiB);
      try {
        const Block block = allocate_block(allocator, size, next_tag);
        next_tag = static_cast<unsigned char>(next_tag % 251 + 1);
        std::memset(block.bytes, block.tag, block.size);
        live.push_back(block);
      } catch (const hxrt::Error& error) {
        REQUIRE(error.code() == StatusCode::kOutOfMemory);
        ++out_of_memory;
      }
    } else {
      const size_t index = random() % live.size();
      REQUIRE(holds_tag(live[index]));
      allocator.deallocate(live[index].ptr);
      live[index] = live.back();
      live.pop_back();
    }
    if (step % 500 == 499) allocator.release_unused_regions();
    REQUIRE(allocator.check_invariants() == "");
  }
  CHECK(out_of_memory > 0);
  CHECK(allocator.stats().total_allocations > 1500);

  for (const Block& block : live) {
    REQUIRE(holds_tag(block));
    allocator.deallocate(block.ptr);
  }
  CHECK(allocator.stats().bytes_in_use == 0);
  allocator.release_unused_regions();
  CHECK(allocator.stats().bytes_reserved == 0);
  CHECK(device.bytes_outstanding == 0);
  CHECK(device.mismatched_deallocations == 0);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("threads allocating and freeing at once") {
  FakeDeviceMemory device(FakeDeviceMemory::Backing::kHost);
  BfcOptions options;
  options.first_region_bytes = 1 * MiB;
  BfcAllocator allocator(kStressedDevice, device.raw(), options);
  constexpr int kThreads = 4;
  constexpr int kSteps = 20000;
  std::atomic<int> failures{0};
  std::atomic<uint64_t> allocations{0};

  const auto work = [&](int thread_index) {
    std::mt19937_64 random(thread_index);
    const auto tag = static_cast<unsigned char>(thread_index + 1);
    std::vector<Block> live;
    try {
      for (int step = 0; step < kSteps; ++step) {
        if (live.empty() || (live.size() < 64 && random() % 2 == 0)) {
          const size_t size = 1 + random() % (64 * KiB);
          live.push_back(allocate_block(allocator, size, tag));
          mark(live.back());
          ++allocations;
        } else {
          const size_t index = random() % live.size();
          if (!marked(live[index])) ++failures;
          allocator.deallocate(live[index].ptr);
          live[index] = live.back();
          live.pop_back();
        }
      }
      for (const Block& block : live) {
        if (!marked(block)) ++failures;
        allocator.deallocate(block.ptr);
      }
    } catch (const std::exception&) {
      ++failures;
    }
  };
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) threads.emplace_back(work, i);
  for (std::thread& thread : threads) thread.join();

  CHECK(failures == 0);
  CHECK(allocator.check_invariants() == "");
  const auto stats = allocator.stats();
  CHECK(stats.bytes_in_use == 0);
  CHECK(stats.allocation_count == 0);
  CHECK(stats.total_allocations == allocations);
  // Everything merged back into whole regions.
  CHECK(allocator.release_unused_regions() == stats.bytes_reserved);
}

TEST_CASE("threads freeing each other's blocks while statistics are read") {
  // Blocks pass between threads through a shared pile, so that thread caches see their
  // blocks freed elsewhere; one more thread reads statistics, resets the peak and gives
  // regions back meanwhile.
  FakeDeviceMemory device(FakeDeviceMemory::Backing::kHost);
  BfcOptions options;
  options.first_region_bytes = 1 * MiB;
  BfcAllocator allocator(kStressedDevice, device.raw(), options);
  constexpr int kThreads = 3;
  constexpr int kSteps = 20000;
  std::mutex pile_mutex;
  std::vector<Block> pile;
  std::atomic<int> failures{0};
  std::atomic<bool> working{true};

  const auto work = [&](int thread_index) {
    std::mt19937_64 random(100 + thread_index);
    try {
      for (int step = 0; step < kSteps; ++step) {
        std::unique_lock<std::mutex> lock(pile_mutex);
        if (pile.empty() || (pile.size() < 256 && random() % 2 == 0)) {
          lock.unlock();
          const size_t size = 1 + random() % (64 * KiB);
          const auto tag = static_cast<unsigned char>(1 + random() % 250);
          const Block block = allocate_block(allocator, size, tag);
          mark(block);
          lock.lock();
          pile.push_back(block);
        } else {
          const size_t index = random() % pile.size();
          const Block block = pile[index];
          pile[index] = pile.back();
          pile.pop_back();
          lock.unlock();
          if (!marked(block)) ++failures;
          allocator.deallocate(block.ptr);
        }
      }
    } catch (const std::exception&) {
      ++failures;
    }
  };
  std::thread observer([&] {
    while (working) {
      const auto stats = allocator.stats();
      if (stats.bytes_in_use > stats.bytes_reserved) ++failures;
      allocator.reset_peak();
      allocator.release_unused_regions();
      std::this_thread::yield();
    }
  });
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) threads.emplace_back(work, i);
  for (std::thread& thread : threads) thread.join();
  working = false;
  observer.join();

  CHECK(failures == 0);
  CHECK(allocator.check_invariants() == "");
  for (const Block& block : pile) allocator.deallocate(block.ptr);
  const auto stats = allocator.stats();
  CHECK(stats.bytes_in_use == 0);
  CHECK(stats.allocation_count == 0);
  CHECK(allocator.check_invariants() == "");
  // The workers have exited: their caches gave every block back.
  CHECK(allocator.release_unused_regions() == stats.bytes_reserved);
  CHECK(device.mismatched_deallocations == 0);
}

TEST_CASE("a mixed workload reserves at most 1.15 times what it uses at its peak") {
  // The workload of hxrt_bench's AllocatorFragmentation (bench/allocator_bench.cpp), default
  // options: 10,000 requests of 2^x bytes, x uniform in [8, 26] (256 B to 64 MiB), each freed
  // just before the request that comes a uniform 1 to 100 requests after it (mt19937_64,
  // seed 7). The ratio is the most the device had handed out over the peak in use. The fake
  // device hands out bare addresses, so gigabytes cost nothing. Measured: 1.105 (1.06 to 1.11
  // over seeds 7 to 16); TensorFlow-like doubling regions give 1.31 here.
  FakeDeviceMemory device;
  BfcAllocator allocator(kStressedDevice, device.raw());
  std::mt19937_64 random(7);
  std::uniform_int_distribution<int> lifetime(1, 100);
  using Death = std::pair<int, void*>;  // (step, block)
  std::priority_queue<Death, std::vector<Death>, std::greater<Death>> deaths;

  for (int step = 0; step < 10000; ++step) {
    while (!deaths.empty() && deaths.top().first <= step) {
      allocator.deallocate(deaths.top().second);
      deaths.pop();
    }
    void* block = allocator.allocate(log_uniform_size(random, 256, 64 * MiB));
    deaths.emplace(step + lifetime(random), block);
  }
  REQUIRE(allocator.check_invariants() == "");
  const auto stats = allocator.stats();
  const double waste = static_cast<double>(device.peak_bytes_outstanding) /
                       static_cast<double>(stats.peak_bytes_in_use);
  INFO("peak reserved " << device.peak_bytes_outstanding << ", peak in use "
                        << stats.peak_bytes_in_use << ", ratio " << waste);
  CHECK(waste <= 1.15);
}

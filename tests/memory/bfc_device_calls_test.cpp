// The BFC allocator never holds its lock across a device call (DESIGN.md, Memory): a thread
// that waits on the device for a new region, or while it takes an empty one back, holds up no
// other thread that the pools can serve; and the memory limit stays exact all the same, with
// regions on their way to or from the device counted toward it.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdint>
#include <future>
#include <random>
#include <thread>
#include <vector>

#include "fake_device_memory.hpp"
#include "gated_device_memory.hpp"
#include "memory/bfc_allocator.hpp"

using hxrt::detail::BfcAllocator;
using hxrt::detail::BfcOptions;
using hxrt_test::first_region;
using hxrt_test::GatedDeviceMemory;
using hxrt_test::KiB;
using hxrt_test::MiB;
using hxrt_test::uncached;
using Call = GatedDeviceMemory::Call;

namespace {

const char* const kCallsDevice = "/job:localhost/replica:0/task:0/device:SIM:0";
// Far longer than any of these calls takes unhindered, even under a sanitizer.
constexpr std::chrono::milliseconds kPatience{3000};

bool finished(std::future<void>& work, std::chrono::milliseconds timeout) {
  return work.wait_for(timeout) == std::future_status::ready;
}

// The region slot of a block: its address in the allocator's own space, shifted.
uintptr_t slot_of(const void* block) {
  return reinterpret_cast<uintptr_t>(block) >> BfcAllocator::kRegionBits;
}

BfcOptions releasing(BfcOptions options) {
  options.release_unused = true;
  return options;
}

}  // namespace

TEST_CASE("while a thread waits on the device for a new region, another allocates and frees "
          "from the pool") {
  GatedDeviceMemory device;
  // Without thread caches every call takes the lock, which is what is under test.
  BfcAllocator allocator(kCallsDevice, device.raw(), uncached(first_region(1 * MiB)));
  void* resident = allocator.allocate(64 * KiB);  // the first region, mostly free
  device.close(Call::kAllocate);
  void* grown = nullptr;
  auto grower = std::async(std::launch::async, [&] { grown = allocator.allocate(4 * MiB); });
  const bool held = device.held_within(Call::kAllocate, kPatience);
  auto other = std::async(std::launch::async, [&] {
    allocator.deallocate(allocator.allocate(64 * KiB));
    allocator.stats();
  });
  const bool served = finished(other, kPatience);
  device.open();
  grower.get();
  other.get();
  CHECK(held);
  CHECK(served);
  CHECK(allocator.locate(grown).buffer != allocator.locate(resident).buffer);
  allocator.deallocate(grown);
  allocator.deallocate(resident);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("while a thread gives an empty region back to the device, another allocates and "
          "frees from the pool") {
  GatedDeviceMemory device;
  BfcAllocator allocator(kCallsDevice, device.raw(), releasing(first_region(1 * MiB)));
  void* resident = allocator.allocate(64 * KiB);  // keeps the first region
  void* large = allocator.allocate(16 * MiB);     // a region of its own
  // The device's deallocate stands for the stream synchronisation before it, too.
  device.close(Call::kDeallocate);
  auto releaser = std::async(std::launch::async, [&] { allocator.deallocate(large); });
  const bool held = device.held_within(Call::kDeallocate, kPatience);
  auto other = std::async(std::launch::async, [&] {
    allocator.deallocate(allocator.allocate(64 * KiB));
    allocator.stats();
  });
  const bool served = finished(other, kPatience);
  device.open();
  releaser.get();
  other.get();
  CHECK(held);
  CHECK(served);
  CHECK(device.bytes_outstanding() == 1 * MiB);
  CHECK(device.mismatched_deallocations() == 0);
  allocator.deallocate(resident);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("a released region's slot carries no new region until the device has its buffer "
          "back") {
  GatedDeviceMemory device;
  BfcAllocator allocator(kCallsDevice, device.raw(), releasing(first_region(1 * MiB)));
  void* resident = allocator.allocate(64 * KiB);
  void* large = allocator.allocate(16 * MiB);
  device.close(Call::kDeallocate);
  auto releaser = std::async(std::launch::async, [&] { allocator.deallocate(large); });
  const bool held = device.held_within(Call::kDeallocate, kPatience);
  void* grown = nullptr;
  auto grower = std::async(std::launch::async, [&] { grown = allocator.allocate(16 * MiB); });
  const bool served = finished(grower, kPatience);
  device.open();
  releaser.get();
  grower.get();
  CHECK(held);
  CHECK(served);
  // The old slot still named the buffer on its way back while the new region was made.
  CHECK(slot_of(grown) != slot_of(large));
  CHECK(slot_of(grown) != slot_of(resident));
  allocator.deallocate(grown);
  allocator.deallocate(resident);
  CHECK(device.bytes_outstanding() == 0);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("a request the limit refuses only for a region on its way back to the device waits "
          "for it instead of running out of memory") {
  GatedDeviceMemory device;
  BfcOptions options = releasing(first_region(1 * MiB));
  options.limit_bytes = 20 * MiB;
  BfcAllocator allocator(kCallsDevice, device.raw(), options);
  void* resident = allocator.allocate(64 * KiB);
  void* large = allocator.allocate(16 * MiB);  // 17 MiB of 20 held
  device.close(Call::kDeallocate);
  auto releaser = std::async(std::launch::async, [&] { allocator.deallocate(large); });
  const bool held = device.held_within(Call::kDeallocate, kPatience);
  void* again = nullptr;
  auto asker = std::async(std::launch::async, [&] { again = allocator.allocate(16 * MiB); });
  // It has long enough to give up, if it were to.
  const bool waited = !finished(asker, std::chrono::milliseconds(200));
  device.open();
  releaser.get();
  CHECK_NOTHROW(asker.get());
  CHECK(held);
  CHECK(waited);
  CHECK(again != nullptr);
  CHECK(device.peak_bytes_outstanding() <= 20 * MiB);
  allocator.deallocate(again);
  allocator.deallocate(resident);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("a region on its way from the device counts toward the limit: a second thread "
          "growing meanwhile runs out of memory instead of passing it") {
  GatedDeviceMemory device;
  BfcOptions options = uncached(first_region(1 * MiB));
  options.limit_bytes = 20 * MiB;
  BfcAllocator allocator(kCallsDevice, device.raw(), options);
  void* resident = allocator.allocate(64 * KiB);
  device.close(Call::kAllocate);
  void* first = nullptr;
  auto grower = std::async(std::launch::async, [&] { first = allocator.allocate(16 * MiB); });
  const bool held = device.held_within(Call::kAllocate, kPatience);
  auto second = std::async(std::launch::async, [&] { allocator.allocate(16 * MiB); });
  // The second waits for the first's region, then finds the limit reached.
  const bool waited = !finished(second, std::chrono::milliseconds(200));
  device.open();
  grower.get();
  CHECK(held);
  CHECK(waited);
  CHECK_THROWS_WITH(second.get(), Catch::Contains("Out of memory") &&
                                      Catch::Contains("would pass the memory limit"));
  CHECK(device.peak_bytes_outstanding() == 17 * MiB);
  allocator.deallocate(first);
  allocator.deallocate(resident);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("threads growing and giving back at once never take more than the limit from the "
          "device") {
  const bool release_unused = GENERATE(false, true);
  constexpr size_t kLimit = 48 * MiB;
  GatedDeviceMemory device;
  device.pause_each_call(std::chrono::microseconds(20));  // device calls overlap more
  BfcOptions options = first_region(1 * MiB);
  options.limit_bytes = kLimit;
  options.release_unused = release_unused;
  BfcAllocator allocator(kCallsDevice, device.raw(), options);
  std::vector<std::thread> threads;
  for (unsigned seed = 1; seed <= 4; ++seed) {
    threads.emplace_back([&allocator, seed] {
      std::mt19937_64 random(seed);
      std::vector<void*> held;
      for (int step = 0; step < 600; ++step) {
        // 1 KiB to 16 MiB, log-uniform: thread-cached, growth and fitted requests.
        const size_t bytes = size_t{1} << std::uniform_int_distribution<int>(10, 24)(random);
        try {
          held.push_back(allocator.allocate(bytes));
        } catch (const hxrt::Error&) {
          // Out of memory under the limit: what the limit is for.
        }
        if (held.size() > 3 || (step % 7 == 0 && !held.empty())) {
          allocator.deallocate(held.front());
          held.erase(held.begin());
        }
        if (step % 97 == 0) allocator.release_unused_regions();
      }
      for (void* block : held) allocator.deallocate(block);
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(device.peak_bytes_outstanding() <= kLimit);
  CHECK(device.mismatched_deallocations() == 0);
  CHECK(allocator.stats().bytes_in_use == 0);
  allocator.release_unused_regions();
  CHECK(device.bytes_outstanding() == 0);
  CHECK(allocator.check_invariants() == "");
}

// The BFC allocator's region policy (memory/region_policy.hpp), one rule per test: how growth
// regions are sized, fitted regions for large requests, close fits, giving back empty regions
// before growing, and what a request may take when growth is refused.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "fake_device_memory.hpp"
#include "memory/bfc_allocator.hpp"

using hxrt::detail::BfcAllocator;
using hxrt::detail::BfcOptions;
using hxrt_test::FakeDeviceMemory;
using hxrt_test::first_region;
using hxrt_test::KiB;
using hxrt_test::MiB;

namespace {

const char* const kRegionsDevice = "/job:localhost/replica:0/task:0/device:SIM:0";

bool within(const void* ptr, const void* base, size_t bytes) {
  const auto address = reinterpret_cast<uintptr_t>(ptr);
  const auto start = reinterpret_cast<uintptr_t>(base);
  return address >= start && address < start + bytes;
}

}  // namespace

TEST_CASE("growth regions: the first as asked, then a quarter of what growth holds, at least "
          "the request") {
  FakeDeviceMemory device;
  BfcAllocator allocator(kRegionsDevice, device.raw(), first_region(4 * MiB));
  for (int i = 0; i < 6; ++i) allocator.allocate(4 * MiB);  // each fills a region
  CHECK(device.region_sizes == std::vector<size_t>(6, 4 * MiB));
  allocator.allocate(1 * MiB);  // 24 MiB held: a region of 6 MiB
  CHECK(device.region_sizes.back() == 6 * MiB);
  allocator.allocate(7 * MiB);  // 30 MiB held: 6 MiB would do, but the request needs 7
  CHECK(device.region_sizes.back() == 7 * MiB);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("growth regions stop at max_growth_region_bytes, the first may be larger") {
  FakeDeviceMemory device;
  BfcOptions options = first_region(64 * MiB);
  options.max_growth_region_bytes = 16 * MiB;
  BfcAllocator allocator(kRegionsDevice, device.raw(), options);
  allocator.allocate(1 * MiB);
  for (int i = 0; i < 9; ++i) allocator.allocate(7 * MiB);  // fills the first region
  allocator.allocate(1 * MiB);
  CHECK(device.region_sizes == std::vector<size_t>{64 * MiB, 16 * MiB});
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("a large request gets a region of its own size, rounded up to 2 MiB, which small "
          "requests leave alone") {
  FakeDeviceMemory device;
  BfcAllocator allocator(kRegionsDevice, device.raw());  // growth regions of 2 MiB at first
  allocator.allocate(2 * MiB - 1 * KiB);          // fills the first growth region but 1 KiB
  // Cut from the top of its region, as every request is: the rest stays free below it.
  const char* fitted = static_cast<char*>(allocator.allocate(9 * MiB)) - 1 * MiB;
  CHECK(device.region_sizes == std::vector<size_t>{2 * MiB, 10 * MiB});
  // 1 MiB is free in the fitted region, but small requests grow their own.
  void* small = allocator.allocate(512 * KiB);
  CHECK(device.region_sizes.size() == 3);
  CHECK_FALSE(within(small, fitted, 10 * MiB));
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("a freed fitted region is taken again by a large request of about its size") {
  FakeDeviceMemory device;
  BfcAllocator allocator(kRegionsDevice, device.raw());
  void* first = allocator.allocate(40 * MiB);
  allocator.deallocate(first);
  void* again = allocator.allocate(36 * MiB);  // 40 MiB is less than a quarter more
  CHECK(within(again, first, 40 * MiB));
  CHECK(device.allocate_calls == 1);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("a large request does not cut a much larger free chunk while it can grow") {
  FakeDeviceMemory device;
  BfcAllocator allocator(kRegionsDevice, device.raw());
  // Enough in use that keeping a free 40 MiB region is no burden (see the next test).
  for (int i = 0; i < 6; ++i) allocator.allocate(64 * MiB);
  void* wide = allocator.allocate(40 * MiB);
  allocator.deallocate(wide);
  void* narrow = allocator.allocate(9 * MiB);
  CHECK_FALSE(within(narrow, wide, 40 * MiB));
  CHECK(device.region_sizes.back() == 10 * MiB);
  CHECK(device.deallocate_calls == 0);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("before growing, empty regions are given back while free memory passes 1/8 of what "
          "is in use") {
  FakeDeviceMemory device;
  BfcAllocator allocator(kRegionsDevice, device.raw());
  allocator.deallocate(allocator.allocate(40 * MiB));
  allocator.deallocate(allocator.allocate(20 * MiB));
  allocator.allocate(9 * MiB);  // 60 MiB free for 9 in use: both regions go, largest first
  CHECK(device.deallocate_calls == 2);
  CHECK(device.region_sizes == std::vector<size_t>{40 * MiB, 20 * MiB, 10 * MiB});
  CHECK(allocator.stats().bytes_reserved == 10 * MiB);
  CHECK(device.mismatched_deallocations == 0);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("when growth is refused, a small request takes free memory of a fitted region") {
  FakeDeviceMemory device;
  BfcOptions options;
  options.limit_bytes = 12 * MiB;
  BfcAllocator allocator(kRegionsDevice, device.raw(), options);
  // A fitted region of 10 MiB, its top taken, then a growth region up to the limit.
  const char* fitted = static_cast<char*>(allocator.allocate(8 * MiB + 256)) - (2 * MiB - 256);
  allocator.allocate(2 * MiB);
  void* small = allocator.allocate(1 * MiB);
  CHECK(within(small, fitted, 10 * MiB));
  CHECK(device.region_sizes == std::vector<size_t>{10 * MiB, 2 * MiB});
  CHECK(allocator.check_invariants() == "");
}

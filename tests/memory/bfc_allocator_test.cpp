// The BFC allocator's policy, one rule per test: best fit, split, merge, alignment, release,
// limits and statistics. Tests of what happens to freed blocks turn the thread caches off
// (`uncached`): a small block freed on its thread stays in that thread's cache
// (bfc_thread_cache_test.cpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <set>
#include <vector>

#include "error_from.hpp"
#include "fake_device_memory.hpp"
#include "memory/bfc_allocator.hpp"

using hxrt::StatusCode;
using hxrt::detail::BfcAllocator;
using hxrt::detail::BfcOptions;
using hxrt_test::error_from;
using hxrt_test::FakeDeviceMemory;
using hxrt_test::first_region;
using hxrt_test::KiB;
using hxrt_test::MiB;
using hxrt_test::uncached;

namespace {

const char* const kDevice = "/job:localhost/replica:0/task:0/device:SIM:0";

char* as_bytes(void* ptr) { return static_cast<char*>(ptr); }

}  // namespace

TEST_CASE("nothing is taken from the device before the first request") {
  FakeDeviceMemory device;
  BfcAllocator allocator(kDevice, device.raw());
  CHECK(device.allocate_calls == 0);
  CHECK(allocator.stats().bytes_reserved == 0);
  CHECK(allocator.stats().largest_free_block == 0);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("a small request is cut from a free chunk and the rest stays free") {
  FakeDeviceMemory device;
  BfcAllocator allocator(kDevice, device.raw(), first_region(1 * MiB));
  void* first = allocator.allocate(1 * KiB);
  void* second = allocator.allocate(1 * KiB);
  CHECK(device.allocate_calls == 1);
  CHECK(as_bytes(first) == as_bytes(second) + 1 * KiB);  // cut from the top, one after another
  const auto stats = allocator.stats();
  CHECK(stats.bytes_in_use == 2 * KiB);
  CHECK(stats.bytes_reserved == 1 * MiB);
  CHECK(stats.largest_free_block == 1 * MiB - 2 * KiB);
  CHECK(stats.fragmentation == 0);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("the smallest free chunk that fits is chosen") {
  FakeDeviceMemory device;
  BfcAllocator allocator(kDevice, device.raw(), uncached(first_region(4 * MiB)));
  // Free chunks of the sizes below, each kept apart from the next by a live 256-byte block.
  const size_t sizes[] = {40 * KiB, 4 * KiB,  16 * KiB, 8 * KiB,
                          35 * KiB, 36 * KiB, 8 * KiB,  35 * KiB + 512};
  std::vector<void*> holes;
  for (size_t size : sizes) {
    holes.push_back(allocator.allocate(size));
    allocator.allocate(256);
  }
  for (void* hole : holes) allocator.deallocate(hole);
  REQUIRE(allocator.check_invariants() == "");
  // Which hole a block was cut from.
  const auto hole_of = [&](void* block) {
    for (size_t i = 0; i < holes.size(); ++i) {
      const char* start = as_bytes(holes[i]);
      if (as_bytes(block) >= start && as_bytes(block) < start + sizes[i]) return static_cast<int>(i);
    }
    return -1;
  };

  SECTION("sizes with a bin of their own") {
    CHECK(hole_of(allocator.allocate(3 * KiB)) == 1);
    CHECK(hole_of(allocator.allocate(6 * KiB)) == 6);  // 8 KiB: the lower of the two
    CHECK(hole_of(allocator.allocate(8 * KiB)) == 3);
    CHECK(hole_of(allocator.allocate(10 * KiB)) == 2);
  }
  SECTION("sizes that share a bin") {
    // 35, 35.5 and 36 KiB share a bin: the smallest that fits, wherever it is in the bin.
    CHECK(hole_of(allocator.allocate(35 * KiB + 256)) == 7);
    CHECK(hole_of(allocator.allocate(35 * KiB + 768)) == 5);
    // From the bin below, the smallest chunk of the next non-empty bin.
    CHECK(hole_of(allocator.allocate(34 * KiB)) == 4);
    CHECK(hole_of(allocator.allocate(38 * KiB)) == 0);
  }
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("freeing neighbours merges them into one free chunk") {
  FakeDeviceMemory device;
  BfcAllocator allocator(kDevice, device.raw(), uncached(first_region(1 * MiB)));
  void* a = allocator.allocate(4 * KiB);
  void* b = allocator.allocate(8 * KiB);
  void* c = allocator.allocate(12 * KiB);
  void* d = allocator.allocate(1 * MiB - 24 * KiB);  // fills the region
  CHECK(allocator.stats().largest_free_block == 0);

  allocator.deallocate(a);
  allocator.deallocate(c);
  CHECK(allocator.check_invariants() == "");
  CHECK(allocator.stats().largest_free_block == 12 * KiB);
  CHECK(allocator.stats().fragmentation == Approx(1.0 - 12.0 / 16.0));

  allocator.deallocate(b);  // merges with both neighbours
  CHECK(allocator.check_invariants() == "");
  CHECK(allocator.stats().largest_free_block == 24 * KiB);
  CHECK(allocator.stats().fragmentation == 0);
  void* merged = allocator.allocate(24 * KiB);
  CHECK(merged == c);  // the lowest of the three: blocks are cut from the top down

  allocator.deallocate(merged);
  allocator.deallocate(d);
  CHECK(allocator.check_invariants() == "");
  CHECK(allocator.stats().largest_free_block == 1 * MiB);
  CHECK(allocator.release_unused_regions() == 1 * MiB);  // the region is whole again
}

TEST_CASE("every block lies at an offset aligned to 256 bytes and is distinct, for any size") {
  FakeDeviceMemory device(FakeDeviceMemory::Backing::kHost);
  BfcAllocator allocator(kDevice, device.raw(), first_region(64 * KiB));
  std::set<void*> seen;
  size_t expected_in_use = 0;
  for (size_t size : {size_t{1}, size_t{3}, size_t{255}, size_t{256}, size_t{257}, size_t{1000},
                      size_t{4097}, size_t{12345}, size_t{100001}, 1 * MiB + 1}) {
    void* ptr = allocator.allocate(size);
    CHECK(allocator.locate(ptr).offset % 256 == 0);
    CHECK(reinterpret_cast<uintptr_t>(hxrt_test::host_bytes(allocator, ptr)) % 256 == 0);
    CHECK(seen.insert(ptr).second);
    expected_in_use += (size + 255) / 256 * 256;
  }
  CHECK(allocator.stats().bytes_in_use == expected_in_use);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("a request of zero bytes gets its own 256-byte block") {
  FakeDeviceMemory device;
  BfcAllocator allocator(kDevice, device.raw());
  void* first = allocator.allocate(0);
  void* second = allocator.allocate(0);
  CHECK(first != nullptr);
  CHECK(first != second);
  CHECK(allocator.stats().bytes_in_use == 512);
  allocator.deallocate(first);
  allocator.deallocate(second);
  CHECK(allocator.stats().allocation_count == 0);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("release_unused_regions gives back exactly the empty regions") {
  FakeDeviceMemory device;
  BfcAllocator allocator(kDevice, device.raw(), first_region(1 * MiB));
  void* in_first = allocator.allocate(512 * KiB);
  void* in_second = allocator.allocate(1 * MiB);
  void* in_third = allocator.allocate(3 * MiB);
  REQUIRE(device.region_sizes == std::vector<size_t>{1 * MiB, 1 * MiB, 3 * MiB});
  CHECK(allocator.release_unused_regions() == 0);

  allocator.deallocate(in_first);
  allocator.deallocate(in_third);
  CHECK(allocator.stats().bytes_reserved == 5 * MiB);  // cached until asked
  CHECK(allocator.release_unused_regions() == 4 * MiB);
  CHECK(allocator.stats().bytes_reserved == 1 * MiB);
  CHECK(device.bytes_outstanding == 1 * MiB);
  CHECK(device.deallocate_calls == 2);
  CHECK(allocator.check_invariants() == "");

  allocator.deallocate(in_second);
  CHECK(allocator.release_unused_regions() == 1 * MiB);
  CHECK(device.bytes_outstanding == 0);
  CHECK(device.mismatched_deallocations == 0);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("with release_unused, a region goes back as soon as it is empty") {
  FakeDeviceMemory device;
  BfcOptions options = first_region(1 * MiB);
  options.release_unused = true;
  BfcAllocator allocator(kDevice, device.raw(), options);
  void* a = allocator.allocate(256 * KiB);
  void* b = allocator.allocate(256 * KiB);
  void* big = allocator.allocate(2 * MiB);  // a second region
  allocator.deallocate(a);
  CHECK(device.deallocate_calls == 0);  // b still lives in the first region
  allocator.deallocate(big);
  CHECK(device.deallocate_calls == 1);
  CHECK(allocator.stats().bytes_reserved == 1 * MiB);
  allocator.deallocate(b);
  CHECK(device.deallocate_calls == 2);
  CHECK(allocator.stats().bytes_reserved == 0);
  CHECK(device.mismatched_deallocations == 0);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("at the limit, allocate throws OUT_OF_MEMORY with the figures and keeps what lives") {
  FakeDeviceMemory device(FakeDeviceMemory::Backing::kHost);
  BfcOptions options = first_region(1 * MiB);
  options.limit_bytes = 4 * MiB;
  BfcAllocator allocator(kDevice, device.raw(), options);
  unsigned char* a = hxrt_test::host_bytes(allocator, allocator.allocate(768 * KiB));
  // A second region, of its size.
  unsigned char* b = hxrt_test::host_bytes(allocator, allocator.allocate(1536 * KiB));
  std::memset(a, 0xA1, 768 * KiB);
  std::memset(b, 0xB2, 1536 * KiB);

  const auto error = error_from([&] { allocator.allocate(2 * MiB); });
  REQUIRE(error);
  CHECK(error->code() == StatusCode::kOutOfMemory);
  const std::string message = error->what();
  CHECK_THAT(message, Catch::Contains(kDevice));
  CHECK_THAT(message, Catch::Contains("2097152 bytes (2.00 MiB)"));
  CHECK_THAT(message, Catch::Contains("memory limit"));
  CHECK_THAT(message, Catch::Contains("in use 2.25 MiB, peak 2.25 MiB, reserved 2.50 MiB, "
                                      "limit 4.00 MiB, largest free block 256.00 KiB"));

  CHECK(allocator.check_invariants() == "");
  CHECK(allocator.stats().allocation_count == 2);
  CHECK(std::all_of(a, a + 768 * KiB, [](unsigned char c) { return c == 0xA1; }));
  CHECK(std::all_of(b, b + 1536 * KiB, [](unsigned char c) { return c == 0xB2; }));

  // What still fits is served: from the free rest, then by a last region up to the limit.
  CHECK(allocator.allocate(256 * KiB) != nullptr);
  CHECK(allocator.allocate(1536 * KiB) != nullptr);
  CHECK(allocator.stats().bytes_reserved == 4 * MiB);
  CHECK(error_from([&] { allocator.allocate(256 * KiB); })->code() == StatusCode::kOutOfMemory);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("when growth is blocked, empty regions are given back and growth tried again") {
  FakeDeviceMemory device;
  BfcOptions options = first_region(1 * MiB);
  options.limit_bytes = 4 * MiB;
  BfcAllocator allocator(kDevice, device.raw(), options);
  void* small = allocator.allocate(1 * MiB);
  allocator.allocate(2 * MiB);
  allocator.deallocate(small);  // its region is empty, but too small for what comes

  void* large = allocator.allocate(2 * MiB);
  CHECK(large != nullptr);
  CHECK(device.deallocate_calls == 1);
  CHECK(allocator.stats().bytes_reserved == 4 * MiB);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("a request larger than any memory is refused before any arithmetic") {
  FakeDeviceMemory device;
  BfcAllocator allocator(kDevice, device.raw());
  for (size_t bytes : {SIZE_MAX, SIZE_MAX - 100, SIZE_MAX / 2 + 1, BfcAllocator::kMaxBytes + 1}) {
    const auto error = error_from([&] { allocator.allocate(bytes); });
    REQUIRE(error);
    CHECK(error->code() == StatusCode::kOutOfMemory);
    CHECK_THAT(error->what(), Catch::Contains(std::to_string(bytes) + " bytes"));
  }
  CHECK(device.allocate_calls == 0);
}

TEST_CASE("the largest request accepted gets a region within PTRDIFF_MAX, not rounded past it") {
  constexpr size_t kLargest = BfcAllocator::kMaxBytes;  // 2^63 - 256
  FakeDeviceMemory device;  // bare addresses: nothing of the 2^63 bytes is touched
  BfcAllocator allocator(kDevice, device.raw());
  // Rounded up to a 2 MiB granule, its fitted region would be 2^63 bytes, whose end is past
  // any pointer offset C++ defines.
  void* block = allocator.allocate(kLargest - 1);
  CHECK(block != nullptr);
  CHECK(device.region_sizes == std::vector<size_t>{kLargest});
  CHECK(allocator.stats().bytes_in_use == kLargest);
  CHECK(allocator.check_invariants() == "");
  allocator.deallocate(block);
}

TEST_CASE("the largest request accepted on a small device is out of memory, from the device") {
  FakeDeviceMemory device;
  device.capacity = 1024 * MiB;
  BfcAllocator allocator(kDevice, device.raw());
  const auto error = error_from([&] { allocator.allocate(BfcAllocator::kMaxBytes); });
  REQUIRE(error);
  CHECK(error->code() == StatusCode::kOutOfMemory);
  CHECK_THAT(error->what(), Catch::Contains("fake device has 1073741824 bytes free"));
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("freeing a pointer that is not live is an INVALID_ARGUMENT error") {
  FakeDeviceMemory device;
  BfcAllocator allocator(kDevice, device.raw());
  void* ptr = allocator.allocate(1 * KiB);
  allocator.deallocate(ptr);
  const auto twice = error_from([&] { allocator.deallocate(ptr); });
  REQUIRE(twice);
  CHECK(twice->code() == StatusCode::kInvalidArgument);
  CHECK_THAT(twice->what(), Catch::Contains(kDevice));
  int elsewhere = 0;
  CHECK(error_from([&] { allocator.deallocate(&elsewhere); })->code() ==
        StatusCode::kInvalidArgument);
  allocator.deallocate(nullptr);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("statistics count allocations and keep the peak") {
  FakeDeviceMemory device;
  BfcAllocator allocator(kDevice, device.raw(), first_region(1 * MiB));
  void* a = allocator.allocate(100 * KiB);
  void* b = allocator.allocate(200 * KiB);
  allocator.deallocate(a);
  allocator.allocate(10 * KiB);
  const auto stats = allocator.stats();
  CHECK(stats.bytes_in_use == 210 * KiB);
  CHECK(stats.peak_bytes_in_use == 300 * KiB);
  CHECK(stats.allocation_count == 2);
  CHECK(stats.total_allocations == 3);
  CHECK(stats.bytes_limit == SIZE_MAX);
  CHECK(stats.largest_free_block == 1 * MiB - 300 * KiB);
  // Free: 90 KiB before b and the tail after it.
  CHECK(stats.fragmentation == Approx(1.0 - 724.0 / 814.0));
  allocator.deallocate(b);
}

TEST_CASE("reset_peak starts the peak again from what is in use") {
  FakeDeviceMemory device;
  BfcAllocator allocator(kDevice, device.raw(), first_region(1 * MiB));
  void* a = allocator.allocate(300 * KiB);
  allocator.deallocate(allocator.allocate(200 * KiB));
  CHECK(allocator.stats().peak_bytes_in_use == 500 * KiB);
  allocator.reset_peak();
  CHECK(allocator.stats().peak_bytes_in_use == 300 * KiB);
  allocator.deallocate(allocator.allocate(100 * KiB));
  CHECK(allocator.stats().peak_bytes_in_use == 400 * KiB);
  allocator.deallocate(a);
  allocator.reset_peak();
  CHECK(allocator.stats().peak_bytes_in_use == 0);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("destruction gives every region back, live allocations included") {
  FakeDeviceMemory device;
  {
    BfcAllocator allocator(kDevice, device.raw(), first_region(1 * MiB));
    allocator.allocate(1 * MiB);
    allocator.allocate(1 * MiB);
    allocator.deallocate(allocator.allocate(3 * MiB));
  }
  CHECK(device.allocate_calls == 3);
  CHECK(device.deallocate_calls == 3);
  CHECK(device.bytes_outstanding == 0);
  CHECK(device.mismatched_deallocations == 0);
}

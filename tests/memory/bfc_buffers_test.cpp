// The BFC allocator on ABI 2.0 memory: regions are opaque buffer handles that it never looks
// into, blocks are (buffer, byte offset) pairs, region sizes follow the device's alignment,
// and no region passes the device's largest single allocation (max_region_bytes).
#include <catch2/catch.hpp>

#include <cstdint>
#include <set>
#include <vector>

#include "error_from.hpp"
#include "fake_device_memory.hpp"
#include "memory/bfc_allocator.hpp"

using hxrt::StatusCode;
using hxrt::detail::BfcAllocator;
using hxrt::detail::BfcOptions;
using hxrt::detail::BufferLocation;
using hxrt::detail::RawMemory;
using hxrt_test::error_from;
using hxrt_test::FakeDeviceMemory;
using hxrt_test::first_region;
using hxrt_test::KiB;
using hxrt_test::MiB;
using hxrt_test::uncached;

namespace {

const char* const kBuffersDevice = "/job:localhost/replica:0/task:0/device:SIM:3";

// A device whose buffer handles are ids 1, 2, 3, ...: odd, tiny, and no address at all, as
// an OpenCL or NPU plugin's handles may be. Dereferencing one, or doing arithmetic on it,
// would crash or be caught by AddressSanitizer.
struct IdDevice {
  uintptr_t next_id = 1;
  std::vector<std::pair<void*, size_t>> given_back;
  RawMemory raw() {
    return {[this](size_t) { return reinterpret_cast<void*>(next_id++); },
            [this](void* buffer, size_t bytes) { given_back.emplace_back(buffer, bytes); }};
  }
};

void* id(uintptr_t value) { return reinterpret_cast<void*>(value); }

BfcOptions preallocating(size_t limit_bytes, size_t max_region_bytes) {
  BfcOptions options;
  options.limit_bytes = limit_bytes;
  options.max_region_bytes = max_region_bytes;
  options.preallocate = true;
  return options;
}

}  // namespace

TEST_CASE("buffer handles are opaque: ids serve as regions, and blocks are located by buffer "
          "and offset") {
  IdDevice device;
  {
    BfcAllocator allocator(kBuffersDevice, device.raw(), uncached(first_region(1 * MiB)));
    void* first = allocator.allocate(1 * KiB);
    void* second = allocator.allocate(1 * KiB);
    void* large = allocator.allocate(4 * MiB);  // a region of its own: the second id
    const BufferLocation at_first = allocator.locate(first);
    const BufferLocation at_second = allocator.locate(second);
    CHECK(at_first.buffer == id(1));
    CHECK(at_second.buffer == id(1));
    // Cut from the top of the region, one below the other.
    CHECK(at_first.offset == 1 * MiB - 1 * KiB);
    CHECK(at_second.offset == 1 * MiB - 2 * KiB);
    CHECK(allocator.locate(large).buffer == id(2));
    CHECK(allocator.locate(large).offset == 0);
    allocator.deallocate(first);
    allocator.deallocate(second);
    allocator.deallocate(large);
    CHECK(allocator.release_unused_regions() == 5 * MiB);
    CHECK(allocator.check_invariants() == "");
  }
  // Each handle goes back once, with the size it was allocated with.
  CHECK(device.given_back.size() == 2);
  CHECK(std::set<std::pair<void*, size_t>>(device.given_back.begin(), device.given_back.end()) ==
        std::set<std::pair<void*, size_t>>{{id(1), 1 * MiB}, {id(2), 4 * MiB}});
}

TEST_CASE("a region slot given back is reused with its new buffer") {
  IdDevice device;
  BfcAllocator allocator(kBuffersDevice, device.raw(), uncached(first_region(1 * MiB)));
  allocator.deallocate(allocator.allocate(1 * KiB));
  CHECK(allocator.release_unused_regions() == 1 * MiB);
  void* again = allocator.allocate(1 * KiB);
  CHECK(allocator.locate(again).buffer == id(2));
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("every region's size is a multiple of the region alignment") {
  FakeDeviceMemory device;
  BfcOptions options = first_region(1 * MiB + 256);
  options.region_alignment = 4096;
  BfcAllocator allocator(kBuffersDevice, device.raw(), options);
  allocator.allocate(8 * KiB);
  allocator.allocate(3 * MiB + 4096);  // a fitted region
  REQUIRE(device.region_sizes.size() == 2);
  for (size_t bytes : device.region_sizes) CHECK(bytes % 4096 == 0);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("preallocation larger than the device's largest allocation takes several regions") {
  FakeDeviceMemory device;
  BfcAllocator allocator(kBuffersDevice, device.raw(), preallocating(10 * MiB, 4 * MiB));
  CHECK(device.region_sizes == std::vector<size_t>{4 * MiB, 4 * MiB, 2 * MiB});
  CHECK(allocator.stats().bytes_reserved == 10 * MiB);
  // Each region serves what fits in it; together they hold the whole budget.
  std::vector<void*> blocks;
  for (int i = 0; i < 5; ++i) blocks.push_back(allocator.allocate(2 * MiB));
  CHECK(allocator.stats().bytes_in_use == 10 * MiB);
  CHECK(device.allocate_calls == 3);
  for (void* block : blocks) allocator.deallocate(block);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("a request larger than the largest allocation is out of memory naming max_allocation, "
          "smaller ones still succeed") {
  FakeDeviceMemory device;
  BfcOptions options;
  options.max_region_bytes = 4 * MiB;
  BfcAllocator allocator(kBuffersDevice, device.raw(), options);
  void* kept = allocator.allocate(1 * MiB);
  const auto error = error_from([&] { allocator.allocate(4 * MiB + 1); });
  REQUIRE(error);
  CHECK(error->code() == StatusCode::kOutOfMemory);
  CHECK_THAT(error->what(), Catch::Contains(kBuffersDevice));
  CHECK_THAT(error->what(), Catch::Contains("4194305 bytes"));
  CHECK_THAT(error->what(), Catch::Contains("largest single allocation is 4.00 MiB "
                                            "(max_allocation)"));
  CHECK(allocator.locate(kept).offset < 2 * MiB);
  // Exactly the largest allocation fits, in a region of that size and no larger.
  CHECK(allocator.allocate(4 * MiB) != nullptr);
  CHECK(device.region_sizes.back() == 4 * MiB);
  for (size_t bytes : device.region_sizes) CHECK(bytes <= 4 * MiB);
  CHECK(allocator.stats().allocation_count == 2);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("under preallocation too, a request past the largest allocation names "
          "max_allocation, not the limit") {
  FakeDeviceMemory device;
  BfcAllocator allocator(kBuffersDevice, device.raw(), preallocating(10 * MiB, 4 * MiB));
  const auto error = error_from([&] { allocator.allocate(5 * MiB); });
  REQUIRE(error);
  CHECK(error->code() == StatusCode::kOutOfMemory);
  CHECK_THAT(error->what(), Catch::Contains("(max_allocation)"));
  CHECK(allocator.allocate(4 * MiB) != nullptr);
}

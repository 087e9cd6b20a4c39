// The BFC allocator with `preallocate`: the whole limit taken as one region at construction,
// served from without growing, and never given back.
#include <catch2/catch.hpp>

#include <vector>

#include "error_from.hpp"
#include "fake_device_memory.hpp"
#include "memory/bfc_allocator.hpp"

using hxrt::StatusCode;
using hxrt::detail::BfcAllocator;
using hxrt::detail::BfcOptions;
using hxrt_test::error_from;
using hxrt_test::FakeDeviceMemory;
using hxrt_test::MiB;

namespace {

const char* const kPreallocatedDevice = "/job:localhost/replica:0/task:0/device:SIM:2";

BfcOptions preallocating(size_t limit_bytes) {
  BfcOptions options;
  options.limit_bytes = limit_bytes;
  options.preallocate = true;
  return options;
}

}  // namespace

TEST_CASE("preallocate takes the limit as one region at construction") {
  FakeDeviceMemory device;
  BfcAllocator allocator(kPreallocatedDevice, device.raw(), preallocating(64 * MiB + 100));
  // Rounded down to the alignment: the limit is never passed.
  CHECK(device.region_sizes == std::vector<size_t>{64 * MiB});
  CHECK(allocator.stats().bytes_reserved == 64 * MiB);
  CHECK(allocator.stats().largest_free_block == 64 * MiB);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("a preallocated allocator serves every size from its budget and never grows") {
  FakeDeviceMemory device;
  BfcAllocator allocator(kPreallocatedDevice, device.raw(), preallocating(64 * MiB));
  void* large = allocator.allocate(40 * MiB);  // large requests too: no fitted region
  void* small = allocator.allocate(1 * MiB);
  CHECK(device.allocate_calls == 1);
  const auto error = error_from([&] { allocator.allocate(24 * MiB); });
  REQUIRE(error);
  CHECK(error->code() == StatusCode::kOutOfMemory);
  CHECK(device.allocate_calls == 1);
  allocator.deallocate(large);
  CHECK(allocator.allocate(40 * MiB) != nullptr);
  allocator.deallocate(small);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("the preallocated region is never given back") {
  FakeDeviceMemory device;
  BfcOptions options = preallocating(16 * MiB);
  options.release_unused = true;
  BfcAllocator allocator(kPreallocatedDevice, device.raw(), options);
  allocator.deallocate(allocator.allocate(1 * MiB));
  CHECK(allocator.release_unused_regions() == 0);
  CHECK(device.deallocate_calls == 0);
  CHECK(allocator.stats().bytes_reserved == 16 * MiB);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("preallocating more than the device has fails at construction, naming the device "
          "and the size") {
  FakeDeviceMemory device;
  device.capacity = 1024 * MiB;
  const auto error = error_from([&] {
    BfcAllocator allocator(kPreallocatedDevice, device.raw(), preallocating(4096 * MiB));
  });
  REQUIRE(error);
  CHECK(error->code() == StatusCode::kOutOfMemory);
  CHECK_THAT(error->what(), Catch::Contains("preallocating 4.00 GiB on " +
                                            std::string(kPreallocatedDevice) + " failed"));
  CHECK_THAT(error->what(), Catch::Contains("fake device has 1073741824 bytes free"));
  CHECK(device.bytes_outstanding == 0);
}

TEST_CASE("a device error part-way through a preallocation in several regions reaches the "
          "caller, and the regions taken go back") {
  FakeDeviceMemory device;
  device.fail_call = 3;  // the third of four regions
  BfcOptions options = preallocating(64 * MiB);
  options.max_region_bytes = 16 * MiB;
  const auto error =
      error_from([&] { BfcAllocator allocator(kPreallocatedDevice, device.raw(), options); });
  REQUIRE(error);
  CHECK(error->code() == StatusCode::kInternal);
  CHECK_THAT(error->what(), Catch::Contains("fake device lost"));
  CHECK(device.allocate_calls == 2);
  CHECK(device.bytes_outstanding == 0);
  CHECK(device.mismatched_deallocations == 0);
}

TEST_CASE("preallocate needs a limit") {
  FakeDeviceMemory device;
  const auto error = error_from(
      [&] { BfcAllocator allocator(kPreallocatedDevice, device.raw(), preallocating(SIZE_MAX)); });
  REQUIRE(error);
  CHECK(error->code() == StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(), Catch::Contains(kPreallocatedDevice));
  CHECK(device.allocate_calls == 0);
}

// The BFC allocator when the device fails it: out of memory, other errors, bad memory.
// The error must reach the caller, and nothing may leak or be left half done.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "error_from.hpp"
#include "fake_device_memory.hpp"
#include "memory/bfc_allocator.hpp"

using hxrt::StatusCode;
using hxrt::detail::BfcAllocator;
using hxrt::detail::BfcOptions;
using hxrt::detail::RawMemory;
using hxrt_test::error_from;
using hxrt_test::FakeDeviceMemory;
using hxrt_test::first_region;
using hxrt_test::KiB;
using hxrt_test::MiB;

namespace {

const char* const kFailingDevice = "/job:localhost/replica:0/task:0/device:SIM:1";

}  // namespace

TEST_CASE("an error of the device mid-way reaches the caller and nothing leaks") {
  FakeDeviceMemory device;
  device.fail_call = 3;
  {
    BfcAllocator allocator(kFailingDevice, device.raw(), first_region(1 * MiB));
    std::vector<void*> live = {allocator.allocate(1 * MiB), allocator.allocate(2 * MiB)};
    const auto before = allocator.stats();

    const auto error = error_from([&] { allocator.allocate(4 * MiB); });
    REQUIRE(error);
    CHECK(error->code() == StatusCode::kInternal);
    CHECK(std::string(error->what()) == "fake device lost");
    CHECK(allocator.check_invariants() == "");
    const auto after = allocator.stats();
    CHECK(after.bytes_in_use == before.bytes_in_use);
    CHECK(after.bytes_reserved == before.bytes_reserved);
    CHECK(after.allocation_count == 2);

    live.push_back(allocator.allocate(4 * MiB));  // the device works again
    CHECK(allocator.check_invariants() == "");
    allocator.deallocate(live[0]);
  }
  CHECK(device.allocate_calls == 3);
  CHECK(device.deallocate_calls == 3);
  CHECK(device.bytes_outstanding == 0);
  CHECK(device.mismatched_deallocations == 0);
}

TEST_CASE("when the device cannot give a doubled region, a region of the request's size is "
          "tried") {
  FakeDeviceMemory device;
  device.capacity = 2 * MiB + 512 * KiB;
  BfcAllocator allocator(kFailingDevice, device.raw(), first_region(1 * MiB));
  allocator.allocate(1 * MiB);
  allocator.allocate(1 * MiB);  // 2 MiB would not fit on the device; 1 MiB does
  CHECK(device.region_sizes == std::vector<size_t>{1 * MiB, 1 * MiB});

  const auto error = error_from([&] { allocator.allocate(1 * MiB); });
  REQUIRE(error);
  CHECK(error->code() == StatusCode::kOutOfMemory);
  const std::string message = error->what();
  CHECK_THAT(message, Catch::Contains(kFailingDevice));
  CHECK_THAT(message, Catch::Contains("1048576 bytes"));
  // The device's own words are kept.
  CHECK_THAT(message, Catch::Contains("could not supply a region of 1.00 MiB (fake device has "
                                      "524288 bytes free)"));
  CHECK_THAT(message, Catch::Contains("reserved 2.00 MiB, limit none"));
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("a device that runs out is helped by giving back empty regions first") {
  FakeDeviceMemory device;
  device.capacity = 3 * MiB + 512 * KiB;
  BfcAllocator allocator(kFailingDevice, device.raw(), first_region(1 * MiB));
  void* small = allocator.allocate(1 * MiB);
  allocator.allocate(2 * MiB);
  allocator.deallocate(small);
  CHECK(allocator.allocate(1 * MiB + 512 * KiB) != nullptr);
  CHECK(device.deallocate_calls == 1);
  CHECK(device.region_sizes.back() == 1 * MiB + 512 * KiB);
  CHECK(allocator.stats().bytes_reserved == 3 * MiB + 512 * KiB);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("a device that returns null is out of memory") {
  int calls = 0;
  RawMemory raw{[&](size_t) -> void* {
                  ++calls;
                  return nullptr;
                },
                [](void*, size_t) {}};
  BfcAllocator allocator(kFailingDevice, raw);
  const auto error = error_from([&] { allocator.allocate(100); });
  REQUIRE(error);
  CHECK(error->code() == StatusCode::kOutOfMemory);
  CHECK_THAT(error->what(), Catch::Contains("the device returned no buffer"));
  CHECK(calls == 2);  // the doubled size, then the request's
  CHECK(allocator.check_invariants() == "");
}

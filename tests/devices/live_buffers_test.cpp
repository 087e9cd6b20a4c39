// The record of the buffers a plugin has handed out and not taken back (devices/live_buffers):
// the same handle twice is refused on every device, and on a device whose handles are host
// addresses, so is a buffer that shares a byte with a live one.
#include <catch2/catch.hpp>

#include <cstdint>

#include "devices/live_buffers.hpp"

using hxrt::detail::LiveBuffers;

namespace {

const void* at(uintptr_t address) { return reinterpret_cast<const void*>(address); }

}  // namespace

TEST_CASE("Opaque handles: only the same live handle is refused", "[devices][memory]") {
  LiveBuffers live(/*addresses=*/false);
  CHECK(live.add(at(1), 4096).empty());
  // Handles 2 and 3 are other buffers, whatever their sizes say of addresses.
  CHECK(live.add(at(2), 4096).empty());
  CHECK(live.add(at(3), 1).empty());
  CHECK(live.add(at(2), 64) == "buffer 0x2 is already live (4096 bytes, not yet deallocated)");
  live.remove(at(2));
  CHECK(live.add(at(2), 64).empty());  // given back, it may come again
}

TEST_CASE("Host addresses: a buffer sharing a byte with a live one is refused",
          "[devices][memory]") {
  LiveBuffers live(/*addresses=*/true);
  REQUIRE(live.add(at(0x10000), 0x1000).empty());
  CHECK_THAT(live.add(at(0x10000), 16), Catch::Contains("already live"));
  CHECK(live.add(at(0x10fff), 16) ==
        "buffer 0x10fff of 16 bytes overlaps the live buffer 0x10000 of 4096 bytes");
  CHECK(live.add(at(0xff00), 0x101) ==
        "buffer 0xff00 of 257 bytes overlaps the live buffer 0x10000 of 4096 bytes");
  // Touching is not sharing.
  CHECK(live.add(at(0xff00), 0x100).empty());
  CHECK(live.add(at(0x11000), 0x100).empty());
  // An address near the top of the range is compared without overflow.
  CHECK(live.add(at(UINTPTR_MAX - 15), 16).empty());
  CHECK_THAT(live.add(at(UINTPTR_MAX - 31), 32), Catch::Contains("overlaps"));
}

// The size classes of the BFC allocator's free lists.
#include <catch2/catch.hpp>

#include <cstdint>

#include "memory/size_bins.hpp"

using hxrt::detail::SizeBins;

namespace {

constexpr size_t kUnit = SizeBins::kUnitBytes;

}  // namespace

TEST_CASE("sizes up to 8 KiB have a bin each, above, a bin spans less than 1/16 of its sizes") {
  for (size_t units = 1; units <= 32; ++units) {
    CHECK(SizeBins::bin_of(units * kUnit) == static_cast<int>(units - 1));
    CHECK(SizeBins::is_exact(SizeBins::bin_of(units * kUnit)));
  }
  CHECK_FALSE(SizeBins::is_exact(SizeBins::bin_of(33 * kUnit)));
  // Bins grow with size and never skip: each next size is in the same bin or the next.
  int previous = SizeBins::bin_of(kUnit);
  size_t first_of_bin = kUnit;
  for (size_t bytes = 2 * kUnit; bytes <= (size_t{1} << 24); bytes += kUnit) {
    const int bin = SizeBins::bin_of(bytes);
    REQUIRE((bin == previous || bin == previous + 1));
    if (bin != previous) first_of_bin = bytes;
    REQUIRE(bytes - first_of_bin < first_of_bin / 16 + kUnit);
    previous = bin;
  }
  CHECK(SizeBins::bin_of(SIZE_MAX & ~(kUnit - 1)) == SizeBins::kBinCount - 1);
}

TEST_CASE("a power of two is the top of its bin") {
  for (int shift = 14; shift < 40; ++shift) {
    const size_t round = size_t{1} << shift;
    CHECK(SizeBins::bin_of(round - kUnit) == SizeBins::bin_of(round));
    CHECK(SizeBins::bin_of(round + kUnit) == SizeBins::bin_of(round) + 1);
  }
}

TEST_CASE("the first non-empty bin at or above a bin is found across levels") {
  SizeBins bins;
  CHECK(bins.first_nonempty_from(0) == -1);
  CHECK(bins.last_nonempty() == -1);
  bins.set_head(5, 11);
  bins.set_head(300, 12);
  bins.set_head(SizeBins::kBinCount - 1, 13);
  CHECK(bins.first_nonempty_from(0) == 5);
  CHECK(bins.first_nonempty_from(5) == 5);
  CHECK(bins.first_nonempty_from(6) == 300);
  CHECK(bins.first_nonempty_from(301) == SizeBins::kBinCount - 1);
  CHECK(bins.first_nonempty_from(SizeBins::kBinCount) == -1);
  CHECK(bins.last_nonempty() == SizeBins::kBinCount - 1);
  CHECK(bins.head(300) == 12);

  bins.set_head(SizeBins::kBinCount - 1, SizeBins::kNone);
  CHECK(bins.first_nonempty_from(301) == -1);
  CHECK(bins.last_nonempty() == 300);
  CHECK_FALSE(bins.occupancy_bit(SizeBins::kBinCount - 1));
  CHECK(bins.occupancy_bit(300));
}

// The size classes of the BFC allocator's free chunks, in the two-level layout of TLSF: sizes
// are counted in 256-byte units; up to 32 units (8 KiB) every size has its own bin, above that
// each power of two is cut into 16 bins, so a bin's sizes differ by less than 1/16. One bit
// per bin says whether it holds a chunk, so the first non-empty bin at or above a size is two
// bit scans away, whatever the number of chunks. A bin holds the sizes in (low, high]: a round
// size (a power of two: a whole region, many tensors) is the top of its bin, so cutting a
// little from such a chunk, or merging it back, leaves it in its bin and its list untouched.
// The bins hold only the head of each list; the lists run through the allocator's records.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace hxrt::detail {

class SizeBins {
 public:
  static constexpr size_t kUnitBytes = 256;
  static constexpr int kSubBinBits = 4;
  static constexpr int kSubBins = 1 << kSubBinBits;
  // Units fit in 56 bits (64 - log2(256)); the top power of two, 2^55, sits on level 52.
  static constexpr int kLevels = 56 - kSubBinBits + 1;
  static constexpr int kBinCount = kLevels * kSubBins;
  static constexpr int32_t kNone = -1;

  SizeBins() { heads_.fill(kNone); }

  // The bin of a chunk of `bytes` (a non-zero multiple of kUnitBytes).
  static int bin_of(size_t bytes) {
    const size_t units_above_one = bytes / kUnitBytes - 1;  // makes the bins (low, high]
    if (units_above_one < kSubBins) return static_cast<int>(units_above_one);
    const int top_bit = 63 - __builtin_clzll(units_above_one);
    const int level = top_bit - kSubBinBits + 1;
    const int sub_bin = static_cast<int>(units_above_one >> (top_bit - kSubBinBits)) - kSubBins;
    return level * kSubBins + sub_bin;
  }

  // Whether every chunk of bin `bin` has the same size.
  static bool is_exact(int bin) { return bin < 2 * kSubBins; }

  int32_t head(int bin) const { return heads_[bin]; }

  // Keeps the occupancy bits in step with the lists.
  void set_head(int bin, int32_t chunk) {
    heads_[bin] = chunk;
    const unsigned level = static_cast<unsigned>(bin) / kSubBins;
    const uint32_t bit = 1u << (static_cast<unsigned>(bin) % kSubBins);
    if (chunk != kNone) {
      sub_masks_[level] |= bit;
      level_mask_ |= uint64_t{1} << level;
    } else if ((sub_masks_[level] &= ~bit) == 0) {
      level_mask_ &= ~(uint64_t{1} << level);
    }
  }

  // The first non-empty bin at or above `bin`, or -1 when there is none.
  int first_nonempty_from(int bin) const {
    if (bin >= kBinCount) return -1;
    unsigned level = static_cast<unsigned>(bin) / kSubBins;
    const uint32_t here = sub_masks_[level] & (~0u << (static_cast<unsigned>(bin) % kSubBins));
    if (here != 0) return static_cast<int>(level * kSubBins) + __builtin_ctz(here);
    if (level + 1 >= kLevels) return -1;
    const uint64_t above = level_mask_ & (~uint64_t{0} << (level + 1));
    if (above == 0) return -1;
    level = static_cast<unsigned>(__builtin_ctzll(above));
    return static_cast<int>(level * kSubBins) + __builtin_ctz(sub_masks_[level]);
  }

  // The highest non-empty bin, or -1 when all are empty.
  int last_nonempty() const {
    if (level_mask_ == 0) return -1;
    const int level = 63 - __builtin_clzll(level_mask_);
    return level * kSubBins + 31 - __builtin_clz(sub_masks_[level]);
  }

  bool occupancy_bit(int bin) const {
    return (sub_masks_[bin / kSubBins] >> (bin % kSubBins)) & 1u;
  }

 private:
  std::array<int32_t, kBinCount> heads_;
  std::array<uint32_t, kLevels> sub_masks_{};
  uint64_t level_mask_ = 0;
};

}  // namespace hxrt::detail

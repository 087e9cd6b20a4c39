#include "memory/chunk_table.hpp"

#include <algorithm>

namespace hxrt::detail {

void ChunkTable::add_records(size_t count) {
  const size_t old_size = records_.size();
  records_.resize(old_size + std::max({count, old_size, size_t{64}}));
  // Pushed from the top down, so that the lowest records are handed out first.
  for (size_t record = records_.size(); record-- > old_size;) {
    recycle(static_cast<int32_t>(record));
  }
}

size_t ChunkTable::largest_free_block() const {
  size_t largest = 0;
  for (int pool = 0; pool < kPools; ++pool) {
    const SizeBins& bins = bins_of(pool);
    const int bin = bins.last_nonempty();
    if (bin < 0) continue;
    for (int32_t chunk = bins.head(bin); chunk != kNone; chunk = records_[chunk].bin_next) {
      largest = std::max(largest, records_[chunk].size);  // ascending: the last is the largest
    }
  }
  return largest;
}

std::string ChunkTable::check(size_t free_chunks, size_t linked) const {
  size_t listed = 0;
  for (int pool = 0; pool < kPools; ++pool) {
    std::string fault = check_bins(pool, listed);
    if (!fault.empty()) return "pool " + std::to_string(pool) + ", " + fault;
  }
  if (listed != free_chunks) {
    return "the bins list " + std::to_string(listed) + " chunks, the regions have " +
           std::to_string(free_chunks) + " free";
  }
  size_t unused = 0;
  for (int32_t record = unused_; record != kNone; record = records_[record].bin_next) {
    if (++unused > records_.size() || records_[record].bin != Chunk::kUnusedRecord) {
      return "the list of unused records is broken";
    }
  }
  if (unused != spare_) return "the count of unused records is wrong";
  if (linked + unused != records_.size()) return "chunk records leak";
  return "";
}

std::string ChunkTable::check_bins(int pool, size_t& listed) const {
  const SizeBins& bins = bins_of(pool);
  int first_nonempty = -1;
  int last_nonempty = -1;
  for (int bin = SizeBins::kBinCount - 1; bin >= 0; --bin) {
    const int32_t head = bins.head(bin);
    const std::string here = "bin " + std::to_string(bin);
    if ((head != kNone) != bins.occupancy_bit(bin)) return here + ": occupancy bit is wrong";
    if (head != kNone) {
      first_nonempty = bin;
      if (last_nonempty < 0) last_nonempty = bin;
    }
    if (bins.first_nonempty_from(bin) != first_nonempty) return here + ": bitmaps are wrong";
    int32_t prev = kNone;
    for (int32_t chunk = head; chunk != kNone; chunk = records_[chunk].bin_next) {
      if (++listed > records_.size()) return here + ": cyclic list";
      const Chunk& c = records_[chunk];
      if (c.bin != bin || c.pool != pool) {
        return here + " lists chunk " + std::to_string(chunk) + " of bin " + std::to_string(c.bin);
      }
      if (c.bin_prev != prev) return here + ": bin_prev link broken";
      if (prev != kNone && !goes_before(records_[prev], c)) return here + ": out of order";
      prev = chunk;
    }
  }
  if (bins.last_nonempty() != last_nonempty) return "the highest non-empty bin is wrong";
  return "";
}

}  // namespace hxrt::detail

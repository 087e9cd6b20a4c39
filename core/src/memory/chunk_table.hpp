// The BFC allocator's chunks: one record per piece of a region, kept in a vector and linked by
// index, by address within the region and, while free, by size in the bins. A request is cut
// from the top of the smallest free chunk that fits, and a freed chunk merges with its free
// neighbours, always into the lower record. Free chunks are binned by pool, one set of bins
// each: a chunk belongs to the pool of its region, so a request searches only the regions of
// its pool (memory/region_policy.hpp says which requests use which). No operation here
// touches the heap except reserve(), so the allocator's locked paths allocate nothing. The
// hot operations are defined here, in the header, so that they inline into those paths.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "memory/size_bins.hpp"

namespace hxrt::detail {

struct Chunk {
  static constexpr int32_t kNone = SizeBins::kNone;
  static constexpr int32_t kInUse = -2;         // `bin` of a live chunk
  static constexpr int32_t kUnusedRecord = -3;  // `bin` of a record that is no chunk now
  // `bin` of a live chunk that a thread cache holds (memory/thread_cache.hpp); bin_prev and
  // bin_next then say which cache and which of its cells.
  static constexpr int32_t kInCache = -4;

  char* ptr = nullptr;
  size_t size = 0;
  int32_t prev = kNone;  // neighbours in address order, within one region
  int32_t next = kNone;
  int32_t bin_prev = kNone;  // neighbours in the bin's list, while free
  int32_t bin_next = kNone;  // also links the unused records
  int32_t bin = kUnusedRecord;
  uint8_t pool = 0;

  bool is_free() const { return bin >= 0; }
  bool is_live() const { return bin == kInUse || bin == kInCache; }
};

class ChunkTable {
 public:
  static constexpr int32_t kNone = Chunk::kNone;
  static constexpr int kPools = 2;

  const Chunk& operator[](int32_t chunk) const { return records_[chunk]; }
  size_t record_count() const { return records_.size(); }

  // Makes sure that `count` records can be had without touching the heap. Throws
  // std::bad_alloc, changing nothing, when the host is out of memory.
  void reserve(size_t count) {
    if (spare_ < count) add_records(count);
  }

  // A new free chunk that covers a whole region of pool `pool`.
  int32_t add_region(char* base, size_t size, int pool) {
    const int32_t chunk = new_record();
    records_[chunk].ptr = base;
    records_[chunk].size = size;
    records_[chunk].pool = static_cast<uint8_t>(pool);
    insert_free(chunk);
    return chunk;
  }

  // Forgets the free chunk that covers a whole region.
  void remove_region(int32_t chunk) {
    remove_free(chunk);
    recycle(chunk);
  }

  // A live chunk passes to a thread cache's cell, and back.
  void mark_cached(int32_t chunk, int32_t cache, int32_t cell) {
    Chunk& c = records_[chunk];
    c.bin = Chunk::kInCache;
    c.bin_prev = cache;
    c.bin_next = cell;
  }
  void mark_in_use(int32_t chunk) {
    Chunk& c = records_[chunk];
    c.bin = Chunk::kInUse;
    c.bin_prev = c.bin_next = kNone;
  }

  // The smallest free chunk of pool `pool` of at least `bytes` (the lowest address among
  // equals), or kNone.
  int32_t best_fit(size_t bytes, int pool) const {
    const SizeBins& bins = bins_of(pool);
    const int bin = SizeBins::bin_of(bytes);
    int32_t chunk = bins.head(bin);
    if (SizeBins::is_exact(bin)) {
      if (chunk != kNone) return chunk;
    } else {
      // The list is in ascending size, so the first chunk that fits fits best.
      for (; chunk != kNone; chunk = records_[chunk].bin_next) {
        if (records_[chunk].size >= bytes) return chunk;
      }
    }
    // Every chunk of a higher bin fits; the head of the first one is the smallest.
    const int larger = bins.first_nonempty_from(bin + 1);
    return larger < 0 ? kNone : bins.head(larger);
  }

  // Marks `bytes` of the free chunk `chunk` in use and returns the chunk in use. Anything
  // left over stays free below it, in its record. Needs one reserved record.
  int32_t take(int32_t chunk, size_t bytes) {
    if (records_[chunk].size == bytes) {
      remove_free(chunk);
    } else {
      const int32_t rest = chunk;
      chunk = new_record();
      Chunk& free_part = records_[rest];
      Chunk& taken = records_[chunk];
      free_part.size -= bytes;
      taken.ptr = free_part.ptr + free_part.size;
      taken.size = bytes;
      taken.pool = free_part.pool;
      taken.prev = rest;
      taken.next = free_part.next;
      if (free_part.next != kNone) records_[free_part.next].prev = chunk;
      free_part.next = chunk;
      reposition_free(rest);
    }
    records_[chunk].bin = Chunk::kInUse;
    return chunk;
  }

  // Frees the chunk in use `chunk`, merging it with its free neighbours; returns the free
  // chunk that now holds its memory.
  int32_t release(int32_t chunk) {
    const int32_t next = records_[chunk].next;
    if (next != kNone && records_[next].is_free()) {
      remove_free(next);
      absorb(chunk, next);
    }
    const int32_t prev = records_[chunk].prev;
    if (prev != kNone && records_[prev].is_free()) {
      // The free neighbour below grows in place, usually without leaving its bin.
      absorb(prev, chunk);
      reposition_free(prev);
      return prev;
    }
    insert_free(chunk);
    return chunk;
  }

  // Over both pools.
  size_t largest_free_block() const;

  // For the allocator's check_invariants: "" when the bins and the unused records agree with
  // the regions, which hold `free_chunks` free chunks and `linked` records in all.
  std::string check(size_t free_chunks, size_t linked) const;

 private:
  // The order of a bin's list: by size, then by address, so that equal sizes are taken from
  // the bottom of memory up, which keeps the top free for large requests.
  static bool goes_before(const Chunk& a, const Chunk& b) {
    return a.size < b.size || (a.size == b.size && std::less<const char*>()(a.ptr, b.ptr));
  }

  int32_t new_record() {
    const int32_t record = unused_;
    unused_ = records_[record].bin_next;
    --spare_;
    return record;
  }

  void recycle(int32_t chunk) {
    records_[chunk] = Chunk{};
    records_[chunk].bin_next = unused_;
    unused_ = chunk;
    ++spare_;
  }

  void add_records(size_t count);
  std::string check_bins(int pool, size_t& listed) const;

  void insert_free(int32_t chunk) {
    Chunk& inserted = records_[chunk];
    SizeBins& bins = bins_of(inserted.pool);
    const int bin = SizeBins::bin_of(inserted.size);
    inserted.bin = bin;
    int32_t before = kNone;
    int32_t after = bins.head(bin);
    while (after != kNone && goes_before(records_[after], inserted)) {
      before = after;
      after = records_[after].bin_next;
    }
    inserted.bin_prev = before;
    inserted.bin_next = after;
    if (after != kNone) records_[after].bin_prev = chunk;
    if (before != kNone) {
      records_[before].bin_next = chunk;
    } else {
      bins.set_head(bin, chunk);
    }
  }

  void remove_free(int32_t chunk) {
    const Chunk& removed = records_[chunk];
    if (removed.bin_prev != kNone) {
      records_[removed.bin_prev].bin_next = removed.bin_next;
    } else {
      bins_of(removed.pool).set_head(removed.bin, removed.bin_next);
    }
    if (removed.bin_next != kNone) records_[removed.bin_next].bin_prev = removed.bin_prev;
  }

  // Puts a free chunk whose size changed back where its bin and order want it.
  void reposition_free(int32_t chunk) {
    const Chunk& moved = records_[chunk];
    if (SizeBins::bin_of(moved.size) == moved.bin &&
        (moved.bin_prev == kNone || goes_before(records_[moved.bin_prev], moved)) &&
        (moved.bin_next == kNone || goes_before(moved, records_[moved.bin_next]))) {
      return;
    }
    remove_free(chunk);
    insert_free(chunk);
  }

  // The lower chunk takes in the upper one, its neighbour; the upper record is recycled.
  void absorb(int32_t lower, int32_t upper) {
    Chunk& low = records_[lower];
    const Chunk& up = records_[upper];
    low.size += up.size;
    low.next = up.next;
    if (up.next != kNone) records_[up.next].prev = lower;
    recycle(upper);
  }

  std::vector<Chunk> records_;
  int32_t unused_ = kNone;  // a list through Chunk::bin_next
  size_t spare_ = 0;        // its length
  // Chosen without a multiply by the size of a SizeBins: the hot paths look them up often.
  SizeBins& bins_of(int pool) { return pool == 0 ? pool0_bins_ : pool1_bins_; }
  const SizeBins& bins_of(int pool) const { return pool == 0 ? pool0_bins_ : pool1_bins_; }

  SizeBins pool0_bins_;
  SizeBins pool1_bins_;
};

}  // namespace hxrt::detail

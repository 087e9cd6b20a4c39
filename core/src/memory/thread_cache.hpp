// One thread's cache of small blocks for one BFC allocator: the allocator's hit path without
// its lock. glibc's malloc is fast on small sizes because its per-thread cache takes no
// atomic instruction; the allocator's lock costs one per call, a third of its hit time.
//
// The cache owns up to kCells blocks of at most kMaxBlockBytes, each in a cell: a block is
// free in the cache (on its size class's list, ready for the next request of that size) or
// out (handed to the user by the cache, or by the allocator while the cache took note of it,
// so that freeing it on this thread needs no lock either). To the allocator every owned
// block stays live: its chunk is marked as the cache's (Chunk::kInCache) and the allocator
// gives it back to its bins only when the cache lets it go.
//
// Who touches what:
// - the owning thread alone, without a lock: the lists, the address table, the floor and
//   the epoch it last saw (the hit path reads and writes these);
// - the owning thread, with the allocator's lock held: which block a cell holds (ptr, size,
//   chunk), which other threads read with the lock held;
// - atomics that the owning thread writes and others read under the allocator's lock, to
//   count what the cache holds (relaxed: an exact figure needs the user's own ordering);
// - each cell's state, written by the owning thread and, to mark a block freed by another
//   thread (out -> gone), by that thread with the allocator's lock held.
// The allocator's side (locking, statistics, the floor's meaning) is in bfc_thread_caches.cpp.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "memory/size_bins.hpp"

namespace hxrt::detail {

class BfcAllocator;

class ThreadCache {
 public:
  static constexpr size_t kUnitBytes = SizeBins::kUnitBytes;
  // Rounded sizes up to this are cached: one size class per 256 bytes.
  static constexpr size_t kMaxBlockBytes = size_t{64} << 10;
  static constexpr int kClasses = static_cast<int>(kMaxBlockBytes / kUnitBytes);
  static constexpr int kCells = 128;
  static constexpr int kMaxFreePerClass = 8;
  // What one thread may hold back from the other threads, in free blocks.
  static constexpr size_t kMaxFreeBytes = size_t{1} << 20;
  static constexpr int16_t kNoCell = -1;

  enum State : uint8_t { kUnused, kFree, kOut, kGone };

  explicit ThreadCache(BfcAllocator* owner);
  ThreadCache(const ThreadCache&) = delete;
  ThreadCache& operator=(const ThreadCache&) = delete;

  static bool cacheable(size_t rounded) { return rounded <= kMaxBlockBytes; }

  // The hit path, owning thread only. A free block of `rounded` bytes (a multiple of
  // kUnitBytes, at most kMaxBlockBytes), or null when there is none, when the allocator's
  // epoch moved since the cache last synchronised with it, or when handing it out would take
  // the cached bytes below the floor (then the allocator must see the request: it may make
  // a new peak).
  void* try_allocate(size_t rounded, uint64_t epoch) {
    const int cls = class_of(rounded);
    const int16_t cell = free_head_[cls];
    const size_t cached = free_bytes_.load(std::memory_order_relaxed);
    if (cell == kNoCell || epoch != sync.epoch || cached < sync.floor + rounded) return nullptr;
    pop(cls, cell);
    hits_.store(hits_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    return cells_[cell].ptr;
  }

  // The hit path of a free, owning thread only: whether `ptr` was a block out of this cache
  // and is now free in it. False leaves everything as it was, for the allocator to decide:
  // `ptr` is not the cache's, or not out (freed twice, or by another thread), or the cache
  // is full, or out of step with the allocator's epoch.
  bool try_free(const void* ptr, uint64_t epoch) {
    const int16_t cell = find(ptr);
    if (cell == kNoCell || epoch != sync.epoch || !has_room_for(cell)) return false;
    if (cells_[cell].state.load(std::memory_order_relaxed) != kOut) return false;
    push(cell);
    return true;
  }

  // --- Below: the owning thread with the allocator's lock held, unless said otherwise. ---

  struct Cell {
    char* ptr = nullptr;
    size_t size = 0;
    int32_t chunk = -1;
    std::atomic<uint8_t> state{kUnused};
    int16_t next = kNoCell;  // on its class's free list, or on the unused list
  };

  const Cell& cell(int16_t index) const { return cells_[index]; }
  State state(int16_t index) const {
    return static_cast<State>(cells_[index].state.load(std::memory_order_relaxed));
  }
  int16_t find(const void* ptr) const {
    for (size_t slot = home_of(ptr);; slot = (slot + 1) % kTableSlots) {
      const int16_t cell = table_[slot];
      if (cell == kNoCell || cells_[cell].ptr == ptr) return cell;
    }
  }

  // A cell for a block, or kNoCell when all hold one.
  int16_t take_unused_cell();
  // The cell now holds the block `ptr` of `size` bytes (chunk `chunk`), free or out.
  void assign(int16_t cell, char* ptr, size_t size, int32_t chunk, State state);
  // The cell lets its block go and is unused again.
  void release_cell(int16_t cell);
  // A block out of the cache becomes free in it; `has_room_for` says whether it may.
  bool has_room_for(int16_t cell) const;
  void push(int16_t cell);
  // The free block of `rounded` bytes that try_allocate would hand out, out of the cache,
  // whatever the floor and the epoch; kNoCell when there is none.
  int16_t pop_any(size_t rounded);
  // A cell whose block is out or gone, to reuse when none is unused: each in turn.
  int16_t next_victim();

  // Any thread, with the allocator's lock held: another thread freed an out block.
  void mark_gone(int16_t cell) {
    cells_[cell].state.store(kGone, std::memory_order_relaxed);
    ++gone_;
  }
  size_t gone_count() const { return gone_; }

  // Any thread, with the allocator's lock held: what the cache holds back.
  size_t free_bytes() const { return free_bytes_.load(std::memory_order_relaxed); }
  size_t free_blocks() const { return free_blocks_.load(std::memory_order_relaxed); }
  uint64_t hits() const { return hits_.load(std::memory_order_relaxed); }

  // The allocator's bookkeeping of this cache (bfc_thread_caches.cpp): written by the owning
  // thread with the allocator's lock held; `epoch` and `floor` are read by the hit path,
  // the rest by any thread with the lock held.
  struct Sync {
    uint64_t epoch = 0;     // the allocator's epoch when the cache last synchronised
    size_t floor = 0;       // the hit path keeps free_bytes at least this
    size_t gone_seen = 0;   // gone blocks already reclaimed
    uint64_t flush_generation = 0;
    int32_t slot = -1;      // index in the allocator's list of caches
  };
  Sync sync;

  // The allocator, or null once it is gone; read and written under the registry's mutex
  // (memory/thread_cache_registry.hpp).
  BfcAllocator* owner() const { return owner_; }
  void orphan() { owner_ = nullptr; }

  // For check_invariants, owning thread: "" when the lists, the table and the counters agree
  // with the cells.
  std::string check() const;

 private:
  static constexpr size_t kTableSlots = 2 * kCells;

  static int class_of(size_t rounded) { return static_cast<int>(rounded / kUnitBytes) - 1; }
  static size_t home_of(const void* ptr) {
    // Blocks are 256-byte aligned: drop those bits, then Fibonacci hashing.
    const uint64_t key = reinterpret_cast<uintptr_t>(ptr) >> 8;
    return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> 56) % kTableSlots;
  }

  void pop(int cls, int16_t cell) {
    free_head_[cls] = cells_[cell].next;
    --free_count_[cls];
    cells_[cell].state.store(kOut, std::memory_order_relaxed);
    set(free_bytes_, free_bytes() - cells_[cell].size);
    set(free_blocks_, free_blocks() - 1);
  }
  // Counters written by the owning thread alone need no read-modify-write.
  template <class T>
  static void set(std::atomic<T>& counter, T value) {
    counter.store(value, std::memory_order_relaxed);
  }
  void table_erase(int16_t cell);

  std::array<int16_t, kClasses> free_head_;
  std::array<uint8_t, kClasses> free_count_{};
  std::atomic<size_t> free_bytes_{0};
  std::atomic<size_t> free_blocks_{0};
  std::atomic<uint64_t> hits_{0};
  std::array<int16_t, kTableSlots> table_;  // open addressing by address: the cells in use
  std::array<Cell, kCells> cells_;
  int16_t unused_ = kNoCell;
  int16_t victim_ = 0;
  size_t gone_ = 0;
  BfcAllocator* owner_;
};

}  // namespace hxrt::detail

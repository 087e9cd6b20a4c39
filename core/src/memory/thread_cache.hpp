// One thread's cache of small blocks for one BFC allocator: the allocator's hit path without
// its lock. glibc's malloc is fast on small sizes because its per-thread cache takes no
// atomic instruction; the allocator's lock costs one per call, about a third of its locked
// hit (25 ns for 1 KiB, against 8 ns through this cache and 11 ns for malloc and free).
//
// The cache holds up to kMaxHeld blocks of at most kMaxBlockBytes, each in a cell: a block
// is free in the cache (on its size class's list, ready for the next request of that size)
// or out (handed to the user by the cache, or by the allocator while the cache took note of
// it, so that freeing it on this thread needs no lock either). To the allocator every block
// held stays live: its chunk is marked as the cache's (Chunk::kInCache) and goes back to the
// bins only when the cache lets it go.
//
// The cells are themselves an open-addressing table by address, so that a free finds its
// cell in one probe, usually; a list head holds its first block's address and cell together (blocks
// are 256-byte aligned: the low byte is free), so that an allocation reads no cell before
// returning. Cells never move (chunks name them): a cell let go becomes a tombstone, and the
// allocator empties the cache when there are too many (needs_emptying).
//
// Who touches what:
// - the owning thread alone, without a lock: the lists and the counts of the classes;
// - the owning thread with the allocator's lock held: which block a cell holds (ptr, size,
//   chunk), which other threads read with the lock held;
// - atomics that the owning thread writes and others read under the allocator's lock, to
//   count what the cache holds (relaxed: exact figures need the user's own ordering);
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
  static constexpr int kCells = 256;      // the table's size: a cell index fits in a byte
  static constexpr int kMaxHeld = 128;    // blocks held at once: the table stays half empty
  // Past this many tombstones the allocator empties the table. Its calls add at most two
  // between checks, so held cells and tombstones never fill it: a probe always ends.
  static constexpr int kMaxTombstones = 32;
  static_assert(kMaxHeld + kMaxTombstones + 2 < kCells);
  static constexpr int kMaxFreePerClass = 8;
  // What one thread may hold back from the other threads, in free blocks.
  static constexpr size_t kMaxFreeBytes = size_t{1} << 20;
  static constexpr int kNoCell = -1;

  enum State : uint8_t { kEmpty, kTombstone, kFree, kOut, kGone };

  explicit ThreadCache(BfcAllocator* owner);
  ThreadCache(const ThreadCache&) = delete;
  ThreadCache& operator=(const ThreadCache&) = delete;

  static bool cacheable(size_t rounded) { return rounded <= kMaxBlockBytes; }

  // The hit path, owning thread only. A free block of `rounded` bytes (a multiple of
  // kUnitBytes, at most kMaxBlockBytes), or null when there is none, when the allocator's
  // epoch moved since the cache last synchronised with it, or when handing it out would take
  // the free bytes below the floor (then the allocator must see the request: it may make a
  // new peak).
  void* try_allocate(size_t rounded, uint64_t epoch) {
    const int cls = class_of(rounded);
    const uint64_t head = free_head_[cls];
    const size_t held = free_bytes();
    if (head == 0 || epoch != sync.epoch || held < sync.hit_floor + rounded) return nullptr;
    pop(cls, head);
    hits_.store(hits_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    return address_of(head);
  }

  // The hit path of a free, owning thread only: whether `ptr` was a block out of this cache
  // and is now free in it. False leaves everything as it was, for the allocator to decide:
  // `ptr` is not the cache's, or not out (freed twice, or by another thread), or the cache
  // is full, or out of step with the allocator's epoch.
  bool try_free(const void* ptr, uint64_t epoch) {
    const int cell = find(ptr);
    if (cell == kNoCell || epoch != sync.epoch || state(cell) != kOut) return false;
    if (!has_room_for(cells_[cell].size)) return false;
    push(cell);
    return true;
  }

  // --- Below: the owning thread with the allocator's lock held, unless said otherwise. ---

  struct Cell {
    char* ptr = nullptr;  // null: never used; tombstone(): let go
    uint32_t size = 0;
    int32_t chunk = -1;
    std::atomic<uint8_t> state{kEmpty};
    uint64_t next = 0;  // on its class's free list: the next block and cell, packed
  };

  const Cell& cell(int index) const { return cells_[index]; }
  State state(int index) const {
    return static_cast<State>(cells_[index].state.load(std::memory_order_relaxed));
  }
  int find(const void* ptr) const {
    for (size_t slot = home_of(ptr);; slot = (slot + 1) % kCells) {
      if (cells_[slot].ptr == ptr) return static_cast<int>(slot);
      if (cells_[slot].ptr == nullptr) return kNoCell;
    }
  }

  // Whether one more block may be held, and one more free block of `size` bytes.
  bool can_hold() const { return held_ < kMaxHeld; }
  bool has_room_for(size_t size) const {
    return free_count_[class_of(size)] < kMaxFreePerClass && free_bytes() + size <= kMaxFreeBytes;
  }
  // Holds the block `ptr` (not held yet) of `size` bytes, chunk `chunk`, free or out; returns
  // its cell. Needs can_hold(), and has_room_for(size) for a free one.
  int hold(char* ptr, size_t size, int32_t chunk, State state);
  // A block out of the cache becomes free in it.
  void push(int cell) {
    Cell& c = cells_[cell];
    const int cls = class_of(c.size);
    c.next = free_head_[cls];
    free_head_[cls] = reinterpret_cast<uintptr_t>(c.ptr) | static_cast<uint64_t>(cell);
    ++free_count_[cls];
    c.state.store(kFree, std::memory_order_relaxed);
    set(free_bytes_, free_bytes() + c.size);
    set(free_blocks_, free_blocks() + 1);
  }
  // The free block of `rounded` bytes that try_allocate would hand out, out of the cache
  // whatever the floor and the epoch; kNoCell when there is none.
  int pop_any(size_t rounded);
  // The cache lets go of a block that is out or gone: its cell becomes a tombstone.
  void let_go(int cell);
  // A cell whose block is out or gone, to let go of when the cache holds all it may: each in
  // turn.
  int next_victim();
  // Whether tombstones make the table slow: the allocator should empty it.
  bool needs_emptying() const { return tombstones_ > kMaxTombstones; }
  // Every cell empty again, once the allocator has taken the blocks back.
  void clear();

  // Any thread, with the allocator's lock held: another thread freed an out block.
  void mark_gone(int cell) {
    cells_[cell].state.store(kGone, std::memory_order_relaxed);
    ++gone_;
  }
  size_t gone_count() const { return gone_; }

  // Any thread, with the allocator's lock held: what the cache holds back.
  size_t free_bytes() const { return free_bytes_.load(std::memory_order_relaxed); }
  size_t free_blocks() const { return free_blocks_.load(std::memory_order_relaxed); }
  uint64_t hits() const { return hits_.load(std::memory_order_relaxed); }

  // The allocator's bookkeeping of this cache (bfc_thread_caches.cpp), written with the
  // allocator's lock held: `floor` by any thread, the rest by the owning thread alone, whose
  // hit path reads `epoch` and `hit_floor`.
  struct Sync {
    uint64_t epoch = 0;      // the allocator's epoch when the cache last synchronised
    size_t hit_floor = 0;    // the hit path keeps free_bytes at least this
    size_t floor = 0;        // the allocator's count of it; another thread raises it, and moves
                             // the epoch, to take room back
    size_t gone_seen = 0;    // gone blocks already let go of
    uint64_t flush_generation = 0;
    int32_t slot = -1;       // index in the allocator's list of caches
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
  static char* tombstone() { return reinterpret_cast<char*>(uintptr_t{1}); }

  static int class_of(size_t rounded) { return static_cast<int>(rounded / kUnitBytes) - 1; }
  static void* address_of(uint64_t packed) {
    return reinterpret_cast<void*>(packed & ~uint64_t{kUnitBytes - 1});
  }
  static size_t home_of(const void* ptr) {
    // Blocks are 256-byte aligned: drop those bits, then Fibonacci hashing.
    const uint64_t key = reinterpret_cast<uintptr_t>(ptr) >> 8;
    return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> 56);
  }

  void pop(int cls, uint64_t head) {
    Cell& c = cells_[head & (kUnitBytes - 1)];
    free_head_[cls] = c.next;
    --free_count_[cls];
    c.state.store(kOut, std::memory_order_relaxed);
    set(free_bytes_, free_bytes() - c.size);
    set(free_blocks_, free_blocks() - 1);
  }
  // Counters written by the owning thread alone need no read-modify-write.
  template <class T>
  static void set(std::atomic<T>& counter, T value) {
    counter.store(value, std::memory_order_relaxed);
  }

  std::array<uint64_t, kClasses> free_head_;  // 0: empty
  std::array<uint8_t, kClasses> free_count_;
  std::atomic<size_t> free_bytes_{0};
  std::atomic<size_t> free_blocks_{0};
  std::atomic<uint64_t> hits_{0};
  std::array<Cell, kCells> cells_;
  int held_ = 0;
  int tombstones_ = 0;
  int victim_ = 0;
  size_t gone_ = 0;
  BfcAllocator* owner_;
};

static_assert(ThreadCache::kCells <= static_cast<int>(ThreadCache::kUnitBytes),
              "a cell index is packed into the low byte of a block's address");

}  // namespace hxrt::detail

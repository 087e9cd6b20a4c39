#include "memory/thread_cache.hpp"

namespace hxrt::detail {

ThreadCache::ThreadCache(BfcAllocator* owner) : owner_(owner) { clear(); }

int ThreadCache::hold(char* ptr, size_t size, int32_t chunk, State state) {
  // Not held yet, so the first tombstone on its probe path will do; or the cell of the same
  // address, gone (freed by another thread), not let go of yet.
  size_t slot = home_of(ptr);
  for (;; slot = (slot + 1) % kCells) {
    const char* at = cells_[slot].ptr;
    if (at == nullptr || at == tombstone() || at == ptr) break;
  }
  Cell& c = cells_[slot];
  if (c.ptr == tombstone()) --tombstones_;
  if (c.ptr != ptr) ++held_;
  c.ptr = ptr;
  c.size = static_cast<uint32_t>(size);
  c.chunk = chunk;
  c.state.store(kOut, std::memory_order_relaxed);
  const int cell = static_cast<int>(slot);
  if (state == kFree) push(cell);
  return cell;
}

int ThreadCache::pop_any(size_t rounded) {
  const int cls = class_of(rounded);
  const uint64_t head = free_head_[cls];
  if (head == 0) return kNoCell;
  pop(cls, head);
  return static_cast<int>(head & (kUnitBytes - 1));
}

void ThreadCache::let_go(int cell) {
  Cell& c = cells_[cell];
  c.ptr = tombstone();
  c.size = 0;
  c.chunk = -1;
  c.state.store(kTombstone, std::memory_order_relaxed);
  --held_;
  ++tombstones_;
}

int ThreadCache::next_victim() {
  for (int tried = 0; tried < kCells; ++tried) {
    const int cell = victim_;
    victim_ = (victim_ + 1) % kCells;
    const State s = state(cell);
    if (s == kOut || s == kGone) return cell;
  }
  return kNoCell;
}

void ThreadCache::clear() {
  free_head_.fill(0);
  free_count_.fill(0);
  for (Cell& c : cells_) {
    c.ptr = nullptr;
    c.size = 0;
    c.chunk = -1;
    c.state.store(kEmpty, std::memory_order_relaxed);
    c.next = 0;
  }
  held_ = 0;
  tombstones_ = 0;
  set(free_bytes_, size_t{0});
  set(free_blocks_, size_t{0});
}

std::string ThreadCache::check() const {
  size_t listed = 0, listed_bytes = 0;
  for (int cls = 0; cls < kClasses; ++cls) {
    int count = 0;
    for (uint64_t link = free_head_[cls]; link != 0;) {
      const auto cell = static_cast<int>(link & (kUnitBytes - 1));
      const Cell& c = cells_[cell];
      if (++count > kCells) return "a cyclic free list";
      if (address_of(link) != c.ptr || state(cell) != kFree || class_of(c.size) != cls) {
        return "cell " + std::to_string(cell) + " is listed free in the wrong class, or not free";
      }
      listed_bytes += c.size;
      link = c.next;
    }
    if (count != free_count_[cls]) return "a class's count disagrees with its list";
    listed += static_cast<size_t>(count);
  }
  int held = 0, tombstones = 0;
  size_t free_cells = 0;
  for (int cell = 0; cell < kCells; ++cell) {
    const State s = state(cell);
    const char* ptr = cells_[cell].ptr;
    if (s == kEmpty || s == kTombstone) {
      if (ptr != (s == kEmpty ? nullptr : tombstone())) return "an empty cell holds a block";
      tombstones += s == kTombstone;
      continue;
    }
    ++held;
    if (find(ptr) != cell) return "cell " + std::to_string(cell) + " is not found by address";
    free_cells += s == kFree;
  }
  if (held != held_ || tombstones != tombstones_) return "the counts of cells are wrong";
  if (free_cells != listed) return "free cells and the free lists disagree";
  if (listed_bytes != free_bytes() || listed != free_blocks()) {
    return "the counters disagree with the free lists";
  }
  return "";
}

}  // namespace hxrt::detail

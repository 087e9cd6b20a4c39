#include "memory/thread_cache.hpp"

namespace hxrt::detail {

ThreadCache::ThreadCache(BfcAllocator* owner) : owner_(owner) {
  free_head_.fill(kNoCell);
  table_.fill(kNoCell);
  for (int16_t cell = kCells; cell-- > 0;) {
    cells_[cell].next = unused_;
    unused_ = cell;
  }
}

int16_t ThreadCache::take_unused_cell() {
  const int16_t cell = unused_;
  if (cell != kNoCell) unused_ = cells_[cell].next;
  return cell;
}

void ThreadCache::assign(int16_t cell, char* ptr, size_t size, int32_t chunk, State state) {
  Cell& c = cells_[cell];
  c.ptr = ptr;
  c.size = size;
  c.chunk = chunk;
  c.state.store(kOut, std::memory_order_relaxed);
  size_t slot = home_of(ptr);
  while (table_[slot] != kNoCell) slot = (slot + 1) % kTableSlots;
  table_[slot] = cell;
  if (state == kFree) push(cell);
}

void ThreadCache::release_cell(int16_t cell) {
  table_erase(cell);
  Cell& c = cells_[cell];
  c.ptr = nullptr;
  c.size = 0;
  c.chunk = -1;
  c.state.store(kUnused, std::memory_order_relaxed);
  c.next = unused_;
  unused_ = cell;
}

bool ThreadCache::has_room_for(int16_t cell) const {
  const size_t size = cells_[cell].size;
  return free_count_[class_of(size)] < kMaxFreePerClass && free_bytes() + size <= kMaxFreeBytes;
}

void ThreadCache::push(int16_t cell) {
  Cell& c = cells_[cell];
  const int cls = class_of(c.size);
  c.next = free_head_[cls];
  free_head_[cls] = cell;
  ++free_count_[cls];
  c.state.store(kFree, std::memory_order_relaxed);
  set(free_bytes_, free_bytes() + c.size);
  set(free_blocks_, free_blocks() + 1);
}

int16_t ThreadCache::pop_any(size_t rounded) {
  const int cls = class_of(rounded);
  const int16_t cell = free_head_[cls];
  if (cell != kNoCell) pop(cls, cell);
  return cell;
}

int16_t ThreadCache::next_victim() {
  for (int tried = 0; tried < kCells; ++tried) {
    const int16_t cell = victim_;
    victim_ = static_cast<int16_t>((victim_ + 1) % kCells);
    const State s = state(cell);
    if (s == kOut || s == kGone) return cell;
  }
  return kNoCell;
}

void ThreadCache::table_erase(int16_t cell) {
  size_t hole = home_of(cells_[cell].ptr);
  while (table_[hole] != cell) hole = (hole + 1) % kTableSlots;
  // Backward shift, as in memory/pointer_table.hpp: no tombstones.
  for (size_t next = (hole + 1) % kTableSlots; table_[next] != kNoCell;
       next = (next + 1) % kTableSlots) {
    const size_t home = home_of(cells_[table_[next]].ptr);
    if ((hole - home + kTableSlots) % kTableSlots < (next - home + kTableSlots) % kTableSlots) {
      table_[hole] = table_[next];
      hole = next;
    }
  }
  table_[hole] = kNoCell;
}

std::string ThreadCache::check() const {
  size_t listed = 0, listed_bytes = 0, free_cells = 0, unused = 0;
  for (int cls = 0; cls < kClasses; ++cls) {
    int count = 0;
    for (int16_t cell = free_head_[cls]; cell != kNoCell; cell = cells_[cell].next) {
      if (++count > kCells) return "a cyclic free list";
      if (state(cell) != kFree || class_of(cells_[cell].size) != cls) {
        return "cell " + std::to_string(cell) + " is listed free in the wrong class, or not free";
      }
      listed_bytes += cells_[cell].size;
    }
    if (count != free_count_[cls]) return "a class's count disagrees with its list";
    listed += static_cast<size_t>(count);
  }
  for (int16_t cell = unused_; cell != kNoCell; cell = cells_[cell].next) {
    if (++unused > kCells || state(cell) != kUnused) return "the unused list is broken";
  }
  for (int16_t cell = 0; cell < kCells; ++cell) {
    if (state(cell) == kUnused) {
      --unused;
    } else if (find(cells_[cell].ptr) != cell) {
      return "cell " + std::to_string(cell) + " is not in the address table";
    }
    if (state(cell) == kFree) ++free_cells;
  }
  if (unused != 0) return "unused cells and the unused list disagree";
  if (free_cells != listed) return "free cells and the free lists disagree";
  if (listed_bytes != free_bytes() || listed != free_blocks()) {
    return "the counters disagree with the free lists";
  }
  return "";
}

}  // namespace hxrt::detail

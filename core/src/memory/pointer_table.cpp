#include "memory/pointer_table.hpp"

namespace hxrt::detail {
namespace {

constexpr size_t kInitialCapacity = 1024;

}  // namespace

PointerTable::PointerTable() { rehash(kInitialCapacity); }

void PointerTable::rehash(size_t capacity) {
  std::vector<Slot> old(capacity);  // allocated first: if that throws, the table is unchanged
  old.swap(slots_);
  mask_ = capacity - 1;
  shift_ = 64 - __builtin_ctzll(capacity);
  size_ = 0;
  for (const Slot& slot : old) {
    if (slot.key != 0) insert(reinterpret_cast<const void*>(slot.key), slot.value);
  }
}

}  // namespace hxrt::detail

// Finds the chunk record of a live allocation from its address: an open-addressing hash table
// (linear probing, deletion by backward shift, so no tombstones), sized to the live
// allocations rather than to the reserved memory, as TensorFlow's per-region arrays are.
// A lookup costs a multiply and, at a load of at most one half, one or two probes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace hxrt::detail {

class PointerTable {
 public:
  static constexpr int32_t kAbsent = -1;

  PointerTable();

  // Grows ahead of an insert, so that insert itself never allocates nor throws.
  void reserve_one_more() {
    if ((size_ + 1) * 2 > mask_ + 1) rehash((mask_ + 1) * 2);
  }
  // `address` must not be null nor present.
  void insert(const void* address, int32_t value) noexcept {
    const auto key = reinterpret_cast<uintptr_t>(address);
    size_t slot = home_of(key);
    while (slots_[slot].key != 0) slot = (slot + 1) & mask_;
    slots_[slot] = Slot{key, value};
    ++size_;
  }

  // Removes `address` and returns its value, or kAbsent when it is not there.
  int32_t erase(const void* address) noexcept {
    const auto key = reinterpret_cast<uintptr_t>(address);
    size_t hole = home_of(key);
    while (slots_[hole].key != key) {
      if (slots_[hole].key == 0) return kAbsent;
      hole = (hole + 1) & mask_;
    }
    const int32_t value = slots_[hole].value;
    // Backward shift: pull later entries of the probe run into the hole when the hole lies
    // between their home and where they sit, so every lookup still finds them.
    for (size_t next = (hole + 1) & mask_; slots_[next].key != 0; next = (next + 1) & mask_) {
      const size_t home = home_of(slots_[next].key);
      if (((hole - home) & mask_) < ((next - home) & mask_)) {
        slots_[hole] = slots_[next];
        hole = next;
      }
    }
    slots_[hole] = Slot{};
    --size_;
    return value;
  }

  int32_t find(const void* address) const noexcept {
    const auto key = reinterpret_cast<uintptr_t>(address);
    for (size_t slot = home_of(key);; slot = (slot + 1) & mask_) {
      if (slots_[slot].key == key) return slots_[slot].value;
      if (slots_[slot].key == 0) return kAbsent;
    }
  }

  size_t size() const { return size_; }

 private:
  struct Slot {
    uintptr_t key = 0;  // 0: empty
    int32_t value = kAbsent;
  };

  size_t home_of(uintptr_t key) const {
    // Addresses are multiples of 256: drop those zero bits, then Fibonacci hashing.
    return static_cast<size_t>(((key >> 8) * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  void rehash(size_t capacity);

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  int shift_ = 0;
  size_t size_ = 0;
};

}  // namespace hxrt::detail

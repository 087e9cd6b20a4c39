// A hash table that readers search without a lock while writers insert under one: the eager
// path finds its cached placement decision on every op call, from any number of threads, and
// a mutex there cost each call its lock and unlock (and made threads queue on one cache line).
// Nothing is removed or changed once inserted, so an entry a reader found stays valid for the
// table's life; a grown table's old slot arrays are kept too, for readers still probing them.
//
// Entry needs `size_t hash() const` and `bool matches(const Probe&) const`.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

namespace hxrt::detail {

template <class Entry>
class InsertOnlyTable {
 public:
  InsertOnlyTable() { publish(kInitialCapacity); }
  InsertOnlyTable(const InsertOnlyTable&) = delete;
  InsertOnlyTable& operator=(const InsertOnlyTable&) = delete;

  // The entry matching `probe` (whose hash is `hash`), or nullptr. Lock-free.
  template <class Probe>
  const Entry* find(size_t hash, const Probe& probe) const {
    return find_in(*slots_.load(std::memory_order_acquire), hash, probe);
  }

  // Inserts `entry` unless one matching `probe` is there already (another thread inserted it
  // meanwhile); returns the entry the table holds.
  template <class Probe>
  const Entry& insert(std::unique_ptr<Entry> entry, const Probe& probe) {
    const size_t hash = entry->hash();
    std::lock_guard<std::mutex> lock(write_mutex_);
    if (const Entry* present = find_in(*slots_.load(std::memory_order_relaxed), hash, probe)) {
      return *present;
    }
    const Slots* current = slots_.load(std::memory_order_relaxed);
    if (2 * (entries_.size() + 1) > current->capacity) {  // load factor at most 1/2
      current = publish(2 * current->capacity);
    }
    place(*current, entry.get());
    entries_.push_back(std::move(entry));
    return *entries_.back();
  }

  size_t size() const {
    std::lock_guard<std::mutex> lock(write_mutex_);
    return entries_.size();
  }

 private:
  static constexpr size_t kInitialCapacity = 64;  // a power of two

  struct Slots {
    explicit Slots(size_t size) : capacity(size), slot(new std::atomic<const Entry*>[size]) {
      for (size_t i = 0; i < size; ++i) slot[i].store(nullptr, std::memory_order_relaxed);
    }
    size_t capacity;
    std::unique_ptr<std::atomic<const Entry*>[]> slot;
  };

  template <class Probe>
  static const Entry* find_in(const Slots& slots, size_t hash, const Probe& probe) {
    const size_t mask = slots.capacity - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {  // ends: a slot is always empty
      const Entry* entry = slots.slot[i].load(std::memory_order_acquire);
      if (entry == nullptr) return nullptr;
      if (entry->hash() == hash && entry->matches(probe)) return entry;
    }
  }

  // Release: a reader that sees the pointer sees the entry it points to, fully made.
  static void place(const Slots& slots, const Entry* entry) {
    const size_t mask = slots.capacity - 1;
    size_t i = entry->hash() & mask;
    while (slots.slot[i].load(std::memory_order_relaxed) != nullptr) i = (i + 1) & mask;
    slots.slot[i].store(entry, std::memory_order_release);
  }

  // Makes slots of `capacity` holding every entry, and makes them the ones readers search.
  const Slots* publish(size_t capacity) {
    generations_.push_back(std::make_unique<Slots>(capacity));
    const Slots* made = generations_.back().get();
    for (const auto& entry : entries_) place(*made, entry.get());
    slots_.store(made, std::memory_order_release);
    return made;
  }

  mutable std::mutex write_mutex_;
  std::vector<std::unique_ptr<Entry>> entries_;  // guarded by write_mutex_
  std::vector<std::unique_ptr<Slots>> generations_;  // every slot array made; the last is current
  std::atomic<const Slots*> slots_{nullptr};
};

}  // namespace hxrt::detail

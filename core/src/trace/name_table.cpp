#include "trace/name_table.hpp"

#include <cstring>

#include "trace/per_thread.hpp"

namespace hxrt::detail {
namespace {

// Direct-mapped by a hash of the string's address: the core passes the same std::string (a
// schema's name, a device's name, a plugin's name, a placement's reason) call after call. A
// slot is trusted only if its content still matches, since an address can hold another string
// later. The slots are many and the address hashed, so that the few names of an op's events do
// not evict each other (16 slots indexed by four address bits missed four names in seven).
struct NameCache {
  struct Slot {
    const char* data = nullptr;
    const std::string* stored = nullptr;
    NameId id = kNoName;
  };
  static constexpr int kSlotBits = 6;
  static constexpr size_t kSlots = size_t{1} << kSlotBits;
  Slot slots[kSlots];
};

}  // namespace

NameTable& NameTable::instance() {
  static NameTable table;
  return table;
}

NameTable::NameTable() {
  names_.emplace_back();  // kNoName
  ids_.emplace(names_.back(), kNoName);
}

NameId NameTable::id(const std::string& name) {
  NameCache& cache = PerThread<NameCache, NameCache>::get();
  NameCache::Slot& slot =
      cache.slots[(reinterpret_cast<uintptr_t>(name.data()) * 0x9E3779B97F4A7C15ull) >>
                  (64 - NameCache::kSlotBits)];
  if (slot.data == name.data() && slot.stored->size() == name.size() &&
      std::memcmp(slot.stored->data(), name.data(), name.size()) == 0) {
    return slot.id;
  }
  const std::string* stored = nullptr;
  const NameId id = add(name, &stored);
  slot = {name.data(), stored, id};
  return id;
}

NameId NameTable::add(std::string_view name, const std::string** stored) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = ids_.find(name);
  if (found != ids_.end()) {
    *stored = &names_[found->second];
    return found->second;
  }
  const auto id = static_cast<NameId>(names_.size());
  names_.emplace_back(name);
  ids_.emplace(names_.back(), id);
  *stored = &names_.back();
  return id;
}

std::string NameTable::name(NameId id) {
  std::lock_guard<std::mutex> lock(mutex_);
  return id < names_.size() ? names_[id] : std::string("?");
}

}  // namespace hxrt::detail

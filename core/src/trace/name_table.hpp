// The names events refer to (ops, devices, plugins), each stored once for the process and
// referred to by a small id, so that recording an event copies no string and an event can
// outlive the runtime whose names it cites (one trace records every runtime's work).
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace hxrt::detail {

using NameId = uint32_t;
constexpr NameId kNoName = 0;  // "": the host, or nothing

class NameTable {
 public:
  static NameTable& instance();
  // The id of `name`, adding it the first time. Repeated names hit a per-thread cache keyed
  // by the string's address and checked against its content: a few dozen instructions.
  NameId id(const std::string& name);
  // The name of `id`; for the writer.
  std::string name(NameId id);

 private:
  NameTable();
  NameId add(std::string_view name, const std::string** stored);

  std::mutex mutex_;
  std::deque<std::string> names_;  // never shrinks: ids and the cache's pointers stay valid
  std::unordered_map<std::string_view, NameId> ids_;
};

}  // namespace hxrt::detail

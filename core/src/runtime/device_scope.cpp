// Device scopes: a per-thread stack shared by all runtimes, each entry tagged with its runtime,
// so scopes of two runtimes on one thread do not see each other.
#include <atomic>
#include <string>
#include <vector>

#include "base/device_name.hpp"
#include "runtime/runtime_impl.hpp"

namespace hxrt {
namespace {

struct ScopeEntry {
  const void* owner;
  uint64_t id;
  std::string device;
};

thread_local std::vector<ScopeEntry> scope_stack;
std::atomic<uint64_t> next_scope_id{1};

}  // namespace

namespace detail {
__thread size_t t_scope_depth;  // scope_stack's size (runtime_impl.hpp)
}  // namespace detail

using detail::t_scope_depth;

DeviceScope Runtime::device(const std::string& name) {
  const Impl* owner = &impl();
  detail::parse_device_name(name);  // a malformed name fails here, where it was written
  const uint64_t id = next_scope_id.fetch_add(1, std::memory_order_relaxed);
  scope_stack.push_back({owner, id, name});
  t_scope_depth = scope_stack.size();
  return DeviceScope(owner, id);
}

DeviceScope::DeviceScope(DeviceScope&& other) noexcept : owner_(other.owner_), id_(other.id_) {
  other.id_ = 0;
}

DeviceScope::~DeviceScope() {
  if (id_ == 0) return;
  // Scopes normally end innermost first; one that outlives an inner one (moved out, say)
  // still removes only itself.
  for (auto it = scope_stack.rbegin(); it != scope_stack.rend(); ++it) {
    if (it->id == id_) {
      scope_stack.erase(std::next(it).base());
      t_scope_depth = scope_stack.size();
      return;
    }
  }
}

const std::string* Runtime::Impl::innermost_scope_on_stack() const {
  for (auto it = scope_stack.rbegin(); it != scope_stack.rend(); ++it) {
    if (it->owner == this) return &it->device;
  }
  return nullptr;
}

}  // namespace hxrt

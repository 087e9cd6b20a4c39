#include "plugins/core_handle.hpp"

namespace hxrt::detail {
namespace {

// Retired handles, newest first: reachable, so that leak checkers see them as kept on
// purpose. Guarded by retired_mutex().
hx_core_s* g_retired = nullptr;

std::mutex& retired_mutex() {
  static std::mutex* mutex = new std::mutex;  // never destroyed: a plugin may go at exit
  return *mutex;
}

}  // namespace

void RetireCoreHandle::operator()(hx_core_s* core) const {
  if (core == nullptr) return;
  std::shared_ptr<Logger> logger;
  std::unique_ptr<PendingRegistrations> pending;
  nlohmann::json options;
  {
    std::lock_guard<std::mutex> lock(core->mutex);
    core->retired = true;
    core->registration_open = false;
    // Moved out, to be freed without the lock held: a plugin thread may be waiting on it.
    logger = std::move(core->logger);
    pending = std::move(core->pending);
    options = std::move(core->options);
    core->plugin_name.shrink_to_fit();
  }
  std::lock_guard<std::mutex> lock(retired_mutex());
  core->next_retired = g_retired;
  g_retired = core;
}

CoreHandle make_core_handle() { return CoreHandle(new hx_core_s); }

}  // namespace hxrt::detail

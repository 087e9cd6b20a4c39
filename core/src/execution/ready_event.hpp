// A point in one device's stream: recorded after the work that writes a tensor (its ready
// event) or after a copy that reads one. Consumers on other streams of the plugin wait for it
// on the device (Device::wait_for); the host waits for it only when it reads (wait). A
// failure of the work behind it (plugin_api.h, "Errors of queued work") is kept here once seen,
// so every later wait for the same tensor reports it again while other tensors stay usable.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

#include "hxrt/error.hpp"
#include "hxrt/plugin_api.h"

namespace hxrt::detail {

class Device;

class ReadyEvent {
 public:
  // `event` is recorded already, on `device`'s stream, after `work` ("MatMul", "from_host").
  ReadyEvent(std::shared_ptr<Device> device, hx_event* event, std::string work);
  ~ReadyEvent();  // the event goes back to the device's pool
  ReadyEvent(const ReadyEvent&) = delete;
  ReadyEvent& operator=(const ReadyEvent&) = delete;

  Device& device() const { return *device_; }
  hx_event* handle() const { return event_; }
  const std::string& work() const { return work_; }

  // Whether the work has completed (or failed); never blocks.
  bool done() const;
  // Blocks until the work has completed; throws its failure, here and at every later wait.
  void wait() const;
  // Whether a failure was seen, without asking the plugin; one load.
  bool known_failure_fast() const { return failed_.load(std::memory_order_acquire); }
  // The failure seen so far, without asking the plugin: nullptr when none was seen.
  std::shared_ptr<const Error> known_failure() const;

 private:
  // Keeps `status`'s failure as an Error naming the work, device and plugin, clears the
  // device's stream so that later work runs (plugin_api.h), and returns the Error.
  std::shared_ptr<const Error> fail(hx_status* status) const;

  std::shared_ptr<Device> device_;
  hx_event* event_;
  std::string work_;
  mutable std::atomic<bool> complete_{false};
  mutable std::atomic<bool> failed_{false};  // known_failure's test before taking the lock
  mutable std::mutex failure_mutex_;
  mutable std::shared_ptr<const Error> failure_;  // guarded by failure_mutex_
};

}  // namespace hxrt::detail

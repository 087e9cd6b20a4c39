#include "execution/ready_event.hpp"

#include "devices/device.hpp"
#include "base/status.hpp"
#include "trace/transfer_trace.hpp"

namespace hxrt::detail {

ReadyEvent::ReadyEvent(std::shared_ptr<Device> device, hx_event* event, std::string work)
    : device_(std::move(device)), event_(event), work_(std::move(work)) {}

ReadyEvent::~ReadyEvent() { device_->release_event(event_); }

bool ReadyEvent::done() const {
  if (complete_.load(std::memory_order_acquire)) return true;
  bool finished = false;
  hx_status* status = device_->plugin().events()->query(device_->handle(), event_, &finished);
  if (status != nullptr) {
    fail(status);
    return true;
  }
  if (finished) complete_.store(true, std::memory_order_release);
  return finished;
}

void ReadyEvent::wait() const {
  if (!complete_.load(std::memory_order_acquire)) {
    hx_status* status = device_->plugin().events()->synchronize(device_->handle(), event_);
    if (status != nullptr) throw Error(*fail(status));
    complete_.store(true, std::memory_order_release);
  }
  if (std::shared_ptr<const Error> failure = known_failure()) throw Error(*failure);
}

std::shared_ptr<const Error> ReadyEvent::known_failure() const {
  if (!failed_.load(std::memory_order_acquire)) return nullptr;
  std::lock_guard<std::mutex> lock(failure_mutex_);
  return failure_;
}

std::shared_ptr<const Error> ReadyEvent::fail(hx_status* status) const {
  const StatusCode code = status->code == HX_OK ? StatusCode::kInternal
                                                : static_cast<StatusCode>(status->code);
  auto failure = std::make_shared<const Error>(
      code, work_ + " on " + device_->name() + " (plugin '" + device_->plugin().name() +
                "') failed after it was queued: " + consume_status(status) +
                ". Tensors written by this work, and by work queued after it on the same "
                "device before the failure was seen, hold no valid data; later work runs "
                "normally");
  {
    std::lock_guard<std::mutex> lock(failure_mutex_);
    if (failure_ == nullptr) failure_ = failure;
    failure = failure_;
  }
  if (tracing()) {
    record_work_error(device_->name(), work_, device_->plugin().name(), failure->what());
  }
  failed_.store(true, std::memory_order_release);
  complete_.store(true, std::memory_order_release);
  device_->clear_stream_failure();
  return failure;
}

}  // namespace hxrt::detail

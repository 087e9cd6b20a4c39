#include "sections/stream_handles.hpp"

#include <thread>

namespace hxrt_conformance::stream_section {

OwnedStream::OwnedStream(const DeviceUnderTest& device) : device_(device) {
  outcome_ = KitCore::take(device.api->stream_create(device.device, &stream_));
  if (!outcome_.ok()) stream_ = nullptr;
}

OwnedStream::~OwnedStream() {
  if (stream_ == nullptr) return;
  // Work still queued must not outlive the memory it uses; destroy alone need not wait.
  KitCore::take(device_.api->stream_synchronize(device_.device, stream_));
  device_.api->stream_destroy(device_.device, stream_);
}

std::string OwnedStream::failure() const {
  if (ok()) return {};
  if (!outcome_.ok()) return memory_section::call_failed("stream_create", outcome_);
  return "stream_create returned no error but a NULL stream; return a stream, or a status "
         "saying why not";
}

OwnedEvent::OwnedEvent(const DeviceUnderTest& device) : device_(device) {
  outcome_ = KitCore::take(device.api->event_create(device.device, &event_));
  if (!outcome_.ok()) event_ = nullptr;
}

OwnedEvent::~OwnedEvent() {
  if (event_ != nullptr) device_.api->event_destroy(device_.device, event_);
}

std::string OwnedEvent::failure() const {
  if (ok()) return {};
  if (!outcome_.ok()) return memory_section::call_failed("event_create", outcome_);
  return "event_create returned no error but a NULL event; return an event, or a status "
         "saying why not";
}

std::string failed_call(const std::string& call, hx_status* status) {
  const Outcome outcome = KitCore::take(status);
  return outcome.ok() ? std::string() : memory_section::call_failed(call, outcome);
}

std::string first_failure(std::initializer_list<std::string> failures) {
  for (const std::string& failure : failures) {
    if (!failure.empty()) return failure;
  }
  return {};
}

PollResult poll_until_done(const std::function<hx_status*(bool* out_done)>& query) {
  const auto deadline = std::chrono::steady_clock::now() + kQueryLimit;
  PollResult result;
  for (;;) {
    bool done = false;
    result.outcome = KitCore::take(query(&done));
    if (!result.outcome.ok() || done) {
      result.done = done && result.outcome.ok();
      return result;
    }
    if (std::chrono::steady_clock::now() > deadline) return result;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

}  // namespace hxrt_conformance::stream_section

#include "device_stream.hpp"

#include "call_text.hpp"

namespace hxrt_conformance {

DeviceStream::DeviceStream(const DeviceUnderTest& device)
    : api_(device.api), device_(device.device) {
  outcome_ = KitCore::take(api_->streams->create(device_, &stream_));
  if (!outcome_.ok()) stream_ = nullptr;
}

DeviceStream::~DeviceStream() {
  if (stream_ == nullptr) return;
  // Work still queued must not outlive the memory it uses, and destroy alone need not wait.
  KitCore::take(api_->streams->synchronize(device_, stream_));
  api_->streams->destroy(device_, stream_);
}

std::string DeviceStream::failure() const {
  if (ok()) return {};
  if (!outcome_.ok()) return call_failed("stream_create", outcome_);
  return returned_null("stream_create", "stream", "a stream");
}

std::optional<DeviceStream> stream_if_offered(const PluginSession& session,
                                              const DeviceUnderTest& device) {
  if (!session.has_streams()) return std::nullopt;
  return std::optional<DeviceStream>(std::in_place, device);
}

DeviceEvent::DeviceEvent(const DeviceUnderTest& device) : api_(device.api), device_(device.device) {
  outcome_ = KitCore::take(api_->events->create(device_, &event_));
  if (!outcome_.ok()) event_ = nullptr;
}

DeviceEvent::~DeviceEvent() {
  if (event_ != nullptr) api_->events->destroy(device_, event_);
}

std::string DeviceEvent::failure() const {
  if (ok()) return {};
  if (!outcome_.ok()) return call_failed("event_create", outcome_);
  return returned_null("event_create", "event", "an event");
}

}  // namespace hxrt_conformance

// Streams and events of the plugin under test, released when they go out of scope.
#pragma once

#include <hxrt/plugin_api.h>

#include <optional>
#include <string>

#include "device_under_test.hpp"
#include "kit_core.hpp"
#include "plugin_session.hpp"

namespace hxrt_conformance {

// A stream, synchronized and destroyed when it goes out of scope. Declare the memory its work
// uses (device and host) before it, so that the memory outlives every write the stream may
// still make, even after a stream_synchronize that returned early.
class DeviceStream {
 public:
  explicit DeviceStream(const DeviceUnderTest& device);
  ~DeviceStream();
  DeviceStream(const DeviceStream&) = delete;
  DeviceStream& operator=(const DeviceStream&) = delete;

  bool ok() const { return stream_ != nullptr; }
  // "" when ok(), else "stream_create failed: ...".
  std::string failure() const;
  // NULL when not ok().
  hx_stream* get() const { return stream_; }

 private:
  const hx_plugin_api* api_;
  hx_device* device_;
  hx_stream* stream_ = nullptr;
  Outcome outcome_;
};

// For the checks that use a stream where the plugin has them (kernels, threads): a stream of
// `device`, or none when the plugin offers no streams and every call completes before it
// returns.
std::optional<DeviceStream> stream_if_offered(const PluginSession& session,
                                              const DeviceUnderTest& device);

// An event, destroyed when it goes out of scope. Declare it before the streams it is recorded
// on or waited for, so that they are gone first.
class DeviceEvent {
 public:
  explicit DeviceEvent(const DeviceUnderTest& device);
  ~DeviceEvent();
  DeviceEvent(const DeviceEvent&) = delete;
  DeviceEvent& operator=(const DeviceEvent&) = delete;

  bool ok() const { return event_ != nullptr; }
  // "" when ok(), else "event_create failed: ...".
  std::string failure() const;
  hx_event* get() const { return event_; }

 private:
  const hx_plugin_api* api_;
  hx_device* device_;
  hx_event* event_ = nullptr;
  Outcome outcome_;
};

}  // namespace hxrt_conformance

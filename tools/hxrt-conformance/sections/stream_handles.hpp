// Streams and events of the plugin under test, released when they go out of scope, and the
// bounded wait for a query to report done.
#pragma once

#include <hxrt/plugin_api.h>

#include <chrono>
#include <functional>
#include <initializer_list>
#include <string>

#include "kit_core.hpp"
#include "sections/memory_buffers.hpp"

namespace hxrt_conformance::stream_section {

using memory_section::DeviceUnderTest;

// A stream, synchronized and destroyed when it goes out of scope. Declare the memory its work
// uses before it, so that the memory outlives every write the stream may still make.
class OwnedStream {
 public:
  explicit OwnedStream(const DeviceUnderTest& device);
  ~OwnedStream();
  OwnedStream(const OwnedStream&) = delete;
  OwnedStream& operator=(const OwnedStream&) = delete;

  bool ok() const { return stream_ != nullptr; }
  // "stream_create failed: ...", or "" when ok().
  std::string failure() const;
  hx_stream* get() const { return stream_; }

 private:
  const DeviceUnderTest& device_;
  hx_stream* stream_ = nullptr;
  Outcome outcome_;
};

// An event, destroyed when it goes out of scope. Declare it before the streams it is recorded
// on or waited for, so that they are gone first.
class OwnedEvent {
 public:
  explicit OwnedEvent(const DeviceUnderTest& device);
  ~OwnedEvent();
  OwnedEvent(const OwnedEvent&) = delete;
  OwnedEvent& operator=(const OwnedEvent&) = delete;

  bool ok() const { return event_ != nullptr; }
  // "event_create failed: ...", or "" when ok().
  std::string failure() const;
  hx_event* get() const { return event_; }

 private:
  const DeviceUnderTest& device_;
  hx_event* event_ = nullptr;
  Outcome outcome_;
};

// "" when `status` is NULL, else "<call> failed: CODE: message" (the status is freed).
std::string failed_call(const std::string& call, hx_status* status);

// The first of `failures` that is not "", or "".
std::string first_failure(std::initializer_list<std::string> failures);

// How long the checks wait for a query to report done before calling the work lost.
constexpr std::chrono::seconds kQueryLimit{10};

struct PollResult {
  Outcome outcome;    // the status of the first query that failed; OK otherwise
  bool done = false;  // a query reported done within the limit
};

// Calls `query` (stream_query or event_query bound to its handle) until it reports done,
// fails, or kQueryLimit passes.
PollResult poll_until_done(const std::function<hx_status*(bool* out_done)>& query);

}  // namespace hxrt_conformance::stream_section

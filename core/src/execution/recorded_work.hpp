// One device's recorded work (plugin_api.h, "Recorded work"): a stream of its own to record
// on, which nothing else uses, and the recording made there, replayed on the device's stream
// behind the work queued there before. The caller makes the recorded calls itself, naming
// recording_stream() between begin() and end(), and keeps every buffer they name allocated
// while this object lives.
#pragma once

#include <memory>
#include <string>

#include "hxrt/plugin_api.h"

namespace hxrt::detail {

class Device;

class RecordedWork {
 public:
  // Makes the recording stream. Throws Error when the device's plugin has no recording group
  // or refuses the stream.
  explicit RecordedWork(std::shared_ptr<Device> device);
  // Destroys the recording, then the stream. The caller has waited for every replay.
  ~RecordedWork();
  RecordedWork(const RecordedWork&) = delete;
  RecordedWork& operator=(const RecordedWork&) = delete;

  hx_stream* recording_stream() const { return stream_; }
  // Starts recording on recording_stream(); throws the plugin's refusal.
  void begin();
  // Ends it and keeps the recording; throws the plugin's refusal (no recording is kept).
  void end();
  // Ends a recording that failed on the way, keeping nothing; never throws.
  void abandon() noexcept;
  bool recorded() const { return recording_ != nullptr; }
  // Queues the recording on the device's stream. Throws the plugin's refusal.
  void replay();

 private:
  std::string context(const char* call) const;

  std::shared_ptr<Device> device_;
  const hx_recording_api* api_;
  hx_stream* stream_ = nullptr;
  hx_recording* recording_ = nullptr;
  bool recording_open_ = false;
};

}  // namespace hxrt::detail

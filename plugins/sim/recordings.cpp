#include "recordings.hpp"

#include <hxplugin/status.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "device.hpp"
#include "plugin_state.hpp"
#include "streams.hpp"
#include "submit.hpp"

namespace hxsim {
namespace {

hx_status* status(const SimDevice& sim, hx_status_code code, const char* what,
                  const void* handle) {
  return hxplugin::make_status(*sim.plugin.services, code, "%s: %s (%p)", sim.label.c_str(),
                               what, handle);
}

// The live stream `stream` of `sim`, or the status saying why not.
hx_status* find_stream(const SimDevice& sim, hx_stream* stream,
                       std::shared_ptr<SimStream>* out) {
  if (stream == nullptr) {
    return status(sim, HX_INVALID_ARGUMENT, "recorded work needs a stream, not NULL", stream);
  }
  if (hx_status* refused = check_stream(sim, stream)) return refused;
  *out = sim.plugin.handles.find_stream(stream);
  if (*out != nullptr) return nullptr;
  return status(sim, HX_INVALID_ARGUMENT, "the stream was destroyed during the call", stream);
}

hx_status* begin(hx_device* device, hx_stream* stream) {
  const SimDevice& sim = from_handle(device);
  return hxplugin::guarded(*sim.plugin.services, kPluginName, [&]() -> hx_status* {
    std::shared_ptr<SimStream> queue;
    if (hx_status* refused = find_stream(sim, stream, &queue)) return refused;
    if (queue->recorder.begin()) return nullptr;
    return status(sim, HX_FAILED_PRECONDITION,
                  "begin: the stream records already; end that recording first", stream);
  });
}

hx_status* end(hx_device* device, hx_stream* stream, hx_recording** out_recording) {
  const SimDevice& sim = from_handle(device);
  *out_recording = nullptr;
  return hxplugin::guarded(*sim.plugin.services, kPluginName, [&]() -> hx_status* {
    std::shared_ptr<SimStream> queue;
    if (hx_status* refused = find_stream(sim, stream, &queue)) return refused;
    std::optional<std::vector<WorkItem>> items = queue->recorder.end();
    if (!items) {
      return status(sim, HX_FAILED_PRECONDITION,
                    "end: the stream is not recording; call begin first", stream);
    }
    *out_recording =
        sim.plugin.handles.add_recording(std::make_shared<SimRecording>(sim, std::move(*items)));
    sim.counters.recordings.fetch_add(1);
    return nullptr;
  });
}

// One item that runs the recording's items in order: their modelled times in one wait, then
// their effects; the first failure is the replay's, and fails its stream.
WorkItem replay_item(std::shared_ptr<const SimRecording> recording) {
  std::chrono::nanoseconds total{0};
  for (const WorkItem& item : recording->items) total += item.duration;
  return WorkItem{[recording]() -> WorkResult {
                    WorkResult first;
                    for (const WorkItem& item : recording->items) {
                      WorkResult result = item.body ? item.body() : std::nullopt;
                      if (result && !first) first = std::move(result);
                    }
                    return first;
                  },
                  total};
}

hx_status* replay(hx_device* device, hx_stream* stream, hx_recording* recording) {
  const SimDevice& sim = from_handle(device);
  spend_host_time(sim.model.host_replay());
  return hxplugin::guarded(*sim.plugin.services, kPluginName, [&]() -> hx_status* {
    std::shared_ptr<SimStream> queue;
    if (hx_status* refused = find_stream(sim, stream, &queue)) return refused;
    std::shared_ptr<const SimRecording> recorded = sim.plugin.handles.find_recording(recording);
    if (recorded == nullptr || recorded->device != &sim) {
      return status(sim, HX_INVALID_ARGUMENT,
                    "replay: not a live recording of this device (never made by end, destroyed, "
                    "or recorded on another device)",
                    recording);
    }
    if (queue->recorder.recording()) {
      return status(sim, HX_FAILED_PRECONDITION,
                    "replay: the stream records; replay on a stream that does not", stream);
    }
    queue->worker.enqueue(replay_item(std::move(recorded)));
    sim.counters.replays.fetch_add(1);
    return nullptr;
  });
}

void destroy(hx_device* device, hx_recording* recording) {
  if (recording == nullptr) return;
  const SimDevice& sim = from_handle(device);
  if (!sim.plugin.handles.remove_recording(sim, recording)) {
    sim.plugin.warn("%s: recording destroy(%p) ignored: not a live recording of this device",
                    sim.label.c_str(), static_cast<const void*>(recording));
  }
}

}  // namespace

const hx_recording_api kRecordingApi = {HX_RECORDING_API_STRUCT_SIZE, nullptr, begin, end,
                                        replay, destroy};

}  // namespace hxsim

#include "streams.hpp"

#include <string>

#include <hxplugin/status.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <utility>

#include "device.hpp"
#include "plugin_state.hpp"
#include "work_failure.hpp"

namespace hxsim {
namespace {

// `owner` is the device the handle belongs to, or nullptr when it is not a live handle.
hx_status* not_of_device(const SimDevice& device, const char* kind, const void* handle,
                         const SimDevice* owner) {
  if (owner == nullptr) {
    return hxplugin::make_status(
        *device.plugin.services, HX_INVALID_ARGUMENT,
        "%s: %p is not a live %s of the sim plugin (never created, or destroyed)",
        device.label.c_str(), handle, kind);
  }
  return hxplugin::make_status(*device.plugin.services, HX_INVALID_ARGUMENT,
                               "%s: %s %p belongs to %s", device.label.c_str(), kind, handle,
                               owner->label.c_str());
}

hx_status* check_event(const SimDevice& device, const hx_event* event) {
  const SimDevice* owner = device.plugin.handles.event_device(event);
  if (owner == &device) return nullptr;
  return not_of_device(device, "event", event, owner);
}

// Null streams are not handles: check_stream accepts them, these entry points do not.
hx_status* check_live_stream(const SimDevice& device, const hx_stream* stream) {
  if (stream == nullptr) return not_of_device(device, "stream", stream, nullptr);
  return check_stream(device, stream);
}

}  // namespace

hx_status* check_stream(const SimDevice& device, const hx_stream* stream) {
  if (stream == nullptr) return nullptr;
  const SimDevice* owner = device.plugin.handles.stream_device(stream);
  if (owner == &device) return nullptr;
  return not_of_device(device, "stream", stream, owner);
}

namespace {

hx_status* stream_create(hx_device* device, hx_stream** out_stream) {
  const SimDevice& sim = from_handle(device);
  return hxplugin::guarded(*sim.plugin.services, kPluginName, [&]() -> hx_status* {
    *out_stream = sim.plugin.handles.add_stream(sim);
    return nullptr;
  });
}

void stream_destroy(hx_device* device, hx_stream* stream) {
  if (stream == nullptr) return;
  const SimDevice& sim = from_handle(device);
  if (!sim.plugin.handles.remove_stream(sim, stream)) {
    sim.plugin.warn("%s: stream_destroy(%p) ignored: not a live stream of this device",
                    sim.label.c_str(), static_cast<const void*>(stream));
  }
}

// The live stream `stream` of `sim` in *out, or the status check_live_stream gives; or, for a
// stream that records, FAILED_PRECONDITION naming the call `what`: while it records a stream
// takes only the work it records (plugin_api.h, "Recorded work").
hx_status* live_stream(const SimDevice& sim, const hx_stream* stream,
                       std::shared_ptr<SimStream>* out, const char* what) {
  if (hx_status* status = check_live_stream(sim, stream)) return status;
  *out = sim.plugin.handles.find_stream(stream);
  if (*out == nullptr) return not_of_device(sim, "stream", stream, nullptr);  // destroyed since
  if (!(*out)->recorder.recording()) return nullptr;
  return hxplugin::make_status(*sim.plugin.services, HX_FAILED_PRECONDITION,
                               "%s: %s on stream %p, which records; a recording holds only "
                               "kernels, memsets and copies between devices: end it first",
                               sim.label.c_str(), what, static_cast<const void*>(stream));
}

// Reports the first failure of the work it waited for, and clears it (plugin_api.h).
hx_status* stream_synchronize(hx_device* device, hx_stream* stream) {
  const SimDevice& sim = from_handle(device);
  std::shared_ptr<SimStream> queue;
  if (hx_status* status = live_stream(sim, stream, &queue, "stream synchronize")) return status;
  return to_status(sim.plugin, queue->worker.synchronize_and_clear());
}

// A failure is reported as soon as the failed work has run, before the rest is done.
hx_status* stream_query(hx_device* device, hx_stream* stream, bool* out_done) {
  const SimDevice& sim = from_handle(device);
  std::shared_ptr<SimStream> queue;
  if (hx_status* status = live_stream(sim, stream, &queue, "stream query")) return status;
  if (hx_status* status = to_status(sim.plugin, queue->worker.failure())) return status;
  *out_done = queue->worker.idle();
  return nullptr;
}

hx_status* stream_wait_event(hx_device* device, hx_stream* stream, hx_event* event) {
  const SimDevice& sim = from_handle(device);
  std::shared_ptr<SimStream> queue;
  if (hx_status* status = live_stream(sim, stream, &queue, "wait_event")) return status;
  // The event may come from any device of this plugin, as a cross-device dependency.
  const std::shared_ptr<SimEvent> marker = sim.plugin.handles.find_event(event);
  if (marker == nullptr) return not_of_device(sim, "event", event, nullptr);
  if (sim.plugin.options.host_waits && marker->device != &sim) {
    return hxplugin::make_status(*sim.plugin.services, HX_INVALID_ARGUMENT,
                                 "sim wait_event on %s: the event is %s's, and the devices "
                                 "declare HX_WAIT_ON_HOST (option host_waits), so the core "
                                 "must wait for it on the host",
                                 sim.name.c_str(), marker->device->name.c_str());
  }
  // The point as recorded now: a later record of the event does not move this wait.
  const Point point = marker->recorded();
  if (point.done() && !point.failure()) return nullptr;
  return hxplugin::guarded(*sim.plugin.services, kPluginName, [&]() -> hx_status* {
    // Work that waits for failed work fails too (plugin_api.h, wait_event), so that nothing
    // computed from its garbage reports success; the failure names both.
    const std::string waiter = sim.name;
    queue->worker.enqueue(WorkItem{[point, waiter]() -> WorkResult {
                                     point.wait();
                                     WorkResult failed = point.failure();
                                     if (failed) {
                                       failed->message = "work on " + waiter +
                                                         " waited for work that failed: " +
                                                         failed->message;
                                     }
                                     return failed;
                                   },
                                   std::chrono::nanoseconds(0)});
    return nullptr;
  });
}

hx_status* event_create(hx_device* device, hx_event** out_event) {
  const SimDevice& sim = from_handle(device);
  return hxplugin::guarded(*sim.plugin.services, kPluginName, [&]() -> hx_status* {
    *out_event = sim.plugin.handles.add_event(sim);
    return nullptr;
  });
}

void event_destroy(hx_device* device, hx_event* event) {
  if (event == nullptr) return;
  const SimDevice& sim = from_handle(device);
  if (!sim.plugin.handles.remove_event(sim, event)) {
    sim.plugin.warn("%s: event_destroy(%p) ignored: not a live event of this device",
                    sim.label.c_str(), static_cast<const void*>(event));
  }
}

// The live event `event` of `sim` in *out, or the status check_event gives.
hx_status* live_event(const SimDevice& sim, const hx_event* event,
                      std::shared_ptr<SimEvent>* out) {
  if (hx_status* status = check_event(sim, event)) return status;
  *out = sim.plugin.handles.find_event(event);
  if (*out != nullptr) return nullptr;
  return not_of_device(sim, "event", event, nullptr);  // destroyed since the check
}

hx_status* event_record(hx_device* device, hx_event* event, hx_stream* stream) {
  const SimDevice& sim = from_handle(device);
  std::shared_ptr<SimEvent> marker;
  if (hx_status* status = live_event(sim, event, &marker)) return status;
  if (stream == nullptr) {
    marker->record(Point{});
    return nullptr;
  }
  std::shared_ptr<SimStream> queue;
  if (hx_status* status = live_stream(sim, stream, &queue, "event record")) return status;
  marker->record(queue->worker.timed_tail());
  return nullptr;
}

// Both report the first failure of the work before the recorded point since the stream's last
// clear before the record, every time they are called (plugin_api.h).
hx_status* event_synchronize(hx_device* device, hx_event* event) {
  const SimDevice& sim = from_handle(device);
  std::shared_ptr<SimEvent> marker;
  if (hx_status* status = live_event(sim, event, &marker)) return status;
  const Point point = marker->recorded();
  point.wait();
  return to_status(sim.plugin, point.failure());
}

hx_status* event_query(hx_device* device, hx_event* event, bool* out_done) {
  const SimDevice& sim = from_handle(device);
  std::shared_ptr<SimEvent> marker;
  if (hx_status* status = live_event(sim, event, &marker)) return status;
  const Point point = marker->recorded();
  if (hx_status* status = to_status(sim.plugin, point.failure())) return status;
  *out_done = point.done();
  return nullptr;
}

// The difference of the two points' times on their stream's clock (work_queue.hpp): the
// modelled time of the work between them.
hx_status* event_elapsed_ns(hx_device* device, hx_event* start, hx_event* end, uint64_t* out_ns) {
  const SimDevice& sim = from_handle(device);
  std::shared_ptr<SimEvent> first, last;
  if (hx_status* status = live_event(sim, start, &first)) return status;
  if (hx_status* status = live_event(sim, end, &last)) return status;
  const Point from = first->recorded();
  const Point to = last->recorded();
  const hx_core_services& services = *sim.plugin.services;
  for (const auto& [point, handle] : {std::pair(from, start), std::pair(to, end)}) {
    if (point.time == nullptr) {
      return hxplugin::make_status(
          services, HX_FAILED_PRECONDITION,
          "%s: event %p was never recorded on a stream (never recorded, or recorded with "
          "stream NULL), so it marks no point of a stream's work to time; record both events "
          "on the stream the timed work is queued on",
          sim.label.c_str(), static_cast<const void*>(handle));
    }
  }
  if (from.line != to.line) {
    return hxplugin::make_status(services, HX_INVALID_ARGUMENT,
                                 "%s: events %p and %p were recorded on different streams; "
                                 "time work between two events of one stream",
                                 sim.label.c_str(), static_cast<const void*>(start),
                                 static_cast<const void*>(end));
  }
  if (from.position > to.position) {
    return hxplugin::make_status(services, HX_INVALID_ARGUMENT,
                                 "%s: the start event %p was recorded after the end event %p; "
                                 "pass the earlier event as start",
                                 sim.label.c_str(), static_cast<const void*>(start),
                                 static_cast<const void*>(end));
  }
  const std::optional<std::chrono::nanoseconds> began = from.time->get();
  const std::optional<std::chrono::nanoseconds> ended = to.time->get();
  if (!began || !ended) {
    return hxplugin::make_status(services, HX_FAILED_PRECONDITION,
                                 "%s: the work before event %p has not completed yet; "
                                 "synchronize the end event before asking for the time",
                                 sim.label.c_str(),
                                 static_cast<const void*>(began ? end : start));
  }
  *out_ns = static_cast<uint64_t>((*ended - *began).count());
  return nullptr;
}

}  // namespace

const hx_stream_api kStreamApi = {HX_STREAM_API_STRUCT_SIZE, nullptr,      stream_create,
                                  stream_destroy,            stream_synchronize, stream_query,
                                  stream_wait_event};
const hx_event_api kEventApi = {HX_EVENT_API_STRUCT_SIZE, nullptr,           event_create,
                                event_destroy,            event_record,      event_synchronize,
                                event_query,              event_elapsed_ns};

}  // namespace hxsim

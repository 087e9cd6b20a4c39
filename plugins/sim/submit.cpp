#include "submit.hpp"

#include <hxplugin/status.hpp>

#include <chrono>
#include <utility>

#include "device.hpp"
#include "memory.hpp"
#include "plugin_state.hpp"
#include "work_failure.hpp"

namespace hxsim {

hx_status* pin_buffer(const SimDevice& device, const hx_buffer* buffer, const char* what,
                      BufferPins& pins) {
  if (pins.add(device.memory, buffer_id(buffer))) return nullptr;
  return hxplugin::make_status(*device.plugin.services, HX_INVALID_ARGUMENT,
                               "sim plugin: %s: buffer %p of %s was freed while the call used it",
                               what, static_cast<const void*>(buffer), device.label.c_str());
}

void spend_host_time(std::chrono::nanoseconds duration) {
  if (duration.count() <= 0) return;
  const auto until = std::chrono::steady_clock::now() + duration;
  while (std::chrono::steady_clock::now() < until) {
  }
}

hx_status* submit(const SimDevice& device, hx_stream* stream, WorkKind kind, WorkItem item,
                  std::unique_ptr<BufferPins> pins) {
  spend_host_time(device.model.host_launch());
  return hxplugin::guarded(*device.plugin.services, kPluginName, [&]() -> hx_status* {
    // std::function needs a copyable callable: the pins travel behind a shared pointer, and
    // go when the worker drops the body after running it.
    std::shared_ptr<BufferPins> held(std::move(pins));
    item.body = [body = std::move(item.body), held]() -> WorkResult {
      return body ? body() : std::nullopt;
    };
    // Without a stream the work has run when the call returns: its failure is the call's.
    if (stream == nullptr) {
      if (kind == WorkKind::kKernel) device.counters.kernel_calls.fetch_add(1);
      return to_status(device.plugin, run_now(item));
    }
    const std::shared_ptr<SimStream> queue = device.plugin.handles.find_stream(stream);
    if (queue == nullptr) {  // destroyed since check_stream looked
      return hxplugin::make_status(*device.plugin.services, HX_INVALID_ARGUMENT,
                                   "%s: stream %p was destroyed during the call",
                                   device.label.c_str(), static_cast<const void*>(stream));
    }
    const StreamRecorder::Offer offer =
        queue->recorder.record(item, kind != WorkKind::kHostCopy);
    if (offer == StreamRecorder::Offer::kRefused) {
      return hxplugin::make_status(
          *device.plugin.services, HX_FAILED_PRECONDITION,
          "%s: a copy to or from the host was made on stream %p while it records; a recording "
          "holds only kernels, memsets and copies between devices (plugin_api.h, \"Recorded "
          "work\")",
          device.label.c_str(), static_cast<const void*>(stream));
    }
    if (offer == StreamRecorder::Offer::kRecorded) {
      device.counters.recorded_calls.fetch_add(1);
      return nullptr;
    }
    if (kind == WorkKind::kKernel) device.counters.kernel_calls.fetch_add(1);
    queue->worker.enqueue(std::move(item));
    return nullptr;
  });
}

}  // namespace hxsim

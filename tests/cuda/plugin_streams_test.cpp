// Stream ordering and events across two streams, and across two GPUs where there are two,
// through the function table. All need a GPU.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

#include "plugin_direct.hpp"

using cuda_direct::DirectPlugin;
using cuda_direct::require_ok;

namespace {

// Large enough that the copy is still running when the other stream is given its work.
constexpr size_t kBytes = size_t{256} << 20;

void* device_buffer(const DirectPlugin& plugin, hx_device* device, size_t size) {
  void* ptr = nullptr;
  require_ok(DirectPlugin::outcome(plugin.api().allocate(device, size, 256, &ptr)));
  return ptr;
}

uint8_t* pinned_buffer(const DirectPlugin& plugin, hx_device* device, size_t size) {
  void* ptr = nullptr;
  require_ok(DirectPlugin::outcome(plugin.api().host_allocate(device, size, &ptr)));
  return static_cast<uint8_t*>(ptr);
}

void fill_pattern(uint8_t* data, size_t size) {
  for (size_t i = 0; i < size; ++i) data[i] = static_cast<uint8_t>(i * 2654435761u >> 24);
}

}  // namespace

TEST_CASE("Work on one stream waits for an event recorded on another", "[cuda][streams][gpu]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  CUDA_DIRECT_REQUIRE_GPU(plugin);
  hx_device* device = plugin.device(0);
  const hx_plugin_api& api = plugin.api();
  hx_stream* producer = nullptr;
  hx_stream* consumer = nullptr;
  hx_event* written = nullptr;
  require_ok(DirectPlugin::outcome(api.stream_create(device, &producer)));
  require_ok(DirectPlugin::outcome(api.stream_create(device, &consumer)));
  require_ok(DirectPlugin::outcome(api.event_create(device, &written)));

  uint8_t* source = pinned_buffer(plugin, device, kBytes);
  uint8_t* result = pinned_buffer(plugin, device, kBytes);
  fill_pattern(source, kBytes);
  std::memset(result, 0, kBytes);
  void* x = device_buffer(plugin, device, kBytes);
  void* y = device_buffer(plugin, device, kBytes);
  require_ok(DirectPlugin::outcome(api.memset(device, nullptr, y, 0, kBytes)));

  // producer: host -> x; consumer: (wait) x -> y -> host. Only the consumer is synchronised.
  require_ok(DirectPlugin::outcome(api.copy_host_to_device(device, producer, x, source, kBytes)));
  require_ok(DirectPlugin::outcome(api.event_record(device, written, producer)));
  require_ok(DirectPlugin::outcome(api.stream_wait_event(device, consumer, written)));
  require_ok(
      DirectPlugin::outcome(api.copy_device_to_device(device, consumer, y, device, x, kBytes)));
  require_ok(DirectPlugin::outcome(api.copy_device_to_host(device, consumer, result, y, kBytes)));
  require_ok(DirectPlugin::outcome(api.stream_synchronize(device, consumer)));
  CHECK(std::memcmp(result, source, kBytes) == 0);

  // The event the consumer waited for has completed, and so has everything on the producer.
  bool done = false;
  require_ok(DirectPlugin::outcome(api.event_query(device, written, &done)));
  CHECK(done);
  require_ok(DirectPlugin::outcome(api.event_synchronize(device, written)));
  require_ok(DirectPlugin::outcome(api.stream_synchronize(device, producer)));
  done = false;
  require_ok(DirectPlugin::outcome(api.stream_query(device, producer, &done)));
  CHECK(done);

  api.deallocate(device, x, kBytes);
  api.deallocate(device, y, kBytes);
  api.host_deallocate(device, source);
  api.host_deallocate(device, result);
  api.event_destroy(device, written);
  api.stream_destroy(device, producer);
  api.stream_destroy(device, consumer);
  CHECK(plugin.warnings().empty());
}

TEST_CASE("Work on one GPU waits for an event recorded on another", "[cuda][streams][gpu]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  CUDA_DIRECT_REQUIRE_GPU(plugin);
  cuda_direct::Outcome counted;
  if (plugin.device_count(&counted) < 2) {
    WARN("not applicable: needs two CUDA devices");
    return;
  }
  hx_device* first = plugin.device(0);
  hx_device* second = plugin.device(1);
  const hx_plugin_api& api = plugin.api();
  hx_stream* producer = nullptr;
  hx_stream* consumer = nullptr;
  hx_event* written = nullptr;
  require_ok(DirectPlugin::outcome(api.stream_create(first, &producer)));
  require_ok(DirectPlugin::outcome(api.stream_create(second, &consumer)));
  require_ok(DirectPlugin::outcome(api.event_create(first, &written)));
  uint8_t* source = pinned_buffer(plugin, first, kBytes);
  uint8_t* result = pinned_buffer(plugin, second, kBytes);
  fill_pattern(source, kBytes);
  void* x = device_buffer(plugin, first, kBytes);
  void* y = device_buffer(plugin, second, kBytes);

  require_ok(DirectPlugin::outcome(api.copy_host_to_device(first, producer, x, source, kBytes)));
  require_ok(DirectPlugin::outcome(api.event_record(first, written, producer)));
  require_ok(DirectPlugin::outcome(api.stream_wait_event(second, consumer, written)));
  require_ok(
      DirectPlugin::outcome(api.copy_device_to_device(second, consumer, y, first, x, kBytes)));
  require_ok(DirectPlugin::outcome(api.copy_device_to_host(second, consumer, result, y, kBytes)));
  require_ok(DirectPlugin::outcome(api.stream_synchronize(second, consumer)));
  CHECK(std::memcmp(result, source, kBytes) == 0);

  api.deallocate(first, x, kBytes);
  api.deallocate(second, y, kBytes);
  api.host_deallocate(first, source);
  api.host_deallocate(second, result);
  api.event_destroy(first, written);
  api.stream_destroy(first, producer);
  api.stream_destroy(second, consumer);
}

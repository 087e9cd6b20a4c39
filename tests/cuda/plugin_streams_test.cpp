// Stream ordering and events across two streams, and across two GPUs where there are two,
// through the function table. All need a GPU.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

#include "plugin_direct.hpp"

using cuda_direct::device_buffer;
using cuda_direct::DirectPlugin;
using cuda_direct::require_ok;

namespace {

// Large enough that the copy is still running when the other stream is given its work.
constexpr size_t kBytes = size_t{256} << 20;

uint8_t* pinned_buffer(const DirectPlugin& plugin, hx_device* device, size_t size) {
  void* ptr = nullptr;
  require_ok(DirectPlugin::outcome(plugin.api().host_memory->allocate(device, size, &ptr)));
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
  require_ok(DirectPlugin::outcome(api.streams->create(device, &producer)));
  require_ok(DirectPlugin::outcome(api.streams->create(device, &consumer)));
  require_ok(DirectPlugin::outcome(api.events->create(device, &written)));

  uint8_t* source = pinned_buffer(plugin, device, kBytes);
  uint8_t* result = pinned_buffer(plugin, device, kBytes);
  fill_pattern(source, kBytes);
  std::memset(result, 0, kBytes);
  hx_buffer* x = device_buffer(plugin, device, kBytes);
  hx_buffer* y = device_buffer(plugin, device, kBytes);
  require_ok(DirectPlugin::outcome(api.memset(device, nullptr, y, 0, 0, kBytes)));

  // producer: host -> x; consumer: (wait) x -> y -> host. Only the consumer is synchronised.
  require_ok(
      DirectPlugin::outcome(api.copy_host_to_device(device, producer, x, 0, source, kBytes)));
  require_ok(DirectPlugin::outcome(api.events->record(device, written, producer)));
  require_ok(DirectPlugin::outcome(api.streams->wait_event(device, consumer, written)));
  require_ok(DirectPlugin::outcome(
      api.copy_device_to_device(device, consumer, y, 0, device, x, 0, kBytes)));
  require_ok(
      DirectPlugin::outcome(api.copy_device_to_host(device, consumer, result, y, 0, kBytes)));
  require_ok(DirectPlugin::outcome(api.streams->synchronize(device, consumer)));
  CHECK(std::memcmp(result, source, kBytes) == 0);

  // The event the consumer waited for has completed, and so has everything on the producer.
  bool done = false;
  require_ok(DirectPlugin::outcome(api.events->query(device, written, &done)));
  CHECK(done);
  require_ok(DirectPlugin::outcome(api.events->synchronize(device, written)));
  require_ok(DirectPlugin::outcome(api.streams->synchronize(device, producer)));
  done = false;
  require_ok(DirectPlugin::outcome(api.streams->query(device, producer, &done)));
  CHECK(done);

  api.deallocate(device, x, kBytes);
  api.deallocate(device, y, kBytes);
  api.host_memory->deallocate(device, source);
  api.host_memory->deallocate(device, result);
  api.events->destroy(device, written);
  api.streams->destroy(device, producer);
  api.streams->destroy(device, consumer);
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
  require_ok(DirectPlugin::outcome(api.streams->create(first, &producer)));
  require_ok(DirectPlugin::outcome(api.streams->create(second, &consumer)));
  require_ok(DirectPlugin::outcome(api.events->create(first, &written)));
  uint8_t* source = pinned_buffer(plugin, first, kBytes);
  uint8_t* result = pinned_buffer(plugin, second, kBytes);
  fill_pattern(source, kBytes);
  hx_buffer* x = device_buffer(plugin, first, kBytes);
  hx_buffer* y = device_buffer(plugin, second, kBytes);

  require_ok(DirectPlugin::outcome(api.copy_host_to_device(first, producer, x, 0, source, kBytes)));
  require_ok(DirectPlugin::outcome(api.events->record(first, written, producer)));
  require_ok(DirectPlugin::outcome(api.streams->wait_event(second, consumer, written)));
  require_ok(DirectPlugin::outcome(
      api.copy_device_to_device(second, consumer, y, 0, first, x, 0, kBytes)));
  require_ok(
      DirectPlugin::outcome(api.copy_device_to_host(second, consumer, result, y, 0, kBytes)));
  require_ok(DirectPlugin::outcome(api.streams->synchronize(second, consumer)));
  CHECK(std::memcmp(result, source, kBytes) == 0);

  api.deallocate(first, x, kBytes);
  api.deallocate(second, y, kBytes);
  api.host_memory->deallocate(first, source);
  api.host_memory->deallocate(second, result);
  api.events->destroy(first, written);
  api.streams->destroy(first, producer);
  api.streams->destroy(second, consumer);
}

// What the core's asynchronous execution relies on, through the function table (plugin_api.h,
// the stream section): the core reads a tensor on the host with a NULL-stream copy after
// waiting for the tensor's own event, so that copy must not wait for the rest of the device's
// queue. Needs a GPU.
#include <catch2/catch.hpp>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "plugin_direct.hpp"

using cuda_direct::device_buffer;
using cuda_direct::DirectPlugin;
using cuda_direct::require_ok;

namespace {

// 1 GiB each way: on an H200 (about 4.8 TB/s) one copy takes about 0.45 ms, so the queue below
// runs for about 0.2 s, hundreds of times what enqueuing it and one small read take.
constexpr size_t kBigBytes = size_t{1} << 30;
constexpr int kQueuedCopies = 400;

}  // namespace

TEST_CASE("Directly: a NULL-stream read does not wait for work queued on the plugin's streams",
          "[cuda][streams][async][gpu]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  CUDA_DIRECT_REQUIRE_GPU(plugin);
  hx_device* device = plugin.device(0);
  const hx_plugin_api& api = plugin.api();
  hx_stream* busy = nullptr;
  require_ok(DirectPlugin::outcome(api.streams->create(device, &busy)));

  // A small tensor written and completed before the queue is made.
  const std::vector<float> small = {1.5f, -2.0f, 3.25f, 4.0f};
  hx_buffer* small_buffer = device_buffer(plugin, device, sizeof(float) * small.size());
  require_ok(DirectPlugin::outcome(api.copy_host_to_device(
      device, nullptr, small_buffer, 0, small.data(), sizeof(float) * small.size())));

  hx_buffer* from = device_buffer(plugin, device, kBigBytes);
  hx_buffer* to = device_buffer(plugin, device, kBigBytes);
  require_ok(DirectPlugin::outcome(api.memset(device, busy, from, 0, 7, kBigBytes)));
  for (int i = 0; i < kQueuedCopies; ++i) {
    require_ok(DirectPlugin::outcome(
        api.copy_device_to_device(device, busy, to, 0, device, from, 0, kBigBytes)));
  }

  // The read completes before it returns, while the queue is still running: a read that
  // waited for the device (a blocking stream, or a device-wide synchronise) would find the
  // queue done.
  std::vector<float> read(small.size(), 0.0f);
  require_ok(DirectPlugin::outcome(api.copy_device_to_host(
      device, nullptr, read.data(), small_buffer, 0, sizeof(float) * read.size())));
  bool queue_done = true;
  require_ok(DirectPlugin::outcome(api.streams->query(device, busy, &queue_done)));
  CHECK_FALSE(queue_done);
  CHECK(read == small);

  require_ok(DirectPlugin::outcome(api.streams->synchronize(device, busy)));
  require_ok(DirectPlugin::outcome(api.streams->query(device, busy, &queue_done)));
  CHECK(queue_done);
  api.deallocate(device, from, kBigBytes);
  api.deallocate(device, to, kBigBytes);
  api.deallocate(device, small_buffer, sizeof(float) * small.size());
  api.streams->destroy(device, busy);
  CHECK(plugin.warnings().empty());
}

TEST_CASE("Directly: an event is reached at once on a stream without work, else after its queue",
          "[cuda][streams][async][gpu]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  CUDA_DIRECT_REQUIRE_GPU(plugin);
  hx_device* device = plugin.device(0);
  const hx_plugin_api& api = plugin.api();
  hx_stream* stream = nullptr;
  hx_event* marked = nullptr;
  require_ok(DirectPlugin::outcome(api.streams->create(device, &stream)));
  require_ok(DirectPlugin::outcome(api.events->create(device, &marked)));
  // An event recorded on a stream that never had work is reached at once, with no context.
  require_ok(DirectPlugin::outcome(api.events->record(device, marked, stream)));
  bool done = false;
  require_ok(DirectPlugin::outcome(api.events->query(device, marked, &done)));
  CHECK(done);

  hx_buffer* from = device_buffer(plugin, device, kBigBytes);
  hx_buffer* to = device_buffer(plugin, device, kBigBytes);
  require_ok(DirectPlugin::outcome(api.memset(device, stream, from, 0, 1, kBigBytes)));
  for (int i = 0; i < kQueuedCopies; ++i) {
    require_ok(DirectPlugin::outcome(
        api.copy_device_to_device(device, stream, to, 0, device, from, 0, kBigBytes)));
  }
  require_ok(DirectPlugin::outcome(api.events->record(device, marked, stream)));
  // The event's point is behind the queue: not reached yet, and waiting for it is what
  // completes it.
  require_ok(DirectPlugin::outcome(api.events->query(device, marked, &done)));
  CHECK_FALSE(done);
  require_ok(DirectPlugin::outcome(api.events->synchronize(device, marked)));
  require_ok(DirectPlugin::outcome(api.events->query(device, marked, &done)));
  CHECK(done);

  api.deallocate(device, from, kBigBytes);
  api.deallocate(device, to, kBigBytes);
  api.events->destroy(device, marked);
  api.streams->destroy(device, stream);
  CHECK(plugin.warnings().empty());
}

TEST_CASE("Directly: the plugin's streams do not wait for the legacy default stream",
          "[cuda][streams][async][gpu]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  CUDA_DIRECT_REQUIRE_GPU(plugin);
  hx_device* device = plugin.device(0);
  const hx_plugin_api& api = plugin.api();
  // A long queue on the legacy default stream, enqueued by this test's own CUDA runtime: the
  // plugin's runtime shares the device's primary context, and so its legacy stream. Work on a
  // blocking stream would wait for all of it.
  REQUIRE(cudaSetDevice(0) == cudaSuccess);
  void* from = nullptr;
  void* to = nullptr;
  REQUIRE(cudaMalloc(&from, kBigBytes) == cudaSuccess);
  REQUIRE(cudaMalloc(&to, kBigBytes) == cudaSuccess);
  REQUIRE(cudaMemsetAsync(from, 3, kBigBytes, cudaStreamLegacy) == cudaSuccess);
  for (int i = 0; i < kQueuedCopies; ++i) {
    REQUIRE(cudaMemcpyAsync(to, from, kBigBytes, cudaMemcpyDeviceToDevice, cudaStreamLegacy) ==
            cudaSuccess);
  }

  hx_stream* stream = nullptr;
  require_ok(DirectPlugin::outcome(api.streams->create(device, &stream)));
  const std::vector<float> values = {1.0f, 2.0f};
  std::vector<float> read(values.size(), 0.0f);
  hx_buffer* buffer = device_buffer(plugin, device, sizeof(float) * values.size());
  require_ok(DirectPlugin::outcome(api.copy_host_to_device(device, stream, buffer, 0,
                                                           values.data(),
                                                           sizeof(float) * values.size())));
  require_ok(DirectPlugin::outcome(
      api.copy_device_to_host(device, stream, read.data(), buffer, 0, sizeof(float) * read.size())));
  require_ok(DirectPlugin::outcome(api.streams->synchronize(device, stream)));
  CHECK(cudaStreamQuery(cudaStreamLegacy) == cudaErrorNotReady);
  CHECK(read == values);

  REQUIRE(cudaStreamSynchronize(cudaStreamLegacy) == cudaSuccess);
  REQUIRE(cudaFree(from) == cudaSuccess);
  REQUIRE(cudaFree(to) == cudaSuccess);
  api.deallocate(device, buffer, sizeof(float) * values.size());
  api.streams->destroy(device, stream);
  CHECK(plugin.warnings().empty());
}

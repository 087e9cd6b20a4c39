// The sim plugin as an asynchronous device, through its function table: work on a stream runs
// on the stream's worker after the call returned, in order; events and cross-device waits
// follow real completion; the performance model makes work take its time on each device at
// once; a buffer freed under queued work is reported and outlives that work. The modelled
// times are large (hundreds of ms) so that "not done yet" holds on a loaded machine, and the
// bounds on elapsed time are loose: the test measures ordering by data, not by the clock.
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "async_rig.hpp"
#include "direct_plugin.hpp"
#include "sim_direct.hpp"

using hxrt_test::DirectPlugin;
using hxrt_test::KernelInstance;
using hxrt_test::View;

using sim_async::code;
using sim_async::kSim;
using sim_async::Rig;

using sim_direct::Clock;
using sim_direct::elapsed_ms;

TEST_CASE("Async sim: work on a stream completes after the call returns, in order",
          "[sim][direct][async]") {
  // Every copy into the device takes 300 ms by the model.
  const Rig rig(R"("h2d_latency_us": 300000)");
  hx_buffer* buffer = rig.plugin.allocate(rig.device[0], 16, 256);
  std::vector<float> host = {0, 0, 0, 0};

  const Clock::time_point start = Clock::now();
  rig.to_device(0, buffer, {1, 2, 3, 4});
  rig.to_host(0, buffer, host);
  CHECK(elapsed_ms(start) < 250);  // the caller did not run the modelled copy
  CHECK_FALSE(rig.stream_done(0));
  CHECK(host == std::vector<float>{0, 0, 0, 0});  // the read-back is queued behind the copy

  rig.synchronize(0);
  CHECK(elapsed_ms(start) >= 300);
  CHECK(rig.stream_done(0));
  CHECK(host == std::vector<float>{1, 2, 3, 4});
  rig.api().deallocate(rig.device[0], buffer, 16);
}

TEST_CASE("Async sim: a NULL stream still completes before the call returns, taking its time",
          "[sim][direct][async]") {
  const Rig rig(R"("d2h_latency_us": 100000)");
  hx_buffer* buffer = rig.plugin.allocate(rig.device[0], 16, 256);
  rig.plugin.upload(rig.device[0], buffer, 0, {5, 6, 7, 8});
  const Clock::time_point start = Clock::now();
  CHECK(rig.plugin.download(rig.device[0], buffer, 0, 4) == std::vector<float>{5, 6, 7, 8});
  CHECK(elapsed_ms(start) >= 100);
  rig.api().deallocate(rig.device[0], buffer, 16);
}

TEST_CASE("Async sim: a stream keeps its order under random completion delays",
          "[sim][direct][async]") {
  const Rig rig(R"("random_delay_us": 2000, "random_seed": 7)");
  const hx_plugin_api& api = rig.api();
  hx_buffer* buffer = rig.plugin.allocate(rig.device[0], 16, 256);
  hx_buffer* copy = rig.plugin.allocate(rig.device[0], 16, 256);
  // Each round overwrites the buffer, copies it within the device and zeroes the source: a
  // reordering of any two items shows in the final values.
  std::vector<std::vector<float>> rounds;
  for (float round = 1; round <= 20; ++round) rounds.push_back({round, round, round, round});
  for (const std::vector<float>& values : rounds) {
    rig.to_device(0, buffer, values);
    REQUIRE(code(api.copy_device_to_device(rig.device[0], rig.stream[0], copy, 0, rig.device[0],
                                           buffer, 0, 16)) == HX_OK);
    REQUIRE(code(api.memset(rig.device[0], rig.stream[0], buffer, 0, 0, 16)) == HX_OK);
  }
  std::vector<float> copied(4), zeroed(4, -1);
  rig.to_host(0, copy, copied);
  rig.to_host(0, buffer, zeroed);
  rig.synchronize(0);
  CHECK(copied == rounds.back());
  CHECK(zeroed == std::vector<float>{0, 0, 0, 0});
  api.deallocate(rig.device[0], buffer, 16);
  api.deallocate(rig.device[0], copy, 16);
}

TEST_CASE("Async sim: an event marks a point of its stream", "[sim][direct][async]") {
  const Rig rig(R"("h2d_latency_us": 300000)");
  const hx_event_api& events = *rig.api().events;
  hx_device* device = rig.device[0];
  hx_event* event = nullptr;
  REQUIRE(code(events.create(device, &event)) == HX_OK);
  bool done = false;
  CHECK(code(events.query(device, event, &done)) == HX_OK);
  CHECK(done);  // never recorded

  hx_buffer* buffer = rig.plugin.allocate(device, 16, 256);
  std::vector<float> host(4);
  rig.to_device(0, buffer, {1, 2, 3, 4});
  rig.to_host(0, buffer, host);
  REQUIRE(code(events.record(device, event, rig.stream[0])) == HX_OK);
  CHECK(code(events.query(device, event, &done)) == HX_OK);
  CHECK_FALSE(done);
  REQUIRE(code(events.synchronize(device, event)) == HX_OK);
  CHECK(host == std::vector<float>{1, 2, 3, 4});  // all work before the point has run
  CHECK(code(events.query(device, event, &done)) == HX_OK);
  CHECK(done);

  // Recorded on a NULL stream, whose work is done when its call returns: complete at once.
  rig.to_device(0, buffer, {9, 9, 9, 9});
  REQUIRE(code(events.record(device, event, nullptr)) == HX_OK);
  CHECK(code(events.query(device, event, &done)) == HX_OK);
  CHECK(done);
  rig.synchronize(0);
  events.destroy(device, event);
  rig.api().deallocate(device, buffer, 16);
}

TEST_CASE("Async sim: a stream waiting for another device's event runs after that event",
          "[sim][direct][async]") {
  const Rig rig(R"("h2d_latency_us": 300000)", 2);
  const hx_plugin_api& api = rig.api();
  hx_buffer* source = rig.plugin.allocate(rig.device[0], 16, 256);
  hx_buffer* target = rig.plugin.allocate(rig.device[1], 16, 256);
  rig.plugin.upload(rig.device[0], source, 0, {0, 0, 0, 0});
  rig.plugin.upload(rig.device[1], target, 0, {0, 0, 0, 0});
  hx_event* written = nullptr;
  REQUIRE(code(api.events->create(rig.device[0], &written)) == HX_OK);

  // Device 0 writes its buffer (300 ms); device 1 waits for that, then copies it over.
  rig.to_device(0, source, {1, 2, 3, 4});
  REQUIRE(code(api.events->record(rig.device[0], written, rig.stream[0])) == HX_OK);
  REQUIRE(code(api.streams->wait_event(rig.device[1], rig.stream[1], written)) == HX_OK);
  // Re-recording the event later does not move the wait already enqueued.
  REQUIRE(code(api.events->record(rig.device[0], written, nullptr)) == HX_OK);
  REQUIRE(code(api.copy_device_to_device(rig.device[1], rig.stream[1], target, 0, rig.device[0],
                                         source, 0, 16)) == HX_OK);
  std::vector<float> host(4);
  REQUIRE(code(api.copy_device_to_host(rig.device[1], rig.stream[1], host.data(), target, 0,
                                       16)) == HX_OK);
  CHECK_FALSE(rig.stream_done(1));  // held by device 0's work
  rig.synchronize(1);
  CHECK(host == std::vector<float>{1, 2, 3, 4});
  api.events->destroy(rig.device[0], written);
  rig.synchronize(0);
  api.deallocate(rig.device[0], source, 16);
  api.deallocate(rig.device[1], target, 16);
}

TEST_CASE("Async sim: two devices run their modelled work at the same time",
          "[sim][direct][async]") {
  // An 8x8 MatMul is 2 * 8^3 = 1024 flops: at 5.12e-6 GFLOP/s it takes 200 ms.
  const Rig rig(R"("matmul_gflops": 5.12e-6)", 2);
  std::vector<hx_buffer*> buffers;
  std::vector<std::unique_ptr<KernelInstance>> matmuls;
  std::vector<float> identity(64, 0), ramp(64), result0(64), result1(64);
  for (int i = 0; i < 8; ++i) identity[i * 9] = 1;
  for (int i = 0; i < 64; ++i) ramp[i] = static_cast<float>(i);
  for (int d = 0; d < 2; ++d) {
    for (const std::vector<float>* values : {&identity, &ramp, &identity}) {
      buffers.push_back(rig.plugin.allocate(rig.device[d], 256, 256));
      rig.plugin.upload(rig.device[d], buffers.back(), 0, *values);
    }
    matmuls.push_back(std::make_unique<KernelInstance>(
        rig.plugin.kernel("MatMul"), rig.device[d],
        std::vector<int32_t>{HX_DTYPE_F32, HX_DTYPE_F32}, std::vector<int32_t>{HX_DTYPE_F32}));
  }
  const Clock::time_point start = Clock::now();
  for (int d = 0; d < 2; ++d) {
    hx_buffer* const* operands = &buffers[static_cast<size_t>(d) * 3];
    const View a(operands[0], 0, rig.device[d], {8, 8});
    const View b(operands[1], 0, rig.device[d], {8, 8});
    const View c(operands[2], 0, rig.device[d], {8, 8});
    REQUIRE(matmuls[d]->compute(rig.device[d], rig.stream[d], {a, b}, {c}).code == HX_OK);
  }
  rig.to_host(0, buffers[2], result0);
  rig.to_host(1, buffers[5], result1);
  rig.synchronize(0);
  rig.synchronize(1);
  const double took = elapsed_ms(start);
  CHECK(took >= 200);
  CHECK(took < 380);  // one after the other would take 400 ms
  CHECK(result0 == ramp);
  CHECK(result1 == ramp);
  matmuls.clear();
  for (size_t i = 0; i < buffers.size(); ++i) {
    rig.api().deallocate(rig.device[i / 3], buffers[i], 256);
  }
}

TEST_CASE("Async sim: a buffer freed under queued work is reported and outlives the work",
          "[sim][direct][async]") {
  const Rig rig(R"("h2d_latency_us": 200000)");
  hx_device* device = rig.device[0];
  uint64_t free_before = 0, free_now = 0, total = 0;
  REQUIRE(code(rig.api().memory_info(device, &free_before, &total)) == HX_OK);
  hx_buffer* buffer = rig.plugin.allocate(device, 1024, 256);
  rig.to_device(0, buffer, std::vector<float>(256, 1));
  rig.api().deallocate(device, buffer, 1024);  // misuse: the copy is still queued
  REQUIRE(rig.plugin.warnings().size() == 1);
  CHECK_THAT(rig.plugin.warnings()[0],
             Catch::Contains("while work queued on a stream still uses it"));
  REQUIRE(code(rig.api().memory_info(device, &free_now, &total)) == HX_OK);
  CHECK(free_now == free_before - 1024);  // still held for the copy
  rig.synchronize(0);                     // the copy ran into live memory (ASan would tell)
  REQUIRE(code(rig.api().memory_info(device, &free_now, &total)) == HX_OK);
  CHECK(free_now == free_before);
}

TEST_CASE("Async sim: a destroyed stream finishes its work first", "[sim][direct][async]") {
  DirectPlugin plugin(kSim, R"({"device_count": 1, "memory_mb": 1, "h2d_latency_us": 100000})");
  REQUIRE(plugin.init_outcome().code == HX_OK);
  hx_device* device = plugin.device(0);
  hx_stream* stream = nullptr;
  REQUIRE(code(plugin.api().streams->create(device, &stream)) == HX_OK);
  hx_buffer* buffer = plugin.allocate(device, 16, 256);
  const std::vector<float> values = {4, 3, 2, 1};
  std::vector<float> host(4);
  REQUIRE(code(plugin.api().copy_host_to_device(device, stream, buffer, 0, values.data(), 16)) ==
          HX_OK);
  REQUIRE(code(plugin.api().copy_device_to_host(device, stream, host.data(), buffer, 0, 16)) ==
          HX_OK);
  plugin.api().streams->destroy(device, stream);
  CHECK(host == values);
  plugin.api().deallocate(device, buffer, 16);
}

TEST_CASE("Async sim: the performance model's options are checked", "[sim][direct][async]") {
  struct Case {
    const char* options;
    const char* says;
  };
  const Case cases[] = {
      {R"({"matmul_gflops": -1})", "option 'matmul_gflops': expected a number from 0 (none)"},
      {R"({"elementwise_gbps": "fast"})", "option 'elementwise_gbps': expected a number"},
      {R"({"h2d_latency_us": 1e8})",
       "option 'h2d_latency_us': expected a number from 0 (none) to 1e+07"},
      {R"({"d2h_gbps": true})", "option 'd2h_gbps'"},
      {R"({"d2d_latency_us": -0.5})", "option 'd2d_latency_us'"},
      {R"({"launch_latency_us": null})", "option 'launch_latency_us'"},
      {R"({"random_delay_us": -1})", "option 'random_delay_us'"},
      {R"({"random_seed": -3})", "option 'random_seed': expected an integer"},
      {R"({"h2d_bandwidth": 1})", "the options are device_type"},
  };
  for (const Case& bad : cases) {
    INFO(bad.options);
    const DirectPlugin plugin(kSim, bad.options);
    CHECK(plugin.init_outcome().code == HX_INVALID_ARGUMENT);
    CHECK_THAT(plugin.init_outcome().message, Catch::Contains(bad.says));
  }
  const DirectPlugin accepted(
      kSim, R"({"matmul_gflops": 100, "elementwise_gbps": 0.5, "launch_latency_us": 5,
                "h2d_gbps": 12, "h2d_latency_us": 10, "d2h_gbps": 12, "d2h_latency_us": 10,
                "d2d_gbps": 50, "d2d_latency_us": 3, "random_delay_us": 0, "random_seed": 1})");
  CHECK(accepted.init_outcome().code == HX_OK);
}

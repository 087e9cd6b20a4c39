// Devices that differ (option "devices"): each entry overrides the plugin-level memory_mb and
// performance model for its device, and the rest keep the plugin-level figures. Timings are
// checked with large modelled differences (a few ms against 120 ms and more) and loose bounds,
// so that the checks hold on a loaded machine.
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "async_rig.hpp"
#include "byte_sizes.hpp"
#include "direct_plugin.hpp"
#include "sim_direct.hpp"

using hxrt_test::DirectPlugin;
using hxrt_test::KernelInstance;
using hxrt_test::Outcome;
using hxrt_test::View;

using sim_async::code;
using sim_async::kSim;
using sim_async::Rig;

using sim_direct::Clock;
using sim_direct::elapsed_ms;

namespace {

using hxrt_test::kMiB;

// How long `action` takes, in ms.
template <typename Action>
double time_ms(Action action) {
  const Clock::time_point start = Clock::now();
  action();
  return elapsed_ms(start);
}

// An 8x8 MatMul (2 * 8^3 = 1024 flops) by identity on `device`, on a NULL stream, so that it
// has taken its modelled time when the call returns; returns how long it took, in ms.
double timed_matmul(const Rig& rig, int device) {
  hx_device* const on = rig.device[static_cast<size_t>(device)];
  std::vector<float> identity(64, 0), ramp(64);
  for (int i = 0; i < 8; ++i) identity[i * 9] = 1;
  for (int i = 0; i < 64; ++i) ramp[i] = static_cast<float>(i);
  hx_buffer* a = rig.plugin.allocate(on, 256, 256);
  hx_buffer* b = rig.plugin.allocate(on, 256, 256);
  hx_buffer* c = rig.plugin.allocate(on, 256, 256);
  rig.plugin.upload(on, a, 0, identity);
  rig.plugin.upload(on, b, 0, ramp);
  KernelInstance matmul(rig.plugin.kernel("MatMul"), on,
                        std::vector<int32_t>{HX_DTYPE_F32, HX_DTYPE_F32},
                        std::vector<int32_t>{HX_DTYPE_F32});
  const View va(a, 0, on, {8, 8}), vb(b, 0, on, {8, 8}), vc(c, 0, on, {8, 8});
  const double took =
      time_ms([&] { REQUIRE(matmul.compute(on, nullptr, {va, vb}, {vc}).code == HX_OK); });
  CHECK(rig.plugin.download(on, c, 0, 64) == ramp);
  for (hx_buffer* buffer : {a, b, c}) rig.api().deallocate(on, buffer, 256);
  return took;
}

}  // namespace

TEST_CASE("Sim devices: each device's memory_mb sets its memory, the others keep the plugin's",
          "[sim][direct][devices]") {
  const DirectPlugin plugin(
      kSim, R"({"memory_mb": 4, "devices": [{"memory_mb": 1}, {}, {"memory_mb": 16}]})");
  REQUIRE(plugin.init_outcome().code == HX_OK);
  Outcome counted;
  REQUIRE(plugin.device_count(&counted) == 3);  // the list sets the count
  const uint64_t expected[] = {1 * kMiB, 4 * kMiB, 16 * kMiB};
  for (int32_t ordinal = 0; ordinal < 3; ++ordinal) {
    INFO("device " << ordinal);
    hx_device* device = plugin.device(ordinal);
    CHECK(plugin.properties(device).memory_total == expected[ordinal]);
    uint64_t free = 0, total = 0;
    REQUIRE(code(plugin.api().memory_info(device, &free, &total)) == HX_OK);
    CHECK(total == expected[ordinal]);
  }

  // 2 MiB does not fit on device 0, and its refusal gives the device's own memory_mb.
  hx_buffer* refused = nullptr;
  const Outcome over =
      DirectPlugin::outcome(plugin.api().allocate(plugin.device(0), 2 * kMiB, 256, &refused));
  CHECK(over.code == HX_OUT_OF_MEMORY);
  CHECK_THAT(over.message, Catch::Contains("memory_mb is 1)"));
  hx_buffer* fits = plugin.allocate(plugin.device(1), 2 * kMiB, 256);
  plugin.api().deallocate(plugin.device(1), fits, 2 * kMiB);
}

TEST_CASE("Sim devices: a MatMul takes each device's own time", "[sim][direct][devices]") {
  // 1024 flops: at 5.12e-4 GFLOP/s 2 ms, at the plugin-level 8.53e-6 GFLOP/s 120 ms.
  const Rig rig(R"("matmul_gflops": 8.5333e-6, "devices": [{"matmul_gflops": 5.12e-4}, {}])",
                2);
  const double fast = timed_matmul(rig, 0);
  const double slow = timed_matmul(rig, 1);
  INFO("device 0 took " << fast << " ms, device 1 " << slow << " ms");
  CHECK(slow >= 120);
  CHECK(fast < 60);
}

TEST_CASE("Sim devices: an op's own figures (op_models) replace the device's for that op",
          "[sim][direct][devices]") {
  // 1024 flops. The device-wide figure would take 2 ms; MatMul's own plugin-level figure
  // 120 ms, and device 0's entry gives MatMul 2 ms again.
  const Rig rig(R"("matmul_gflops": 5.12e-4, "op_models": {"MatMul": {"gflops": 8.5333e-6}},
                   "devices": [{"op_models": {"MatMul": {"gflops": 5.12e-4}}}, {}])",
                2);
  const double fast = timed_matmul(rig, 0);
  const double slow = timed_matmul(rig, 1);
  INFO("device 0 took " << fast << " ms, device 1 " << slow << " ms");
  CHECK(slow >= 120);
  CHECK(fast < 60);
}

TEST_CASE("Sim devices: copies and memsets take each device's own time",
          "[sim][direct][devices]") {
  const Rig rig(R"("devices": [{}, {"h2d_latency_us": 150000, "d2h_latency_us": 150000,
                                    "launch_latency_us": 150000}])",
                2);
  for (int on = 0; on < 2; ++on) {
    INFO("device " << on);
    hx_device* device = rig.device[static_cast<size_t>(on)];
    hx_buffer* buffer = rig.plugin.allocate(device, 16, 256);
    const double upload = time_ms([&] { rig.plugin.upload(device, buffer, 0, {1, 2, 3, 4}); });
    std::vector<float> values;
    const double download = time_ms([&] { values = rig.plugin.download(device, buffer, 0, 4); });
    CHECK(values == std::vector<float>{1, 2, 3, 4});
    const double memset = time_ms([&] {
      REQUIRE(code(rig.api().memset(device, nullptr, buffer, 0, 0, 16)) == HX_OK);
    });
    INFO("upload " << upload << " ms, download " << download << " ms, memset " << memset);
    if (on == 0) {
      CHECK(upload < 100);
      CHECK(download < 100);
      CHECK(memset < 100);
    } else {
      CHECK(upload >= 150);
      CHECK(download >= 150);
      CHECK(memset >= 150);
    }
    rig.api().deallocate(device, buffer, 16);
  }
}

TEST_CASE("Sim devices: a copy between two devices takes the slower device's d2d time",
          "[sim][direct][devices]") {
  const Rig rig(R"("devices": [{"d2d_gbps": 1000}, {"d2d_latency_us": 150000}])", 2);
  const hx_plugin_api& api = rig.api();
  hx_buffer* fast_a = rig.plugin.allocate(rig.device[0], 16, 256);
  hx_buffer* fast_b = rig.plugin.allocate(rig.device[0], 16, 256);
  hx_buffer* slow = rig.plugin.allocate(rig.device[1], 16, 256);
  rig.plugin.upload(rig.device[0], fast_a, 0, {1, 2, 3, 4});
  // On a NULL stream each copy has run when its call returns.
  const auto copy = [&](int to, hx_buffer* target, int from, const hx_buffer* source) {
    return time_ms([&] {
      REQUIRE(code(api.copy_device_to_device(rig.device[static_cast<size_t>(to)], nullptr,
                                             target, 0, rig.device[static_cast<size_t>(from)],
                                             source, 0, 16)) == HX_OK);
    });
  };
  const double within_fast = copy(0, fast_b, 0, fast_a);
  const double into_slow = copy(1, slow, 0, fast_b);
  rig.plugin.upload(rig.device[1], slow, 0, {5, 6, 7, 8});
  // Queued on the fast device, whose own figures would make it quick: the slow end holds it.
  const double from_slow = copy(0, fast_a, 1, slow);
  INFO("within device 0 " << within_fast << " ms, 0 to 1 " << into_slow << " ms, 1 to 0 "
                          << from_slow << " ms");
  CHECK(within_fast < 100);
  CHECK(into_slow >= 150);
  CHECK(from_slow >= 150);
  CHECK(rig.plugin.download(rig.device[0], fast_b, 0, 4) == std::vector<float>{1, 2, 3, 4});
  CHECK(rig.plugin.download(rig.device[0], fast_a, 0, 4) == std::vector<float>{5, 6, 7, 8});
  api.deallocate(rig.device[0], fast_a, 16);
  api.deallocate(rig.device[0], fast_b, 16);
  api.deallocate(rig.device[1], slow, 16);
}

TEST_CASE("Sim devices: device_count beside devices must agree with the list's length",
          "[sim][direct][devices]") {
  const DirectPlugin agreeing(kSim, R"({"device_count": 2, "devices": [{}, {"memory_mb": 2}]})");
  REQUIRE(agreeing.init_outcome().code == HX_OK);
  Outcome counted;
  CHECK(agreeing.device_count(&counted) == 2);
  CHECK(agreeing.properties(agreeing.device(1)).memory_total == 2 * kMiB);

  const DirectPlugin disagreeing(kSim, R"({"device_count": 3, "devices": [{}, {}]})");
  CHECK(disagreeing.init_outcome().code == HX_INVALID_ARGUMENT);
  CHECK(disagreeing.init_outcome().message ==
        "sim plugin options 'device_count' and 'devices' disagree: device_count is 3 but "
        "devices lists 2 devices; the list sets the device count, so leave device_count out or "
        "make it match");
}

TEST_CASE("Sim devices: a bad entry in devices is refused, naming its option path",
          "[sim][direct][devices]") {
  std::string too_many = R"({"devices": [{})";
  for (int i = 1; i <= 1024; ++i) too_many += ", {}";
  too_many += "]}";
  struct Case {
    std::string options;
    const char* says;
  };
  const Case cases[] = {
      {R"({"devices": {"memory_mb": 1}})",
       "sim plugin option 'devices': expected a list of 1 to 1024 objects, one per device, got "
       "{\"memory_mb\":1}"},
      {R"({"devices": []})",
       "sim plugin option 'devices': expected a list of 1 to 1024 objects, one per device, got "
       "[]"},
      {too_many, "sim plugin option 'devices': expected a list of 1 to 1024 objects"},
      {R"({"devices": [{}, 3]})",
       "sim plugin option 'devices[1]': expected an object of the device's own options "
       "(memory_mb, the performance model's figures), got 3"},
      {R"({"devices": [{}, {}, {"matmul_gflops": "fast"}]})",
       "sim plugin option 'devices[2].matmul_gflops': expected a number from 0 (none) to 1e+09, "
       "got \"fast\""},
      {R"({"devices": [{"d2d_latency_us": -1}]})",
       "sim plugin option 'devices[0].d2d_latency_us': expected a number from 0 (none) to "
       "1e+07, got -1"},
      {R"({"devices": [{"random_delay_us": 1e8}]})",
       "sim plugin option 'devices[0].random_delay_us': expected a number from 0 (none) to "
       "1e+07"},
      {R"({"devices": [{}, {"memory_mb": 0}]})",
       "sim plugin option 'devices[1].memory_mb': expected an integer from 1 to"},
      {R"({"devices": [{"memroy_mb": 8}]})",
       "sim plugin option 'devices[0]': unknown key 'memroy_mb'; a device's keys are memory_mb, "
       "op_models, matmul_gflops, elementwise_gbps, launch_latency_us, h2d_gbps, h2d_latency_us, "
       "d2h_gbps, d2h_latency_us, d2d_gbps, d2d_latency_us, random_delay_us, host_launch_us, "
       "host_replay_us; the other options are plugin-wide"},
      {R"({"devices": [{"device_type": "GPU"}]})",
       "sim plugin option 'devices[0]': unknown key 'device_type'"},
      {R"({"devices": [{"random_seed": 3}]})",
       "sim plugin option 'devices[0].random_seed': the random seed is plugin-wide: set "
       "random_seed beside \"devices\""},
      // The plugin-level figures are still checked, and named without a path.
      {R"({"devices": [{}], "h2d_gbps": "x"})", "sim plugin option 'h2d_gbps': expected"},
      {R"({"device": [{}]})",
       "sim plugin options: unknown option 'device'; the options are device_type, "
       "device_count, devices, memory_mb"},
  };
  for (const Case& bad : cases) {
    INFO(bad.options.substr(0, 120));
    const DirectPlugin plugin(kSim, bad.options);
    CHECK(plugin.init_outcome().code == HX_INVALID_ARGUMENT);
    CHECK_THAT(plugin.init_outcome().message, Catch::StartsWith(bad.says));
  }
}

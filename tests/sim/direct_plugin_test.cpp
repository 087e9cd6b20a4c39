// The sim plugin's own checks, through its function table: memory budgets to the byte, buffer
// handles that are ids rather than addresses, device memory reached only through the copy
// functions at (buffer, offset), streams and events as checked handles, and kernels that refuse
// operands outside their device's buffers.
#include "direct_plugin.hpp"

#include <hxrt/sim_counters.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <vector>

#include "abi_text.hpp"
#include "byte_sizes.hpp"
#include "sim_direct.hpp"

using hxrt_test::DirectPlugin;
using hxrt_test::KernelInstance;
using hxrt_test::Outcome;
using hxrt_test::View;

using sim_direct::kSim;
using sim_direct::reset_transfer_counts;
using sim_direct::transfer_counts;

namespace {

constexpr const char* kTwoDevices = R"({"device_count": 2, "memory_mb": 1})";
using hxrt_test::kMiB;

uint64_t free_bytes(const DirectPlugin& plugin, hx_device* device) {
  uint64_t free = 0, total = 0;
  REQUIRE(DirectPlugin::outcome(plugin.api().memory_info(device, &free, &total)).code == HX_OK);
  CHECK(total == kMiB);
  return free;
}

hx_buffer* shifted(hx_buffer* buffer, uintptr_t bytes) {
  return reinterpret_cast<hx_buffer*>(reinterpret_cast<uintptr_t>(buffer) + bytes);
}

}  // namespace

TEST_CASE("Directly: the sim plugin refuses a core of another ABI major", "[sim][direct]") {
  const DirectPlugin plugin(kSim, kTwoDevices, HX_ABI_VERSION_MAJOR + 1);
  CHECK(plugin.init_outcome().code == HX_FAILED_PRECONDITION);
  CHECK_THAT(plugin.init_outcome().message,
             Catch::Contains("plugin 'sim' speaks ABI " + abi_text()) &&
                 Catch::Contains("core speaks " + abi_text(HX_ABI_VERSION_MAJOR + 1)));
}

TEST_CASE("Directly: device count and ordinals", "[sim][direct]") {
  SECTION("no devices is UNAVAILABLE with the reason") {
    const DirectPlugin plugin(kSim, "{}");
    REQUIRE(plugin.init_outcome().code == HX_OK);
    int32_t count = -1;
    const Outcome got =
        DirectPlugin::outcome(plugin.api().device_count(plugin.api().plugin, &count));
    CHECK(got.code == HX_UNAVAILABLE);
    CHECK(got.message == "no simulated devices configured: set plugins.options.sim.device_count");
    CHECK(count == 0);
  }
  SECTION("an ordinal past the count is OUT_OF_RANGE") {
    const DirectPlugin plugin(kSim, kTwoDevices);
    REQUIRE(plugin.init_outcome().code == HX_OK);
    int32_t count = -1;
    CHECK(DirectPlugin::outcome(plugin.api().device_count(plugin.api().plugin, &count)).code ==
          HX_OK);
    CHECK(count == 2);
    hx_device* device = nullptr;
    for (const int32_t ordinal : {2, -1}) {
      CHECK(DirectPlugin::outcome(plugin.api().device_get(plugin.api().plugin, ordinal, &device))
                .code == HX_OUT_OF_RANGE);
    }
    CHECK(plugin.device(0) != plugin.device(1));
  }
}

TEST_CASE("Directly: the sim devices describe themselves as their options say", "[sim][direct]") {
  SECTION("by default: device memory, a discrete accelerator, no allocation limit, 256 bytes") {
    const DirectPlugin plugin(kSim, kTwoDevices);
    REQUIRE(plugin.init_outcome().code == HX_OK);
    const hx_device_properties props = plugin.properties(plugin.device(0));
    CHECK(props.memory_kind == HX_MEMORY_DEVICE);
    CHECK(props.placement_class == HX_PLACEMENT_DISCRETE_ACCELERATOR);
    CHECK(props.max_allocation == 0);
    CHECK(props.alignment == 256);
    CHECK(props.memory_total == kMiB);
    CHECK(plugin.api().memory_info != nullptr);
    CHECK(plugin.api().streams != nullptr);
    CHECK(plugin.api().events != nullptr);
    CHECK(plugin.api().host_memory != nullptr);  // pinned_memory is true by default
  }
  SECTION("a host accelerator with a 64 KiB allocation limit, 64-byte alignment, no free memory") {
    const DirectPlugin plugin(kSim,
                              R"({"device_count": 1, "placement_class": "host_accelerator",
                                  "max_allocation": 65536, "alignment": 64,
                                  "report_memory": false})");
    REQUIRE(plugin.init_outcome().code == HX_OK);
    hx_device* const device = plugin.device(0);
    const hx_device_properties props = plugin.properties(device);
    CHECK(props.placement_class == HX_PLACEMENT_HOST_ACCELERATOR);
    CHECK(props.max_allocation == 65536);
    CHECK(props.alignment == 64);
    CHECK(plugin.api().memory_info == nullptr);

    hx_buffer* largest = plugin.allocate(device, 65536, 64);
    hx_buffer* refused = nullptr;
    const Outcome too_large =
        DirectPlugin::outcome(plugin.api().allocate(device, 65537, 64, &refused));
    CHECK(too_large.code == HX_INVALID_ARGUMENT);
    CHECK_THAT(too_large.message, Catch::Contains("65537 bytes exceed the device's "
                                                  "max_allocation of 65536 bytes"));
    const Outcome over_aligned =
        DirectPlugin::outcome(plugin.api().allocate(device, 64, 128, &refused));
    CHECK(over_aligned.code == HX_INVALID_ARGUMENT);
    CHECK_THAT(over_aligned.message, Catch::Contains("alignment 128 is not a power of two up to "
                                                     "the 64 the device declares"));
    CHECK(refused == nullptr);
    plugin.api().deallocate(device, largest, 65536);
  }
  SECTION("options of the wrong kind are refused, naming the option") {
    struct Bad {
      const char* options;
      const char* says;
    };
    const Bad bad[] = {
        {R"({"placement_class": "gpu"})", "sim plugin option 'placement_class': expected "
                                          "\"discrete_accelerator\", \"host_accelerator\" or "
                                          "\"cpu\", got \"gpu\""},
        {R"({"max_allocation": 0})", "option 'max_allocation': expected a number of bytes"},
        {R"({"alignment": 96})", "option 'alignment': expected a power of two from 1 to 4096"},
        {R"({"alignment": 8192})", "option 'alignment': expected a power of two from 1 to 4096"},
        {R"({"report_memory": 1})", "option 'report_memory': expected true or false"},
    };
    for (const Bad& b : bad) {
      INFO(b.options);
      const DirectPlugin plugin(kSim, b.options);
      CHECK(plugin.init_outcome().code == HX_INVALID_ARGUMENT);
      CHECK_THAT(plugin.init_outcome().message, Catch::Contains(b.says));
    }
  }
}

TEST_CASE("Directly: each sim device spends its own budget, to the byte", "[sim][direct]") {
  const DirectPlugin plugin(kSim, kTwoDevices);
  REQUIRE(plugin.init_outcome().code == HX_OK);
  hx_device* const device0 = plugin.device(0);
  hx_device* const device1 = plugin.device(1);

  hx_buffer* half = plugin.allocate(device0, 512 * 1024, 256);
  CHECK(free_bytes(plugin, device0) == 512 * 1024);
  CHECK(free_bytes(plugin, device1) == kMiB);

  hx_buffer* refused = nullptr;
  const Outcome over =
      DirectPlugin::outcome(plugin.api().allocate(device0, 600 * 1024, 64, &refused));
  CHECK(over.code == HX_OUT_OF_MEMORY);
  CHECK(over.message ==
        "simulated SIM device 0: out of memory: cannot allocate 614400 bytes; 524288 of its "
        "1048576 bytes are free (524288 in use; memory_mb is 1)");
  CHECK(refused == nullptr);

  hx_buffer* rest = plugin.allocate(device0, 512 * 1024, 64);  // exactly what is left
  CHECK(free_bytes(plugin, device0) == 0);
  plugin.api().deallocate(device0, rest, 512 * 1024);
  plugin.api().deallocate(device0, half, 512 * 1024);
  CHECK(free_bytes(plugin, device0) == kMiB);

  SECTION("an alignment that is not a power of two is refused") {
    hx_buffer* buffer = nullptr;
    CHECK(DirectPlugin::outcome(plugin.api().allocate(device0, 64, 48, &buffer)).code ==
          HX_INVALID_ARGUMENT);
  }
  SECTION("0 bytes, which the core never asks for, are refused") {
    hx_buffer* buffer = nullptr;
    const Outcome zero = DirectPlugin::outcome(plugin.api().allocate(device0, 0, 64, &buffer));
    CHECK(zero.code == HX_INVALID_ARGUMENT);
    CHECK_THAT(zero.message, Catch::Contains("0 bytes asked for"));
  }
  SECTION("freeing a handle the device did not hand out is ignored with a warning") {
    std::vector<char> host(64);
    plugin.api().deallocate(device0, reinterpret_cast<hx_buffer*>(host.data()), host.size());
    REQUIRE(plugin.warnings().size() == 1);
    CHECK_THAT(plugin.warnings()[0], Catch::Contains("not a live buffer"));
    CHECK(free_bytes(plugin, device0) == kMiB);
  }
}

TEST_CASE("Directly: sim buffer handles are ids, not addresses", "[sim][direct]") {
  const DirectPlugin plugin(kSim, kTwoDevices);
  REQUIRE(plugin.init_outcome().code == HX_OK);
  const hx_plugin_api& api = plugin.api();
  hx_device* const device0 = plugin.device(0);
  hx_device* const device1 = plugin.device(1);
  hx_buffer* const first = plugin.allocate(device0, 1024, 256);
  hx_buffer* const second = plugin.allocate(device1, 1024, 256);

  // Small numbers, one after another: no page of the process lives there, so a core that
  // dereferenced a handle would fault at once.
  CHECK(reinterpret_cast<uintptr_t>(first) < 4096);
  CHECK(reinterpret_cast<uintptr_t>(second) == reinterpret_cast<uintptr_t>(first) + 1);

  // A handle the core did arithmetic on names no buffer.
  std::vector<float> host(4, 1.0f);
  const Outcome moved = DirectPlugin::outcome(
      api.copy_host_to_device(device0, nullptr, shifted(first, 64), 0, host.data(), 16));
  CHECK(moved.code == HX_INVALID_ARGUMENT);
  CHECK_THAT(moved.message, Catch::Contains("is not a live buffer of the sim plugin"));
  // Nor is a handle a host pointer.
  const Outcome as_host = DirectPlugin::outcome(
      api.copy_host_to_device(device0, nullptr, first, 0, second, 16));
  CHECK(as_host.code == HX_INVALID_ARGUMENT);
  CHECK_THAT(as_host.message, Catch::Contains("is a buffer handle of simulated SIM device 1, not "
                                              "host memory"));
  // A freed handle stays dead: ids are never reused.
  api.deallocate(device0, first, 1024);
  hx_buffer* const third = plugin.allocate(device0, 1024, 256);
  CHECK(third != first);
  const Outcome stale =
      DirectPlugin::outcome(api.copy_host_to_device(device0, nullptr, first, 0, host.data(), 16));
  CHECK(stale.code == HX_INVALID_ARGUMENT);
  api.deallocate(device0, third, 1024);
  api.deallocate(device1, second, 1024);
}

TEST_CASE("Directly: sim copies and memset address (buffer, offset)", "[sim][direct]") {
  const DirectPlugin plugin(kSim, kTwoDevices);
  REQUIRE(plugin.init_outcome().code == HX_OK);
  const hx_plugin_api& api = plugin.api();
  hx_device* const device0 = plugin.device(0);
  hx_device* const device1 = plugin.device(1);
  hx_buffer* on0 = plugin.allocate(device0, 256, 256);
  hx_buffer* on1 = plugin.allocate(device1, 256, 256);
  std::vector<unsigned char> host(64), back(64);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<unsigned char>(i * 3);
  reset_transfer_counts(plugin);
  const auto code = [](hx_status* status) { return DirectPlugin::outcome(status).code; };

  REQUIRE(code(api.copy_host_to_device(device0, nullptr, on0, 192, host.data(), 64)) == HX_OK);
  REQUIRE(code(api.copy_device_to_device(device1, nullptr, on1, 64, device0, on0, 192, 64)) ==
          HX_OK);
  REQUIRE(code(api.copy_device_to_host(device1, nullptr, back.data(), on1, 64, 64)) == HX_OK);
  CHECK(back == host);
  CHECK(transfer_counts(plugin, 0).host_to_device == 1);
  CHECK(transfer_counts(plugin, 0).host_to_device_bytes == 64);
  CHECK(transfer_counts(plugin, 1).device_to_device == 1);
  CHECK(transfer_counts(plugin, 1).device_to_device_bytes == 64);
  CHECK(transfer_counts(plugin, 1).device_to_host == 1);
  CHECK(transfer_counts(plugin, 0).device_to_device == 0);

  // memset at an offset touches only its range.
  REQUIRE(code(api.memset(device1, nullptr, on1, 96, 0xAB, 16)) == HX_OK);
  REQUIRE(code(api.copy_device_to_host(device1, nullptr, back.data(), on1, 64, 64)) == HX_OK);
  for (size_t i = 0; i < back.size(); ++i) {
    INFO("byte " << i);
    CHECK(back[i] == (i >= 32 && i < 48 ? 0xAB : host[i]));
  }

  // Size 0 succeeds whatever the other arguments.
  CHECK(code(api.copy_host_to_device(device0, nullptr, nullptr, 12345, nullptr, 0)) == HX_OK);
  CHECK(code(api.memset(device0, nullptr, nullptr, 0, 1, 0)) == HX_OK);

  struct Refused {
    const char* what;
    Outcome outcome;
    const char* says;
  };
  const Refused refused[] = {
      {"a range past the end of the buffer",
       DirectPlugin::outcome(api.copy_device_to_host(device0, nullptr, back.data(), on0, 224, 64)),
       "device-to-host source [offset 224, +64 bytes) runs past the end of buffer"},
      {"an offset whose sum with the size overflows",
       DirectPlugin::outcome(
           api.copy_device_to_host(device0, nullptr, back.data(), on0, UINT64_MAX - 8, 64)),
       "runs past the end of buffer"},
      {"the other device's buffer",
       DirectPlugin::outcome(api.copy_device_to_host(device0, nullptr, back.data(), on1, 0, 64)),
       "belongs to simulated SIM device 1, not to simulated SIM device 0"},
      {"a device-to-device source on the wrong device",
       DirectPlugin::outcome(
           api.copy_device_to_device(device1, nullptr, on1, 0, device0, on1, 0, 64)),
       "device-to-device source"},
      {"a NULL host pointer",
       DirectPlugin::outcome(api.copy_device_to_host(device0, nullptr, nullptr, on0, 0, 64)),
       "device-to-host destination is NULL"},
      {"a memset past the end",
       DirectPlugin::outcome(api.memset(device0, nullptr, on0, 255, 0, 2)),
       "memset destination"},
  };
  for (const Refused& r : refused) {
    INFO(r.what);
    CHECK(r.outcome.code == HX_INVALID_ARGUMENT);
    CHECK_THAT(r.outcome.message, Catch::Contains(r.says));
  }
  // Refused copies are not counted.
  CHECK(transfer_counts(plugin, 0).device_to_host == 0);

  api.deallocate(device0, on0, 256);
  api.deallocate(device1, on1, 256);
}

TEST_CASE("Directly: streams and events are handles checked on every use", "[sim][direct]") {
  const DirectPlugin plugin(kSim, kTwoDevices);
  REQUIRE(plugin.init_outcome().code == HX_OK);
  const hx_plugin_api& api = plugin.api();
  const hx_stream_api& streams = *api.streams;
  const hx_event_api& events = *api.events;
  hx_device* const device0 = plugin.device(0);
  hx_device* const device1 = plugin.device(1);
  const auto code = [](hx_status* status) { return DirectPlugin::outcome(status).code; };

  hx_stream* stream0 = nullptr;
  hx_stream* stream1 = nullptr;
  hx_event* event0 = nullptr;
  hx_event* event1 = nullptr;
  REQUIRE(code(streams.create(device0, &stream0)) == HX_OK);
  REQUIRE(code(streams.create(device1, &stream1)) == HX_OK);
  REQUIRE(code(events.create(device0, &event0)) == HX_OK);
  REQUIRE(code(events.create(device1, &event1)) == HX_OK);
  CHECK(stream0 != stream1);

  // Valid use: with nothing queued, everything is complete at once.
  bool done = false;
  CHECK(code(streams.synchronize(device0, stream0)) == HX_OK);
  CHECK(code(streams.query(device0, stream0, &done)) == HX_OK);
  CHECK(done);
  CHECK(code(events.record(device0, event0, stream0)) == HX_OK);
  done = false;
  CHECK(code(events.query(device0, event0, &done)) == HX_OK);
  CHECK(done);
  CHECK(code(events.synchronize(device0, event0)) == HX_OK);
  CHECK(code(streams.wait_event(device0, stream0, event1)) == HX_OK);  // across devices

  // Another device's handles.
  const Outcome foreign = DirectPlugin::outcome(streams.synchronize(device0, stream1));
  CHECK(foreign.code == HX_INVALID_ARGUMENT);
  CHECK_THAT(foreign.message, Catch::Contains("belongs to simulated SIM device 1"));
  CHECK(code(events.record(device0, event1, stream0)) == HX_INVALID_ARGUMENT);
  CHECK(code(events.record(device0, event0, stream1)) == HX_INVALID_ARGUMENT);

  // Handles that were never created, and a NULL stream where a stream is required.
  int not_a_handle = 0;
  hx_stream* bogus_stream = reinterpret_cast<hx_stream*>(&not_a_handle);
  hx_event* bogus_event = reinterpret_cast<hx_event*>(&not_a_handle);
  const Outcome unknown = DirectPlugin::outcome(streams.query(device0, bogus_stream, &done));
  CHECK(unknown.code == HX_INVALID_ARGUMENT);
  CHECK_THAT(unknown.message, Catch::Contains("is not a live stream"));
  CHECK(code(streams.synchronize(device0, nullptr)) == HX_INVALID_ARGUMENT);
  CHECK(code(streams.wait_event(device0, stream0, bogus_event)) == HX_INVALID_ARGUMENT);
  CHECK(code(events.synchronize(device0, bogus_event)) == HX_INVALID_ARGUMENT);
  CHECK(code(events.query(device0, bogus_event, &done)) == HX_INVALID_ARGUMENT);

  // Copies check their stream too.
  hx_buffer* on0 = plugin.allocate(device0, 16, 256);
  std::vector<char> host(16);
  CHECK(code(api.copy_host_to_device(device0, stream0, on0, 0, host.data(), 16)) == HX_OK);
  CHECK(code(api.copy_host_to_device(device0, stream1, on0, 0, host.data(), 16)) ==
        HX_INVALID_ARGUMENT);
  CHECK(code(api.memset(device0, bogus_stream, on0, 0, 0, 16)) == HX_INVALID_ARGUMENT);
  // The ABI frees a buffer only once the work queued on it has completed.
  CHECK(code(streams.synchronize(device0, stream0)) == HX_OK);
  api.deallocate(device0, on0, 16);

  // Destroyed handles are dead; destroying one twice (or another device's) is only a warning.
  streams.destroy(device0, stream0);
  CHECK(code(streams.synchronize(device0, stream0)) == HX_INVALID_ARGUMENT);
  streams.destroy(device0, stream0);
  events.destroy(device0, event1);
  CHECK(plugin.warnings().size() == 2);
  events.destroy(device0, event0);
  CHECK(code(events.synchronize(device0, event0)) == HX_INVALID_ARGUMENT);
  streams.destroy(device1, stream1);
  events.destroy(device1, event1);
  streams.destroy(device1, nullptr);
  events.destroy(device1, nullptr);
  CHECK(plugin.warnings().size() == 2);
}

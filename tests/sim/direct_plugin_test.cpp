// The sim plugin's own checks, through its function table: memory budgets to the byte, device
// memory reached only through the copy functions, streams and events as checked handles, and
// kernels that refuse operands outside their device's memory.
#include "direct_plugin.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <vector>

using sim_direct::DirectPlugin;
using sim_direct::Outcome;

namespace {

constexpr const char* kTwoDevices = R"({"device_count": 2, "memory_mb": 1})";
constexpr size_t kMiB = size_t{1} << 20;

void* allocate(const DirectPlugin& plugin, hx_device* device, size_t size) {
  void* ptr = nullptr;
  const Outcome got = DirectPlugin::outcome(plugin.api().allocate(device, size, 64, &ptr));
  REQUIRE(got.message.empty());
  REQUIRE(got.code == HX_OK);
  return ptr;
}

uint64_t free_bytes(const DirectPlugin& plugin, hx_device* device) {
  uint64_t free = 0, total = 0;
  REQUIRE(DirectPlugin::outcome(plugin.api().memory_info(device, &free, &total)).code == HX_OK);
  CHECK(total == kMiB);
  return free;
}

// A dense row-major float32 view.
struct View {
  View(void* data, hx_device* device, std::vector<int64_t> extents)
      : shape(std::move(extents)), strides(shape.size(), 1) {
    for (size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * shape[i];
    view = {HX_TENSOR_VIEW_STRUCT_SIZE,         nullptr,      data,           HX_DTYPE_F32,
            static_cast<int32_t>(shape.size()), shape.data(), strides.data(), device};
  }
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  hx_tensor_view view;
};

Outcome run_kernel(const sim_direct::RegisteredKernel& kernel, hx_device* device, hx_stream* stream,
                   const hx_tensor_view& input, const hx_tensor_view& output) {
  const hx_kernel_args args = {HX_KERNEL_ARGS_STRUCT_SIZE,
                               nullptr,
                               nullptr,
                               device,
                               stream,
                               1,
                               &input,
                               1,
                               &output,
                               kernel.user_data};
  return DirectPlugin::outcome(kernel.compute(&args));
}

}  // namespace

TEST_CASE("Directly: the sim plugin refuses a core of another ABI major", "[sim][direct]") {
  const DirectPlugin plugin(kTwoDevices, HX_ABI_VERSION_MAJOR + 1);
  CHECK(plugin.init_outcome().code == HX_FAILED_PRECONDITION);
  CHECK_THAT(plugin.init_outcome().message,
             Catch::Contains("plugin 'sim' speaks ABI 1.0") && Catch::Contains("core speaks 2.0"));
}

TEST_CASE("Directly: device count and ordinals", "[sim][direct]") {
  SECTION("no devices is UNAVAILABLE with the reason") {
    const DirectPlugin plugin("{}");
    REQUIRE(plugin.init_outcome().code == HX_OK);
    int32_t count = -1;
    const Outcome got =
        DirectPlugin::outcome(plugin.api().device_count(plugin.api().plugin, &count));
    CHECK(got.code == HX_UNAVAILABLE);
    CHECK(got.message == "no simulated devices configured: set plugins.options.sim.device_count");
    CHECK(count == 0);
  }
  SECTION("an ordinal past the count is OUT_OF_RANGE") {
    const DirectPlugin plugin(kTwoDevices);
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

TEST_CASE("Directly: each sim device spends its own budget, to the byte", "[sim][direct]") {
  const DirectPlugin plugin(kTwoDevices);
  REQUIRE(plugin.init_outcome().code == HX_OK);
  hx_device* const device0 = plugin.device(0);
  hx_device* const device1 = plugin.device(1);

  void* aligned = nullptr;
  REQUIRE(DirectPlugin::outcome(plugin.api().allocate(device0, 512 * 1024, 4096, &aligned)).code ==
          HX_OK);
  CHECK(reinterpret_cast<uintptr_t>(aligned) % 4096 == 0);
  CHECK(free_bytes(plugin, device0) == 512 * 1024);
  CHECK(free_bytes(plugin, device1) == kMiB);

  void* refused = nullptr;
  const Outcome over =
      DirectPlugin::outcome(plugin.api().allocate(device0, 600 * 1024, 64, &refused));
  CHECK(over.code == HX_OUT_OF_MEMORY);
  CHECK(over.message ==
        "simulated SIM device 0: out of memory: cannot allocate 614400 bytes; 524288 of its "
        "1048576 bytes are free (524288 in use; memory_mb is 1)");
  CHECK(refused == nullptr);

  void* rest = allocate(plugin, device0, 512 * 1024);  // exactly what is left
  CHECK(free_bytes(plugin, device0) == 0);
  plugin.api().deallocate(device0, rest, 512 * 1024);
  plugin.api().deallocate(device0, aligned, 512 * 1024);
  CHECK(free_bytes(plugin, device0) == kMiB);

  SECTION("an alignment that is not a power of two is refused") {
    void* ptr = nullptr;
    CHECK(DirectPlugin::outcome(plugin.api().allocate(device0, 64, 48, &ptr)).code ==
          HX_INVALID_ARGUMENT);
  }
  SECTION("zero-byte allocations are distinct and charge nothing") {
    void* first = allocate(plugin, device0, 0);
    void* second = allocate(plugin, device0, 0);
    CHECK(first != second);
    CHECK(free_bytes(plugin, device0) == kMiB);
    plugin.api().deallocate(device0, first, 0);
    plugin.api().deallocate(device0, second, 0);
  }
  SECTION("freeing memory the device did not hand out is ignored with a warning") {
    std::vector<char> host(64);
    plugin.api().deallocate(device0, host.data(), host.size());
    REQUIRE(plugin.warnings().size() == 1);
    CHECK_THAT(plugin.warnings()[0], Catch::Contains("not a live allocation"));
    CHECK(free_bytes(plugin, device0) == kMiB);
  }
}

TEST_CASE("Directly: device memory is reached only through the copy functions", "[sim][direct]") {
  const DirectPlugin plugin(kTwoDevices);
  REQUIRE(plugin.init_outcome().code == HX_OK);
  const hx_plugin_api& api = plugin.api();
  hx_device* const device0 = plugin.device(0);
  hx_device* const device1 = plugin.device(1);
  void* on0 = allocate(plugin, device0, 64);
  void* on1 = allocate(plugin, device1, 64);
  std::vector<unsigned char> host(64), back(64);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<unsigned char>(i * 3);
  plugin.reset_counts();

  REQUIRE(
      DirectPlugin::outcome(api.copy_host_to_device(device0, nullptr, on0, host.data(), 64)).code ==
      HX_OK);
  REQUIRE(DirectPlugin::outcome(api.copy_device_to_device(device1, nullptr, on1, device0, on0, 64))
              .code == HX_OK);
  REQUIRE(
      DirectPlugin::outcome(api.copy_device_to_host(device1, nullptr, back.data(), on1, 64)).code ==
      HX_OK);
  CHECK(back == host);
  CHECK(plugin.counts(0).host_to_device == 1);
  CHECK(plugin.counts(0).host_to_device_bytes == 64);
  CHECK(plugin.counts(1).device_to_device == 1);
  CHECK(plugin.counts(1).device_to_device_bytes == 64);
  CHECK(plugin.counts(1).device_to_host == 1);
  CHECK(plugin.counts(0).device_to_device == 0);

  REQUIRE(DirectPlugin::outcome(api.memset(device0, nullptr, on0, 0xAB, 64)).code == HX_OK);
  REQUIRE(
      DirectPlugin::outcome(api.copy_device_to_host(device0, nullptr, back.data(), on0, 64)).code ==
      HX_OK);
  CHECK(back == std::vector<unsigned char>(64, 0xAB));

  struct Refused {
    const char* what;
    Outcome outcome;
    const char* says;
  };
  const Refused refused[] = {
      {"a host destination for host-to-device",
       DirectPlugin::outcome(
           api.copy_host_to_device(device0, nullptr, back.data(), host.data(), 64)),
       "host-to-device destination"},
      {"device memory as the host source",
       DirectPlugin::outcome(api.copy_host_to_device(device0, nullptr, on0, on1, 64)),
       "is memory of simulated SIM device 1, not host memory"},
      {"device memory as the host destination",
       DirectPlugin::outcome(api.copy_device_to_host(device0, nullptr, on1, on0, 64)),
       "is memory of simulated SIM device 1, not host memory"},
      {"a read past the end of a block",
       DirectPlugin::outcome(api.copy_device_to_host(device0, nullptr, back.data(),
                                                     static_cast<char*>(on0) + 32, 64)),
       "device-to-host source"},
      {"the other device's pointer",
       DirectPlugin::outcome(api.copy_device_to_host(device0, nullptr, back.data(), on1, 64)),
       "is not memory of simulated SIM device 0"},
      {"a device-to-device source on the wrong device",
       DirectPlugin::outcome(api.copy_device_to_device(device1, nullptr, on1, device0, on1, 64)),
       "device-to-device source"},
      {"a memset of host memory",
       DirectPlugin::outcome(api.memset(device0, nullptr, host.data(), 0, 64)),
       "memset destination"},
  };
  for (const Refused& r : refused) {
    INFO(r.what);
    CHECK(r.outcome.code == HX_INVALID_ARGUMENT);
    CHECK_THAT(r.outcome.message, Catch::Contains(r.says));
  }
  // Refused copies are not counted.
  CHECK(plugin.counts(0).host_to_device == 1);
  CHECK(plugin.counts(0).device_to_host == 1);

  api.deallocate(device0, on0, 64);
  api.deallocate(device1, on1, 64);
}

TEST_CASE("Directly: streams and events are handles checked on every use", "[sim][direct]") {
  const DirectPlugin plugin(kTwoDevices);
  REQUIRE(plugin.init_outcome().code == HX_OK);
  const hx_plugin_api& api = plugin.api();
  hx_device* const device0 = plugin.device(0);
  hx_device* const device1 = plugin.device(1);
  const auto code = [](hx_status* status) { return DirectPlugin::outcome(status).code; };

  hx_stream* stream0 = nullptr;
  hx_stream* stream1 = nullptr;
  hx_event* event0 = nullptr;
  hx_event* event1 = nullptr;
  REQUIRE(code(api.stream_create(device0, &stream0)) == HX_OK);
  REQUIRE(code(api.stream_create(device1, &stream1)) == HX_OK);
  REQUIRE(code(api.event_create(device0, &event0)) == HX_OK);
  REQUIRE(code(api.event_create(device1, &event1)) == HX_OK);
  CHECK(stream0 != stream1);

  // Valid use: the work is done at once.
  bool done = false;
  CHECK(code(api.stream_synchronize(device0, stream0)) == HX_OK);
  CHECK(code(api.stream_query(device0, stream0, &done)) == HX_OK);
  CHECK(done);
  CHECK(code(api.event_record(device0, event0, stream0)) == HX_OK);
  done = false;
  CHECK(code(api.event_query(device0, event0, &done)) == HX_OK);
  CHECK(done);
  CHECK(code(api.event_synchronize(device0, event0)) == HX_OK);
  CHECK(code(api.stream_wait_event(device0, stream0, event1)) == HX_OK);  // across devices

  // Another device's handles.
  const Outcome foreign = DirectPlugin::outcome(api.stream_synchronize(device0, stream1));
  CHECK(foreign.code == HX_INVALID_ARGUMENT);
  CHECK_THAT(foreign.message, Catch::Contains("belongs to simulated SIM device 1"));
  CHECK(code(api.event_record(device0, event1, stream0)) == HX_INVALID_ARGUMENT);
  CHECK(code(api.event_record(device0, event0, stream1)) == HX_INVALID_ARGUMENT);

  // Handles that were never created, and a NULL stream where a stream is required.
  int not_a_handle = 0;
  hx_stream* bogus_stream = reinterpret_cast<hx_stream*>(&not_a_handle);
  hx_event* bogus_event = reinterpret_cast<hx_event*>(&not_a_handle);
  const Outcome unknown = DirectPlugin::outcome(api.stream_query(device0, bogus_stream, &done));
  CHECK(unknown.code == HX_INVALID_ARGUMENT);
  CHECK_THAT(unknown.message, Catch::Contains("is not a live stream"));
  CHECK(code(api.stream_synchronize(device0, nullptr)) == HX_INVALID_ARGUMENT);
  CHECK(code(api.stream_wait_event(device0, stream0, bogus_event)) == HX_INVALID_ARGUMENT);
  CHECK(code(api.event_synchronize(device0, bogus_event)) == HX_INVALID_ARGUMENT);
  CHECK(code(api.event_query(device0, bogus_event, &done)) == HX_INVALID_ARGUMENT);

  // Copies check their stream too.
  void* on0 = allocate(plugin, device0, 16);
  std::vector<char> host(16);
  CHECK(code(api.copy_host_to_device(device0, stream0, on0, host.data(), 16)) == HX_OK);
  CHECK(code(api.copy_host_to_device(device0, stream1, on0, host.data(), 16)) ==
        HX_INVALID_ARGUMENT);
  CHECK(code(api.memset(device0, bogus_stream, on0, 0, 16)) == HX_INVALID_ARGUMENT);
  api.deallocate(device0, on0, 16);

  // Destroyed handles are dead; destroying one twice (or another device's) is only a warning.
  api.stream_destroy(device0, stream0);
  CHECK(code(api.stream_synchronize(device0, stream0)) == HX_INVALID_ARGUMENT);
  api.stream_destroy(device0, stream0);
  api.event_destroy(device0, event1);
  CHECK(plugin.warnings().size() == 2);
  api.event_destroy(device0, event0);
  CHECK(code(api.event_synchronize(device0, event0)) == HX_INVALID_ARGUMENT);
  api.stream_destroy(device1, stream1);
  api.event_destroy(device1, event1);
  api.stream_destroy(device1, nullptr);
  api.event_destroy(device1, nullptr);
  CHECK(plugin.warnings().size() == 2);
}

TEST_CASE("Directly: a sim kernel refuses operands that are not in its device's memory",
          "[sim][direct]") {
  const DirectPlugin plugin(R"({"device_type": "GPU", "device_count": 2, "memory_mb": 1})");
  REQUIRE(plugin.init_outcome().code == HX_OK);
  const hx_plugin_api& api = plugin.api();
  hx_device* const device0 = plugin.device(0);
  hx_device* const device1 = plugin.device(1);
  const sim_direct::RegisteredKernel& relu = plugin.kernel("Relu");
  CHECK(relu.device_type == "GPU");

  const std::vector<float> values = {-1, 2, -3, 4};
  void* input = allocate(plugin, device0, sizeof(float) * 4);
  void* output = allocate(plugin, device0, sizeof(float) * 4);
  void* elsewhere = allocate(plugin, device1, sizeof(float) * 4);
  REQUIRE(DirectPlugin::outcome(
              api.copy_host_to_device(device0, nullptr, input, values.data(), sizeof(float) * 4))
              .code == HX_OK);
  hx_stream* stream = nullptr;
  REQUIRE(DirectPlugin::outcome(api.stream_create(device0, &stream)).code == HX_OK);

  const View in(input, device0, {2, 2});
  const View out(output, device0, {2, 2});
  REQUIRE(run_kernel(relu, device0, stream, in.view, out.view).code == HX_OK);
  std::vector<float> result(4);
  REQUIRE(DirectPlugin::outcome(
              api.copy_device_to_host(device0, nullptr, result.data(), output, sizeof(float) * 4))
              .code == HX_OK);
  CHECK(result == std::vector<float>{0, 2, 0, 4});

  std::vector<float> host(4);
  const View on_host(host.data(), device0, {2, 2});
  const View other_device(elsewhere, device1, {2, 2});
  const View claims_device0(elsewhere, device0, {2, 2});
  View as_f64(input, device0, {2});
  as_f64.view.dtype = HX_DTYPE_F64;
  int not_a_handle = 0;
  struct Refused {
    const char* what;
    Outcome outcome;
    const char* says;
  };
  const Refused refused[] = {
      {"host memory as input", run_kernel(relu, device0, stream, on_host.view, out.view),
       "Relu: input 0's data"},
      {"host memory as output", run_kernel(relu, device0, stream, in.view, on_host.view),
       "Relu: output 0's data"},
      {"an input on another device", run_kernel(relu, device0, stream, other_device.view, out.view),
       "Relu: input 0 lives on device"},
      {"another device's memory", run_kernel(relu, device0, stream, claims_device0.view, out.view),
       "is not memory of simulated GPU device 0"},
      {"a float64 operand", run_kernel(relu, device0, stream, as_f64.view, out.view),
       "the sim kernels take float32"},
      {"an unknown stream",
       run_kernel(relu, device0, reinterpret_cast<hx_stream*>(&not_a_handle), in.view, out.view),
       "is not a live stream"},
      {"an unknown device",
       run_kernel(relu, reinterpret_cast<hx_device*>(&not_a_handle), stream, in.view, out.view),
       "is not a device of the sim plugin"},
  };
  for (const Refused& r : refused) {
    INFO(r.what);
    CHECK(r.outcome.code == HX_INVALID_ARGUMENT);
    CHECK_THAT(r.outcome.message, Catch::Contains(r.says));
  }

  api.stream_destroy(device0, stream);
  api.deallocate(device0, input, sizeof(float) * 4);
  api.deallocate(device0, output, sizeof(float) * 4);
  api.deallocate(device1, elsewhere, sizeof(float) * 4);
}

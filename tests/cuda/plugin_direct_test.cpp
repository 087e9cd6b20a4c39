// The CUDA plugin's function table called directly: what it says about itself and its devices
// on any machine, and, on a GPU, how it checks what the core passes it.
#include <catch2/catch.hpp>

#include <cstdint>
#include <regex>
#include <string>

#include <hxrt/plugin_vocabulary.h>

#include "kernel_env.hpp"
#include "plugin_direct.hpp"
#include "plugin_test_support.hpp"
#include "abi_text.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::Equals;
using Catch::Matchers::StartsWith;
using cuda_direct::DirectPlugin;
using cuda_direct::Outcome;
using cuda_direct::require_ok;

TEST_CASE("Directly: the CUDA plugin refuses a core of another ABI major", "[cuda][direct]") {
  const DirectPlugin plugin("{}", HX_ABI_VERSION_MAJOR + 1);
  CHECK(plugin.init_outcome().code == HX_FAILED_PRECONDITION);
  CHECK_THAT(plugin.init_outcome().message,
             Contains("plugin 'cuda' speaks ABI " + abi_text()) &&
                 Contains("core speaks " + abi_text(HX_ABI_VERSION_MAJOR + 1)));
}

TEST_CASE("Directly: the CUDA plugin's only option is the testing aid fault_ops",
          "[cuda][direct]") {
  const DirectPlugin unknown(R"({"device_count": 2})");
  CHECK(unknown.init_outcome().code == HX_INVALID_ARGUMENT);
  CHECK_THAT(unknown.init_outcome().message,
             Equals("cuda plugin options: unknown option 'device_count' (the only option is "
                    "fault_ops, a testing aid)"));
  // Loads with or without a GPU: the option only marks kernels.
  const DirectPlugin faulting(R"({"fault_ops": ["Relu", "MatMul", "Relu"]})");
  require_ok(faulting.init_outcome());
  const DirectPlugin empty(R"({"fault_ops": []})");
  require_ok(empty.init_outcome());
  const DirectPlugin not_a_list(R"({"fault_ops": "Relu"})");
  CHECK(not_a_list.init_outcome().code == HX_INVALID_ARGUMENT);
  CHECK_THAT(not_a_list.init_outcome().message,
             Equals("cuda plugin option 'fault_ops': expected a list of op names, got string"));
  const DirectPlugin unknown_op(R"({"fault_ops": ["Relu", "Conv2D"]})");
  CHECK(unknown_op.init_outcome().code == HX_INVALID_ARGUMENT);
  // The ops in name order, all of them (kernel_registry_test.cpp checks which they are).
  CHECK_THAT(unknown_op.init_outcome().message,
             StartsWith("cuda plugin option 'fault_ops': \"Conv2D\" is not an op the cuda plugin "
                        "has kernels for (Abs, Add, AddN, AveragePool, BatchNormalization, "
                        "Cast, Ceil, Concat, Conv, Div, Equal, ") &&
                 Contains(", Sum, Tanh, Transpose, Unsqueeze)"));
  const DirectPlugin not_a_name(R"({"fault_ops": [3]})");
  CHECK_THAT(not_a_name.init_outcome().message,
             StartsWith("cuda plugin option 'fault_ops': 3 is not an op"));
  const DirectPlugin not_an_object("[1]");
  CHECK_THAT(not_an_object.init_outcome().message,
             Equals("cuda plugin options: expected a JSON object, got array"));
  const DirectPlugin malformed("{");
  CHECK_THAT(malformed.init_outcome().message, StartsWith("cuda plugin options: not valid JSON"));
}

TEST_CASE("Directly: the CUDA plugin provides GPU devices with streams, events and pinned memory",
          "[cuda][direct]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  const hx_plugin_api& api = plugin.api();
  CHECK(api.struct_size == HX_PLUGIN_API_STRUCT_SIZE);
  CHECK(api.abi_major == HX_ABI_VERSION_MAJOR);
  CHECK_THAT(api.name, Equals("cuda"));
  CHECK_THAT(api.device_type, Equals("GPU"));
  // The optional groups, each whole.
  REQUIRE(api.streams != nullptr);
  REQUIRE(api.events != nullptr);
  REQUIRE(api.host_memory != nullptr);
  CHECK(api.streams->struct_size == HX_STREAM_API_STRUCT_SIZE);
  CHECK(api.events->struct_size == HX_EVENT_API_STRUCT_SIZE);
  CHECK(api.host_memory->struct_size == HX_HOST_MEMORY_API_STRUCT_SIZE);
  CHECK(hx_plugin_api_short_group(&api) == nullptr);
  CHECK(hx_plugin_api_missing_function(&api) == nullptr);
  CHECK(api.memory_info != nullptr);
  CHECK(api.extensions == nullptr);
}

TEST_CASE("Directly: device_count gives the reason when there is no device", "[cuda][direct]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  Outcome counted;
  const int32_t count = plugin.device_count(&counted);
  hx_device* device = nullptr;
  if (count > 0) {
    CHECK(counted.code == HX_OK);
    const Outcome beyond =
        DirectPlugin::outcome(plugin.api().device_get(plugin.api().plugin, count, &device));
    CHECK(beyond.code == HX_OUT_OF_RANGE);
    return;
  }
  CHECK(count == 0);
  CHECK(counted.code == HX_UNAVAILABLE);
  CHECK_FALSE(counted.message.empty());
  if (!cuda_plugin_test::driver_installed()) {
    CHECK_THAT(counted.message, StartsWith("no CUDA driver: cudaGetDeviceCount: "));
  }
  const Outcome first =
      DirectPlugin::outcome(plugin.api().device_get(plugin.api().plugin, 0, &device));
  CHECK(first.code == HX_OUT_OF_RANGE);
  CHECK_THAT(first.message,
             Equals("cuda plugin: device ordinal 0 does not exist (there are 0 devices: " +
                    counted.message + ")"));
  const Outcome negative =
      DirectPlugin::outcome(plugin.api().device_get(plugin.api().plugin, -1, &device));
  CHECK(negative.code == HX_OUT_OF_RANGE);
}

TEST_CASE("Directly: every kernel's user data names the plugin, its op and whether it faults",
          "[cuda][direct]") {
  const DirectPlugin plugin(R"({"fault_ops": ["Relu"]})");
  require_ok(plugin.init_outcome());
  REQUIRE_FALSE(plugin.kernels().empty());
  for (const cuda_direct::RegisteredKernel& kernel : plugin.kernels()) {
    INFO(kernel.op);
    CHECK(kernel.def.struct_size == HX_KERNEL_DEF_STRUCT_SIZE);
    // kernel_env.hpp: a kernel finds its plugin, and the fault_ops mark, through its user data.
    const auto& site = *static_cast<const hxcuda::KernelSite*>(kernel.def.user_data);
    CHECK(static_cast<void*>(site.plugin) == static_cast<void*>(plugin.api().plugin));
    CHECK(std::string(site.op) == kernel.op);
    CHECK(site.fault == (kernel.op == "Relu"));
    CHECK((kernel.def.create == nullptr) == (kernel.def.destroy == nullptr));
  }
}

TEST_CASE("Directly: device properties come from the driver", "[cuda][direct][gpu]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  CUDA_DIRECT_REQUIRE_GPU(plugin);
  hx_device_properties props{};
  props.struct_size = HX_DEVICE_PROPERTIES_STRUCT_SIZE;
  hx_device* device = plugin.device(0);
  require_ok(DirectPlugin::outcome(plugin.api().device_properties(device, &props)));
  REQUIRE(props.name != nullptr);
  CHECK(std::string(props.name).size() > 0);
  CHECK_THAT(props.vendor, Equals("NVIDIA"));
  CHECK(std::regex_match(props.arch, std::regex("sm_[0-9]+")));
  CHECK(
      std::regex_match(props.bus_id, std::regex("[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]")));
  CHECK(props.memory_total > 0);
  CHECK(props.compute_units > 0);
  CHECK(props.numa_node >= -1);
  CHECK(props.memory_kind == HX_MEMORY_DEVICE);
  CHECK(props.placement_class == HX_PLACEMENT_DISCRETE_ACCELERATOR);
  CHECK(props.alignment == 256);
  CHECK(props.max_allocation == 0);
  uint64_t free = 0, total = 0;
  require_ok(DirectPlugin::outcome(plugin.api().memory_info(device, &free, &total)));
  CHECK(total == props.memory_total);
  CHECK(free <= total);
}

TEST_CASE("Directly: allocate honours alignments up to 256 bytes and refuses larger ones",
          "[cuda][direct][gpu]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  CUDA_DIRECT_REQUIRE_GPU(plugin);
  hx_device* device = plugin.device(0);
  const hx_plugin_api& api = plugin.api();
  for (size_t alignment : {size_t{1}, size_t{64}, size_t{256}}) {
    hx_buffer* buffer = nullptr;
    require_ok(DirectPlugin::outcome(api.allocate(device, 1000, alignment, &buffer)));
    // The handle is the device address cudaMalloc gave (memory.hpp).
    CHECK(reinterpret_cast<uintptr_t>(buffer) % alignment == 0);
    api.deallocate(device, buffer, 1000);
  }
  hx_buffer* buffer = nullptr;
  const Outcome too_strict = DirectPlugin::outcome(api.allocate(device, 1000, 512, &buffer));
  CHECK(too_strict.code == HX_INVALID_ARGUMENT);
  CHECK_THAT(too_strict.message, Contains("alignment 512 is not a power of two of at most 256"));
  CHECK(DirectPlugin::outcome(api.allocate(device, 1000, 48, &buffer)).code == HX_INVALID_ARGUMENT);
  const Outcome empty = DirectPlugin::outcome(api.allocate(device, 0, 256, &buffer));
  CHECK(empty.code == HX_INVALID_ARGUMENT);
  CHECK_THAT(empty.message, Contains("size 0"));
  api.deallocate(device, nullptr, 0);
  CHECK(plugin.warnings().empty());
}

TEST_CASE("Directly: stream and event handles that are not live are refused",
          "[cuda][direct][gpu]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  CUDA_DIRECT_REQUIRE_GPU(plugin);
  hx_device* device = plugin.device(0);
  const hx_plugin_api& api = plugin.api();
  int never_created = 0;
  auto* bogus_stream = reinterpret_cast<hx_stream*>(&never_created);
  auto* bogus_event = reinterpret_cast<hx_event*>(&never_created);

  const Outcome sync = DirectPlugin::outcome(api.streams->synchronize(device, bogus_stream));
  CHECK(sync.code == HX_INVALID_ARGUMENT);
  CHECK_THAT(sync.message, Contains("is not a live stream of the cuda plugin"));
  CHECK(DirectPlugin::outcome(api.streams->synchronize(device, nullptr)).code ==
        HX_INVALID_ARGUMENT);
  char host[16] = {};
  hx_buffer* dst = nullptr;
  require_ok(DirectPlugin::outcome(api.allocate(device, sizeof host, 256, &dst)));
  CHECK(DirectPlugin::outcome(
            api.copy_host_to_device(device, bogus_stream, dst, 0, host, sizeof host))
            .code == HX_INVALID_ARGUMENT);
  CHECK(DirectPlugin::outcome(api.events->record(device, bogus_event, nullptr)).code ==
        HX_INVALID_ARGUMENT);

  hx_stream* stream = nullptr;
  require_ok(DirectPlugin::outcome(api.streams->create(device, &stream)));
  CHECK(DirectPlugin::outcome(api.streams->wait_event(device, stream, bogus_event)).code ==
        HX_INVALID_ARGUMENT);
  api.streams->destroy(device, stream);
  const Outcome destroyed = DirectPlugin::outcome(api.streams->synchronize(device, stream));
  CHECK(destroyed.code == HX_INVALID_ARGUMENT);

  api.streams->destroy(device, bogus_stream);
  REQUIRE(plugin.warnings().size() == 1);
  CHECK_THAT(plugin.warnings()[0], Contains("stream_destroy") && Contains("ignored"));

  int not_a_device = 0;
  const Outcome foreign = DirectPlugin::outcome(api.copy_device_to_device(
      device, nullptr, dst, 0, reinterpret_cast<hx_device*>(&not_a_device), dst, 0, sizeof host));
  CHECK(foreign.code == HX_INVALID_ARGUMENT);
  CHECK_THAT(foreign.message, Contains("not a device of the cuda plugin"));
  api.deallocate(device, dst, sizeof host);
}

TEST_CASE("Directly: a stream or event of one device is refused on another",
          "[cuda][direct][gpu]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  CUDA_DIRECT_REQUIRE_GPU(plugin);
  Outcome counted;
  if (plugin.device_count(&counted) < 2) {
    WARN("not applicable: needs two CUDA devices");
    return;
  }
  hx_device* first = plugin.device(0);
  hx_device* second = plugin.device(1);
  const hx_plugin_api& api = plugin.api();
  hx_stream* stream = nullptr;
  hx_event* event = nullptr;
  require_ok(DirectPlugin::outcome(api.streams->create(second, &stream)));
  require_ok(DirectPlugin::outcome(api.events->create(second, &event)));
  const Outcome sync = DirectPlugin::outcome(api.streams->synchronize(first, stream));
  CHECK(sync.code == HX_INVALID_ARGUMENT);
  CHECK_THAT(sync.message, Contains("belongs to CUDA device 1"));
  CHECK(DirectPlugin::outcome(api.events->record(first, event, nullptr)).code ==
        HX_INVALID_ARGUMENT);
  api.events->destroy(second, event);
  api.streams->destroy(second, stream);
}

TEST_CASE("Directly: a stream without work and an event never recorded are complete",
          "[cuda][direct][gpu]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  CUDA_DIRECT_REQUIRE_GPU(plugin);
  hx_device* device = plugin.device(0);
  const hx_plugin_api& api = plugin.api();
  hx_stream* stream = nullptr;
  hx_event* event = nullptr;
  require_ok(DirectPlugin::outcome(api.streams->create(device, &stream)));
  require_ok(DirectPlugin::outcome(api.events->create(device, &event)));
  bool done = false;
  require_ok(DirectPlugin::outcome(api.streams->query(device, stream, &done)));
  CHECK(done);
  require_ok(DirectPlugin::outcome(api.streams->synchronize(device, stream)));
  done = false;
  require_ok(DirectPlugin::outcome(api.events->query(device, event, &done)));
  CHECK(done);
  require_ok(DirectPlugin::outcome(api.events->synchronize(device, event)));
  // Recording a stream that never had work marks a point already reached.
  require_ok(DirectPlugin::outcome(api.events->record(device, event, stream)));
  done = false;
  require_ok(DirectPlugin::outcome(api.events->query(device, event, &done)));
  CHECK(done);
  require_ok(DirectPlugin::outcome(api.streams->wait_event(device, stream, event)));
  api.events->destroy(device, event);
  api.streams->destroy(device, stream);
  CHECK(plugin.warnings().empty());
}

// Buffers as cl_mem handles, and memset and copies at byte offsets inside them, with a stream
// and without.
#include <catch2/catch.hpp>

#include <cstdint>
#include <numeric>
#include <vector>

#include "opencl_harness.hpp"

namespace opencl_test {
namespace {

hx_device_properties properties(const DirectPlugin& plugin) {
  hx_device_properties props{};
  props.struct_size = HX_DEVICE_PROPERTIES_STRUCT_SIZE;
  REQUIRE(DirectPlugin::outcome(plugin.api().device_properties(plugin.device(), &props)).code ==
          HX_OK);
  return props;
}

std::vector<uint8_t> counting_bytes(size_t count, uint8_t first) {
  std::vector<uint8_t> bytes(count);
  std::iota(bytes.begin(), bytes.end(), first);
  return bytes;
}

TEST_CASE("OpenCL allocations beyond the device's largest allocation are OUT_OF_MEMORY",
          "[opencl]") {
  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  const hx_device_properties props = properties(plugin);
  hx_buffer* buffer = nullptr;
  const Outcome got = DirectPlugin::outcome(plugin.api().allocate(
      plugin.device(), static_cast<size_t>(props.max_allocation) + 1, 1, &buffer));
  CHECK(got.code == HX_OUT_OF_MEMORY);
  CHECK_THAT(got.message, Catch::Contains("CL_DEVICE_MAX_MEM_ALLOC_SIZE"));
  CHECK(buffer == nullptr);
}

TEST_CASE("OpenCL allocations give the declared alignment and no more", "[opencl]") {
  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  const hx_device_properties props = properties(plugin);
  hx_buffer* buffer = nullptr;
  REQUIRE(DirectPlugin::outcome(
              plugin.api().allocate(plugin.device(), 64, props.alignment, &buffer))
              .code == HX_OK);
  plugin.api().deallocate(plugin.device(), buffer, 64);
  if (props.alignment < 4096) {
    const Outcome got = DirectPlugin::outcome(
        plugin.api().allocate(plugin.device(), 64, props.alignment * 2, &buffer));
    CHECK(got.code == HX_INVALID_ARGUMENT);
    CHECK_THAT(got.message, Catch::Contains("CL_DEVICE_MEM_BASE_ADDR_ALIGN"));
  }
  plugin.api().deallocate(plugin.device(), nullptr, 0);  // accepted
}

TEST_CASE("OpenCL copies and memset reach exactly the bytes at their offsets", "[opencl]") {
  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  const hx_plugin_api& api = plugin.api();
  hx_device* device = plugin.device();
  hx_stream* stream = nullptr;
  const bool use_stream = GENERATE(false, true);
  if (use_stream) REQUIRE(DirectPlugin::outcome(api.streams->create(device, &stream)).code == HX_OK);
  const auto finish = [&] {
    if (stream != nullptr) {
      REQUIRE(DirectPlugin::outcome(api.streams->synchronize(device, stream)).code == HX_OK);
    }
  };
  const Buffer first(plugin, device, 1024);
  const Buffer second(plugin, device, 1024);
  CHECK(first.handle() != second.handle());
  const std::vector<uint8_t> data = counting_bytes(100, 1);

  REQUIRE(DirectPlugin::outcome(api.memset(device, stream, first.handle(), 0, 0xEE, 1024)).code ==
          HX_OK);
  REQUIRE(DirectPlugin::outcome(
              api.copy_host_to_device(device, stream, first.handle(), 128, data.data(), 100))
              .code == HX_OK);
  // Within one buffer (as the core's sub-allocated tensors are) and into another one.
  REQUIRE(DirectPlugin::outcome(api.copy_device_to_device(device, stream, first.handle(), 512,
                                                          device, first.handle(), 128, 100))
              .code == HX_OK);
  REQUIRE(DirectPlugin::outcome(api.memset(device, stream, second.handle(), 0, 0x11, 1024))
              .code == HX_OK);
  REQUIRE(DirectPlugin::outcome(api.copy_device_to_device(device, stream, second.handle(), 4,
                                                          device, first.handle(), 512, 100))
              .code == HX_OK);
  REQUIRE(DirectPlugin::outcome(api.memset(device, stream, second.handle(), 50, 0x00, 10)).code ==
          HX_OK);
  std::vector<uint8_t> read(1024);
  REQUIRE(DirectPlugin::outcome(
              api.copy_device_to_host(device, stream, read.data(), first.handle(), 0, 1024))
              .code == HX_OK);
  finish();
  std::vector<uint8_t> expected(1024, 0xEE);
  std::copy(data.begin(), data.end(), expected.begin() + 128);
  std::copy(data.begin(), data.end(), expected.begin() + 512);
  CHECK(read == expected);

  REQUIRE(DirectPlugin::outcome(
              api.copy_device_to_host(device, stream, read.data(), second.handle(), 0, 1024))
              .code == HX_OK);
  finish();
  expected.assign(1024, 0x11);
  std::copy(data.begin(), data.end(), expected.begin() + 4);
  std::fill(expected.begin() + 50, expected.begin() + 60, 0x00);
  CHECK(read == expected);
  if (stream != nullptr) api.streams->destroy(device, stream);
}

TEST_CASE("OpenCL copies and memset of zero bytes succeed whatever they are given", "[opencl]") {
  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  const hx_plugin_api& api = plugin.api();
  hx_device* device = plugin.device();
  CHECK(DirectPlugin::outcome(api.memset(device, nullptr, nullptr, 0, 1, 0)).code == HX_OK);
  CHECK(DirectPlugin::outcome(api.copy_host_to_device(device, nullptr, nullptr, 0, nullptr, 0))
            .code == HX_OK);
  CHECK(DirectPlugin::outcome(api.copy_device_to_host(device, nullptr, nullptr, nullptr, 0, 0))
            .code == HX_OK);
  CHECK(DirectPlugin::outcome(
            api.copy_device_to_device(device, nullptr, nullptr, 0, device, nullptr, 0, 0))
            .code == HX_OK);
}

}  // namespace
}  // namespace opencl_test

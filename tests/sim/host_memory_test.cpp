// The sim plugin's page-locked host memory (the host_memory group): 64-byte-aligned blocks that
// copies can use, freed by deallocate, counted per device in the exported counters so that a
// test of the core can see it stage through them; the option pinned_memory = false leaves the
// group out.
#include <hxrt/plugin_vocabulary.h>
#include <hxrt/sim_counters.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <vector>

#include "async_rig.hpp"
#include "direct_plugin.hpp"
#include "sim_direct.hpp"

using hxrt_test::DirectPlugin;

using sim_async::code;
using sim_async::kSim;
using sim_async::Rig;

using sim_direct::reset_transfer_counts;
using sim_direct::transfer_counts;

TEST_CASE("Sim host memory: aligned blocks that stream-ordered copies use, counted per device",
          "[sim][direct][host_memory]") {
  const Rig rig("", 2);
  REQUIRE(rig.api().host_memory != nullptr);
  const hx_host_memory_api& host = *rig.api().host_memory;
  CHECK(host.struct_size == HX_HOST_MEMORY_API_STRUCT_SIZE);
  reset_transfer_counts(rig.plugin);

  void* staging = nullptr;
  REQUIRE(code(host.allocate(rig.device[1], 100, &staging)) == HX_OK);
  REQUIRE(staging != nullptr);
  CHECK(reinterpret_cast<uintptr_t>(staging) % 64 == 0);
  const float values[4] = {1, 2, 3, 4};
  std::memcpy(staging, values, sizeof values);
  hx_buffer* buffer = rig.plugin.allocate(rig.device[1], 16, 256);
  REQUIRE(code(rig.api().copy_host_to_device(rig.device[1], rig.stream[1], buffer, 0, staging,
                                             16)) == HX_OK);
  rig.synchronize(1);
  CHECK(rig.plugin.download(rig.device[1], buffer, 0, 4) == std::vector<float>{1, 2, 3, 4});

  hx_sim_transfer_counts_t counts = transfer_counts(rig.plugin, 1);
  CHECK(counts.pinned_allocations == 1);
  CHECK(counts.pinned_allocated_bytes == 100);
  CHECK(counts.pinned_deallocations == 0);
  CHECK(transfer_counts(rig.plugin, 0).pinned_allocations == 0);  // counted on its own device

  host.deallocate(rig.device[1], staging);
  host.deallocate(rig.device[1], nullptr);  // accepted, as the ABI says
  counts = transfer_counts(rig.plugin, 1);
  CHECK(counts.pinned_deallocations == 1);
  CHECK(counts.pinned_deallocated_bytes == 100);
  CHECK(rig.plugin.warnings().empty());
  rig.api().deallocate(rig.device[1], buffer, 16);
}

TEST_CASE("Sim host memory: what allocate did not give is refused, not freed",
          "[sim][direct][host_memory]") {
  const Rig rig("", 2);
  const hx_host_memory_api& host = *rig.api().host_memory;
  void* block = nullptr;
  REQUIRE(code(host.allocate(rig.device[0], 64, &block)) == HX_OK);

  // On another device, a pointer it never gave, and twice: each a warning, nothing freed.
  host.deallocate(rig.device[1], block);
  int on_stack = 0;
  host.deallocate(rig.device[0], &on_stack);
  host.deallocate(rig.device[0], block);
  host.deallocate(rig.device[0], block);
  REQUIRE(rig.plugin.warnings().size() == 3);
  for (const std::string& warning : rig.plugin.warnings()) {
    CHECK_THAT(warning, Catch::Contains("host_memory deallocate(") &&
                            Catch::Contains("ignored: not memory that host_memory allocate"));
  }

  const hxrt_test::Outcome empty = DirectPlugin::outcome(host.allocate(rig.device[0], 0, &block));
  CHECK(empty.code == HX_INVALID_ARGUMENT);
  CHECK_THAT(empty.message, Catch::Contains("host_memory allocate: 0 bytes asked for"));
  const hxrt_test::Outcome huge =
      DirectPlugin::outcome(host.allocate(rig.device[0], SIZE_MAX - 8, &block));
  CHECK(huge.code == HX_OUT_OF_MEMORY);
  CHECK_THAT(huge.message, Catch::Contains("the host heap cannot supply"));
}

TEST_CASE("Sim host memory: pinned_memory = false leaves the group out, and is checked",
          "[sim][direct][host_memory]") {
  const DirectPlugin without(kSim, R"({"device_count": 1, "pinned_memory": false})");
  REQUIRE(without.init_outcome().code == HX_OK);
  CHECK(without.api().host_memory == nullptr);
  CHECK(without.api().streams != nullptr);  // the rest stays

  const DirectPlugin bad(kSim, R"({"pinned_memory": "no"})");
  CHECK(bad.init_outcome().code == HX_INVALID_ARGUMENT);
  CHECK_THAT(bad.init_outcome().message,
             Catch::Contains("option 'pinned_memory': expected true or false, got \"no\""));
}

TEST_CASE("Sim host memory as buffers: a handle of its own beside the address, and copies that "
          "take the handle and an offset on any device", "[sim][direct][host_memory]") {
  const Rig rig("", 2);
  const hx_host_memory_api& host = *rig.api().host_memory;
  REQUIRE(hx_host_memory_api_has_buffers(&host));
  reset_transfer_counts(rig.plugin);

  void* data = nullptr;
  hx_buffer* handle = nullptr;
  REQUIRE(code(host.allocate_buffer(rig.device[0], 256, &data, &handle)) == HX_OK);
  REQUIRE(data != nullptr);
  REQUIRE(handle != nullptr);
  CHECK(static_cast<void*>(handle) != data);
  const float values[4] = {5, 6, 7, 8};
  std::memcpy(static_cast<char*>(data) + 64, values, sizeof values);

  // Taken on device 0, used with device 1: any device of the plugin.
  hx_buffer* buffer = rig.plugin.allocate(rig.device[1], 16, 256);
  REQUIRE(code(host.copy_to_device(rig.device[1], rig.stream[1], buffer, 0, handle, 64, 16)) ==
          HX_OK);
  REQUIRE(code(host.copy_to_host(rig.device[1], rig.stream[1], handle, 128, buffer, 0, 16)) ==
          HX_OK);
  rig.synchronize(1);
  CHECK(std::memcmp(static_cast<char*>(data) + 128, values, sizeof values) == 0);
  CHECK(transfer_counts(rig.plugin, 1).host_buffer_copies == 2);

  // A range past the end, a pointer where the handle belongs, a freed handle: refused.
  CHECK(code(host.copy_to_device(rig.device[1], nullptr, buffer, 0, handle, 248, 16)) ==
        HX_INVALID_ARGUMENT);
  CHECK(code(host.copy_to_device(rig.device[1], nullptr, buffer, 0,
                                 static_cast<const hx_buffer*>(data), 0, 16)) ==
        HX_INVALID_ARGUMENT);
  host.deallocate(rig.device[0], data);
  CHECK(code(host.copy_to_host(rig.device[1], nullptr, handle, 0, buffer, 0, 16)) ==
        HX_INVALID_ARGUMENT);
  // Size 0 is a no-op whatever the rest.
  CHECK(code(host.copy_to_host(rig.device[1], nullptr, nullptr, 0, nullptr, 0, 0)) == HX_OK);
  rig.api().deallocate(rig.device[1], buffer, 16);
}

TEST_CASE("The sim option pinned_buffers false leaves the buffer functions out",
          "[sim][direct][host_memory]") {
  const Rig rig(R"("pinned_buffers": false)", 1);
  REQUIRE(rig.api().host_memory != nullptr);
  CHECK_FALSE(hx_host_memory_api_has_buffers(rig.api().host_memory));
  CHECK(rig.api().host_memory->allocate != nullptr);
}

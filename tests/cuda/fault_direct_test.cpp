// The testing aid fault_ops through the function table: the faulted op's call succeeds, its
// work fails when it runs, the failure surfaces at the next wait naming the device, and the
// device then stays unusable (a trap loses the CUDA context), every call saying so, without a
// crash. Its own executable: a lost context cannot be got back inside the process, so nothing
// else may run after it. Needs a GPU.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "plugin_direct.hpp"

using Catch::Matchers::Contains;
using cuda_direct::DirectPlugin;
using cuda_direct::Outcome;
using cuda_direct::require_ok;

TEST_CASE("Directly: a faulted op's work fails after its call, and the device stays lost",
          "[cuda][faults][gpu]") {
  const DirectPlugin plugin(R"({"fault_ops": ["Relu"]})");
  require_ok(plugin.init_outcome());
  CUDA_DIRECT_REQUIRE_GPU(plugin);
  hx_device* device = plugin.device(0);
  const hx_plugin_api& api = plugin.api();
  hx_stream* stream = nullptr;
  hx_event* before = nullptr;
  hx_event* after = nullptr;
  hx_event* never_recorded = nullptr;
  require_ok(DirectPlugin::outcome(api.streams->create(device, &stream)));
  require_ok(DirectPlugin::outcome(api.events->create(device, &before)));
  require_ok(DirectPlugin::outcome(api.events->create(device, &after)));
  require_ok(DirectPlugin::outcome(api.events->create(device, &never_recorded)));

  constexpr size_t kBytes = 4 * sizeof(float);
  const std::vector<float> values = {-1.0f, 2.0f, -3.0f, 4.0f};
  hx_buffer* buffer = nullptr;
  require_ok(DirectPlugin::outcome(api.allocate(device, 2 * kBytes, 256, &buffer)));
  require_ok(DirectPlugin::outcome(
      api.copy_host_to_device(device, stream, buffer, 0, values.data(), kBytes)));
  require_ok(DirectPlugin::outcome(api.events->record(device, before, stream)));
  require_ok(DirectPlugin::outcome(api.events->synchronize(device, before)));

  // The call succeeds: the trap is only enqueued.
  hxrt_test::KernelInstance relu(plugin.kernel("Relu"), device, {HX_DTYPE_F32}, {HX_DTYPE_F32});
  require_ok(relu.created());
  const hxrt_test::View input(buffer, 0, device, {4});
  const hxrt_test::View output(buffer, kBytes, device, {4});
  require_ok(relu.compute(device, stream, {input}, {output}));
  require_ok(DirectPlugin::outcome(api.events->record(device, after, stream)));

  // The wait reports it, naming the device and what a sticky error means.
  const Outcome waited = DirectPlugin::outcome(api.events->synchronize(device, after));
  CHECK(waited.code == HX_INTERNAL);
  CHECK_THAT(waited.message,
             Contains("CUDA device 0") && Contains("cudaEventSynchronize") &&
                 Contains("sticky") && Contains("restarting the process"));

  // From then on every call on the device fails with the cause, even those that need no CUDA
  // call (an event never recorded, a stream synchronize).
  const auto lost = [&](const Outcome& outcome) {
    CHECK(outcome.code == HX_INTERNAL);
    CHECK_THAT(outcome.message, Contains("CUDA device 0") && Contains("is unusable") &&
                                    Contains("cudaEventSynchronize") &&
                                    Contains("Restart the process"));
  };
  lost(DirectPlugin::outcome(api.events->synchronize(device, never_recorded)));
  bool done = false;
  lost(DirectPlugin::outcome(api.events->query(device, before, &done)));
  lost(DirectPlugin::outcome(api.streams->synchronize(device, stream)));
  lost(DirectPlugin::outcome(api.streams->query(device, stream, &done)));
  std::vector<float> read(4);
  lost(DirectPlugin::outcome(api.copy_device_to_host(device, nullptr, read.data(), buffer, 0,
                                                     kBytes)));
  hx_buffer* another = nullptr;
  lost(DirectPlugin::outcome(api.allocate(device, kBytes, 256, &another)));
  lost(relu.compute(device, stream, {input}, {output}));

  // Letting go is quiet: the failure was reported once, where it was waited for.
  api.deallocate(device, buffer, 2 * kBytes);
  api.events->destroy(device, before);
  api.events->destroy(device, after);
  api.events->destroy(device, never_recorded);
  api.streams->destroy(device, stream);
  CHECK(plugin.warnings().empty());
}

// Errors of queued work on the sim plugin (plugin_api.h, "Errors of queued work"), made by the
// test aid fault_ops: a kernel of a listed op accepts its call, and its work fails when it
// runs. The failure fails the stream: events recorded after the failing work report it at
// every synchronize and query, events recorded before it do not; stream query and synchronize
// report it, and synchronize clears it for what comes after. Each case also runs with random
// completion delays, which reorder nothing but move every failure to a later moment.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "async_rig.hpp"
#include "direct_plugin.hpp"

using hxrt_test::DirectPlugin;
using hxrt_test::KernelInstance;
using hxrt_test::Outcome;
using hxrt_test::View;

using sim_async::code;
using sim_async::kSim;
using sim_async::Rig;

namespace {

constexpr const char* kReluFault =
    "Relu on SIM:0 failed while it ran: simulated fault (option fault_ops)";

// The model options of each case: none, and random delays of up to 2 ms per item.
std::string timing_case() {
  return GENERATE(std::string(), std::string(R"("random_delay_us": 2000, "random_seed": 3, )"));
}

// Four floats on device 0, with a Relu (which faults) and an Identity (which does not) over
// them, enqueued on the rig's stream.
struct FaultRig : Rig {
  explicit FaultRig(const std::string& timing)
      : Rig(timing + R"("fault_ops": ["Relu"])"),
        input(plugin.allocate(device[0], 16, 256)),
        output(plugin.allocate(device[0], 16, 256)),
        relu(plugin.kernel("Relu"), device[0], {HX_DTYPE_F32}, {HX_DTYPE_F32}),
        identity(plugin.kernel("Identity"), device[0], {HX_DTYPE_F32}, {HX_DTYPE_F32}) {}
  ~FaultRig() {
    api().streams->synchronize(device[0], stream[0]);  // whatever it reports: done with it
    api().deallocate(device[0], input, 16);
    api().deallocate(device[0], output, 16);
  }
  void enqueue(KernelInstance& kernel) {
    const View in(input, 0, device[0], {4});
    const View out(output, 0, device[0], {4});
    REQUIRE(kernel.compute(device[0], stream[0], {in}, {out}).code == HX_OK);
  }
  hx_event* record() {
    hx_event* event = nullptr;
    REQUIRE(code(api().events->create(device[0], &event)) == HX_OK);
    events.push_back(event);
    REQUIRE(code(api().events->record(device[0], event, stream[0])) == HX_OK);
    return event;
  }
  Outcome event_synchronize(hx_event* event) const {
    return DirectPlugin::outcome(api().events->synchronize(device[0], event));
  }
  Outcome event_query(hx_event* event) const {
    bool done = false;
    return DirectPlugin::outcome(api().events->query(device[0], event, &done));
  }
  Outcome stream_synchronize() const {
    return DirectPlugin::outcome(api().streams->synchronize(device[0], stream[0]));
  }
  Outcome stream_query() const {
    bool done = false;
    return DirectPlugin::outcome(api().streams->query(device[0], stream[0], &done));
  }
  void destroy_events() {
    for (hx_event* event : events) api().events->destroy(device[0], event);
    events.clear();
  }

  hx_buffer* input;
  hx_buffer* output;
  KernelInstance relu;
  KernelInstance identity;
  std::vector<hx_event*> events;
};

void check_fault(const Outcome& outcome) {
  CHECK(outcome.code == HX_INTERNAL);
  CHECK(outcome.message == kReluFault);
}

}  // namespace

TEST_CASE("Sim faults: events after the failing work report it, events before it do not",
          "[sim][direct][async][faults]") {
  FaultRig rig(timing_case());
  rig.to_device(0, rig.input, {1, -2, 3, -4});
  hx_event* before = rig.record();
  rig.enqueue(rig.relu);  // accepted: the fault comes when the work runs
  hx_event* after = rig.record();

  check_fault(rig.event_synchronize(after));
  check_fault(rig.event_synchronize(after));  // every time, not once
  check_fault(rig.event_query(after));
  CHECK(rig.event_synchronize(before).code == HX_OK);
  CHECK(rig.event_query(before).code == HX_OK);
  check_fault(rig.stream_query());  // the stream is failed until a synchronize clears it
  // Recorded after the failure ran, before the clear: it reports the failure too.
  hx_event* between = rig.record();
  check_fault(rig.event_query(between));

  check_fault(rig.stream_synchronize());
  CHECK(rig.stream_synchronize().code == HX_OK);  // cleared
  CHECK(rig.stream_query().code == HX_OK);
  // Events recorded before the clear keep reporting what they saw.
  check_fault(rig.event_synchronize(after));
  check_fault(rig.event_query(between));
  rig.destroy_events();
}

TEST_CASE("Sim faults: a stream that waits for failed work fails too, naming both",
          "[sim][direct][async][faults]") {
  Rig rig(timing_case() + R"("fault_ops": ["Relu"])", 2);
  const hx_plugin_api& api = rig.api();
  hx_buffer* in0 = rig.plugin.allocate(rig.device[0], 16, 256);
  hx_buffer* out0 = rig.plugin.allocate(rig.device[0], 16, 256);
  hx_buffer* in1 = rig.plugin.allocate(rig.device[1], 16, 256);
  hx_buffer* out1 = rig.plugin.allocate(rig.device[1], 16, 256);
  KernelInstance relu(rig.plugin.kernel("Relu"), rig.device[0], {HX_DTYPE_F32}, {HX_DTYPE_F32});
  KernelInstance identity(rig.plugin.kernel("Identity"), rig.device[1], {HX_DTYPE_F32},
                          {HX_DTYPE_F32});
  rig.to_device(0, in0, {1, -2, 3, -4});
  rig.to_device(1, in1, {5, 6, 7, 8});
  REQUIRE(relu.compute(rig.device[0], rig.stream[0], {View(in0, 0, rig.device[0], {4})},
                       {View(out0, 0, rig.device[0], {4})})
              .code == HX_OK);
  hx_event* failed = nullptr;
  REQUIRE(code(api.events->create(rig.device[0], &failed)) == HX_OK);
  REQUIRE(code(api.events->record(rig.device[0], failed, rig.stream[0])) == HX_OK);
  REQUIRE(code(api.streams->wait_event(rig.device[1], rig.stream[1], failed)) == HX_OK);
  REQUIRE(identity.compute(rig.device[1], rig.stream[1], {View(in1, 0, rig.device[1], {4})},
                           {View(out1, 0, rig.device[1], {4})})
              .code == HX_OK);
  hx_event* waiter = nullptr;
  REQUIRE(code(api.events->create(rig.device[1], &waiter)) == HX_OK);
  REQUIRE(code(api.events->record(rig.device[1], waiter, rig.stream[1])) == HX_OK);

  const Outcome outcome = DirectPlugin::outcome(api.events->synchronize(rig.device[1], waiter));
  CHECK(outcome.code == HX_INTERNAL);
  CHECK(outcome.message == std::string("work on SIM:1 waited for work that failed: ") +
                               kReluFault);
  // Both streams report it; taken, and done with.
  DirectPlugin::outcome(api.streams->synchronize(rig.device[0], rig.stream[0]));
  DirectPlugin::outcome(api.streams->synchronize(rig.device[1], rig.stream[1]));
  api.events->destroy(rig.device[0], failed);
  api.events->destroy(rig.device[1], waiter);
  for (int i = 0; i < 2; ++i) {
    api.deallocate(rig.device[i], i == 0 ? in0 : in1, 16);
    api.deallocate(rig.device[i], i == 0 ? out0 : out1, 16);
  }
}

TEST_CASE("Sim faults: after a stream synchronize, new work and new events succeed",
          "[sim][direct][async][faults]") {
  FaultRig rig(timing_case());
  rig.to_device(0, rig.input, {1, -2, 3, -4});
  rig.enqueue(rig.relu);
  check_fault(rig.stream_synchronize());

  rig.enqueue(rig.identity);
  std::vector<float> host(4, 0);
  rig.to_host(0, rig.output, host);
  hx_event* later = rig.record();
  CHECK(rig.event_synchronize(later).code == HX_OK);
  CHECK(rig.event_query(later).code == HX_OK);
  CHECK(host == std::vector<float>{1, -2, 3, -4});  // the Identity ran, after the failure
  CHECK(rig.stream_synchronize().code == HX_OK);

  // A second failure after the clear is reported on its own, by the events after it.
  rig.enqueue(rig.relu);
  hx_event* second = rig.record();
  check_fault(rig.event_synchronize(second));
  CHECK(rig.event_synchronize(later).code == HX_OK);
  check_fault(rig.stream_synchronize());
  rig.destroy_events();
}

TEST_CASE("Sim faults: on a NULL stream the failure is the compute call's status",
          "[sim][direct][faults]") {
  FaultRig rig("");
  const View in(rig.input, 0, rig.device[0], {4});
  const View out(rig.output, 0, rig.device[0], {4});
  check_fault(rig.relu.compute(rig.device[0], nullptr, {in}, {out}));
  CHECK(rig.identity.compute(rig.device[0], nullptr, {in}, {out}).code == HX_OK);
  CHECK(rig.stream_synchronize().code == HX_OK);  // the rig's stream saw none of it
}

TEST_CASE("Sim faults: a faulting kernel still checks its arguments when called",
          "[sim][direct][faults]") {
  FaultRig rig("");
  const View in(rig.input, 0, rig.device[0], {4});
  const View three(rig.output, 0, rig.device[0], {3});
  const Outcome refused = rig.relu.compute(rig.device[0], rig.stream[0], {in}, {three});
  CHECK(refused.code == HX_INVALID_ARGUMENT);
  CHECK_THAT(refused.message, Catch::Contains("Relu: input 0 has 4 elements, expected 3"));
  CHECK(rig.stream_synchronize().code == HX_OK);  // nothing was enqueued
}

TEST_CASE("Sim faults: a failure that no synchronize took is logged when its stream goes",
          "[sim][direct][async][faults]") {
  FaultRig rig("");
  hx_stream* stream = nullptr;
  REQUIRE(code(rig.api().streams->create(rig.device[0], &stream)) == HX_OK);
  const View in(rig.input, 0, rig.device[0], {4});
  const View out(rig.output, 0, rig.device[0], {4});
  REQUIRE(rig.relu.compute(rig.device[0], stream, {in}, {out}).code == HX_OK);
  rig.api().streams->destroy(rig.device[0], stream);
  REQUIRE(rig.plugin.warnings().size() == 1);
  CHECK_THAT(rig.plugin.warnings()[0],
             Catch::Contains("a stream was destroyed before a stream synchronize reported") &&
                 Catch::Contains(kReluFault));

  // One that a synchronize reported is not logged again.
  REQUIRE(code(rig.api().streams->create(rig.device[0], &stream)) == HX_OK);
  REQUIRE(rig.relu.compute(rig.device[0], stream, {in}, {out}).code == HX_OK);
  check_fault(DirectPlugin::outcome(rig.api().streams->synchronize(rig.device[0], stream)));
  rig.api().streams->destroy(rig.device[0], stream);
  CHECK(rig.plugin.warnings().size() == 1);
}

TEST_CASE("Sim faults: the option fault_ops is checked", "[sim][direct][faults]") {
  struct Case {
    const char* options;
    const char* says;
  };
  const Case cases[] = {
      {R"({"fault_ops": ["Conv"]})",
       "option 'fault_ops': the sim plugin has no kernel for op 'Conv'; it implements MatMul"},
      {R"({"fault_ops": "Relu"})", "option 'fault_ops': expected a list of op names"},
      {R"({"fault_ops": [3]})", "option 'fault_ops': expected op names (strings)"},
      {R"({"fault_ops": ["Relu", "Relu"]})", "option 'fault_ops': op 'Relu' is listed twice"},
  };
  for (const Case& bad : cases) {
    INFO(bad.options);
    const DirectPlugin plugin(kSim, bad.options);
    CHECK(plugin.init_outcome().code == HX_INVALID_ARGUMENT);
    CHECK_THAT(plugin.init_outcome().message, Catch::Contains(bad.says));
  }
  CHECK(DirectPlugin(kSim, R"({"fault_ops": []})").init_outcome().code == HX_OK);
}

#include "sections/thread_workload.hpp"

#include <cstdio>
#include <iterator>
#include <optional>
#include <random>

#include "sections/kernel_runner.hpp"

namespace hxrt_conformance {
namespace {

// Sizes from a byte to past a page, so that a plugin's size classes all see concurrent use.
constexpr size_t kSizes[] = {1, 64, 1000, 4096, 65536 + 24};

std::vector<uint8_t> random_bytes(std::mt19937_64& engine, size_t size) {
  std::vector<uint8_t> bytes(size);
  for (uint8_t& byte : bytes) byte = static_cast<uint8_t>(engine());
  return bytes;
}

// Copies `pattern` into `memory` and back, on `stream`; "" when it comes back intact.
std::string round_trip(const hx_plugin_api& api, hx_device* device, hx_stream* stream,
                       const DeviceAllocation& memory, const std::vector<uint8_t>& pattern) {
  const size_t size = pattern.size();
  Outcome outcome =
      KitCore::take(api.copy_host_to_device(device, stream, memory.ptr(), pattern.data(), size));
  if (!outcome.ok()) return call_failure("copy_host_to_device", size, outcome);
  std::vector<uint8_t> back(size, 0);
  outcome = KitCore::take(api.copy_device_to_host(device, stream, back.data(), memory.ptr(), size));
  if (!outcome.ok()) return call_failure("copy_device_to_host", size, outcome);
  if (stream != nullptr) {
    outcome = KitCore::take(api.stream_synchronize(device, stream));
    if (!outcome.ok()) return "stream_synchronize failed: " + describe(outcome);
  }
  for (size_t i = 0; i < size; ++i) {
    if (back[i] != pattern[i]) {
      char bytes[64];
      std::snprintf(bytes, sizeof bytes, "byte %zu came back as 0x%02x, not 0x%02x", i, back[i],
                    pattern[i]);
      return std::to_string(size) + " bytes copied to the device and back: " + bytes;
    }
  }
  return "";
}

// Two allocations live at once, each copied in and out, freed in allocation order (not
// last-in first-out).
std::string memory_iteration(const hx_plugin_api& api, hx_device* device, hx_stream* stream,
                             std::mt19937_64& engine, int iteration) {
  const size_t count = std::size(kSizes);
  const size_t first_size = kSizes[static_cast<size_t>(iteration) % count];
  const size_t second_size = kSizes[static_cast<size_t>(iteration + 2) % count];
  std::optional<DeviceAllocation> first;
  first.emplace(api, device, first_size);
  DeviceAllocation second(api, device, second_size);
  for (const DeviceAllocation* memory : {&*first, &second}) {
    if (!memory->failure().empty()) return memory->failure();
    const std::string failure =
        round_trip(api, device, stream, *memory, random_bytes(engine, memory->size()));
    if (!failure.empty()) return failure;
  }
  first.reset();
  return "";
}

}  // namespace

void FailureCount::add(const std::string& when, const std::string& failure) {
  if (count++ == 0) first = when + ": " + failure;
}

ThreadOutcome run_thread_workload(const ThreadWorkload& workload, int thread, size_t device_index) {
  const PluginSession& session = *workload.session;
  hx_device* device = session.devices()[device_index];
  ThreadOutcome outcome;
  outcome.device_label = "device " + std::to_string(device_index);
  const DeviceStream stream(session, device);
  if (!stream.failure().empty()) outcome.memory.add("before the first iteration", stream.failure());
  const KernelRunner runner(session.api(), device, stream.get());
  std::mt19937_64 engine(workload.seed + static_cast<uint64_t>(thread));
  for (int iteration = 0; iteration < workload.iterations; ++iteration) {
    const std::string when = "iteration " + std::to_string(iteration);
    const std::string memory_failure =
        memory_iteration(session.api(), device, stream.get(), engine, iteration);
    if (!memory_failure.empty()) outcome.memory.add(when, memory_failure);
    if (!workload.variant) continue;
    const KernelCase& kernel_case =
        workload.cases[static_cast<size_t>(thread + iteration) % workload.cases.size()];
    const std::string kernel_failure =
        reference_case_failure(runner, *workload.variant, kernel_case, workload.seed);
    if (!kernel_failure.empty()) outcome.kernel.add(when, kernel_failure);
  }
  return outcome;
}

}  // namespace hxrt_conformance

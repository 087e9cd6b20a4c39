#include "sections/thread_workload.hpp"

#include <iterator>
#include <optional>

#include "call_text.hpp"
#include "device_memory.hpp"
#include "device_stream.hpp"
#include "device_transfers.hpp"
#include "sections/kernel_runner.hpp"
#include "sections/memory_bytes.hpp"

namespace hxrt_conformance {
namespace {

using memory_section::Bytes;
using memory_section::RandomBytes;

// Sizes from a byte to past a page, so that a plugin's size classes all see concurrent use.
constexpr size_t kSizes[] = {1, 64, 1000, 4096, 65536 + 24};

// One allocation and the host bytes copied through it.
struct RoundTrip {
  RoundTrip(const DeviceUnderTest& device, size_t size, RandomBytes& random)
      : memory(device, size), sent(random.next(size)), received(memory_section::complement(sent)) {}

  DeviceAllocation memory;
  Bytes sent;
  Bytes received;  // unlike `sent` in every byte until the copy back lands
};

// Copies `trip.sent` into its memory and back, on `stream`; "" when it comes back intact.
std::string round_trip(const DeviceUnderTest& device, hx_stream* stream, RoundTrip& trip) {
  if (!trip.memory.ok()) return trip.memory.failure();
  const size_t size = trip.sent.size();
  Outcome outcome = copy_to_device(device, stream, DevicePlace{trip.memory.buffer(), 0}, trip.sent.data(), size);
  if (!outcome.ok()) return call_failed("copy_host_to_device of " + byte_count(size), outcome);
  outcome = copy_to_host(device, stream, trip.received.data(), DevicePlace{trip.memory.buffer(), 0}, size);
  if (!outcome.ok()) return call_failed("copy_device_to_host of " + byte_count(size), outcome);
  if (stream != nullptr) {
    outcome = KitCore::take(device.api->streams->synchronize(device.device, stream));
    if (!outcome.ok()) return call_failed("stream_synchronize", outcome);
  }
  const std::optional<size_t> wrong =
      memory_section::first_difference(trip.sent.data(), trip.received.data(), size);
  if (!wrong) return "";
  const std::string where =
      stream != nullptr ? " on a stream, read once stream_synchronize returned" : "";
  return byte_count(size) + " copied to the device and back" + where + ": byte " +
         std::to_string(*wrong) + " came back as " +
         memory_section::hex_byte(trip.received[*wrong]) + ", not " +
         memory_section::hex_byte(trip.sent[*wrong]);
}

// The memory of one iteration: two allocations live at once, each copied in and out, freed
// in allocation order (not last-in first-out).
class IterationMemory {
 public:
  IterationMemory(const DeviceUnderTest& device, RandomBytes& random, int iteration)
      : first_(std::in_place, device, size_at(iteration), random),
        second_(device, size_at(iteration + 2), random) {}
  ~IterationMemory() { first_.reset(); }
  IterationMemory(const IterationMemory&) = delete;
  IterationMemory& operator=(const IterationMemory&) = delete;

  // "" when both round trips on `stream` bring their bytes back.
  std::string round_trips(const DeviceUnderTest& device, hx_stream* stream) {
    const std::string failure = round_trip(device, stream, *first_);
    return failure.empty() ? round_trip(device, stream, second_) : failure;
  }

 private:
  static size_t size_at(int index) {
    return kSizes[static_cast<size_t>(index) % std::size(kSizes)];
  }

  std::optional<RoundTrip> first_;
  RoundTrip second_;
};

}  // namespace

void FailureCount::add(const std::string& when, const std::string& failure) {
  if (count++ == 0) first = when + ": " + failure;
}

ThreadOutcome run_thread_workload(const ThreadWorkload& workload, int thread, size_t device_index) {
  const PluginSession& session = *workload.session;
  const DeviceUnderTest device = devices_under_test(session)[device_index];
  ThreadOutcome outcome;
  outcome.device_label = device.label;
  RandomBytes random(workload.seed + static_cast<uint64_t>(thread));
  for (int iteration = 0; iteration < workload.iterations; ++iteration) {
    const std::string when = "iteration " + std::to_string(iteration);
    IterationMemory memory(device, random, iteration);
    // After the memory, so that the stream is synchronized and destroyed before the memory is
    // freed: a plugin whose stream_synchronize returns early then fails on the data instead of
    // writing into freed memory.
    const std::optional<DeviceStream> stream = stream_if_offered(session, device);
    if (stream && !stream->ok()) outcome.memory.add(when, stream->failure());
    hx_stream* const on = stream ? stream->get() : nullptr;
    const std::string memory_failure = memory.round_trips(device, on);
    if (!memory_failure.empty()) outcome.memory.add(when, memory_failure);
    if (!workload.variant) continue;
    const size_t case_index = static_cast<size_t>(thread + iteration) % workload.cases.size();
    const std::string kernel_failure = reference_case_failure(
        KernelRunner(device, on), *workload.variant, workload.cases[case_index], workload.seed,
        workload.instances[device_index][case_index].get());
    if (!kernel_failure.empty()) outcome.kernel.add(when, kernel_failure);
  }
  return outcome;
}

}  // namespace hxrt_conformance

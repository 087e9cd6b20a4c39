// The device's timing of queued work (events.elapsed_ns, optional): two events of a stream
// around memsets give the device's time between them, in order and adding up over
// consecutive spans, and the misuse plugin_api.h names is refused with the codes it gives.
#include <cstdint>
#include <string>
#include <utility>

#include "call_text.hpp"
#include "device_memory.hpp"
#include "device_stream.hpp"
#include "device_transfers.hpp"
#include "sections/stream_calls.hpp"
#include "sections/stream_checks.hpp"

namespace hxrt_conformance::stream_section {
namespace {

// Each memset is long enough for a GPU's clock to see (cudaEventElapsedTime resolves about
// half a microsecond; 16 MiB take several microseconds on the fastest memory).
constexpr size_t kTimedFillBytes = 16 << 20;
// How far the time of two consecutive spans may be from the time of both: the rounding of a
// clock kept in float milliseconds (CUDA's), with room to spare.
constexpr uint64_t kSumToleranceNs = 1000;

struct Elapsed {
  Outcome outcome;
  uint64_t ns = 0;
};

Elapsed elapsed(const DeviceUnderTest& device, hx_event* start, hx_event* end) {
  Elapsed result;
  result.outcome =
      KitCore::take(device.api->events->elapsed_ns(device.device, start, end, &result.ns));
  return result;
}

std::string record(const DeviceUnderTest& device, const DeviceEvent& event, hx_stream* stream) {
  return failed_call("events.record",
                     device.api->events->record(device.device, event.get(), stream));
}

std::string fill(const DeviceUnderTest& device, const DeviceAllocation& memory,
                 hx_stream* stream) {
  const Outcome outcome =
      memset_device(device, stream, DevicePlace{memory.buffer(), 0}, 0x5a, kTimedFillBytes);
  return outcome.ok()
             ? std::string()
             : call_failed("memset of " + byte_count(kTimedFillBytes) + " on a stream", outcome);
}

// On one stream: event `first`, a memset, event `second`, a memset, event `third`, then a
// wait for `third`. Members in the order the kit's handles must outlive each other: memory,
// then events, then the stream (device_stream.hpp).
class Timeline {
 public:
  explicit Timeline(const DeviceUnderTest& device)
      : memory_(device, kTimedFillBytes),
        first_(device),
        second_(device),
        third_(device),
        stream_(device) {
    failure_ = first_failure({memory_.failure(), first_.failure(), second_.failure(),
                              third_.failure(), stream_.failure()});
    if (failure_.empty()) failure_ = record(device, first_, stream_.get());
    if (failure_.empty()) failure_ = fill(device, memory_, stream_.get());
    if (failure_.empty()) failure_ = record(device, second_, stream_.get());
    if (failure_.empty()) failure_ = fill(device, memory_, stream_.get());
    if (failure_.empty()) failure_ = record(device, third_, stream_.get());
    if (failure_.empty()) {
      failure_ = failed_call("events.synchronize",
                             device.api->events->synchronize(device.device, third_.get()));
    }
  }

  // "" when all of the above worked, else what failed.
  const std::string& failure() const { return failure_; }
  hx_event* first() const { return first_.get(); }
  hx_event* second() const { return second_.get(); }
  hx_event* third() const { return third_.get(); }
  hx_stream* stream() const { return stream_.get(); }
  const DeviceAllocation& memory() const { return memory_; }

 private:
  DeviceAllocation memory_;
  DeviceEvent first_;
  DeviceEvent second_;
  DeviceEvent third_;
  DeviceStream stream_;
  std::string failure_;
};

// "" when `got` failed with `code`, else what the plugin did instead and the rule.
std::string refused_with(const std::string& call, const Elapsed& got, hx_status_code code,
                         const std::string& rule) {
  if (got.outcome.code == code) return {};
  const std::string did = got.outcome.ok() ? "returned " + std::to_string(got.ns) + " ns"
                                           : "failed with " + describe(got.outcome);
  return call + " " + did + "; " + rule + ": return " + hx_status_code_name(code);
}

void check_spans(const DeviceUnderTest& device, const Timeline& timeline, SectionLog& log) {
  const std::string name =
      device.label + ": events.elapsed_ns times the work between two events of a stream";
  const Elapsed first_fill = elapsed(device, timeline.first(), timeline.second());
  const Elapsed second_fill = elapsed(device, timeline.second(), timeline.third());
  const Elapsed both = elapsed(device, timeline.first(), timeline.third());
  const Elapsed none = elapsed(device, timeline.second(), timeline.second());
  std::string failure;
  for (const auto& [call, got] : {std::pair("first to second", &first_fill),
                                  std::pair("second to third", &second_fill),
                                  std::pair("first to third", &both),
                                  std::pair("second to second", &none)}) {
    if (failure.empty() && !got->outcome.ok()) {
      failure = call_failed(std::string("events.elapsed_ns from ") + call +
                                " (events recorded around two memsets on one stream, the "
                                "third synchronized)",
                            got->outcome);
    }
  }
  if (failure.empty() && none.ns != 0) {
    failure = "events.elapsed_ns from an event to itself returned " + std::to_string(none.ns) +
              " ns; the same point gives 0";
  }
  const uint64_t sum = first_fill.ns + second_fill.ns;
  if (failure.empty() && (both.ns < first_fill.ns || both.ns < second_fill.ns)) {
    failure = "the span over both memsets (" + std::to_string(both.ns) +
              " ns) is shorter than one of its parts (" + std::to_string(first_fill.ns) +
              " ns, " + std::to_string(second_fill.ns) +
              " ns); return the device's time from the start event's point to the end's";
  }
  if (failure.empty() && (both.ns > sum + kSumToleranceNs || sum > both.ns + kSumToleranceNs)) {
    failure = "the spans over each memset (" + std::to_string(first_fill.ns) + " ns, " +
              std::to_string(second_fill.ns) + " ns) do not add up to the span over both (" +
              std::to_string(both.ns) +
              " ns); time the points on the device's clock, not the calls on the host's";
  }
  if (failure.empty()) {
    log.pass(name, "memsets of " + byte_count(kTimedFillBytes) + ": " +
                       std::to_string(first_fill.ns) + " ns and " + std::to_string(second_fill.ns) +
                       " ns");
  } else {
    log.fail(name, failure);
  }
}

void check_refusals(const DeviceUnderTest& device, const Timeline& timeline, SectionLog& log) {
  const Elapsed reversed = elapsed(device, timeline.third(), timeline.first());
  log.expect(reversed.outcome.code == HX_INVALID_ARGUMENT,
             device.label + ": events.elapsed_ns refuses a start recorded after the end",
             refused_with("events.elapsed_ns(third, first)", reversed, HX_INVALID_ARGUMENT,
                          "start must be recorded no later than end"));

  const DeviceEvent unrecorded(device);
  const DeviceEvent on_null_stream(device);
  std::string failure = first_failure({unrecorded.failure(), on_null_stream.failure()});
  if (failure.empty()) failure = record(device, on_null_stream, nullptr);
  if (failure.empty()) {
    failure = refused_with("events.elapsed_ns from an event never recorded",
                           elapsed(device, unrecorded.get(), timeline.third()),
                           HX_FAILED_PRECONDITION,
                           "an event never recorded marks no point of a stream to time from");
  }
  if (failure.empty()) {
    failure = refused_with("events.elapsed_ns from an event recorded with stream NULL",
                           elapsed(device, on_null_stream.get(), timeline.third()),
                           HX_FAILED_PRECONDITION,
                           "NULL-stream work is not on a stream, so there is no point to time");
  }
  log.expect(failure.empty(),
             device.label + ": events.elapsed_ns refuses an event never recorded on a stream",
             failure);

  const DeviceEvent elsewhere(device);
  const DeviceStream other_stream(device);
  failure = first_failure({elsewhere.failure(), other_stream.failure()});
  if (failure.empty()) failure = fill(device, timeline.memory(), other_stream.get());
  if (failure.empty()) failure = record(device, elsewhere, other_stream.get());
  if (failure.empty()) {
    failure = failed_call("events.synchronize",
                          device.api->events->synchronize(device.device, elsewhere.get()));
  }
  if (failure.empty()) {
    failure = refused_with("events.elapsed_ns between events of two streams",
                           elapsed(device, timeline.first(), elsewhere.get()),
                           HX_INVALID_ARGUMENT,
                           "both events must be recorded on the same stream");
  }
  log.expect(failure.empty(),
             device.label + ": events.elapsed_ns refuses events of two streams", failure);
}

}  // namespace

void check_event_timing(const DeviceUnderTest& device, SectionLog& log) {
  const Timeline timeline(device);
  if (!timeline.failure().empty()) {
    log.fail(device.label + ": events.elapsed_ns times the work between two events of a stream",
             "the work to time could not be queued: " + timeline.failure());
    return;
  }
  check_spans(device, timeline, log);
  check_refusals(device, timeline, log);
}

void check_timing_across_devices(const DeviceUnderTest& timing, const DeviceUnderTest& other,
                                 SectionLog& log) {
  const DeviceEvent own(timing);
  const DeviceEvent foreign(other);
  const DeviceStream own_stream(timing);
  const DeviceStream other_stream(other);
  std::string failure =
      first_failure({own.failure(), foreign.failure(), own_stream.failure(),
                     other_stream.failure()});
  if (failure.empty()) failure = record(timing, own, own_stream.get());
  if (failure.empty()) failure = record(other, foreign, other_stream.get());
  if (failure.empty()) {
    failure = refused_with("events.elapsed_ns on " + timing.label + " to an event of " +
                               other.label,
                           elapsed(timing, own.get(), foreign.get()), HX_INVALID_ARGUMENT,
                           "both events must be events of the device passed");
  }
  log.expect(failure.empty(),
             timing.label + ": events.elapsed_ns refuses an event of " + other.label, failure);
}

}  // namespace hxrt_conformance::stream_section

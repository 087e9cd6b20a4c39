// The recording group (plugin_api.h, "Recorded work"), where offered: a memset and a copy
// between two buffers, recorded on one stream and replayed on others. Nothing may run while
// recording; a replay must give the bytes the same calls give directly, read the recorded
// buffers as they are when it runs, and run after the work queued on its stream before it; and
// the group must refuse its misuse with the codes the header gives.
#include <hxrt/plugin_vocabulary.h>

#include <string>
#include <utility>
#include <vector>

#include "call_text.hpp"
#include "device_stream.hpp"
#include "device_transfers.hpp"
#include "sections/stream_checks.hpp"

namespace hxrt_conformance::stream_section {
namespace {

// Over 1 MiB and odd, as the other stream checks; the memset covers the first kMemset bytes.
constexpr size_t kBytes = (1 << 20) + 3;
constexpr size_t kMemset = 4096;
constexpr unsigned char kMemsetValue = 0x5a;

// A recording, destroyed with the object (after the streams that replay it are synchronised:
// declare it after them).
class Recording {
 public:
  explicit Recording(const DeviceUnderTest& device) : device_(device) {}
  ~Recording() { group().destroy(device_.device, recording_); }
  Recording(const Recording&) = delete;
  Recording& operator=(const Recording&) = delete;
  const hx_recording_api& group() const { return *hx_plugin_api_recording(device_.api); }
  hx_recording** out() { return &recording_; }
  hx_recording* get() const { return recording_; }

 private:
  const DeviceUnderTest& device_;
  hx_recording* recording_ = nullptr;
};

// dst = src, then dst's first kMemset bytes = kMemsetValue: the recorded work, and what it
// makes of `source`.
std::string enqueue_work(const DeviceUnderTest& device, hx_stream* stream, DevicePlace dst,
                         DevicePlace src) {
  const Outcome copied = copy_between(device, stream, dst, device, src, kBytes);
  if (!copied.ok()) return call_failed("copy_device_to_device on a stream that records", copied);
  const Outcome set = memset_device(device, stream, dst, kMemsetValue, kMemset);
  if (!set.ok()) return call_failed("memset on a stream that records", set);
  return "";
}

Bytes expected_from(Bytes source) {
  for (size_t i = 0; i < kMemset; ++i) source[i] = kMemsetValue;
  return source;
}

// "" when `buffer` holds `expected`, read with a copy on the NULL stream.
std::string holds(const DeviceUnderTest& device, const DeviceAllocation& buffer,
                  const Bytes& expected, const std::string& what, const std::string& advice,
                  const RandomBytes& random) {
  Bytes got(kBytes);
  const Outcome read = copy_to_host(device, nullptr, got.data(), {buffer.buffer(), 0}, kBytes);
  if (!read.ok()) return call_failed("copy_device_to_host after " + what, read);
  return memory_section::compare_bytes(what, expected, got.data(), advice, random);
}

std::string synchronize(const DeviceUnderTest& device, hx_stream* stream, const char* which) {
  const Outcome done = KitCore::take(device.api->streams->synchronize(device.device, stream));
  return done.ok() ? "" : call_failed(std::string("stream_synchronize of ") + which, done);
}

std::string replays(const DeviceUnderTest& device, RandomBytes& random) {
  const DeviceAllocation source(device, kBytes);
  if (!source.ok()) return source.failure();
  const DeviceAllocation target(device, kBytes);
  if (!target.ok()) return target.failure();
  const DeviceStream recorder(device);
  if (!recorder.ok()) return recorder.failure();
  const DeviceStream other(device);
  if (!other.ok()) return other.failure();
  Recording recording(device);
  const hx_recording_api& group = recording.group();
  const Bytes first = random.next(kBytes);
  const Bytes untouched = memory_section::complement(first);
  for (const auto& [place, bytes] :
       {std::pair(&source, &first), std::pair(&target, &untouched)}) {
    const Outcome put =
        copy_to_device(device, nullptr, {place->buffer(), 0}, bytes->data(), kBytes);
    if (!put.ok()) return call_failed("copy_host_to_device before recording", put);
  }
  const Outcome began = KitCore::take(group.begin(device.device, recorder.get()));
  if (!began.ok()) return call_failed("recording.begin", began);
  std::string failure =
      enqueue_work(device, recorder.get(), {target.buffer(), 0}, {source.buffer(), 0});
  const Outcome ended = KitCore::take(group.end(device.device, recorder.get(), recording.out()));
  if (!failure.empty()) return failure;
  if (!ended.ok()) return call_failed("recording.end", ended);
  if (recording.get() == nullptr) return returned_null("recording.end", "recording", "it");
  if (!(failure = synchronize(device, recorder.get(), "the stream that recorded")).empty()) {
    return failure;
  }
  failure = holds(device, target, untouched, "the destination after recording, before a replay",
                  "recorded calls must not run until replayed", random);
  if (!failure.empty()) return failure;

  const Outcome replayed = KitCore::take(group.replay(device.device, other.get(), recording.get()));
  if (!replayed.ok()) return call_failed("recording.replay on another stream", replayed);
  if (!(failure = synchronize(device, other.get(), "the replaying stream")).empty()) return failure;
  failure = holds(device, target, expected_from(first), "a replay of a recorded copy and memset",
                  "a replay must do what the recorded calls do", random);
  if (!failure.empty()) return failure;

  // New bytes in the recorded source, queued on the replaying stream just before the replay:
  // the replay must read them, so it must run after that copy and read the buffer as it is.
  const Bytes second = random.next(kBytes);
  const Outcome put =
      copy_to_device(device, recorder.get(), {source.buffer(), 0}, second.data(), kBytes);
  if (!put.ok()) return call_failed("copy_host_to_device on the stream that recorded", put);
  const Outcome again =
      KitCore::take(group.replay(device.device, recorder.get(), recording.get()));
  if (!again.ok()) return call_failed("recording.replay on the stream that recorded", again);
  if (!(failure = synchronize(device, recorder.get(), "the replaying stream")).empty()) {
    return failure;
  }
  return holds(device, target, expected_from(second),
               "a replay queued behind a copy of new bytes into its source",
               "a replay must run after the work queued on its stream before it, and read the "
               "recorded buffers as they are then",
               random);
}

// "" when `outcome` has `code`, else what it had.
std::string refused(const std::string& call, const Outcome& outcome, int32_t code,
                    const std::string& why) {
  if (outcome.code == code) return "";
  const char* got = hx_status_code_name(outcome.code);
  const std::string returned =
      outcome.ok() ? "success" : std::string(got ? got : "an unknown code") + ": " +
                                     outcome.message;
  return call + " returned " + returned + "; it must refuse with " + hx_status_code_name(code) +
         ": " + why;
}

std::string refuses_misuse(const DeviceUnderTest& device) {
  const DeviceStream stream(device);
  if (!stream.ok()) return stream.failure();
  Recording recording(device);
  const hx_recording_api& group = recording.group();
  std::string failure = refused("recording.begin(NULL stream)",
                                KitCore::take(group.begin(device.device, nullptr)),
                                HX_INVALID_ARGUMENT, "recorded work needs a stream");
  if (!failure.empty()) return failure;
  failure = refused("recording.end of a stream that does not record",
                    KitCore::take(group.end(device.device, stream.get(), recording.out())),
                    HX_FAILED_PRECONDITION, "only a recording stream can end");
  if (!failure.empty()) return failure;
  const Outcome began = KitCore::take(group.begin(device.device, stream.get()));
  if (!began.ok()) return call_failed("recording.begin", began);
  failure = refused("a second recording.begin on the same stream",
                    KitCore::take(group.begin(device.device, stream.get())),
                    HX_FAILED_PRECONDITION, "the stream records already");
  const Outcome ended = KitCore::take(group.end(device.device, stream.get(), recording.out()));
  if (!failure.empty()) return failure;
  if (!ended.ok()) return call_failed("recording.end of a recording of nothing", ended);
  const Outcome empty = KitCore::take(group.replay(device.device, stream.get(), recording.get()));
  if (!empty.ok()) return call_failed("recording.replay of a recording of nothing", empty);
  const Outcome again = KitCore::take(group.begin(device.device, stream.get()));
  if (!again.ok()) return call_failed("recording.begin after a replay", again);
  failure = refused("recording.replay on a stream that records",
                    KitCore::take(group.replay(device.device, stream.get(), recording.get())),
                    HX_FAILED_PRECONDITION, "a replay is not recorded");
  hx_recording* nothing = nullptr;
  (void)KitCore::take(group.end(device.device, stream.get(), &nothing));
  group.destroy(device.device, nothing);
  group.destroy(device.device, nullptr);
  if (!failure.empty()) return failure;
  return synchronize(device, stream.get(), "the stream after its recordings");
}

}  // namespace

void check_recording(const DeviceUnderTest& device, RandomBytes& random, SectionLog& log) {
  const std::string replay_failure = replays(device, random);
  log.expect(replay_failure.empty(),
             device.label + ": a replay does what the recorded calls do, after the work before "
                            "it, on the recorded buffers as they are then",
             replay_failure);
  const std::string misuse_failure = refuses_misuse(device);
  log.expect(misuse_failure.empty(), device.label + ": recording refuses its misuse",
             misuse_failure);
}

}  // namespace hxrt_conformance::stream_section

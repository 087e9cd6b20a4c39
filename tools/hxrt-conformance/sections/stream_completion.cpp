// When a stream's work is done: stream_synchronize blocks until it is, stream_query says so
// only then, and the work runs in the order it was enqueued.
#include "device_stream.hpp"
#include "sections/stream_calls.hpp"
#include "sections/stream_checks.hpp"

namespace hxrt_conformance::stream_section {
namespace {

const DoneClaim kSynchronizeClaim = {"stream_synchronize returned",
                                     "the work enqueued on the stream",
                                     "block until all enqueued work has finished"};

std::string synchronize(const DeviceUnderTest& device, const DeviceStream& stream) {
  return failed_call("stream_synchronize",
                     device.api->streams->synchronize(device.device, stream.get()));
}

}  // namespace

void check_stream_synchronize(const DeviceUnderTest& device, RandomBytes& random, SectionLog& log) {
  StreamWork work(device, random);
  const DeviceStream stream(device);
  std::string failure = first_failure({work.failure(), stream.failure()});
  if (failure.empty()) failure = work.enqueue_round_trip(stream.get());
  if (failure.empty()) failure = synchronize(device, stream);
  if (failure.empty()) failure = work.verdict(kSynchronizeClaim);
  log.expect(failure.empty(),
             device.label + ": stream_synchronize waits for the copies enqueued on the stream",
             failure);
}

void check_stream_query_after_synchronize(const DeviceUnderTest& device, RandomBytes& random,
                                          SectionLog& log) {
  StreamWork work(device, random);
  const DeviceStream stream(device);
  std::string failure = first_failure({work.failure(), stream.failure()});
  if (failure.empty()) failure = work.enqueue_round_trip(stream.get());
  if (failure.empty()) failure = synchronize(device, stream);
  bool done = false;
  if (failure.empty()) {
    failure =
        failed_call("stream_query", device.api->streams->query(device.device, stream.get(), &done));
  }
  if (failure.empty() && !done) {
    failure =
        "stream_query reported not done after stream_synchronize returned; once "
        "synchronize returns, the work enqueued before it is done";
  }
  log.expect(failure.empty(), device.label + ": stream_query reports done after stream_synchronize",
             failure);
}

void check_stream_query(const DeviceUnderTest& device, RandomBytes& random, SectionLog& log) {
  StreamWork work(device, random);
  const DeviceStream stream(device);
  std::string failure = first_failure({work.failure(), stream.failure()});
  if (failure.empty()) failure = work.enqueue_round_trip(stream.get());
  if (failure.empty()) {
    failure = verdict_when_done(
        work, "stream_query",
        [&](bool* out_done) {
          return device.api->streams->query(device.device, stream.get(), out_done);
        },
        " of a few MiB of copies being enqueued; report done once the enqueued work has "
        "finished",
        {"stream_query reported done", "the copies enqueued on the stream",
         "report done only when all enqueued work has finished"});
  }
  const std::string name =
      device.label + ": stream_query reports done only once the enqueued copies have completed";
  log.expect(failure.empty(), name, failure);
}

void check_stream_order(const DeviceUnderTest& device, RandomBytes& random, SectionLog& log) {
  StreamWork work(device, random);
  const DeviceStream stream(device);
  std::string failure = first_failure({work.failure(), stream.failure()});
  if (failure.empty()) failure = work.enqueue_through_memset_and_copy(stream.get());
  if (failure.empty()) failure = synchronize(device, stream);
  if (failure.empty()) failure = work.verdict(kSynchronizeClaim);
  log.expect(failure.empty(),
             device.label + ": memset and copy_device_to_device keep their place in stream order",
             failure);
}

}  // namespace hxrt_conformance::stream_section

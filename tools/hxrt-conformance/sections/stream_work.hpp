// The work the stream checks enqueue and then wait for: several MiB through the device into a
// host buffer, long enough on a real device for an early "done" to show in that buffer.
#pragma once

#include <hxrt/plugin_api.h>

#include <functional>
#include <string>

#include "device_memory.hpp"
#include "device_under_test.hpp"
#include "sections/memory_bytes.hpp"

namespace hxrt_conformance::stream_section {

using memory_section::Bytes;
using memory_section::RandomBytes;

// A call that said the work was done, for the verdict on it.
struct DoneClaim {
  std::string call;    // "stream_query reported done"
  std::string work;    // "the copies enqueued on the stream"
  std::string advice;  // "report done only when all enqueued work has finished"
};

// Construct it before the streams its work runs on (see DeviceStream), so that its memory
// outlives them. One enqueue_* (or the upload and download pair) per object.
class StreamWork {
 public:
  StreamWork(const DeviceUnderTest& device, RandomBytes& random);

  // "" when the memory was allocated, else what failed.
  const std::string& failure() const { return failure_; }

  // Each returns "" or the enqueue call that failed.
  // copy_host_to_device into device memory, then copy_device_to_host into the host buffer.
  std::string enqueue_round_trip(hx_stream* stream);
  // The same through a memset of a range and a copy_device_to_device to a second allocation.
  std::string enqueue_through_memset_and_copy(hx_stream* stream);
  // The round trip split in two, for two streams that stream_wait_event orders.
  std::string enqueue_upload(hx_stream* stream);
  std::string enqueue_download(hx_stream* stream);

  // After `claim`: "" when the host buffer holds the data. Otherwise waits a while for it, to
  // tell a claim made too early (the data arrives later) from work that went wrong.
  std::string verdict(const DoneClaim& claim) const;

 private:
  // The sent bytes into the first allocation; `from` into the host buffer.
  std::string upload(hx_stream* stream);
  std::string download(hx_stream* stream, const DeviceAllocation& from);

  const DeviceUnderTest& device_;
  const RandomBytes& random_;
  Bytes sent_;
  Bytes expected_;
  Bytes received_;
  DeviceAllocation first_;
  DeviceAllocation second_;
  std::string failure_;
  std::string description_;   // what was enqueued, for a failure
  std::string order_advice_;  // what to fix when the data never arrives
};

// Polls `query` (stream_query or event_query bound to its handle, named `call`) until it
// reports done, then gives work.verdict(claim). `never_done`: what follows "<call> did not
// report done within 10 s" when it never does.
std::string verdict_when_done(const StreamWork& work, const std::string& call,
                              const std::function<hx_status*(bool* out_done)>& query,
                              const std::string& never_done, const DoneClaim& claim);

}  // namespace hxrt_conformance::stream_section

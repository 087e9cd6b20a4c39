#include "sections/stream_work.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include "call_text.hpp"
#include "device_transfers.hpp"
#include "sections/stream_calls.hpp"

namespace hxrt_conformance::stream_section {
namespace {

using memory_section::complement;
using memory_section::first_difference;
using memory_section::hex_byte;
using memory_section::wrong_byte;

// Several MiB: on a real device the copies take long enough that "done" said at once is
// caught, and the kit stays fast on a plugin whose copies are synchronous.
constexpr size_t kWorkBytes = 4 << 20;
// The range the memset variant fills, odd at both ends.
constexpr size_t kFillOffset = 3;
constexpr size_t kFillBytes = (1 << 20) + 1;
constexpr uint8_t kFillValue = 0x5a;
// How long a verdict waits for data that a plugin claimed was there already.
constexpr std::chrono::seconds kSettleLimit{2};

// "" when `outcome` is OK, else what failed.
std::string failed_on_stream(const std::string& call, const Outcome& outcome) {
  return outcome.ok() ? std::string() : call_failed(call + " on a stream", outcome);
}

}  // namespace

StreamWork::StreamWork(const DeviceUnderTest& device, RandomBytes& random)
    : device_(device),
      random_(random),
      sent_(random.next(kWorkBytes)),
      first_(device, kWorkBytes),
      second_(device, kWorkBytes) {
  if (!first_.ok()) failure_ = first_.failure();
  if (!second_.ok()) failure_ = second_.failure();
}

std::string StreamWork::enqueue_round_trip(hx_stream* stream) {
  expected_ = sent_;
  received_ = complement(expected_);
  description_ = "copy_host_to_device then copy_device_to_host of " + byte_count(kWorkBytes) +
                 " on one stream";
  order_advice_ = "stream-ordered copies must move all `size` bytes";
  const std::string failure = upload(stream);
  return failure.empty() ? download(stream, first_) : failure;
}

std::string StreamWork::enqueue_through_memset_and_copy(hx_stream* stream) {
  expected_ = sent_;
  std::fill_n(expected_.begin() + kFillOffset, kFillBytes, kFillValue);
  received_ = complement(expected_);
  const std::string fill = "memset(allocation+" + std::to_string(kFillOffset) + ", " +
                           hex_byte(kFillValue) + ", " + byte_count(kFillBytes) + ")";
  description_ = "copy_host_to_device of " + byte_count(kWorkBytes) + ", " + fill +
                 ", copy_device_to_device to a second allocation and copy_device_to_host, "
                 "all on one stream";
  order_advice_ =
      "work on a stream must run in the order it was enqueued, memset and "
      "copy_device_to_device included";
  std::string failure = upload(stream);
  if (failure.empty()) {
    failure = failed_on_stream(
        fill, memset_device(device_, stream, DevicePlace{first_.buffer(), kFillOffset}, kFillValue, kFillBytes));
  }
  if (failure.empty()) {
    failure = failed_on_stream(
        "copy_device_to_device of " + byte_count(kWorkBytes),
        copy_between(device_, stream, DevicePlace{second_.buffer(), 0}, device_, DevicePlace{first_.buffer(), 0}, kWorkBytes));
  }
  if (failure.empty()) failure = download(stream, second_);
  return failure;
}

std::string StreamWork::enqueue_upload(hx_stream* stream) {
  expected_ = sent_;
  received_ = complement(expected_);
  description_ = "copy_host_to_device of " + byte_count(kWorkBytes) +
                 " and event_record on one stream, then stream_wait_event and "
                 "copy_device_to_host on another";
  order_advice_ =
      "stream_wait_event must hold back the work enqueued after it until the event has "
      "completed";
  return upload(stream);
}

std::string StreamWork::enqueue_download(hx_stream* stream) { return download(stream, first_); }

std::string StreamWork::upload(hx_stream* stream) {
  return failed_on_stream("copy_host_to_device of " + byte_count(kWorkBytes),
                          copy_to_device(device_, stream, DevicePlace{first_.buffer(), 0}, sent_.data(), kWorkBytes));
}

std::string StreamWork::download(hx_stream* stream, const DeviceAllocation& from) {
  return failed_on_stream("copy_device_to_host of " + byte_count(kWorkBytes),
                          copy_to_host(device_, stream, received_.data(), DevicePlace{from.buffer(), 0}, kWorkBytes));
}

std::string StreamWork::verdict(const DoneClaim& claim) const {
  const std::optional<size_t> wrong =
      first_difference(expected_.data(), received_.data(), expected_.size());
  if (!wrong) return {};
  // A plugin that said "done" too early may still be writing the buffer: watch it settle.
  const auto deadline = std::chrono::steady_clock::now() + kSettleLimit;
  std::optional<size_t> still_wrong = wrong;
  while (still_wrong && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    still_wrong = first_difference(expected_.data(), received_.data(), expected_.size());
  }
  if (!still_wrong) {
    return claim.call + " before " + claim.work + " had completed: bytes from offset " +
           std::to_string(*wrong) + " still differed (the data arrived later); " + claim.advice;
  }
  return "the host buffer does not hold the data of " + description_ + " even " +
         std::to_string(kSettleLimit.count()) + " s after " + claim.call + ": " +
         wrong_byte(*still_wrong, expected_[*still_wrong], received_[*still_wrong]) + "; " +
         order_advice_ + random_.seed_note();
}

std::string verdict_when_done(const StreamWork& work, const std::string& call,
                              const std::function<hx_status*(bool* out_done)>& query,
                              const std::string& never_done, const DoneClaim& claim) {
  const PollResult polled = poll_until_done(query);
  if (!polled.outcome.ok()) return call_failed(call, polled.outcome);
  if (!polled.done) {
    return call + " did not report done within " + std::to_string(kQueryLimit.count()) + " s" +
           never_done;
  }
  return work.verdict(claim);
}

}  // namespace hxrt_conformance::stream_section

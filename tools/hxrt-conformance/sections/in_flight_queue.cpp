// Many queued operations: 10000 memsets and copies of 64 bytes among the ranges of one buffer,
// queued on one stream without a wait, as the core queues a graph's work, then read back once
// stream_synchronize returns. Each operation's ranges are drawn from the seed, and copies
// between ranges carry earlier results forward, so the bytes at the end are those of the
// operations run in the order they were queued, all of them, and of no other order.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "call_text.hpp"
#include "device_memory.hpp"
#include "device_stream.hpp"
#include "device_transfers.hpp"
#include "sections/in_flight_checks.hpp"

namespace hxrt_conformance::in_flight_section {
namespace {

// Far more than a device's queue holds at once on most APIs (a command buffer, a ring), so
// that a plugin must wait for room or grow, as a graph of thousands of ops makes it.
constexpr size_t kQueuedOperations = 10000;
constexpr size_t kRanges = 64;
constexpr size_t kQueuedRangeBytes = 64;
constexpr size_t kQueueBufferBytes = kRanges * kQueuedRangeBytes;

enum class Kind { kMemset, kFromHost, kWithinDevice };

struct Operation {
  Kind kind;
  size_t dst;     // the range written
  size_t src;     // kWithinDevice: the range read; kFromHost: the block of host bytes read
  uint8_t value;  // kMemset
};

// The first operation uploads the whole buffer; the others follow.
struct Plan {
  Bytes initial;
  Bytes host_blocks;  // kQueuedRangeBytes for each kFromHost operation
  std::vector<Operation> operations;
};

Plan make_plan(RandomBytes& random) {
  Plan plan;
  plan.initial = random.next(kQueueBufferBytes);
  const Bytes choices = random.next((kQueuedOperations - 1) * 3);
  size_t host_blocks = 0;
  for (size_t i = 0; i + 1 < kQueuedOperations; ++i) {
    const unsigned char* choice = &choices[i * 3];
    Operation operation{static_cast<Kind>(choice[0] % 3), choice[1] % kRanges, 0, choice[2]};
    if (operation.kind == Kind::kFromHost) operation.src = host_blocks++;
    // Another range than dst: the ranges of one copy must not overlap.
    if (operation.kind == Kind::kWithinDevice) {
      operation.src = (operation.dst + 1 + choice[2] % (kRanges - 1)) % kRanges;
    }
    plan.operations.push_back(operation);
  }
  plan.host_blocks = random.next(host_blocks * kQueuedRangeBytes);
  return plan;
}

// "operation 17 of 10000 (a memset of 64 bytes at offset 1280 to 0x5a)"; `index` counts the
// operations after the upload.
std::string operation_text(const Plan& plan, size_t index) {
  const Operation& operation = plan.operations[index];
  const std::string at = std::to_string(operation.dst * kQueuedRangeBytes);
  std::string what;
  switch (operation.kind) {
    case Kind::kMemset:
      what = "a memset of " + byte_count(kQueuedRangeBytes) + " at offset " + at + " to " +
             memory_section::hex_byte(operation.value);
      break;
    case Kind::kFromHost:
      what = "a copy_host_to_device of " + byte_count(kQueuedRangeBytes) + " to offset " + at;
      break;
    case Kind::kWithinDevice:
      what = "a copy_device_to_device of " + byte_count(kQueuedRangeBytes) + " from offset " +
             std::to_string(operation.src * kQueuedRangeBytes) + " to offset " + at;
      break;
  }
  return "operation " + std::to_string(index + 2) + " of " + std::to_string(kQueuedOperations) +
         " (" + what + ")";
}

Outcome enqueue(const DeviceUnderTest& device, hx_stream* stream, hx_buffer* buffer,
                const Plan& plan, const Operation& operation) {
  const DevicePlace dst{buffer, operation.dst * kQueuedRangeBytes};
  switch (operation.kind) {
    case Kind::kMemset:
      return memset_device(device, stream, dst, operation.value, kQueuedRangeBytes);
    case Kind::kFromHost:
      return copy_to_device(device, stream, dst,
                            &plan.host_blocks[operation.src * kQueuedRangeBytes],
                            kQueuedRangeBytes);
    case Kind::kWithinDevice:
      return copy_between(device, stream, dst, device, {buffer, operation.src * kQueuedRangeBytes},
                          kQueuedRangeBytes);
  }
  return {};
}

// "" when every operation was queued, else the one refused.
std::string enqueue_plan(const DeviceUnderTest& device, hx_stream* stream, hx_buffer* buffer,
                         const Plan& plan) {
  const std::string advice =
      "; a stream must take thousands of operations without a wait, as the core queues a "
      "graph's work before it waits: wait for room in the device's queue, or grow it";
  const Outcome uploaded =
      copy_to_device(device, stream, {buffer, 0}, plan.initial.data(), kQueueBufferBytes);
  if (!uploaded.ok()) {
    return call_failed("operation 1 (a copy_host_to_device of " + byte_count(kQueueBufferBytes) +
                           ") on a stream",
                       uploaded) +
           advice;
  }
  for (size_t i = 0; i < plan.operations.size(); ++i) {
    const Outcome queued = enqueue(device, stream, buffer, plan, plan.operations[i]);
    if (!queued.ok()) return call_failed(operation_text(plan, i) + " on a stream", queued) + advice;
  }
  return {};
}

// The buffer after the plan has run in order, and the operation that wrote each range last
// (an index into plan.operations; none for the upload).
struct Expected {
  Bytes bytes;
  std::vector<std::optional<size_t>> last_writer;
};

Expected run_on_host(const Plan& plan) {
  Expected expected{plan.initial, std::vector<std::optional<size_t>>(kRanges)};
  for (size_t i = 0; i < plan.operations.size(); ++i) {
    const Operation& operation = plan.operations[i];
    unsigned char* dst = &expected.bytes[operation.dst * kQueuedRangeBytes];
    for (size_t byte = 0; byte < kQueuedRangeBytes; ++byte) {
      switch (operation.kind) {
        case Kind::kMemset:
          dst[byte] = operation.value;
          break;
        case Kind::kFromHost:
          dst[byte] = plan.host_blocks[operation.src * kQueuedRangeBytes + byte];
          break;
        case Kind::kWithinDevice:
          dst[byte] = expected.bytes[operation.src * kQueuedRangeBytes + byte];
          break;
      }
    }
    expected.last_writer[operation.dst] = i;
  }
  return expected;
}

std::string wrong_result(const Plan& plan, const Expected& expected, const Bytes& got,
                         const RandomBytes& random) {
  const std::optional<size_t> offset =
      memory_section::first_difference(expected.bytes.data(), got.data(), kQueueBufferBytes);
  if (!offset) return {};
  const std::optional<size_t> writer = expected.last_writer[*offset / kQueuedRangeBytes];
  const std::string last =
      writer ? operation_text(plan, *writer) + " wrote it last" : "only operation 1 wrote it";
  return std::to_string(kQueuedOperations) + " memsets and copies among " +
         std::to_string(kRanges) + " ranges of " + byte_count(kQueuedRangeBytes) +
         " of one buffer, " + "queued on one stream, read back once stream_synchronize returned: " +
         memory_section::wrong_byte(*offset, expected.bytes[*offset], got[*offset]) + "; " + last +
         "; work on a stream must run in the order it was queued, and all of it before "
         "stream_synchronize returns" +
         random.seed_note();
}

// "10000 operations: 3316 memsets, 3281 copies from the host, 3403 copies within the device";
// the upload counts as a copy from the host.
std::string counts_text(const Plan& plan) {
  size_t counts[3] = {0, 0, 0};
  for (const Operation& operation : plan.operations) ++counts[static_cast<int>(operation.kind)];
  return std::to_string(kQueuedOperations) + " operations: " + std::to_string(counts[0]) +
         " memsets, " + std::to_string(counts[1] + 1) + " copies from the host, " +
         std::to_string(counts[2]) + " copies within the device";
}

}  // namespace

std::string many_queued_check(const DeviceUnderTest& device) {
  return device.label + ": " + std::to_string(kQueuedOperations) +
         " memsets and copies queued on one stream run in order";
}

void check_many_queued(const DeviceUnderTest& device, const std::string& cannot_run,
                       RandomBytes& random, SectionLog& log) {
  const std::string name = many_queued_check(device);
  if (!cannot_run.empty()) {
    log.skip(name, cannot_run);
    return;
  }
  // The host bytes and the buffer outlive the stream's work (see DeviceStream).
  const Plan plan = make_plan(random);
  const DeviceAllocation buffer(device, kQueueBufferBytes);
  const DeviceStream stream(device);
  std::string failure = buffer.failure();
  if (failure.empty()) failure = stream.failure();
  if (failure.empty()) failure = enqueue_plan(device, stream.get(), buffer.buffer(), plan);
  if (failure.empty()) {
    const Outcome synchronized =
        KitCore::take(device.api->streams->synchronize(device.device, stream.get()));
    if (!synchronized.ok()) failure = call_failed("stream_synchronize", synchronized);
  }
  const Expected expected = run_on_host(plan);
  Bytes got = memory_section::complement(expected.bytes);
  if (failure.empty()) {
    const Outcome read =
        copy_to_host(device, nullptr, got.data(), {buffer.buffer(), 0}, kQueueBufferBytes);
    if (!read.ok()) failure = call_failed("copy_device_to_host of the buffer", read);
  }
  if (failure.empty()) failure = wrong_result(plan, expected, got, random);
  if (failure.empty()) {
    log.pass(name, counts_text(plan));
  } else {
    log.fail(name, failure);
  }
}

}  // namespace hxrt_conformance::in_flight_section

// allocate and deallocate: distinct buffers (by their contents, or as host addresses where the
// device declares HOST memory), the declared alignment and max_allocation, NULL, one large
// buffer.
#include <algorithm>
#include <cstdint>

#include "plugin_session.hpp"
#include "sections/memory_checks.hpp"

namespace hxrt_conformance::memory_section {
namespace {

constexpr size_t kMiB = size_t{1} << 20;
// Far larger than the other checks' blocks, so that a plugin that carves allocations out of a
// small pool shows it, yet small enough for a CI machine; a quarter of the free memory when
// that is less.
constexpr size_t kLargeBytes = 64 * kMiB;
// Read and written at both ends of the large block.
constexpr size_t kEndBytes = 4096;

const std::vector<size_t>& allocation_sizes() {
  static const std::vector<size_t> all = {1, 7, 1000, 4097, 64 << 10, kMiB};
  return all;
}

// Only for a device whose handles are host addresses (memory_kind HOST).
uintptr_t host_address(const DeviceAllocation& buffer) {
  return reinterpret_cast<uintptr_t>(buffer.buffer());
}

std::string hex_address(uintptr_t address) {
  return hex_pointer(reinterpret_cast<const void*>(address));
}

std::string size_text(size_t bytes) {
  if (bytes % kMiB == 0) return std::to_string(bytes / kMiB) + " MiB";
  return byte_count(bytes);
}

struct LargeRequest {
  size_t size = kLargeBytes;
  std::string limit_note;  // "; memory_info reports N bytes free", when it does
};

LargeRequest large_request(const DeviceUnderTest& device) {
  LargeRequest request;
  if (device.max_allocation != 0 && device.max_allocation < request.size) {
    request.size = static_cast<size_t>(device.max_allocation);
    request.limit_note = "; max_allocation is " + std::to_string(device.max_allocation);
  }
  if (device.api->memory_info == nullptr) return request;
  uint64_t free = 0;
  uint64_t total = 0;
  const Outcome info = KitCore::take(device.api->memory_info(device.device, &free, &total));
  if (!info.ok()) return request;
  request.size = static_cast<size_t>(std::min<uint64_t>(request.size, free / 4));
  request.limit_note += "; memory_info reports " + std::to_string(free) + " bytes free";
  return request;
}

// "" when the first and last kEndBytes of `buffer` take bytes and give them back.
std::string use_both_ends(const DeviceUnderTest& device, const DeviceAllocation& buffer,
                          RandomBytes& random) {
  for (const size_t offset : {size_t{0}, buffer.size() - kEndBytes}) {
    const Bytes sent = random.next(kEndBytes);
    Bytes received = complement(sent);
    const std::string what = "in a buffer from " + allocate_call(buffer.size(), buffer.alignment()) +
                             ", copy_host_to_device of " + std::to_string(kEndBytes) +
                             " bytes to offset " + std::to_string(offset);
    const Outcome put =
        copy_to_device(device, nullptr, DevicePlace{buffer.buffer(), offset}, sent.data(), sent.size());
    if (!put.ok()) return call_failed(what, put);
    const Outcome got =
        copy_to_host(device, nullptr, received.data(), DevicePlace{buffer.buffer(), offset}, received.size());
    if (!got.ok()) return call_failed(what + " then copy_device_to_host", got);
    const std::string wrong =
        compare_bytes(what + " then copy_device_to_host", sent, received.data(),
                      "every byte of a buffer must be usable", random);
    if (!wrong.empty()) return wrong;
  }
  return {};
}

// Fills every buffer, then reads every one back: a buffer that shares bytes with another shows
// the other's bytes. Handles are opaque, so this is how overlap shows on any device.
std::string overlap_by_contents(const DeviceUnderTest& device,
                                const std::vector<DeviceAllocation>& buffers, RandomBytes& random) {
  std::vector<Bytes> sent;
  for (const DeviceAllocation& buffer : buffers) {
    sent.push_back(random.next(buffer.size()));
    const Outcome put = copy_to_device(device, nullptr, DevicePlace{buffer.buffer(), 0},
                                       sent.back().data(), buffer.size());
    if (!put.ok()) return call_failed("copy_host_to_device of " + byte_count(buffer.size()), put);
  }
  for (size_t i = 0; i < buffers.size(); ++i) {
    Bytes now = complement(sent[i]);
    const Outcome got = copy_to_host(device, nullptr, now.data(),
                                     DevicePlace{buffers[i].buffer(), 0}, buffers[i].size());
    if (!got.ok()) return call_failed("copy_device_to_host of " + byte_count(buffers[i].size()), got);
    const std::string wrong = compare_bytes(
        "the buffer from " + allocate_call(buffers[i].size(), buffers[i].alignment()) +
            ", read back after " + std::to_string(buffers.size()) +
            " live buffers were each filled",
        sent[i], now.data(),
        "a write to another buffer changed it: give every live buffer memory of its own",
        random);
    if (!wrong.empty()) return wrong;
  }
  return {};
}

// For a HOST device: the buffers sit at their declared alignment and do not overlap as address
// ranges, and the handle's bytes are the buffer's bytes.
std::string host_address_failure(const DeviceUnderTest& device,
                                 const std::vector<DeviceAllocation>& buffers,
                                 RandomBytes& random) {
  std::vector<const DeviceAllocation*> by_address;
  for (const DeviceAllocation& buffer : buffers) {
    if (host_address(buffer) % device.alignment != 0) {
      return allocate_call(buffer.size(), buffer.alignment()) + " returned " +
             hex_address(host_address(buffer)) + ": not a multiple of the declared alignment " +
             std::to_string(device.alignment) +
             "; with memory_kind HOST a handle is the buffer's host address, so give memory "
             "at the alignment device_properties declares (or declare what allocate gives)";
    }
    by_address.push_back(&buffer);
  }
  std::sort(by_address.begin(), by_address.end(),
            [](const DeviceAllocation* a, const DeviceAllocation* b) {
              return host_address(*a) < host_address(*b);
            });
  for (size_t i = 1; i < by_address.size(); ++i) {
    const DeviceAllocation& before = *by_address[i - 1];
    const DeviceAllocation& after = *by_address[i];
    if (host_address(before) + before.size() <= host_address(after)) continue;
    return allocate_call(before.size(), before.alignment()) + " returned " +
           hex_address(host_address(before)) + " and " +
           allocate_call(after.size(), after.alignment()) + " returned " +
           hex_address(host_address(after)) + ", which overlap while both are live";
  }
  const DeviceAllocation& first = buffers.front();
  const Bytes sent = random.next(first.size());
  const Outcome put =
      copy_to_device(device, nullptr, DevicePlace{first.buffer(), 0}, sent.data(), sent.size());
  if (!put.ok()) return call_failed("copy_host_to_device of " + byte_count(sent.size()), put);
  return compare_bytes("copy_host_to_device, then the bytes at the handle's address read by the "
                       "host",
                       sent, reinterpret_cast<const unsigned char*>(first.buffer()),
                       "with memory_kind HOST the handle must be the host address of the "
                       "buffer's first byte; declare HX_MEMORY_HOST_VISIBLE or "
                       "HX_MEMORY_DEVICE if it is not",
                       random);
}

}  // namespace

void check_live_buffers(const DeviceUnderTest& device, bool copies_work, RandomBytes& random,
                        SectionLog& log) {
  const std::string name = device.label + ": live buffers do not overlap";
  if (!can_read_device_memory(device, copies_work, name, log)) return;
  std::vector<DeviceAllocation> live;
  for (const size_t size : allocation_sizes()) {
    live.emplace_back(device, size);
    if (!live.back().ok()) {
      log.fail(name, live.back().failure());
      return;
    }
  }
  const std::string failure = overlap_by_contents(device, live, random);
  if (!log.expect(failure.empty(), name, failure)) return;
  const std::string host_check =
      device.label + ": buffer handles are host addresses at the declared alignment";
  if (!device.host_memory()) {
    log.skip(host_check, "memory_kind is not HOST: handles are opaque, and the kit neither "
                         "reads them nor treats them as addresses");
    return;
  }
  const std::string host_failure = host_address_failure(device, live, random);
  log.expect(host_failure.empty(), host_check, host_failure);
}

void check_deallocate_null(const DeviceUnderTest& device, SectionLog& log) {
  device.api->deallocate(device.device, nullptr, 0);
  log.pass(device.label + ": deallocate accepts NULL");
}

void check_max_allocation(const DeviceUnderTest& device, SectionLog& log) {
  const std::string name = device.label + ": allocate refuses more than max_allocation";
  // Past 2^62 the request could wrap inside a plugin that adds to it; no device is that large.
  if (device.max_allocation == 0 || device.max_allocation >= (uint64_t{1} << 62)) {
    log.skip(name, "max_allocation is " + std::to_string(device.max_allocation) +
                       ": no limit below memory_total is declared");
    return;
  }
  const size_t size = static_cast<size_t>(device.max_allocation) + 1;
  const DeviceAllocation buffer(device, size);
  const std::string call = allocate_call(size, device.alignment);
  if (buffer.outcome().ok()) {
    log.fail(name, call + " succeeded, one byte over the declared max_allocation " +
                       std::to_string(device.max_allocation) +
                       "; refuse it with OUT_OF_MEMORY, or declare the largest size allocate "
                       "really gives");
  } else if (buffer.outcome().code != HX_OUT_OF_MEMORY &&
             buffer.outcome().code != HX_INVALID_ARGUMENT) {
    log.fail(name, call_failed(call, buffer.outcome()) +
                       "; refuse a size over max_allocation with OUT_OF_MEMORY or "
                       "INVALID_ARGUMENT");
  } else {
    log.pass(name, describe(buffer.outcome()));
  }
}

void check_large_allocation(const DeviceUnderTest& device, bool copies_work, RandomBytes& random,
                            SectionLog& log) {
  const std::string name = device.label + ": a large buffer is usable at both ends";
  const LargeRequest request = large_request(device);
  const size_t size = request.size;
  if (size < kEndBytes) {
    log.skip(name, "too little free memory for a large buffer" + request.limit_note);
    return;
  }
  const DeviceAllocation buffer(device, size);
  if (!buffer.ok()) {
    log.fail(name, buffer.failure() + request.limit_note);
    return;
  }
  if (!copies_work) {
    log.pass(name, size_text(size) + "; not written, as " + needs_round_trips(device));
    return;
  }
  const std::string failure = use_both_ends(device, buffer, random);
  if (failure.empty()) {
    log.pass(name, size_text(size));
  } else {
    log.fail(name, failure);
  }
}

}  // namespace hxrt_conformance::memory_section

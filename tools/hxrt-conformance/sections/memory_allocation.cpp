// allocate and deallocate: alignment, distinct blocks, size 0, NULL, one large block.
#include <algorithm>
#include <cstdint>

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

const std::vector<size_t>& alignments() {
  static const std::vector<size_t> all = {64, 128, kCoreAlignment, 4096};
  return all;
}

const std::vector<size_t>& allocation_sizes() {
  static const std::vector<size_t> all = {1, 7, 1000, 4097, 64 << 10, kMiB};
  return all;
}

bool aligned(const void* ptr, size_t alignment) {
  return reinterpret_cast<uintptr_t>(ptr) % alignment == 0;
}

std::string misaligned(const DeviceAllocation& buffer) {
  return allocate_call(buffer.size(), buffer.alignment()) + " returned " +
         hex_pointer(buffer.ptr()) + ": not a multiple of " + std::to_string(buffer.alignment()) +
         "; return memory aligned to the requested alignment";
}

// The core asks for kCoreAlignment; a plugin may refuse more with a status instead of
// faking it (cudaMalloc guarantees 256), but must not return memory that is less aligned.
bool refusal_allowed(size_t alignment, const DeviceAllocation& buffer) {
  return alignment > kCoreAlignment && !buffer.outcome().ok();
}

std::string size_text(size_t bytes) {
  if (bytes % kMiB == 0) return std::to_string(bytes / kMiB) + " MiB";
  return byte_count(bytes);
}

struct LargeRequest {
  size_t size = kLargeBytes;
  std::string free_note;  // "; memory_info reports N bytes free", when it does
};

LargeRequest large_request(const DeviceUnderTest& device) {
  LargeRequest request;
  if (device.api->memory_info == nullptr) return request;
  uint64_t free = 0;
  uint64_t total = 0;
  const Outcome info = KitCore::take(device.api->memory_info(device.device, &free, &total));
  if (!info.ok()) return request;
  request.size = static_cast<size_t>(std::min<uint64_t>(kLargeBytes, free / 4));
  request.free_note = "; memory_info reports " + std::to_string(free) + " bytes free";
  return request;
}

// "" when the first and last kEndBytes of `buffer` take bytes and give them back.
std::string use_both_ends(const DeviceUnderTest& device, const DeviceAllocation& buffer,
                          RandomBytes& random) {
  for (const size_t offset : {size_t{0}, buffer.size() - kEndBytes}) {
    const Bytes sent = random.next(kEndBytes);
    Bytes received = complement(sent);
    const std::string what = "in a block from " + allocate_call(buffer.size(), buffer.alignment()) +
                             ", copy_host_to_device of " + std::to_string(kEndBytes) +
                             " bytes to offset " + std::to_string(offset);
    const Outcome put =
        copy_to_device(device, nullptr, buffer.ptr() + offset, sent.data(), sent.size());
    if (!put.ok()) return call_failed(what, put);
    const Outcome got =
        copy_to_host(device, nullptr, received.data(), buffer.ptr() + offset, received.size());
    if (!got.ok()) return call_failed(what + " then copy_device_to_host", got);
    const std::string wrong =
        compare_bytes(what + " then copy_device_to_host", sent, received.data(),
                      "every byte of an allocation must be usable", random);
    if (!wrong.empty()) return wrong;
  }
  return {};
}

}  // namespace

std::vector<DeviceAllocation> check_alignment(const DeviceUnderTest& device, SectionLog& log) {
  std::vector<DeviceAllocation> live;
  for (const size_t alignment : alignments()) {
    const std::string name =
        device.label + ": allocate honours alignment " + std::to_string(alignment);
    std::string failure;
    std::string refused;
    for (const size_t size : allocation_sizes()) {
      DeviceAllocation buffer(device, size, alignment);
      if (refusal_allowed(alignment, buffer)) {
        refused = buffer.failure();
        break;
      }
      if (!buffer.ok()) {
        if (failure.empty()) failure = buffer.failure();
        continue;
      }
      if (failure.empty() && !aligned(buffer.ptr(), alignment)) failure = misaligned(buffer);
      // Misaligned or not, it is a live allocation that must not overlap the others.
      live.push_back(std::move(buffer));
    }
    if (!failure.empty()) {
      log.fail(name, failure);
    } else if (!refused.empty()) {
      log.skip(name, "the plugin refuses this alignment (" + refused + "); the core asks for " +
                         std::to_string(kCoreAlignment) + " at most");
    } else {
      log.pass(name, "1 byte to 1 MiB");
    }
  }
  return live;
}

void check_no_overlap(const DeviceUnderTest& device, const std::vector<DeviceAllocation>& buffers,
                      SectionLog& log) {
  std::vector<const DeviceAllocation*> by_address;
  for (const DeviceAllocation& buffer : buffers) by_address.push_back(&buffer);
  std::sort(
      by_address.begin(), by_address.end(),
      [](const DeviceAllocation* a, const DeviceAllocation* b) { return a->ptr() < b->ptr(); });
  const std::string name = device.label + ": live allocations do not overlap";
  if (by_address.size() < 2) {
    log.skip(name, "fewer than two allocations succeeded (see the alignment checks)");
    return;
  }
  for (size_t i = 1; i < by_address.size(); ++i) {
    const DeviceAllocation& before = *by_address[i - 1];
    const DeviceAllocation& after = *by_address[i];
    if (before.ptr() + before.size() <= after.ptr()) continue;
    log.fail(name, allocate_call(before.size(), before.alignment()) + " returned " +
                       hex_pointer(before.ptr()) + " and " +
                       allocate_call(after.size(), after.alignment()) + " returned " +
                       hex_pointer(after.ptr()) +
                       ", which overlap while both are live; give every live allocation "
                       "memory of its own");
    return;
  }
  log.pass(name, std::to_string(buffers.size()) + " allocations");
}

void check_allocation_edges(const DeviceUnderTest& device, SectionLog& log) {
  const std::string name =
      device.label + ": allocate of 0 bytes gives NULL or a unique pointer, freed by deallocate";
  std::string failure;
  std::string found;
  {
    // Both live at once; deallocate runs at the end of this scope.
    const DeviceAllocation first(device, 0);
    const DeviceAllocation second(device, 0);
    if (!first.ok() || !second.ok()) {
      failure =
          (first.ok() ? second : first).failure() + "; size 0 must give NULL or a unique pointer";
    } else if (first.ptr() != nullptr && first.ptr() == second.ptr()) {
      failure = allocate_call(0, kCoreAlignment) + " returned " + hex_pointer(first.ptr()) +
                " twice while the first was live; return NULL or a pointer no other live "
                "allocation has";
    }
    found = first.ptr() == nullptr ? "NULL" : "unique pointers";
  }
  if (failure.empty()) {
    log.pass(name, found);
  } else {
    log.fail(name, failure);
  }
  device.api->deallocate(device.device, nullptr, 0);
  log.pass(device.label + ": deallocate accepts NULL");
}

void check_large_allocation(const DeviceUnderTest& device, bool copies_work, RandomBytes& random,
                            SectionLog& log) {
  const std::string name = device.label + ": a large allocation is aligned and usable at both ends";
  const LargeRequest request = large_request(device);
  const size_t size = request.size;
  if (size < kEndBytes) {
    log.skip(name, "too little free memory for a large allocation" + request.free_note);
    return;
  }
  const DeviceAllocation buffer(device, size);
  if (!buffer.ok()) {
    log.fail(name, buffer.failure() + request.free_note);
    return;
  }
  if (!aligned(buffer.ptr(), kCoreAlignment)) {
    log.fail(name, misaligned(buffer));
    return;
  }
  if (!copies_work) {
    log.pass(name, size_text(size) + ", aligned; not written, as " + needs_round_trips(device));
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

// Pinned host memory (the host_memory group), optional: memory the host reads and writes
// directly, used as the host side of copies.
#include <cstring>

#include "sections/memory_checks.hpp"

namespace hxrt_conformance::memory_section {
namespace {

// Over 1 MiB and odd, like the transfers a core stages through pinned buffers.
constexpr size_t kPinnedBytes = (1 << 20) + 3;

// One host_allocate, released with host_deallocate when it goes out of scope.
class PinnedBuffer {
 public:
  PinnedBuffer(const DeviceUnderTest& device, size_t size) : device_(device), size_(size) {
    outcome_ = KitCore::take(device.api->host_memory->allocate(device.device, size, &ptr_));
    if (!outcome_.ok()) ptr_ = nullptr;
  }
  ~PinnedBuffer() {
    if (outcome_.ok()) device_.api->host_memory->deallocate(device_.device, ptr_);
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;

  bool ok() const { return ptr_ != nullptr; }
  std::string failure() const {
    const std::string call = "host_memory.allocate(" + byte_count(size_) + ")";
    if (!outcome_.ok()) return call_failed(call, outcome_);
    return returned_null(call, "pointer", "the memory");
  }
  unsigned char* ptr() const { return static_cast<unsigned char*>(ptr_); }

 private:
  const DeviceUnderTest& device_;
  size_t size_;
  void* ptr_ = nullptr;
  Outcome outcome_;
};

std::string pinned_round_trip(const DeviceUnderTest& device, RandomBytes& random) {
  const PinnedBuffer source(device, kPinnedBytes);
  if (!source.ok()) return source.failure();
  const PinnedBuffer target(device, kPinnedBytes);
  if (!target.ok()) return target.failure();
  const DeviceAllocation buffer(device, kPinnedBytes);
  if (!buffer.ok()) return buffer.failure();
  // Written and read by the host directly: pinned memory is host memory.
  const Bytes sent = random.next(kPinnedBytes);
  std::memcpy(source.ptr(), sent.data(), kPinnedBytes);
  const Bytes before = complement(sent);
  std::memcpy(target.ptr(), before.data(), kPinnedBytes);
  const std::string what =
      "copy_host_to_device of " + byte_count(kPinnedBytes) + " from host_memory.allocate memory";
  const Outcome put = copy_to_device(device, nullptr, DevicePlace{buffer.buffer(), 0}, source.ptr(), kPinnedBytes);
  if (!put.ok()) return call_failed(what, put);
  const Outcome got = copy_to_host(device, nullptr, target.ptr(), DevicePlace{buffer.buffer(), 0}, kPinnedBytes);
  if (!got.ok()) return call_failed("copy_device_to_host into host_memory.allocate memory", got);
  return compare_bytes(what + " then copy_device_to_host into host_memory.allocate memory", sent,
                       target.ptr(), "a copy must move all `size` bytes", random);
}

// One host_memory.allocate_buffer, released with host_memory.deallocate.
class PinnedHostBuffer {
 public:
  PinnedHostBuffer(const DeviceUnderTest& device, size_t size) : device_(device), size_(size) {
    outcome_ = KitCore::take(
        device.api->host_memory->allocate_buffer(device.device, size, &ptr_, &buffer_));
    if (!outcome_.ok()) ptr_ = nullptr;
  }
  ~PinnedHostBuffer() {
    if (outcome_.ok()) device_.api->host_memory->deallocate(device_.device, ptr_);
  }
  PinnedHostBuffer(const PinnedHostBuffer&) = delete;
  PinnedHostBuffer& operator=(const PinnedHostBuffer&) = delete;

  bool ok() const { return ptr_ != nullptr && buffer_ != nullptr; }
  std::string failure() const {
    const std::string call = "host_memory.allocate_buffer(" + byte_count(size_) + ")";
    if (!outcome_.ok()) return call_failed(call, outcome_);
    return returned_null(call, ptr_ == nullptr ? "pointer" : "buffer", "the memory");
  }
  unsigned char* ptr() const { return static_cast<unsigned char*>(ptr_); }
  hx_buffer* buffer() const { return buffer_; }

 private:
  const DeviceUnderTest& device_;
  size_t size_;
  void* ptr_ = nullptr;
  hx_buffer* buffer_ = nullptr;
  Outcome outcome_;
};

// Through the buffer functions, at offsets into the host buffers, as the core's staging uses
// them: bytes written by the host at the pointer arrive, and come back where asked.
std::string buffer_round_trip(const DeviceUnderTest& device, RandomBytes& random) {
  constexpr size_t kOffset = 256;
  const PinnedHostBuffer source(device, kPinnedBytes + kOffset);
  if (!source.ok()) return source.failure();
  const PinnedHostBuffer target(device, kPinnedBytes + 2 * kOffset);
  if (!target.ok()) return target.failure();
  const DeviceAllocation buffer(device, kPinnedBytes);
  if (!buffer.ok()) return buffer.failure();
  const Bytes sent = random.next(kPinnedBytes);
  std::memcpy(source.ptr() + kOffset, sent.data(), kPinnedBytes);
  const Bytes before = complement(sent);
  std::memcpy(target.ptr() + 2 * kOffset, before.data(), kPinnedBytes);
  const hx_host_memory_api& host = *device.api->host_memory;
  const std::string what = "host_memory.copy_to_device of " + byte_count(kPinnedBytes) +
                           " from byte 256 of an allocate_buffer buffer";
  const Outcome put = KitCore::take(host.copy_to_device(device.device, nullptr, buffer.buffer(),
                                                        0, source.buffer(), kOffset,
                                                        kPinnedBytes));
  if (!put.ok()) return call_failed(what, put);
  const Outcome got = KitCore::take(host.copy_to_host(device.device, nullptr, target.buffer(),
                                                      2 * kOffset, buffer.buffer(), 0,
                                                      kPinnedBytes));
  if (!got.ok()) return call_failed("host_memory.copy_to_host to byte 512 of a buffer", got);
  return compare_bytes(what + " then host_memory.copy_to_host to byte 512 of another", sent,
                       target.ptr() + 2 * kOffset,
                       "the buffer's byte 0 is the pointer's; a copy must move all `size` bytes",
                       random);
}

}  // namespace

void check_pinned_buffers(const DeviceUnderTest& device, bool copies_work, RandomBytes& random,
                          SectionLog& log) {
  const std::string name =
      device.label + ": pinned host memory as buffers works as the host side of copies";
  if (!hx_host_memory_api_has_buffers(device.api->host_memory)) {
    log.skip(name, "the host_memory group offers no buffer functions (allocate_buffer, "
                   "copy_to_device, copy_to_host; ABI 2.5): the core copies by pointer");
    return;
  }
  if (!can_read_device_memory(device, copies_work, name, log)) return;
  const std::string failure = buffer_round_trip(device, random);
  log.expect(failure.empty(), name, failure);
}

bool pinned_memory_offered(const hx_plugin_api& api, SectionLog& log) {
  if (api.host_memory != nullptr) return true;
  log.skip("pinned host memory", "the plugin offers no pinned host memory (host_memory is NULL)");
  return false;
}

void check_pinned_round_trip(const DeviceUnderTest& device, bool copies_work, RandomBytes& random,
                             SectionLog& log) {
  const std::string name = device.label + ": pinned host memory works as the host side of copies";
  if (!can_read_device_memory(device, copies_work, name, log)) return;
  const std::string failure = pinned_round_trip(device, random);
  log.expect(failure.empty(), name, failure);
}

void check_host_deallocate_null(const DeviceUnderTest& device, SectionLog& log) {
  device.api->host_memory->deallocate(device.device, nullptr);
  log.pass(device.label + ": host_memory.deallocate accepts NULL");
}

}  // namespace hxrt_conformance::memory_section

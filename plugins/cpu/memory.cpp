#include "memory.hpp"

#include <hxplugin/status.hpp>

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "device.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

// MemAvailable is the kernel's estimate of what can be allocated without swapping, which is
// what "free" should mean to a memory policy; the free-page count would ignore the page cache.
bool read_mem_available(uint64_t* out_bytes) {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  uint64_t kibibytes = 0;
  std::string unit;
  while (meminfo >> key >> kibibytes) {
    std::getline(meminfo, unit);
    if (key == "MemAvailable:") {
      *out_bytes = kibibytes * 1024;
      return true;
    }
  }
  return false;
}

uint64_t free_pages_bytes() {
  const long pages = sysconf(_SC_AVPHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size);
}

bool is_power_of_two(size_t value) { return value != 0 && (value & (value - 1)) == 0; }

// A buffer handle is the host address of the buffer's first byte.
void* at(hx_buffer* buffer, uint64_t offset) { return static_cast<char*>(static_cast<void*>(buffer)) + offset; }
const void* at(const hx_buffer* buffer, uint64_t offset) {
  return static_cast<const char*>(static_cast<const void*>(buffer)) + offset;
}

}  // namespace

hx_status* memory_info(hx_device* device, uint64_t* out_free, uint64_t* out_total) {
  const CpuDevice& cpu = from_handle(device);
  return hxplugin::guarded(*cpu.services, kPluginName, [&]() -> hx_status* {
    if (!read_mem_available(out_free)) *out_free = free_pages_bytes();
    *out_total = cpu.memory_total;
    return nullptr;
  });
}

hx_status* allocate(hx_device* device, size_t size, size_t alignment, hx_buffer** out_buffer) {
  const CpuDevice& cpu = from_handle(device);
  if (!is_power_of_two(alignment)) {
    return hxplugin::make_status(*cpu.services, HX_INVALID_ARGUMENT,
                                 "CPU allocate: alignment %zu is not a power of two", alignment);
  }
  // More than the host has can never succeed; asking the C library would only reach its
  // limits in less clear ways (a sanitizer's allocator aborts instead of returning ENOMEM).
  if (size > cpu.memory_total) {
    return hxplugin::make_status(*cpu.services, HX_OUT_OF_MEMORY,
                                 "CPU allocate: cannot allocate %zu bytes: the host has %llu "
                                 "bytes of memory",
                                 size, static_cast<unsigned long long>(cpu.memory_total));
  }
  // posix_memalign wants a multiple of sizeof(void*); a stricter alignment satisfies a weaker.
  const size_t effective_alignment = alignment < sizeof(void*) ? sizeof(void*) : alignment;
  void* memory = nullptr;
  const int error = posix_memalign(&memory, effective_alignment, size);
  if (error == ENOMEM) {
    return hxplugin::make_status(
        *cpu.services, HX_OUT_OF_MEMORY,
        "CPU allocate: cannot allocate %zu bytes aligned to %zu: out of host "
        "memory",
        size, alignment);
  }
  if (error != 0) {
    return hxplugin::make_status(*cpu.services, HX_INTERNAL,
                                 "CPU allocate: posix_memalign(%zu, %zu) failed: %s",
                                 effective_alignment, size, std::strerror(error));
  }
  *out_buffer = static_cast<hx_buffer*>(memory);
  return nullptr;
}

void deallocate(hx_device* device, hx_buffer* buffer, size_t size) {
  (void)device;
  (void)size;
  std::free(buffer);
}

// All transfers are synchronous, so `stream` is only an ordering token and is ignored. Every
// size-0 call returns before touching its (possibly NULL) arguments, as the ABI allows.

hx_status* memset_bytes(hx_device* device, hx_stream* stream, hx_buffer* dst, uint64_t dst_offset,
                        uint8_t value, size_t size) {
  (void)device;
  (void)stream;
  if (size != 0) std::memset(at(dst, dst_offset), value, size);
  return nullptr;
}

hx_status* copy_host_to_device(hx_device* device, hx_stream* stream, hx_buffer* dst,
                               uint64_t dst_offset, const void* src_host, size_t size) {
  (void)device;
  (void)stream;
  if (size != 0) std::memcpy(at(dst, dst_offset), src_host, size);
  return nullptr;
}

hx_status* copy_device_to_host(hx_device* device, hx_stream* stream, void* dst_host,
                               const hx_buffer* src, uint64_t src_offset, size_t size) {
  (void)device;
  (void)stream;
  if (size != 0) std::memcpy(dst_host, at(src, src_offset), size);
  return nullptr;
}

hx_status* copy_device_to_device(hx_device* dst_device, hx_stream* stream, hx_buffer* dst,
                                 uint64_t dst_offset, hx_device* src_device, const hx_buffer* src,
                                 uint64_t src_offset, size_t size) {
  (void)dst_device;
  (void)src_device;
  (void)stream;
  if (size != 0) std::memcpy(at(dst, dst_offset), at(src, src_offset), size);
  return nullptr;
}

}  // namespace hxcpu

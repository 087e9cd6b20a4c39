#include "memory.hpp"

#include <cstdint>

#include <hxplugin/status.hpp>

#include "device.hpp"
#include "device_errors.hpp"
#include "errors.hpp"
#include "plugin_state.hpp"
#include "streams.hpp"

namespace hxcuda {
namespace {

bool is_power_of_two(size_t value) { return value != 0 && (value & (value - 1)) == 0; }

double mebibytes(uint64_t bytes) { return static_cast<double>(bytes) / (1 << 20); }

// OUT_OF_MEMORY naming the request, the device and what the driver says is free.
hx_status* out_of_device_memory(const CudaDevice& device, size_t size, cudaError_t error) {
  char failure[512];
  describe_cuda_error(error, "cudaMalloc", failure, sizeof failure);
  (void)cudaGetLastError();
  size_t free = 0, total = 0;
  if (cudaMemGetInfo(&free, &total) != cudaSuccess) {
    (void)cudaGetLastError();
    return hxplugin::make_status(device.services(), HX_OUT_OF_MEMORY,
                                 "%s: out of memory: cannot allocate %zu bytes (%.2f MiB): %s",
                                 device.label().c_str(), size, mebibytes(size), failure);
  }
  return hxplugin::make_status(
      device.services(), HX_OUT_OF_MEMORY,
      "%s: out of memory: cannot allocate %zu bytes (%.2f MiB); %.2f MiB of %.2f MiB free: %s",
      device.label().c_str(), size, mebibytes(size), mebibytes(free), mebibytes(total), failure);
}

// A free that fails has no status to travel in: it is logged. At process exit the runtime
// may be gone before the core lets go of its memory; that is not worth a warning.
void log_failed_free(const CudaDevice& device, cudaError_t error, const char* call,
                     const void* ptr) {
  // A lost context fails every free: the status that lost it said so once already.
  if (error == cudaErrorCudartUnloading || is_sticky(error)) {
    (void)cudaGetLastError();
    return;
  }
  char failure[512];
  describe_cuda_error(error, call, failure, sizeof failure);
  (void)cudaGetLastError();
  device.plugin().log(HX_LOG_ERROR, "%s: freeing %p failed: %s", device.label().c_str(), ptr,
                      failure);
}

}  // namespace

hx_status* memory_info(hx_device* device, uint64_t* out_free, uint64_t* out_total) {
  const CudaDevice& gpu = from_handle(device);
  // The driver knows the free memory only through a context: asking makes the device current,
  // and so creates its context if no work did yet.
  if (hx_status* status = gpu.make_current()) return status;
  size_t free = 0, total = 0;
  if (hx_status* status =
          device_error(gpu, cudaMemGetInfo(&free, &total), "cudaMemGetInfo")) {
    return status;
  }
  *out_free = free;
  *out_total = total;
  return nullptr;
}

hx_status* device_address(const CudaDevice& device, const char* what, const hx_buffer* buffer,
                          uint64_t offset, size_t size, void** out) {
  const auto base = reinterpret_cast<uintptr_t>(buffer);
  uintptr_t end = 0;
  if (buffer == nullptr && size > 0) {
    return hxplugin::make_status(device.services(), HX_INVALID_ARGUMENT,
                                 "%s: %s: NULL buffer for %zu bytes", device.label().c_str(),
                                 what, size);
  }
  if (offset > UINTPTR_MAX - base || __builtin_add_overflow(base + offset, size, &end)) {
    return hxplugin::make_status(
        device.services(), HX_INVALID_ARGUMENT,
        "%s: %s: %zu bytes at offset %llu of buffer %p run past the end of the address space",
        device.label().c_str(), what, size, static_cast<unsigned long long>(offset),
        static_cast<const void*>(buffer));
  }
  *out = reinterpret_cast<void*>(base + offset);
  return nullptr;
}

hx_status* allocate(hx_device* device, size_t size, size_t alignment, hx_buffer** out_buffer) {
  const CudaDevice& gpu = from_handle(device);
  if (!is_power_of_two(alignment) || alignment > kAlignment) {
    return hxplugin::make_status(
        gpu.services(), HX_INVALID_ARGUMENT,
        "%s: allocate: alignment %zu is not a power of two of at most %zu bytes (what "
        "cudaMalloc guarantees)",
        gpu.label().c_str(), alignment, kAlignment);
  }
  // Refused before any CUDA call, so that it creates no context.
  if (size == 0) {
    return hxplugin::make_status(gpu.services(), HX_INVALID_ARGUMENT,
                                 "%s: allocate: size 0 (a buffer has at least 1 byte)",
                                 gpu.label().c_str());
  }
  if (hx_status* status = gpu.make_current()) return status;
  void* address = nullptr;
  const cudaError_t error = cudaMalloc(&address, size);
  if (error == cudaErrorMemoryAllocation) return out_of_device_memory(gpu, size, error);
  if (hx_status* status = device_error(gpu, error, "cudaMalloc")) return status;
  *out_buffer = reinterpret_cast<hx_buffer*>(address);
  return nullptr;
}

void deallocate(hx_device* device, hx_buffer* buffer, size_t size) {
  (void)size;  // cudaFree knows each block's size
  if (buffer == nullptr) return;
  const CudaDevice& gpu = from_handle(device);
  const char* call = "cudaSetDevice";
  cudaError_t error = cudaSetDevice(gpu.cuda_ordinal());
  if (error == cudaSuccess) {
    // cudaFree waits for all work on the device, every stream's: the core frees a buffer only
    // once nothing queued uses it, and its caching allocator does so rarely (regions given
    // back), so the wait is for others' work and short-lived, never a correctness matter.
    call = "cudaFree";
    error = cudaFree(buffer);
  }
  if (error != cudaSuccess) log_failed_free(gpu, error, call, buffer);
}

hx_status* host_allocate(hx_device* device, size_t size, void** out_ptr) {
  const CudaDevice& gpu = from_handle(device);
  if (size == 0) {
    *out_ptr = nullptr;
    return nullptr;
  }
  if (hx_status* status = gpu.make_current()) return status;
  // Portable: pinned for every device of the process, not only the current one.
  const cudaError_t error = cudaHostAlloc(out_ptr, size, cudaHostAllocPortable);
  if (error == cudaErrorMemoryAllocation) {
    char failure[512];
    describe_cuda_error(error, "cudaHostAlloc", failure, sizeof failure);
    (void)cudaGetLastError();
    return hxplugin::make_status(
        gpu.services(), HX_OUT_OF_MEMORY,
        "%s: cannot allocate %zu bytes (%.2f MiB) of pinned host memory: %s", gpu.label().c_str(),
        size, mebibytes(size), failure);
  }
  return device_error(gpu, error, "cudaHostAlloc");
}

void host_deallocate(hx_device* device, void* ptr) {
  if (ptr == nullptr) return;
  const CudaDevice& gpu = from_handle(device);
  const cudaError_t error = cudaFreeHost(ptr);
  if (error != cudaSuccess) log_failed_free(gpu, error, "cudaFreeHost", ptr);
}

hx_status* memset_bytes(hx_device* device, hx_stream* stream, hx_buffer* dst, uint64_t dst_offset,
                        uint8_t value, size_t size) {
  // The ABI makes size 0 a no-op that succeeds whatever the other arguments are.
  if (size == 0) return nullptr;
  CudaDevice& gpu = from_handle(device);
  void* address = nullptr;
  if (hx_status* status = device_address(gpu, "memset", dst, dst_offset, size, &address)) {
    return status;
  }
  return run_ordered(gpu, stream, "cudaMemsetAsync", [&](cudaStream_t cuda_stream) {
    return cudaMemsetAsync(address, value, size, cuda_stream);
  });
}

}  // namespace hxcuda

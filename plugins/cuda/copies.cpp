#include "copies.hpp"

#include <hxplugin/status.hpp>

#include "device.hpp"
#include "memory.hpp"
#include "plugin_state.hpp"
#include "streams.hpp"

namespace hxcuda {
namespace {

// A NULL host pointer with bytes to move is the caller's mistake: a status, not a crash.
hx_status* check_host(const CudaDevice& device, const char* what, const void* host, size_t size) {
  if (host != nullptr) return nullptr;
  return hxplugin::make_status(device.services(), HX_INVALID_ARGUMENT,
                               "%s: %s: NULL host pointer for %zu bytes", device.label().c_str(),
                               what, size);
}

}  // namespace

// Size 0 returns at once in every copy: the ABI makes it a no-op that succeeds whatever the
// other arguments are, and it needs no CUDA context.

hx_status* copy_host_to_device(hx_device* device, hx_stream* stream, hx_buffer* dst,
                               uint64_t dst_offset, const void* src_host, size_t size) {
  if (size == 0) return nullptr;
  CudaDevice& gpu = from_handle(device);
  constexpr char kWhat[] = "copy_host_to_device";
  void* target = nullptr;
  if (hx_status* status = device_address(gpu, kWhat, dst, dst_offset, size, &target)) {
    return status;
  }
  if (hx_status* status = check_host(gpu, kWhat, src_host, size)) return status;
  return run_ordered(gpu, stream, "cudaMemcpyAsync", [&](cudaStream_t s) {
    return cudaMemcpyAsync(target, src_host, size, cudaMemcpyHostToDevice, s);
  });
}

hx_status* copy_device_to_host(hx_device* device, hx_stream* stream, void* dst_host,
                               const hx_buffer* src, uint64_t src_offset, size_t size) {
  if (size == 0) return nullptr;
  CudaDevice& gpu = from_handle(device);
  constexpr char kWhat[] = "copy_device_to_host";
  void* source = nullptr;
  if (hx_status* status = device_address(gpu, kWhat, src, src_offset, size, &source)) {
    return status;
  }
  if (hx_status* status = check_host(gpu, kWhat, dst_host, size)) return status;
  return run_ordered(gpu, stream, "cudaMemcpyAsync", [&](cudaStream_t s) {
    return cudaMemcpyAsync(dst_host, source, size, cudaMemcpyDeviceToHost, s);
  });
}

hx_status* copy_device_to_device(hx_device* dst_device, hx_stream* stream, hx_buffer* dst,
                                 uint64_t dst_offset, hx_device* src_device, const hx_buffer* src,
                                 uint64_t src_offset, size_t size) {
  if (size == 0) return nullptr;
  CudaDevice& target = from_handle(dst_device);
  constexpr char kWhat[] = "copy_device_to_device";
  const CudaDevice* source = target.plugin().find_device(src_device);
  if (source == nullptr) {
    return hxplugin::make_status(
        target.services(), HX_INVALID_ARGUMENT,
        "%s: device-to-device copy from %p, which is not a device of the cuda plugin",
        target.label().c_str(), static_cast<const void*>(src_device));
  }
  void* to = nullptr;
  void* from = nullptr;
  if (hx_status* status = device_address(target, kWhat, dst, dst_offset, size, &to)) {
    return status;
  }
  if (hx_status* status = device_address(*source, kWhat, src, src_offset, size, &from)) {
    return status;
  }
  if (source == &target) {
    return run_ordered(target, stream, "cudaMemcpyAsync", [&](cudaStream_t s) {
      return cudaMemcpyAsync(to, from, size, cudaMemcpyDeviceToDevice, s);
    });
  }
  return run_ordered(target, stream, "cudaMemcpyPeerAsync", [&](cudaStream_t s) {
    return cudaMemcpyPeerAsync(to, target.cuda_ordinal(), from, source->cuda_ordinal(), size, s);
  });
}

}  // namespace hxcuda

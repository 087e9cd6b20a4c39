#include "copies.hpp"

#include <hxplugin/status.hpp>

#include "device.hpp"
#include "plugin_state.hpp"
#include "streams.hpp"

namespace hxcuda {
namespace {

// A copy of nothing touches no memory and needs no context, but its stream must still be one
// that could have carried it.
hx_status* empty_copy(const CudaDevice& device, const hx_stream* stream) {
  CudaStream* unused = nullptr;
  return resolve_stream(device, stream, &unused);
}

}  // namespace

hx_status* copy_host_to_device(hx_device* device, hx_stream* stream, void* dst_device,
                               const void* src_host, size_t size) {
  CudaDevice& gpu = from_handle(device);
  if (size == 0) return empty_copy(gpu, stream);
  return run_ordered(gpu, stream, "cudaMemcpyAsync", [&](cudaStream_t s) {
    return cudaMemcpyAsync(dst_device, src_host, size, cudaMemcpyHostToDevice, s);
  });
}

hx_status* copy_device_to_host(hx_device* device, hx_stream* stream, void* dst_host,
                               const void* src_device, size_t size) {
  CudaDevice& gpu = from_handle(device);
  if (size == 0) return empty_copy(gpu, stream);
  return run_ordered(gpu, stream, "cudaMemcpyAsync", [&](cudaStream_t s) {
    return cudaMemcpyAsync(dst_host, src_device, size, cudaMemcpyDeviceToHost, s);
  });
}

hx_status* copy_device_to_device(hx_device* dst, hx_stream* stream, void* dst_ptr, hx_device* src,
                                 const void* src_ptr, size_t size) {
  CudaDevice& target = from_handle(dst);
  const CudaDevice* source = target.plugin().find_device(src);
  if (source == nullptr) {
    return hxplugin::make_status(
        target.services(), HX_INVALID_ARGUMENT,
        "%s: device-to-device copy from %p, which is not a device of the cuda plugin",
        target.label().c_str(), static_cast<const void*>(src));
  }
  if (size == 0) return empty_copy(target, stream);
  if (source == &target) {
    return run_ordered(target, stream, "cudaMemcpyAsync", [&](cudaStream_t s) {
      return cudaMemcpyAsync(dst_ptr, src_ptr, size, cudaMemcpyDeviceToDevice, s);
    });
  }
  return run_ordered(target, stream, "cudaMemcpyPeerAsync", [&](cudaStream_t s) {
    return cudaMemcpyPeerAsync(dst_ptr, target.cuda_ordinal(), src_ptr, source->cuda_ordinal(),
                               size, s);
  });
}

}  // namespace hxcuda

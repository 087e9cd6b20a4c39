#include "device_transfers.hpp"

namespace hxrt_conformance {

Outcome copy_to_device(const DeviceUnderTest& device, hx_stream* stream, DevicePlace dst,
                       const void* src, size_t size) {
  return KitCore::take(
      device.api->copy_host_to_device(device.device, stream, dst.buffer, dst.offset, src, size));
}

Outcome copy_to_host(const DeviceUnderTest& device, hx_stream* stream, void* dst, DevicePlace src,
                     size_t size) {
  return KitCore::take(
      device.api->copy_device_to_host(device.device, stream, dst, src.buffer, src.offset, size));
}

Outcome copy_between(const DeviceUnderTest& dst_device, hx_stream* stream, DevicePlace dst,
                     const DeviceUnderTest& src_device, DevicePlace src, size_t size) {
  return KitCore::take(dst_device.api->copy_device_to_device(dst_device.device, stream,
                                                             dst.buffer, dst.offset,
                                                             src_device.device, src.buffer,
                                                             src.offset, size));
}

Outcome memset_device(const DeviceUnderTest& device, hx_stream* stream, DevicePlace dst,
                      uint8_t value, size_t size) {
  return KitCore::take(
      device.api->memset(device.device, stream, dst.buffer, dst.offset, value, size));
}

}  // namespace hxrt_conformance

#include "plugins/host_buffers.hpp"

#include "base/status.hpp"
#include "hxrt/plugin_vocabulary.h"
#include "plugins/plugin.hpp"

namespace hxrt::detail {

hx_status* allocate_page_locked(Plugin& plugin, hx_device* device, size_t bytes, void** out) {
  const hx_host_memory_api& host = *plugin.api().host_memory;
  *out = nullptr;
  if (!hx_host_memory_api_has_buffers(&host)) {
    hx_status* status = host.allocate(device, bytes, out);
    if (status == nullptr && *out == nullptr) {
      return make_status(HX_INTERNAL, "plugin '" + plugin.name() +
                                          "' host_memory allocate succeeded but gave NULL; "
                                          "fix the plugin");
    }
    return status;
  }
  void* data = nullptr;
  hx_buffer* buffer = nullptr;
  if (hx_status* status = host.allocate_buffer(device, bytes, &data, &buffer)) return status;
  if (data == nullptr || buffer == nullptr) {
    if (data != nullptr) host.deallocate(device, data);
    return make_status(HX_INTERNAL, "plugin '" + plugin.name() +
                                        "' host_memory allocate_buffer succeeded but gave a "
                                        "NULL pointer or buffer; fix the plugin");
  }
  try {
    plugin.host_buffers().add(data, bytes, buffer);
  } catch (...) {
    host.deallocate(device, data);
    return out_of_memory_status();
  }
  *out = data;
  return nullptr;
}

void free_page_locked(Plugin& plugin, hx_device* device, void* data) noexcept {
  if (data == nullptr) return;
  plugin.host_buffers().remove(data);
  plugin.api().host_memory->deallocate(device, data);
}

}  // namespace hxrt::detail

#include "device.hpp"

#include <hxplugin/status.hpp>

#include "cublas_library.hpp"
#include "cublaslt_library.hpp"
#include "cudnn_library.hpp"
#include "device_errors.hpp"
#include "kernel_env.hpp"
#include "memory.hpp"
#include "plugin_state.hpp"

namespace hxcuda {

CudaDevice::CudaDevice(CudaPlugin& plugin, DeviceFacts facts)
    : plugin_(plugin),
      facts_(std::move(facts)),
      label_("CUDA device " + std::to_string(facts_.cuda_ordinal) + " (" + facts_.product + ")") {}

CudaDevice::~CudaDevice() {
  if (stream_libraries_.empty() && cudnn_handle_ == nullptr && cublaslt_handle_ == nullptr) {
    return;
  }
  // A failure here has no one to report to, and the handles go with the process anyway.
  if (cudaSetDevice(facts_.cuda_ordinal) == cudaSuccess) {
    // A handle exists only once its library was loaded, so each library call returns at once.
    const char* why = nullptr;
    for (auto& [stream, entry] : stream_libraries_) {
      if (entry.cublas != nullptr) cublas_library(&why)->destroy(entry.cublas);
    }
    if (cudnn_handle_ != nullptr) cudnn_library(&why)->destroy(cudnn_handle_);
    if (cublaslt_handle_ != nullptr) cublaslt_library(&why)->destroy(cublaslt_handle_);
  }
  (void)cudaGetLastError();
  // The workspaces go with the table, after the handles that used them.
}

const hx_core_services& CudaDevice::services() const { return *plugin_.services; }

hx_status* CudaDevice::make_current() const {
  // Every call that does work on the device comes here first, so a lost context fails them
  // all with its cause rather than with whatever CUDA says about each.
  if (hx_status* status = check_usable(*this)) return status;
  return device_error(*this, cudaSetDevice(facts_.cuda_ordinal), "cudaSetDevice");
}

hx_status* device_count(hx_plugin* plugin, int32_t* out_count) {
  const CudaPlugin& state = from_handle(plugin);
  *out_count = static_cast<int32_t>(state.devices.size());
  if (state.devices.empty()) {
    return state.services->status_create(HX_UNAVAILABLE, state.unavailable.c_str());
  }
  return nullptr;
}

hx_status* device_get(hx_plugin* plugin, int32_t ordinal, hx_device** out_device) {
  const CudaPlugin& state = from_handle(plugin);
  if (ordinal < 0 || static_cast<size_t>(ordinal) >= state.devices.size()) {
    return hxplugin::make_status(
        *state.services, HX_OUT_OF_RANGE,
        "cuda plugin: device ordinal %d does not exist (there are %zu devices%s%s)",
        static_cast<int>(ordinal), state.devices.size(), state.devices.empty() ? ": " : "",
        state.unavailable.c_str());
  }
  *out_device = to_handle(state.devices[static_cast<size_t>(ordinal)].get());
  return nullptr;
}

hx_status* device_properties(hx_device* device, hx_device_properties* props) {
  const DeviceFacts& facts = from_handle(device).facts();
  // Written field by field: an older core's struct may end before the newer fields.
  const size_t known = props->struct_size;
  if (known >= HX_STRUCT_SIZE(hx_device_properties, name)) props->name = facts.product.c_str();
  if (known >= HX_STRUCT_SIZE(hx_device_properties, vendor)) props->vendor = "NVIDIA";
  if (known >= HX_STRUCT_SIZE(hx_device_properties, bus_id)) props->bus_id = facts.bus_id.c_str();
  if (known >= HX_STRUCT_SIZE(hx_device_properties, arch)) props->arch = facts.arch.c_str();
  if (known >= HX_STRUCT_SIZE(hx_device_properties, memory_total)) {
    props->memory_total = facts.memory_total;
  }
  if (known >= HX_STRUCT_SIZE(hx_device_properties, numa_node)) {
    props->numa_node = facts.numa_node;
  }
  if (known >= HX_STRUCT_SIZE(hx_device_properties, compute_units)) {
    props->compute_units = facts.compute_units;
  }
  if (known >= HX_STRUCT_SIZE(hx_device_properties, memory_kind)) {
    props->memory_kind = HX_MEMORY_DEVICE;
  }
  if (known >= HX_STRUCT_SIZE(hx_device_properties, placement_class)) {
    props->placement_class = HX_PLACEMENT_DISCRETE_ACCELERATOR;
  }
  // cudaMalloc has no limit of its own below the device's memory: 0 says so.
  if (known >= HX_STRUCT_SIZE(hx_device_properties, max_allocation)) props->max_allocation = 0;
  if (known >= HX_STRUCT_SIZE(hx_device_properties, alignment)) props->alignment = kAlignment;
  return nullptr;
}

}  // namespace hxcuda

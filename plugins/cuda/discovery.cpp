#include "discovery.hpp"

#include <cctype>
#include <cstdlib>
#include <fstream>

#include "errors.hpp"

namespace hxcuda {
namespace {

std::string describe(cudaError_t error, const char* call) {
  char text[512];
  describe_cuda_error(error, call, text, sizeof text);
  return text;
}

// " (CUDA_VISIBLE_DEVICES=...)" when the variable is set: it is the usual reason a machine
// with GPUs shows none.
std::string visible_devices_hint() {
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  if (visible == nullptr) return {};
  return std::string(" (CUDA_VISIBLE_DEVICES=\"") + visible + "\")";
}

std::string lower_case(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// The kernel knows which NUMA node a PCI device hangs off; -1 there means "none".
int32_t numa_node_of(const std::string& bus_id) {
  std::ifstream file("/sys/bus/pci/devices/" + bus_id + "/numa_node");
  int node = -1;
  if (!(file >> node) || node < 0) return -1;
  return node;
}

// Fills `facts` for one device; an error names the failing call.
bool describe_device(int ordinal, DeviceFacts* facts, std::string* error_text) {
  cudaDeviceProp properties{};
  cudaError_t error = cudaGetDeviceProperties(&properties, ordinal);
  if (error != cudaSuccess) {
    *error_text = describe(error, "cudaGetDeviceProperties");
    (void)cudaGetLastError();
    return false;
  }
  char bus_id[32] = {};
  error = cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, ordinal);
  if (error != cudaSuccess) {
    *error_text = describe(error, "cudaDeviceGetPCIBusId");
    (void)cudaGetLastError();
    return false;
  }
  facts->cuda_ordinal = ordinal;
  facts->product = properties.name;
  facts->arch = "sm_" + std::to_string(properties.major) + std::to_string(properties.minor);
  facts->compute_major = properties.major;
  facts->bus_id = lower_case(bus_id);
  facts->memory_total = properties.totalGlobalMem;
  facts->compute_units = properties.multiProcessorCount;
  facts->numa_node = numa_node_of(facts->bus_id);
  return true;
}

}  // namespace

std::string unavailable_reason(cudaError_t error, int driver_version) {
  const std::string failure = describe(error, "cudaGetDeviceCount");
  if (driver_version == 0) return "no CUDA driver: " + failure;
  if (error == cudaErrorNoDevice) return "no CUDA device: " + failure + visible_devices_hint();
  if (error == cudaErrorInsufficientDriver && driver_version > 0) {
    int runtime_version = 0;
    cudaRuntimeGetVersion(&runtime_version);
    return "CUDA driver too old: it supports CUDA " + std::to_string(driver_version / 1000) + "." +
           std::to_string(driver_version % 1000 / 10) + ", the plugin was built with " +
           std::to_string(runtime_version / 1000) + "." +
           std::to_string(runtime_version % 1000 / 10) + ": " + failure;
  }
  return "CUDA unavailable: " + failure;
}

Discovery discover_devices() {
  Discovery found;
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess) {
    // cudaDriverGetVersion reports 0, successfully, when libcuda.so cannot be loaded.
    int driver_version = 0;
    if (cudaDriverGetVersion(&driver_version) != cudaSuccess) driver_version = -1;
    found.unavailable = unavailable_reason(error, driver_version);
    (void)cudaGetLastError();
    return found;
  }
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    DeviceFacts facts;
    std::string error_text;
    if (describe_device(ordinal, &facts, &error_text)) {
      found.devices.push_back(std::move(facts));
    } else {
      found.skipped.push_back("CUDA device " + std::to_string(ordinal) + " skipped: " + error_text);
    }
  }
  if (found.devices.empty()) {
    found.unavailable =
        count == 0 ? "no CUDA device: cudaGetDeviceCount found none" + visible_devices_hint()
                   : "no usable CUDA device: every device failed to describe "
                     "itself (see the log)";
  }
  return found;
}

}  // namespace hxcuda

#include "device_facts.hpp"

#include <algorithm>
#include <tuple>

namespace hxopencl {
namespace {

template <class T>
cl_int read_info(cl_device_id device, cl_device_info what, T* out) {
  return clGetDeviceInfo(device, what, sizeof(T), out, nullptr);
}

cl_int read_text(cl_device_id device, cl_device_info what, std::string* out) {
  size_t length = 0;
  if (const cl_int error = clGetDeviceInfo(device, what, 0, nullptr, &length)) return error;
  std::string text(length, '\0');
  if (const cl_int error = clGetDeviceInfo(device, what, length, &text[0], nullptr)) {
    return error;
  }
  text.resize(text.find('\0') == std::string::npos ? length : text.find('\0'));
  *out = std::move(text);
  return CL_SUCCESS;
}

auto identity(const DeviceFacts& facts) {
  return std::tie(facts.platform, facts.name, facts.vendor, facts.version, facts.type,
                  facts.alignment, facts.compute_units, facts.host_unified_memory,
                  facts.has_fp64, facts.max_work_group_size);
}

}  // namespace

bool DeviceFacts::same_device(const DeviceFacts& other) const {
  return identity(*this) == identity(other);
}

std::string platform_name(cl_platform_id platform) {
  size_t length = 0;
  if (clGetPlatformInfo(platform, CL_PLATFORM_NAME, 0, nullptr, &length) != CL_SUCCESS ||
      length == 0) {
    return "an unnamed OpenCL platform";
  }
  std::string name(length, '\0');
  clGetPlatformInfo(platform, CL_PLATFORM_NAME, length, &name[0], nullptr);
  name.resize(length - 1);  // the terminating NUL
  return name;
}

cl_int read_device_facts(cl_platform_id platform, cl_device_id device, DeviceFacts* out) {
  out->platform = platform_name(platform);
  cl_ulong global_memory = 0;
  cl_ulong largest_allocation = 0;
  cl_uint base_address_bits = 0;
  cl_uint units = 0;
  cl_bool unified = CL_FALSE;
  cl_device_fp_config double_config = 0;
  const cl_int errors[] = {
      read_text(device, CL_DEVICE_NAME, &out->name),
      read_text(device, CL_DEVICE_VENDOR, &out->vendor),
      read_text(device, CL_DEVICE_VERSION, &out->version),
      read_info(device, CL_DEVICE_TYPE, &out->type),
      read_info(device, CL_DEVICE_GLOBAL_MEM_SIZE, &global_memory),
      read_info(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, &largest_allocation),
      read_info(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, &base_address_bits),
      read_info(device, CL_DEVICE_MAX_COMPUTE_UNITS, &units),
      read_info(device, CL_DEVICE_HOST_UNIFIED_MEMORY, &unified),
      read_info(device, CL_DEVICE_DOUBLE_FP_CONFIG, &double_config),
      read_info(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, &out->max_work_group_size)};
  for (cl_int error : errors) {
    if (error != CL_SUCCESS) return error;
  }
  out->memory_total = global_memory;
  out->max_allocation = std::min<uint64_t>(largest_allocation, global_memory);
  // CL_DEVICE_MEM_BASE_ADDR_ALIGN is in bits: the alignment of every buffer's start, and what
  // a sub-buffer's origin needs. The ABI takes 1 to 4096 bytes.
  out->alignment = std::clamp<uint64_t>(base_address_bits / 8, 1, 4096);
  out->compute_units = static_cast<int32_t>(std::min<cl_uint>(units, INT32_MAX));
  out->host_unified_memory = unified == CL_TRUE;
  out->has_fp64 = double_config != 0;
  return CL_SUCCESS;
}

}  // namespace hxopencl

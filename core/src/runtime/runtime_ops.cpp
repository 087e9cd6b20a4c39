// Runtime::ops(): the op schemas as public values, with the kernels each device type has.
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "hxrt/runtime.hpp"
#include "runtime/runtime_impl.hpp"

namespace hxrt {

namespace {

// The device types with kernels for `op`, in name order, each with its values of T in ABI
// order (a type's plugins and priorities folded together).
std::vector<OpKernelInfo> kernels_of(const std::vector<KernelInfo>& kernels,
                                     const std::string& op) {
  std::map<std::string, std::vector<bool>> by_type;
  for (const KernelInfo& kernel : kernels) {
    if (kernel.op != op) continue;
    std::vector<bool>& has = by_type[kernel.device_type];
    has.resize(std::size(kAllDTypes), false);
    for (DType dtype : kernel.dtypes) {
      for (size_t i = 0; i < std::size(kAllDTypes); ++i) {
        if (kAllDTypes[i] == dtype) has[i] = true;
      }
    }
  }
  std::vector<OpKernelInfo> out;
  for (const auto& entry : by_type) {
    OpKernelInfo info{entry.first, {}};
    for (size_t i = 0; i < std::size(kAllDTypes); ++i) {
      if (entry.second[i]) info.dtypes.push_back(kAllDTypes[i]);
    }
    out.push_back(std::move(info));
  }
  return out;
}

}  // namespace

std::vector<OpInfo> Runtime::ops() const {
  const std::vector<KernelInfo> kernels = this->kernels();
  std::vector<OpInfo> out;
  for (const detail::OpSchema* schema : impl().ops.all()) {
    OpInfo info = detail::op_info(*schema);
    info.kernels = kernels_of(kernels, schema->name);
    out.push_back(std::move(info));
  }
  return out;
}

}  // namespace hxrt

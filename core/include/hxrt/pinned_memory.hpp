// Page-locked ("pinned") host memory from a device's plugin (Runtime::pinned_memory): memory
// the device's DMA engines read and write directly, as torch.Tensor.pin_memory and PJRT's
// pinned host memory space give. from_host of bytes that lie inside it uploads them straight,
// with no staging copy, and waits for that upload; copy_to_host into it is written straight
// by the device. Either then runs at the speed of the link. Runtime::pinned_tensor makes host
// tensors that live in it. A handle: copies (and those tensors) share the memory, which goes
// back to the plugin when the last of them goes (the plugin stays loaded till then).
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "hxrt/export.hpp"

namespace hxrt {

namespace detail {
class PinnedBlock;
}

class HXRT_API PinnedMemory {
 public:
  PinnedMemory() = default;  // an empty handle: data() is nullptr, size() 0
  explicit PinnedMemory(std::shared_ptr<detail::PinnedBlock> block) : block_(std::move(block)) {}

  // At least 64-byte aligned; writable and readable by the host at any time, but bytes an
  // upload is reading must not change before from_host has returned.
  void* data() const;
  size_t size() const;
  // The canonical name of the device whose plugin gave it; the memory serves that plugin's
  // devices ("" for an empty handle).
  const std::string& device() const;

 private:
  friend class Runtime;  // pinned_tensor shares the block with the tensors it makes
  std::shared_ptr<detail::PinnedBlock> block_;
};

}  // namespace hxrt

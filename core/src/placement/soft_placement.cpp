#include "hxrt/runtime_options.hpp"

namespace hxrt {

const char* soft_placement_name(SoftPlacement mode) {
  switch (mode) {
    case SoftPlacement::kStrict:
      return "strict";
    case SoftPlacement::kFallbackOnMissingKernel:
      return "missing_kernel";
    case SoftPlacement::kSoft:
      return "soft";
  }
  return "unknown";
}

}  // namespace hxrt

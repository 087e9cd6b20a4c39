#include "plugins/core_location.hpp"

#include <dlfcn.h>

#include <filesystem>
#include <system_error>

namespace hxrt::detail {

std::string core_library_dir() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(&core_library_dir), &info) == 0 ||
      info.dli_fname == nullptr) {
    return {};
  }
  std::error_code error;
  const std::filesystem::path library = std::filesystem::canonical(info.dli_fname, error);
  if (error) return {};
  return library.parent_path().string();
}

}  // namespace hxrt::detail

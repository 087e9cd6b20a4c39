#include "blas/openblas_dynamic.hpp"

#include <cblas.h>
#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <utility>

namespace hxcpu {

std::optional<OpenBlasDynamic> OpenBlasDynamic::find(std::string* why_not) {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&cblas_sgemm), &info) == 0 || info.dli_fname == nullptr) {
    *why_not = "the library that provides cblas_sgemm cannot be found (dladdr)";
    return std::nullopt;
  }
  // RTLD_NOLOAD: a handle on the copy already loaded, not a second one.
  Library library(dlopen(info.dli_fname, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD));
  if (library == nullptr) {
    *why_not = std::string(info.dli_fname) + " cannot be opened again: " + dlerror();
    return std::nullopt;
  }
  const auto symbol = [&library](const char* name) { return dlsym(library.get(), name); };
  const auto config = reinterpret_cast<Name>(symbol("openblas_get_config"));
  if (config == nullptr) {
    *why_not = std::string(info.dli_fname) + " is not OpenBLAS (no openblas_get_config)";
    return std::nullopt;
  }
  const std::string configuration = config();
  const auto init = reinterpret_cast<Function>(symbol("gotoblas_dynamic_init"));
  const auto quit = reinterpret_cast<Function>(symbol("gotoblas_dynamic_quit"));
  const auto core_name = reinterpret_cast<Name>(symbol("openblas_get_corename"));
  if (configuration.find("DYNAMIC_ARCH") == std::string::npos || init == nullptr ||
      quit == nullptr || core_name == nullptr) {
    *why_not = std::string(info.dli_fname) + " (" + configuration +
               ") is not a DYNAMIC_ARCH build exporting gotoblas_dynamic_init, "
               "gotoblas_dynamic_quit and openblas_get_corename: its kernels are fixed when it "
               "is built";
    return std::nullopt;
  }
  return OpenBlasDynamic(std::move(library), init, quit, core_name);
}

void OpenBlasDynamic::Close::operator()(void* library) const { dlclose(library); }

bool OpenBlasDynamic::holds(const OpenBlasCore& core) const {
  return dlsym(library_.get(), core.table) != nullptr;
}

std::string OpenBlasDynamic::core_in_use() const { return core_name_(); }

void OpenBlasDynamic::use(const OpenBlasCore& core) const {
  setenv("OPENBLAS_CORETYPE", core.name, 1);
  quit_();
  init_();
  unsetenv("OPENBLAS_CORETYPE");
}

}  // namespace hxcpu

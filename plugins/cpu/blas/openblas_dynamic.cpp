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
  const Entries entries{reinterpret_cast<Function>(symbol("gotoblas_dynamic_init")),
                        reinterpret_cast<Function>(symbol("gotoblas_dynamic_quit")),
                        reinterpret_cast<Name>(symbol("openblas_get_corename")),
                        reinterpret_cast<Allocate>(symbol("blas_memory_alloc")),
                        reinterpret_cast<Free>(symbol("blas_memory_free"))};
  if (configuration.find("DYNAMIC_ARCH") == std::string::npos || entries.init == nullptr ||
      entries.quit == nullptr || entries.core_name == nullptr || entries.allocate == nullptr ||
      entries.free == nullptr) {
    *why_not = std::string(info.dli_fname) + " (" + configuration +
               ") is not a DYNAMIC_ARCH build exporting gotoblas_dynamic_init, "
               "gotoblas_dynamic_quit, openblas_get_corename, blas_memory_alloc and "
               "blas_memory_free: its kernels are fixed when it is built";
    return std::nullopt;
  }
  return OpenBlasDynamic(std::move(library), entries);
}

void OpenBlasDynamic::Close::operator()(void* library) const { dlclose(library); }

bool OpenBlasDynamic::holds(const OpenBlasCore& core) const {
  return dlsym(library_.get(), core.table) != nullptr;
}

std::string OpenBlasDynamic::core_in_use() const { return entries_.core_name(); }

void OpenBlasDynamic::use(const OpenBlasCore& core) const {
  // The first buffer OpenBLAS hands out in a process finishes its set-up, under its memory
  // lock, with gotoblas_dynamic_init; its pool threads, which its load starts (the plugin's
  // first load, just before this), each take a buffer as they begin. One still beginning
  // between quit and init finds no core and runs gotoblas_dynamic_init itself, alongside the
  // switch's, and may undo it (OpenBLAS's own pick once OPENBLAS_CORETYPE is unset): seen in
  // 119 of 300 fresh processes that loaded OpenBLAS and switched at once, and by
  // ThreadSanitizer. A buffer taken here first finishes that set-up, or waits for the pool
  // thread that is doing it, so that no other thread starts it again.
  entries_.free(entries_.allocate(0));
  setenv("OPENBLAS_CORETYPE", core.name, 1);
  entries_.quit();
  entries_.init();
  unsetenv("OPENBLAS_CORETYPE");
}

}  // namespace hxcpu

// The OpenBLAS this plugin links, as a DYNAMIC_ARCH build: which cores it holds, which one is
// in use, and a switch to another. OpenBLAS keeps one core for the whole process (its
// `gotoblas` table pointer), so a switch affects every user of that library in the process:
// other runtimes, and the host program if it calls OpenBLAS itself.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "blas/openblas_cores.hpp"

namespace hxcpu {

class OpenBlasDynamic {
 public:
  // The library that provides cblas_sgemm to this plugin, when it is a DYNAMIC_ARCH OpenBLAS
  // (openblas_get_config says so) exporting what a switch needs: gotoblas_dynamic_init,
  // gotoblas_dynamic_quit, openblas_get_corename, blas_memory_alloc and blas_memory_free.
  // Otherwise nullopt, and *why_not says why (another BLAS, or an OpenBLAS built for one CPU).
  static std::optional<OpenBlasDynamic> find(std::string* why_not);

  // Whether this build holds `core`'s table (a DYNAMIC_LIST build may hold a few).
  bool holds(const OpenBlasCore& core) const;
  // openblas_get_corename: "Cooperlake".
  std::string core_in_use() const;
  // Makes `core` the one in use, as OpenBLAS's own start-up does (driver/others/dynamic.c:
  // gotoblas_dynamic_init points `gotoblas` at the table of the core OPENBLAS_CORETYPE names
  // and calls the table's init(), which sizes its blocking to the caches): through
  // gotoblas_dynamic_quit, then gotoblas_dynamic_init with OPENBLAS_CORETYPE set to `core` for
  // that call only. The table's layout changes between OpenBLAS versions, so the plugin
  // leaves reading it to OpenBLAS. No BLAS call may run meanwhile, in any thread; nor may
  // another thread read or write the environment (setenv). OpenBLAS's own pool threads, which
  // its load starts, are kept out of the switch here (see the definition). `core` must be one
  // the CPU runs, held by this build, and OPENBLAS_CORETYPE must be unset.
  void use(const OpenBlasCore& core) const;

 private:
  using Function = void (*)();
  using Name = char* (*)();
  using Allocate = void* (*)(int);
  using Free = void (*)(void*);
  struct Close {
    void operator()(void* library) const;
  };
  using Library = std::unique_ptr<void, Close>;  // a dlopen handle
  struct Entries {
    Function init;
    Function quit;
    Name core_name;
    Allocate allocate;  // blas_memory_alloc
    Free free;          // blas_memory_free
  };
  OpenBlasDynamic(Library library, Entries entries)
      : library_(std::move(library)), entries_(entries) {}

  Library library_;
  Entries entries_;
};

}  // namespace hxcpu

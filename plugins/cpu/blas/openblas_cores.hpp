// The kernel sets ("cores") of a DYNAMIC_ARCH OpenBLAS on x86-64, each with the instruction
// sets its kernels use, so that the plugin never selects one the CPU or the OS cannot run
// (OpenBLAS's own OPENBLAS_CORETYPE does not check: a forced SkylakeX on an AVX2 CPU dies of
// SIGILL). Names are OpenBLAS's own (openblas_get_corename, OPENBLAS_CORETYPE). Left out: the
// 32-bit cores, and Opteron, Opteron_SSE3 and Nano, whose kernels' needs (3DNow!, VIA's
// extensions) are not established here. Empty on other architectures.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hxcpu {

struct OpenBlasCore {
  const char* name;           // "SkylakeX", as OpenBLAS spells it
  const char* table;          // its exported function table: "gotoblas_SKYLAKEX"
  uint32_t features;          // the CpuFeature bits its kernels need
  int vector_bits;            // the widest vectors its GEMM kernels use: 128, 256 or 512
};

// Instruction sets, as __builtin_cpu_supports reports them (which checks that the OS saves
// the AVX and AVX-512 registers, XGETBV, as well as CPUID).
enum CpuFeature : uint32_t {
  kSse3 = 1u << 0,
  kSsse3 = 1u << 1,
  kSse41 = 1u << 2,
  kSse42 = 1u << 3,
  kSse4a = 1u << 4,
  kAvx = 1u << 5,
  kFma = 1u << 6,
  kFma4 = 1u << 7,
  kXop = 1u << 8,
  kAvx2 = 1u << 9,
  kAvx512 = 1u << 10,      // F, CD, BW, DQ and VL: what OpenBLAS's SkylakeX kernels use
  kAvx512Bf16 = 1u << 11,  // Cooperlake's bfloat16 GEMM
};

// Every core of the list, oldest first.
const std::vector<OpenBlasCore>& openblas_cores();

// The core named `name` (any case, as OPENBLAS_CORETYPE takes it); nullptr when none is.
const OpenBlasCore* find_openblas_core(std::string_view name);

// The CpuFeature bits of the running CPU and OS.
uint32_t cpu_features();

// The names of `core`'s features that `features` lacks, "FMA4, XOP"; empty when none.
std::string missing_features(const OpenBlasCore& core, uint32_t features);

}  // namespace hxcpu

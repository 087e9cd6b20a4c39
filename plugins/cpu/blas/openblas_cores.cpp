#include "blas/openblas_cores.hpp"

#include <strings.h>

namespace hxcpu {

const std::vector<OpenBlasCore>& openblas_cores() {
#if defined(__x86_64__)
  static const std::vector<OpenBlasCore> cores = {
      {"Prescott", "gotoblas_PRESCOTT", kSse3, 128},
      {"Core2", "gotoblas_CORE2", kSse3 | kSsse3, 128},
      {"Atom", "gotoblas_ATOM", kSse3 | kSsse3, 128},
      {"Penryn", "gotoblas_PENRYN", kSse3 | kSsse3 | kSse41, 128},
      {"Dunnington", "gotoblas_DUNNINGTON", kSse3 | kSsse3 | kSse41, 128},
      {"Nehalem", "gotoblas_NEHALEM", kSse3 | kSsse3 | kSse41 | kSse42, 128},
      {"Barcelona", "gotoblas_BARCELONA", kSse3 | kSse4a, 128},
      {"Bobcat", "gotoblas_BOBCAT", kSse3 | kSsse3 | kSse4a, 128},
      {"Sandybridge", "gotoblas_SANDYBRIDGE", kSse3 | kSsse3 | kSse41 | kSse42 | kAvx, 256},
      {"Bulldozer", "gotoblas_BULLDOZER", kSse3 | kSsse3 | kSse41 | kSse42 | kAvx | kFma4 | kXop,
       256},
      {"Piledriver", "gotoblas_PILEDRIVER",
       kSse3 | kSsse3 | kSse41 | kSse42 | kAvx | kFma | kFma4 | kXop, 256},
      {"Steamroller", "gotoblas_STEAMROLLER",
       kSse3 | kSsse3 | kSse41 | kSse42 | kAvx | kFma | kFma4 | kXop, 256},
      {"Excavator", "gotoblas_EXCAVATOR",
       kSse3 | kSsse3 | kSse41 | kSse42 | kAvx | kFma | kFma4 | kXop | kAvx2, 256},
      {"Haswell", "gotoblas_HASWELL", kSse3 | kSsse3 | kSse41 | kSse42 | kAvx | kFma | kAvx2, 256},
      {"Zen", "gotoblas_ZEN", kSse3 | kSsse3 | kSse41 | kSse42 | kAvx | kFma | kAvx2, 256},
      {"SkylakeX", "gotoblas_SKYLAKEX",
       kSse3 | kSsse3 | kSse41 | kSse42 | kAvx | kFma | kAvx2 | kAvx512, 512},
      {"Cooperlake", "gotoblas_COOPERLAKE",
       kSse3 | kSsse3 | kSse41 | kSse42 | kAvx | kFma | kAvx2 | kAvx512 | kAvx512Bf16, 512},
  };
#else
  static const std::vector<OpenBlasCore> cores;
#endif
  return cores;
}

const OpenBlasCore* find_openblas_core(std::string_view name) {
  for (const OpenBlasCore& core : openblas_cores()) {
    const std::string_view core_name = core.name;
    if (name.size() == core_name.size() &&
        strncasecmp(name.data(), core_name.data(), name.size()) == 0) {
      return &core;
    }
  }
  return nullptr;
}

uint32_t cpu_features() {
  uint32_t features = 0;
#if defined(__x86_64__)
  __builtin_cpu_init();  // needed before the first use in a constructor; harmless otherwise
  const struct {
    bool supported;
    uint32_t bit;
  } checks[] = {
      {__builtin_cpu_supports("sse3") != 0, kSse3},
      {__builtin_cpu_supports("ssse3") != 0, kSsse3},
      {__builtin_cpu_supports("sse4.1") != 0, kSse41},
      {__builtin_cpu_supports("sse4.2") != 0, kSse42},
      {__builtin_cpu_supports("sse4a") != 0, kSse4a},
      {__builtin_cpu_supports("avx") != 0, kAvx},
      {__builtin_cpu_supports("fma") != 0, kFma},
      {__builtin_cpu_supports("fma4") != 0, kFma4},
      {__builtin_cpu_supports("xop") != 0, kXop},
      {__builtin_cpu_supports("avx2") != 0, kAvx2},
      {__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
           __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512vl"),
       kAvx512},
      {__builtin_cpu_supports("avx512bf16") != 0, kAvx512Bf16},
  };
  for (const auto& check : checks) {
    if (check.supported) features |= check.bit;
  }
#endif
  return features;
}

std::string missing_features(const OpenBlasCore& core, uint32_t features) {
  static const struct {
    uint32_t bit;
    const char* name;
  } kNames[] = {{kSse3, "SSE3"},   {kSsse3, "SSSE3"}, {kSse41, "SSE4.1"}, {kSse42, "SSE4.2"},
                {kSse4a, "SSE4a"}, {kAvx, "AVX"},     {kFma, "FMA"},      {kFma4, "FMA4"},
                {kXop, "XOP"},     {kAvx2, "AVX2"},   {kAvx512, "AVX-512 (F, CD, BW, DQ, VL)"},
                {kAvx512Bf16, "AVX512_BF16"}};
  std::string missing;
  for (const auto& feature : kNames) {
    if ((core.features & feature.bit) != 0 && (features & feature.bit) == 0) {
      if (!missing.empty()) missing += ", ";
      missing += feature.name;
    }
  }
  return missing;
}

}  // namespace hxcpu

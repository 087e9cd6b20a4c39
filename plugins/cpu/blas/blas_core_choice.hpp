// The plugin option blas_core: which OpenBLAS core (kernel set) MatMul runs on. "auto" (the
// default) or a core's name (openblas_cores.hpp). OpenBLAS picks its core once, at load, from
// the CPU's identity, and on CPUs its version does not know it may pick narrower kernels than
// the CPU runs (AVX2 ones on an AVX-512 CPU: reported for Debian's 0.3.21 on a Zen 4 machine,
// at about half the SGEMM throughput of its AVX-512 ones there).
//
// OpenBLAS has one core per process. The plugin sets it at most once per process (the first
// init that asks for one; later inits that ask for another are told so in a warning), before
// its own first BLAS call, and it stays for every user of that OpenBLAS in the process: other
// runtimes, and the host program if it calls OpenBLAS itself. No BLAS call may run in another
// thread while a runtime starts. When the environment sets OPENBLAS_CORETYPE, OpenBLAS's own
// override, the plugin leaves the core as that set it, whatever the option says.
#pragma once

#include <hxrt/plugin_api.h>

#include <string>
#include <vector>
#include <nlohmann/json.hpp>

#include "blas/openblas_cores.hpp"

namespace hxcpu {

struct BlasCoreRequest {
  const OpenBlasCore* core = nullptr;  // nullptr: "auto"
};

// Reads the option's value into *out: "auto", or the name (any case) of a core that this CPU
// runs and this OpenBLAS holds. Otherwise false, with *error saying what was wrong and naming
// the choices, for a message "cpu plugin option 'blas_core': <error>".
bool read_blas_core(const nlohmann::json& value, BlasCoreRequest* out, std::string* error);

// "auto"'s rule. The first of Cooperlake, SkylakeX, Haswell and Sandybridge (OpenBLAS's own
// order when it does not know a CPU) among `runnable` (the cores this CPU runs and this
// OpenBLAS holds), unless OpenBLAS's pick `detected` already has vectors as wide (nullptr when
// its pick is none of openblas_cores()); nullptr keeps `detected`. So Zen stays on a Zen 3
// (AVX2), Cooperlake on a Cooperlake, and an AVX-512 CPU that OpenBLAS took for an AVX2 one
// gets the AVX-512 kernels.
const OpenBlasCore* automatic_core(const std::vector<const OpenBlasCore*>& runnable,
                                   const OpenBlasCore* detected);

struct BlasCoreReport {
  hx_log_level level;
  std::string message;  // "OpenBLAS core SkylakeX (OpenBLAS picked Zen; ...)"
};

// Applies `request` in this process, as the header comment says, and says what core is in
// use and why.
BlasCoreReport apply_blas_core(const BlasCoreRequest& request);

}  // namespace hxcpu

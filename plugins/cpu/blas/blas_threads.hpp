// OpenBLAS's threads as the CPU plugin runs them: how many, and whether they are oneDNN's.
//
// oneDNN (Debian's build) runs its kernels on OpenMP's threads. OpenBLAS's pthreads build runs
// its own pool beside them, and each pool's threads spin for a while after their work before
// they sleep: on a machine with as many cores as intra-op threads, OpenBLAS's spinning threads
// take the cores oneDNN's next kernel needs and the reverse (the MLP of bench/onnx_models.py
// at batch 64 on 2 threads: a median of 4.0 ms against 1.3 ms). Its OpenMP build shares
// OpenMP's one pool, so the plugin links that build (Debian's libopenblas0-openmp, through the
// plugin's RUNPATH) and warns where another build is loaded instead.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace hxcpu {

// Gives OpenBLAS `intra_op_threads`; 0 leaves its count as it is (OPENBLAS_NUM_THREADS, else
// one per core, unless an earlier init changed it). OpenBLAS keeps one count for the whole
// process, so every runtime in it (and the host program, if it calls OpenBLAS itself) shares
// it, and the last init that gives one wins.
void set_blas_threads(uint32_t intra_op_threads);

// A warning where the OpenBLAS in use keeps threads of its own (its pthreads build) and
// `intra_op_threads` lets it use more than one: what happens, and how to mend it. nullopt for
// its OpenMP and sequential builds, and for one thread.
std::optional<std::string> blas_threads_warning(uint32_t intra_op_threads);

}  // namespace hxcpu

// The rows of a row-wise kernel spread over the intra-op threads, on OpenMP as oneDNN's own
// kernels are, where the call has enough elements for a second thread to pay
// (kParallelLeastElements): LayerNormalization's rows ran one after another, 20 us for a
// transformer's [8, 32, 64] on two threads against ONNX Runtime's 13 (bench/RESULTS.md).
#pragma once

#include <omp.h>

#include <cstdint>
#include <exception>

#include "dnnl/dnnl_primitives.hpp"
#include "kernels/kernel_call.hpp"
#include "plugin_state.hpp"

namespace hxcpu {

// Calls body(first, end) on consecutive ranges of [0, rows) that together cover it, one per
// thread, each on its own thread; the first exception a range throws is thrown here, after
// every range has run.
template <class Body>
void for_row_ranges(const KernelCall& call, int64_t rows, int64_t elements, Body body) {
  const uint32_t configured = call.plugin().intra_op_threads;
  const int64_t threads = threads_for(
      elements, configured == 0 ? static_cast<uint32_t>(omp_get_max_threads()) : configured);
  const int team = static_cast<int>(threads < rows ? threads : rows);
  if (team <= 1) {
    body(int64_t{0}, rows);
    return;
  }
  std::exception_ptr failure;
#pragma omp parallel num_threads(team)
  {
    const int64_t part = omp_get_thread_num();
    const int64_t parts = omp_get_num_threads();
    try {
      body(rows * part / parts, rows * (part + 1) / parts);
    } catch (...) {
#pragma omp critical(hxcpu_row_ranges)
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace hxcpu

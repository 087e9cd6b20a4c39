// The rows of a row-wise kernel spread over the intra-op threads (dnnl/openmp_ranges.hpp),
// where the call has enough elements for a second thread to pay (kParallelLeastElements):
// LayerNormalization's rows ran one after another, 20 us for a transformer's [8, 32, 64] on two
// threads against ONNX Runtime's 13 (bench/RESULTS.md).
#pragma once

#include <cstdint>

#include "dnnl/dnnl_primitives.hpp"
#include "dnnl/openmp_ranges.hpp"
#include "kernels/kernel_call.hpp"
#include "plugin_state.hpp"

namespace hxcpu {

// for_ranges over `rows`, on as many threads as the call's `elements` warrant.
template <class Body>
void for_row_ranges(const KernelCall& call, int64_t rows, int64_t elements, Body body) {
  const int team = team_size(call.plugin().intra_op_threads);
  for_ranges(rows, static_cast<int>(threads_for(elements, static_cast<uint32_t>(team))), body);
}

}  // namespace hxcpu

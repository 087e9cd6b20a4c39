// One run of a compiled graph (run.cpp).
#pragma once

#include <vector>

#include "graph/executable_impl.hpp"

namespace hxrt::detail {

// Runs `exe` on `feeds` (checked already: one per input, dtype and shape as declared) and
// returns its fetches once all of its work has completed. Error names the step that failed.
// `measure`: an executable that measures (ExecutableImpl::measures) times this run's kernels
// and copies for the cost model; false leaves them untimed.
std::vector<Tensor> run_executable(const ExecutableImpl& exe, const std::vector<Tensor>& feeds,
                                   bool measure = true);

}  // namespace hxrt::detail

// The testing aid behind the option fault_ops (options.hpp): a kernel that executes __trap(),
// launched after a named op's kernel on the same stream, so that the op's call succeeds and
// its failure appears only when the queued work runs, as a real kernel fault does. A trap is
// a sticky error: it loses the process's CUDA context on that device (lost_contexts.hpp), so
// a test that uses it can do no more GPU work in its process.
#pragma once

#include <cuda_runtime_api.h>

namespace hxcuda {

// Enqueues the trapping kernel on `stream`; the launch's own error (none, normally).
cudaError_t launch_fault_kernel(cudaStream_t stream);

}  // namespace hxcuda

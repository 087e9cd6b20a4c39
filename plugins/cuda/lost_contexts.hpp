// Which CUDA devices this process has lost. A sticky error (errors.hpp, is_sticky) ruins the
// process's context of the device it happened on: CUDA fails every later call on it, and the
// only cure is a new process (and a GPU reset if the fault persists). The record is
// process-wide, like the context: every plugin instance and every logical device cut from the
// card shares it. It lets the calls that need no CUDA call (an event never recorded, a stream
// that never had work) fail too, and name the failure that lost the context.
#pragma once

#include <string>

namespace hxcuda {

// Records `description` (describe_cuda_error's text) as why device `cuda_ordinal` is lost,
// unless an earlier failure was recorded: the first one is the cause, the rest are echoes.
void note_lost_context(int cuda_ordinal, const std::string& description);

// Why device `cuda_ordinal` is lost; empty while it is not.
std::string lost_context(int cuda_ordinal);

}  // namespace hxcuda

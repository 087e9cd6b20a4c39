// The plugins hxrt finds as a host application would, to check when no file is named.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sections/sections.hpp"

namespace hxrt_conformance {

// Every candidate file the runtime tried (loaded or skipped), each with the options the
// config gives its plugin, or `options` when given. Runs in a child process, so that the
// kit itself never holds a plugin. On failure (a config that cannot be read) returns nullopt
// and *error says why.
std::optional<std::vector<Target>> discover_targets(const std::optional<std::string>& options,
                                                    uint64_t seed, int timeout_seconds,
                                                    std::string* error);

}  // namespace hxrt_conformance

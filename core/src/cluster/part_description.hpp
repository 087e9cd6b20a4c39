// What describes a task's compiled parts (placement, memory plans, copies between devices),
// as the task tells the client, which reports the executable whole.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "graph/executable_impl.hpp"

namespace hxrt::detail {

nlohmann::json describe_parts(const std::vector<std::shared_ptr<const ExecutableImpl>>& parts);

// Adds what `description` tells to `whole`. A part's inputs are placeholders of the values it
// reads: only those of `graph_inputs` are entries of the placement, each once.
void add_description(const nlohmann::json& description,
                     const std::set<std::string>& graph_inputs, ExecutableImpl& whole);

}  // namespace hxrt::detail

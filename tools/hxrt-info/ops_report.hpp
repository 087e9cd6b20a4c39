// The ops' specification as hxrt-info --ops prints it (text, Markdown, JSON), and as the ops
// reference installed with the documentation (share/doc/hxrt/ops.md) is generated.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "hxrt/op_info.hpp"

namespace hxrt_info {

// Every op with its summary, T, inputs, outputs, attributes, shape rule and kernels.
void print_ops_text(std::ostream& out, const std::vector<hxrt::OpInfo>& ops);
// The ops reference: a section per op with the same facts as tables (kernels left out: they
// depend on the plugins a machine has, and hxrt-info --ops shows them).
void print_ops_markdown(std::ostream& out, const std::vector<hxrt::OpInfo>& ops);
// An array with one object per op.
nlohmann::ordered_json ops_json(const std::vector<hxrt::OpInfo>& ops);

}  // namespace hxrt_info

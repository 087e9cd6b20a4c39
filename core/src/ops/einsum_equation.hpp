// Einsum's equation, read against the operands' shapes (hxcommon/einsum_terms.hpp) and checked,
// for shape inference and the reference.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ops/op_schema.hpp"

namespace hxrt::detail {

struct EinsumEquation {
  std::vector<std::string> inputs;  // one letter per axis of each operand
  std::string output;
  int64_t extents[128] = {};  // by letter
  int64_t extent(char letter) const { return extents[static_cast<unsigned char>(letter)]; }
};

// The call's attribute `equation` for its operands; rejects the call, saying what is wrong.
EinsumEquation parse_einsum(const InferContext& call);

}  // namespace hxrt::detail

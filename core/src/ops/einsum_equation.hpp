// Einsum's equation, parsed and checked against the operands' shapes, for shape inference and
// the reference.
#pragma once

#include <cstdint>
#include <string>

#include "ops/op_schema.hpp"

namespace hxrt::detail {

struct EinsumEquation {
  std::string a, b, output;  // one letter per axis
  int64_t extents[128] = {};  // by letter
  int64_t extent(char letter) const { return extents[static_cast<unsigned char>(letter)]; }
};

// The call's attribute `equation` for its two inputs; rejects the call, saying what is wrong,
// for the forms the op does not take (see einsum_op.cpp).
EinsumEquation parse_einsum(const InferContext& call);

}  // namespace hxrt::detail

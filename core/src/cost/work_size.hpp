// How much work one op call is, for its cost: MatMul by its multiply-adds (2·m·n·k flops),
// every other op by the bytes it reads and writes. Calls of one op whose work lies within a
// factor of two share a size class, and their measurements.
#pragma once

#include <cstdint>
#include <string>

#include "ops/op_schema.hpp"

namespace hxrt::detail {

struct WorkSize {
  bool flops = false;  // true: `amount` counts flops; false: bytes moved
  double amount = 0;
  // floor(log2(amount)) + 1, 0 for no work: the class the call's measurements are kept under.
  int size_class() const;
};

// The work of `op` on `inputs` giving `outputs` (their bytes set), with its attributes.
WorkSize work_of(const std::string& op, const TensorMeta* inputs, size_t num_inputs,
                 const TensorMeta* outputs, size_t num_outputs, const Attrs& attrs);

}  // namespace hxrt::detail

// An op resolved once by name, for programs that run it many times:
//
//   const hxrt::Op matmul = rt.op("MatMul");
//   for (...) c = rt.execute(matmul, {a, b});
//
// A call through a handle looks nothing up by name; a call by name finds the op in a table
// each time. The handle keeps its runtime's state alive, as a Tensor does, and works only with
// the runtime that resolved it.
#pragma once

#include <memory>
#include <string>

#include "hxrt/export.hpp"

namespace hxrt {

namespace detail {
struct OpSchema;
}

class HXRT_API Op {
 public:
  Op() = default;  // an empty handle: valid() is false, and running it is an error

  bool valid() const { return schema_ != nullptr; }
  // The op's name; "" for an empty handle.
  const std::string& name() const;

  // For the runtime: the op's schema, and the runtime state that resolved it.
  const detail::OpSchema* schema() const { return schema_; }
  const void* runtime() const { return runtime_.get(); }

 private:
  friend class Runtime;
  Op(std::shared_ptr<const void> runtime, const detail::OpSchema* schema)
      : runtime_(std::move(runtime)), schema_(schema) {}

  std::shared_ptr<const void> runtime_;  // the state that holds the schema
  const detail::OpSchema* schema_ = nullptr;
};

}  // namespace hxrt

// What an op is, as a plugin author and a program read it (Runtime::ops(), hxrt-info --ops):
// its inputs, outputs and attributes, where its type parameter T comes from, its shape rule,
// and which device types have kernels for it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "hxrt/attrs.hpp"
#include "hxrt/dtype.hpp"
#include "hxrt/export.hpp"

namespace hxrt {

// The kinds of attribute value, in the order of AttrValue's alternatives.
enum class AttrType { kBool, kInt, kFloat, kString, kDType, kInts, kFloats };

// "bool", "int", "float", "string", "dtype", "list of ints", "list of floats".
HXRT_API const char* attr_type_name(AttrType type);
// The kind of value `value` holds.
HXRT_API AttrType attr_type_of(const AttrValue& value);

// One input or output of an op.
struct OpArgInfo {
  std::string name;         // "a"
  std::string type;         // "T" (the op's type parameter), or the dtype attribute that sets it
  std::vector<DType> dtypes;  // the dtypes it may have
  std::string description;  // what it is, with its shape
  // An argument that repeats to the end of the call: AddN's inputs, Split's outputs (as many
  // as the call's attributes ask for, up to OpInfo::num_outputs), MaxPool's Indices (none or
  // one).
  bool variadic = false;
};

// One attribute of an op.
struct OpAttrInfo {
  std::string name;
  AttrType type = AttrType::kBool;
  bool required = false;
  // What an absent attribute stands for; nullopt when it is required, or when absence means
  // something no value says (the description says what: Sum's absent axes reduce every axis).
  std::optional<AttrValue> default_value;
  std::string description;
};

// Where an op's type parameter T comes from. T is the dtype a kernel registers for
// (hx_kernel_def.dtypes) and the one the placer looks kernels up by.
struct TypeParameter {
  enum class Source {
    kInput,      // the dtype of input `input` (MatMul, Add, Cast: input 0)
    kAttribute,  // the value of dtype attribute `attribute`, or its default (Fill: "dtype")
    kOutput,     // the dtype of output 0 (a custom op without inputs, hx_op_def.type_input -1)
  };
  Source source = Source::kInput;
  int input = 0;
  std::string attribute;
  // Set for ops whose outputs' dtype comes from a dtype attribute rather than from T (Cast's
  // "dtype"): kernels name the output dtypes they accept (hx_kernel_def.output_dtypes).
  std::string output_dtype_attribute;
};

// The kernels one device type has for an op.
struct OpKernelInfo {
  std::string device_type;   // "CPU"
  std::vector<DType> dtypes;  // the values of T they accept, in ABI order
};

struct OpInfo {
  std::string name;     // "MatMul"
  std::string owner;    // "core", or the name of the plugin that registered the op
  std::string summary;  // one line; may be empty for a custom op that gave none
  int min_inputs = 0;
  int max_inputs = 0;   // -1: no upper bound
  int num_outputs = 1;  // the most a call may have, where the last output is variadic
  std::vector<OpArgInfo> inputs;   // empty for a custom op (the ABI does not declare them)
  std::vector<OpArgInfo> outputs;  // likewise
  std::vector<OpAttrInfo> attrs;
  TypeParameter type_parameter;
  // The binary element-wise ops: the inputs broadcast as NumPy's do, and kernels receive them
  // already broadcast to the output's shape, with stride 0 where an input repeats.
  bool broadcasts = false;
  // Ops whose outputs' extents depend on their inputs' values (NonZero): shape inference
  // gives the most each may have, kernels report the actual ones (hx_kernel_args
  // .output_extents), an eager call returns tensors of those, and a graph compiles what reads
  // such an output when a run has computed it (docs/graphs.md).
  bool extents_at_run = false;
  std::string shape_rule;  // the output shapes in words; shape inference is the executable rule
  // The ONNX op (default domain) a model's node of which becomes a call of this one
  // (Runtime::load_onnx), and the versions of it implemented; "" and none when not importable.
  std::string onnx_op;
  std::vector<int> onnx_versions;
  std::vector<OpKernelInfo> kernels;  // by device type, in name order
};

// The ops the core itself defines, in name order, as Runtime::ops() lists them but without
// kernels: what a plugin may register kernels for without register_op, and what no custom op
// may be named. Needs no runtime (the conformance kit asks it before loading a plugin).
HXRT_API std::vector<OpInfo> core_ops();

}  // namespace hxrt

// Einsum of two operands whose equation is a (batched) matrix product: every letter is in both
// operands and summed (K), in both and the output (batch), or in one operand and the output
// (M or N). Explicit ("ij,jk->ik") or implicit ("ij,jk": the letters that occur once, in
// alphabetical order) output; no ellipsis, no letter twice in one term.
#include "ops/einsum_equation.hpp"

#include <string>

#include "hxrt/error.hpp"
#include "ops/builtin_op_families.hpp"
#include "ops/infer_checks.hpp"

namespace hxrt::detail {

namespace {

void infer_einsum(const InferContext& call, TensorMeta* outputs) {
  require_numeric_inputs(call);
  require_same_dtype(call);
  const EinsumEquation equation = parse_einsum(call);
  std::vector<int64_t> dims;
  for (const char letter : equation.output) dims.push_back(equation.extent(letter));
  outputs[0].dtype = call.inputs[0].dtype;
  try {
    outputs[0].shape = Shape(dims);
  } catch (const Error& error) {
    reject_call(call, std::string("the output would be too large: ") + error.what());
  }
}

}  // namespace

void add_einsum_op(OpRegistry& registry) {
  OpSchema schema{"Einsum", 2, 2, 1, infer_einsum, ""};
  schema.summary = "Einstein summation of two operands in the forms of a batched matrix "
                   "product, e.g. \"bij,bjk->bik\", \"bhqd,bhkd->bhqk\", \"ij,j->i\", "
                   "\"i,j->ij\". ONNX's Einsum with two inputs.";
  schema.inputs = {
      {"a", "T", numeric_dtypes(), "the first operand: one axis per letter of its term", false},
      {"b", "T", numeric_dtypes(), "the second operand, of a's dtype", false},
  };
  schema.outputs = {{"y", "T", numeric_dtypes(), "one axis per letter of the output term",
                     false}};
  schema.attrs = {
      {"equation", AttrType::kString, true, std::nullopt,
       "\"a-term,b-term->output-term\" of letters (a-z, A-Z), or without \"->\" for "
       "the letters that occur once, in alphabetical order; blanks around the terms are "
       "ignored"}};
  schema.shape_rule =
      "Each term has one letter per axis of its operand, none twice; a letter has one extent "
      "wherever it occurs. Every letter of the output occurs in an operand; a letter in both "
      "operands but not the output is summed; a letter in one operand only is in the output. "
      "No ellipsis (\"...\"). y's extents are its letters'. Integer products and sums wrap.";
  schema.reference_cases = einsum_cases;
  schema.onnx.versions = {12};
  registry.add(std::move(schema));
}

}  // namespace hxrt::detail

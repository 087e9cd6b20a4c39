// Einsum of one or two operands, as NumPy's einsum reads its equation: a letter per axis, in
// explicit ("ij,jk->ik") or implicit ("ij,jk": the letters that occur once, in alphabetical
// order) form, an ellipsis for axes the terms leave out ("...ij,...jk->...ik"), a letter twice
// in one term for a diagonal ("ii->i"), and every letter left out of the output summed.
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
  OpSchema schema{"Einsum", 1, 2, 1, infer_einsum, ""};
  schema.summary = "Einstein summation of one or two operands: batched matrix products "
                   "(\"bij,bjk->bik\", \"bhqd,bhkd->bhqk\", \"ij,j->i\", \"i,j->ij\"), "
                   "transposes (\"ij->ji\"), sums (\"ij->i\"), traces and diagonals "
                   "(\"ii\", \"...ii->...i\"). ONNX's Einsum with one or two inputs.";
  schema.inputs = {
      {"a", "T", numeric_dtypes(), "the first operand: one axis per letter of its term", false},
      {"b", "T", numeric_dtypes(), "the second operand, of a's dtype; absent with one term",
       false},
  };
  schema.outputs = {{"y", "T", numeric_dtypes(), "one axis per letter of the output term",
                     false}};
  schema.attrs = {
      {"equation", AttrType::kString, true, std::nullopt,
       "\"a-term[,b-term]->output-term\" of letters (a-z, A-Z) and at most one ellipsis "
       "\"...\" per term, or without \"->\" for the ellipsis's axes and then the letters "
       "that occur once, in alphabetical order; blanks are ignored"}};
  schema.shape_rule =
      "Each term has one letter per axis of its operand, an ellipsis standing for the axes "
      "the letters leave out (right-aligned across the operands; their extents must agree, "
      "no broadcasting of 1); a letter has one extent wherever it occurs, and twice in one "
      "term takes the diagonal. Every letter of the output occurs in an operand, once in the "
      "output; the letters not in the output are summed. y's extents are its letters'. "
      "Integer products and sums wrap.";
  schema.reference_cases = einsum_cases;
  schema.onnx.versions = {12};
  registry.add(std::move(schema));
}

}  // namespace hxrt::detail

#include "ops/einsum_equation.hpp"

#include <hxcommon/einsum_terms.hpp>

#include <string>
#include <utility>
#include <vector>

#include "ops/infer_checks.hpp"

namespace hxrt::detail {

namespace {

// How an error names a letter: an ellipsis's axes have digits for letters.
std::string letter_text(char letter) {
  if (letter >= '0' && letter <= '9') {
    return std::string("axis ") + letter + " of the ellipsis";
  }
  return std::string("letter '") + letter + "'";
}

}  // namespace

EinsumEquation parse_einsum(const InferContext& call) {
  const AttrValue& value = required_attr(call, "equation", "a string such as \"ij,jk->ik\"");
  if (!std::holds_alternative<std::string>(value)) {
    reject_call(call, "attribute 'equation' must be a string such as \"ij,jk->ik\"");
  }
  std::vector<int> ranks;
  for (size_t i = 0; i < call.num_inputs; ++i) ranks.push_back(call.inputs[i].shape.rank());
  hxcommon::EinsumTerms terms = hxcommon::expand_einsum(std::get<std::string>(value), ranks);
  if (!terms.error.empty()) reject_call(call, terms.error);
  EinsumEquation equation;
  equation.inputs = std::move(terms.inputs);
  equation.output = std::move(terms.output);
  bool seen[128] = {};
  for (size_t input = 0; input < equation.inputs.size(); ++input) {
    const Shape& shape = call.inputs[input].shape;
    const std::string& term = equation.inputs[input];
    for (size_t axis = 0; axis < term.size(); ++axis) {
      const auto letter = static_cast<unsigned char>(term[axis]);
      const int64_t extent = shape[static_cast<int>(axis)];
      if (seen[letter] && equation.extents[letter] != extent) {
        reject_call(call, letter_text(term[axis]) + " has extents " +
                              std::to_string(equation.extents[letter]) + " and " +
                              std::to_string(extent) + " (operand " + std::to_string(input) +
                              ", shape " + shape.to_string() +
                              "); a letter has one extent wherever it occurs, and a letter "
                              "twice in one term takes the diagonal of two equal axes");
      }
      seen[letter] = true;
      equation.extents[letter] = extent;
    }
  }
  return equation;
}

}  // namespace hxrt::detail

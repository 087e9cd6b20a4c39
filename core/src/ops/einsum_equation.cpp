#include "ops/einsum_equation.hpp"

#include <algorithm>
#include <cctype>

#include "ops/infer_checks.hpp"

namespace hxrt::detail {

namespace {

void check_term(const InferContext& call, const std::string& term, const char* name) {
  for (size_t i = 0; i < term.size(); ++i) {
    if (!std::isalpha(static_cast<unsigned char>(term[i]))) {
      reject_call(call, std::string("the ") + name + " term \"" + term + "\" has '" + term[i] +
                            "'; terms are letters (no ellipsis \"...\")");
    }
    if (term.find(term[i], i + 1) != std::string::npos) {
      reject_call(call, std::string("the ") + name + " term \"" + term + "\" repeats '" +
                            term[i] + "'; a diagonal (a letter twice in one term) is not taken");
    }
  }
}

bool has(const std::string& term, char letter) {
  return term.find(letter) != std::string::npos;
}

}  // namespace

EinsumEquation parse_einsum(const InferContext& call) {
  const AttrValue& value = required_attr(call, "equation", "a string such as \"ij,jk->ik\"");
  if (!std::holds_alternative<std::string>(value)) {
    reject_call(call, "attribute 'equation' must be a string such as \"ij,jk->ik\"");
  }
  // ONNX allows blanks around the terms (" bij, bjk -> bik "); they mean nothing.
  std::string text = std::get<std::string>(value);
  text.erase(std::remove_if(text.begin(), text.end(),
                            [](unsigned char c) { return std::isspace(c) != 0; }),
             text.end());
  EinsumEquation equation;
  const size_t arrow = text.find("->");
  const std::string inputs = text.substr(0, arrow);
  const size_t comma = inputs.find(',');
  if (comma == std::string::npos || inputs.find(',', comma + 1) != std::string::npos) {
    reject_call(call, "equation \"" + text + "\" has " +
                          (comma == std::string::npos ? std::string("one input term")
                                                      : std::string("more than two")) +
                          "; Einsum takes two operands, \"a-term,b-term->output\"");
  }
  equation.a = inputs.substr(0, comma);
  equation.b = inputs.substr(comma + 1);
  check_term(call, equation.a, "first");
  check_term(call, equation.b, "second");
  if (arrow != std::string::npos) {
    equation.output = text.substr(arrow + 2);
    check_term(call, equation.output, "output");
  } else {
    for (const char letter : equation.a + equation.b) {
      if (has(equation.a, letter) != has(equation.b, letter)) equation.output += letter;
    }
    std::sort(equation.output.begin(), equation.output.end());
  }
  const std::string* terms[] = {&equation.a, &equation.b};
  for (size_t input = 0; input < 2; ++input) {
    const Shape& shape = call.inputs[input].shape;
    const std::string& term = *terms[input];
    if (static_cast<int>(term.size()) != shape.rank()) {
      reject_call(call, "term \"" + term + "\" has " + std::to_string(term.size()) +
                            " letters but input " + std::to_string(input) + " has shape " +
                            shape.to_string() + "; one letter per axis");
    }
    for (size_t axis = 0; axis < term.size(); ++axis) {
      int64_t& extent = equation.extents[static_cast<unsigned char>(term[axis])];
      if (input == 1 && has(equation.a, term[axis]) && extent != shape[static_cast<int>(axis)]) {
        reject_call(call, std::string("letter '") + term[axis] + "' has extent " +
                              std::to_string(extent) + " in the first operand and " +
                              std::to_string(shape[static_cast<int>(axis)]) +
                              " in the second; a letter has one extent");
      }
      extent = shape[static_cast<int>(axis)];
    }
  }
  for (const char letter : equation.output) {
    if (!has(equation.a, letter) && !has(equation.b, letter)) {
      reject_call(call, std::string("output letter '") + letter + "' is in neither operand");
    }
  }
  for (const char letter : equation.a + equation.b) {
    if (has(equation.a, letter) != has(equation.b, letter) && !has(equation.output, letter)) {
      reject_call(call, std::string("letter '") + letter + "' is in one operand only and not "
                            "in the output; summing an operand alone is not taken (ReduceSum "
                            "it first)");
    }
  }
  return equation;
}

}  // namespace hxrt::detail

// Einsum's equation read against its operands' ranks, shared by the core's shape inference and
// every plugin's kernel, so that the two cannot read an equation differently: ONNX's text
// (" bij, bjk -> bik ", "ij,jk", "...ii->...i") becomes one letter per axis of each operand and
// of the output.
#pragma once

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

namespace hxcommon {

struct EinsumTerms {
  // One letter per axis of each operand, then of the output. The axes an ellipsis stands for
  // are the letters '0', '1', ...: right-aligned across the operands, as NumPy aligns them, so
  // that an operand with fewer of them takes the last ones.
  std::vector<std::string> inputs;
  std::string output;
  std::string error;  // empty when the equation was read; else what is wrong with it
};

namespace einsum_detail {

inline bool is_letter(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }

// `term` with its ellipsis (at most one) replaced by `axes` letters, the last ones of
// `ellipsis_letters`; "" and an error when the term is not letters and one ellipsis.
inline std::string expand_term(const std::string& term, const std::string& ellipsis_letters,
                               int axes, std::string& error) {
  const size_t dots = term.find("...");
  std::string letters = term;
  if (dots != std::string::npos) letters.erase(dots, 3);
  for (const char c : letters) {
    if (!is_letter(c)) {
      error = "term \"" + term + "\" has '" + c +
              "'; a term is letters (a-z, A-Z) and at most one ellipsis \"...\"";
      return "";
    }
  }
  if (dots == std::string::npos) return letters;
  return letters.substr(0, dots) + ellipsis_letters.substr(ellipsis_letters.size() - axes) +
         letters.substr(dots);
}

inline int letter_count(const std::string& term) {
  const size_t dots = term.find("...");
  return static_cast<int>(term.size() - (dots == std::string::npos ? 0 : 3));
}

}  // namespace einsum_detail

// `equation` for operands of `ranks`. Blanks mean nothing. Without "->", the output is the
// ellipsis's axes, then the letters that occur once in all the terms, in alphabetical order.
inline EinsumTerms expand_einsum(std::string equation, const std::vector<int>& ranks) {
  using namespace einsum_detail;
  EinsumTerms terms;
  equation.erase(std::remove_if(equation.begin(), equation.end(),
                                [](unsigned char c) { return std::isspace(c) != 0; }),
                 equation.end());
  const size_t arrow = equation.find("->");
  const std::string inputs = equation.substr(0, arrow);
  std::vector<std::string> written;
  for (size_t begin = 0;;) {
    const size_t comma = inputs.find(',', begin);
    written.push_back(inputs.substr(begin, comma - begin));
    if (comma == std::string::npos) break;
    begin = comma + 1;
  }
  if (written.size() != ranks.size()) {
    terms.error = "equation \"" + equation + "\" has " + std::to_string(written.size()) +
                  " input terms for " + std::to_string(ranks.size()) +
                  " operands; it has one term per operand, separated by commas";
    return terms;
  }
  int ellipsis_axes = 0;  // the most any operand's ellipsis stands for
  std::vector<int> axes(written.size(), 0);
  for (size_t i = 0; i < written.size(); ++i) {
    const bool has_ellipsis = written[i].find("...") != std::string::npos;
    axes[i] = ranks[i] - letter_count(written[i]);
    if (axes[i] < 0 || (!has_ellipsis && axes[i] != 0)) {
      terms.error = "term \"" + written[i] + "\" has " + std::to_string(letter_count(written[i])) +
                    " letters for operand " + std::to_string(i) + " of rank " +
                    std::to_string(ranks[i]) + "; a term has one letter per axis" +
                    (has_ellipsis ? "" : ", or an ellipsis \"...\" for the axes it leaves out");
      return terms;
    }
    ellipsis_axes = std::max(ellipsis_axes, axes[i]);
  }
  if (ellipsis_axes > 10) {
    terms.error = "an ellipsis stands for " + std::to_string(ellipsis_axes) +
                  " axes; at most 10 are taken";
    return terms;
  }
  std::string ellipsis_letters;
  for (int i = 0; i < ellipsis_axes; ++i) ellipsis_letters += static_cast<char>('0' + i);
  for (size_t i = 0; i < written.size(); ++i) {
    terms.inputs.push_back(expand_term(written[i], ellipsis_letters, axes[i], terms.error));
    if (!terms.error.empty()) return terms;
  }
  if (arrow != std::string::npos) {
    const std::string output = equation.substr(arrow + 2);
    terms.output = expand_term(output, ellipsis_letters, ellipsis_axes, terms.error);
    if (!terms.error.empty()) return terms;
    for (size_t i = 0; i < terms.output.size(); ++i) {
      const char letter = terms.output[i];
      if (terms.output.find(letter, i + 1) != std::string::npos) {
        terms.error = "the output term \"" + output + "\" repeats '" + letter +
                      "'; each output axis has a letter of its own";
        return terms;
      }
      bool read = false;
      for (const std::string& input : terms.inputs) {
        read = read || input.find(letter) != std::string::npos;
      }
      if (!read) {
        terms.error = std::string("output letter '") + letter + "' is in no input term";
        return terms;
      }
    }
    return terms;
  }
  std::string once;
  std::string all;
  for (const std::string& input : terms.inputs) all += input;
  for (const char letter : all) {
    if (is_letter(letter) && std::count(all.begin(), all.end(), letter) == 1) once += letter;
  }
  std::sort(once.begin(), once.end());
  terms.output = ellipsis_letters + once;
  return terms;
}

}  // namespace hxcommon

// hxrt-info's rendering of the ops (tools/hxrt-info/ops_report.cpp), on op values made here:
// what a plugin's custom op shows, and that plugin text cannot break a table or a terminal.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "builtin_op_calls.hpp"
#include "ops_report.hpp"

using hxrt::DType;
using hxrt::OpInfo;
using Catch::Contains;

namespace {

OpInfo custom_op() {
  OpInfo op;
  op.name = "CSample_LeakyRelu";
  op.owner = "c_sample";
  op.summary = "x where x > 0 | alpha * x elsewhere\x1b[31m";
  op.min_inputs = op.max_inputs = 1;
  op.kernels = {{"CPU", {DType::kF32, DType::kF64}}, {"GPU", {DType::kF32}}};
  return op;
}

std::string text_of(const std::vector<OpInfo>& ops) {
  std::ostringstream out;
  hxrt_info::print_ops_text(out, ops);
  return out.str();
}

std::string markdown_of(const std::vector<OpInfo>& ops) {
  std::ostringstream out;
  hxrt_info::print_ops_markdown(out, ops);
  return out.str();
}

}  // namespace

TEST_CASE("the text shows a custom op's owner, summary, T and kernels, escaped") {
  const std::string text = text_of({custom_op()});
  CHECK_THAT(text, Contains("CSample_LeakyRelu (c_sample, 1 input, 1 output)\n"));
  CHECK_THAT(text, Contains("  x where x > 0 | alpha * x elsewhere\\x1b[31m\n"));
  CHECK_THAT(text, Contains("  T: the dtype of input 0\n"));
  CHECK_THAT(text, Contains("  kernels: CPU (float32, float64); GPU (float32)\n"));
}

TEST_CASE("the text shows a core op's whole specification") {
  const std::vector<OpInfo> ops = hxrt::core_ops();
  const std::string text = text_of(ops);
  CHECK_THAT(text, Contains("Ops: " + std::to_string(ops.size()) + " "));
  CHECK_THAT(text, Contains("MatMul (core, 2 inputs, 1 output)\n"
                            "  Matrix product as NumPy's matmul"));
  CHECK_THAT(text, Contains("Gemm (core, 2 to 3 inputs, 1 output)"));
  CHECK_THAT(text, Contains("  T: the dtype of input 0 (a)\n"));
  CHECK_THAT(text, Contains("    transpose_a: bool, default false: multiply by a's transpose"));
  CHECK_THAT(text, Contains("AddN (core, 1 or more inputs, 1 output)"));
  CHECK_THAT(text, Contains("    inputs...: T in {float32, float64, float16, bfloat16, int32, "
                            "int64, int8, uint8, int16, uint16, uint32, uint64}: one or more "
                            "tensors"));
  CHECK_THAT(text, Contains("  T: the value of attribute dtype (default float32)\n"));
  CHECK_THAT(text, Contains("    shape: list of ints, required: the output's extents"));
  CHECK_THAT(text, Contains("    axes: list of ints, optional: the axes to reduce"));
  CHECK_THAT(text, Contains("  T: the dtype of input 0 (x); the outputs' dtype is attribute "
                            "dtype"));
  CHECK_THAT(text, Contains("  broadcasting: inputs broadcast as in NumPy"));
  CHECK_THAT(text, Contains("  kernels: none\n"));
}

TEST_CASE("the Markdown keeps a custom op's text inside its table cells and line") {
  OpInfo op = custom_op();
  op.inputs = {{"x", "T", {DType::kF32}, "a | b", false}};
  const std::string markdown = markdown_of({op});
  CHECK_THAT(markdown, Contains("\n## CSample_LeakyRelu\n\nx where x > 0 | alpha * x "
                                "elsewhere\\x1b[31m\n"));
  CHECK_THAT(markdown, Contains("- Owner: c_sample\n"));
  CHECK_THAT(markdown, Contains("| `x` | T | float32 | a \\| b |\n"));
}

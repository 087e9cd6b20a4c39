// Shape inference of Einsum: one and two operands, implicit outputs, the ellipsis, diagonals,
// and the messages for equations that do not fit their operands.
#include <catch2/catch.hpp>

#include <string>

#include "builtin_op_calls.hpp"

using Catch::Contains;
using hxrt::Attrs;
using hxrt::Shape;
using hxrt_test_ops::f32;
using hxrt_test_ops::infer;
using hxrt_test_ops::infer_error;

namespace {

Attrs einsum_attrs(const char* text) { return Attrs{{"equation", std::string(text)}}; }

}  // namespace

TEST_CASE("Einsum of one operand: transposes, sums, traces and diagonals") {
  CHECK(infer("Einsum", {f32({3, 4})}, einsum_attrs("ij->ji")).shape == Shape{4, 3});
  CHECK(infer("Einsum", {f32({3, 4})}, einsum_attrs("ij->i")).shape == Shape{3});
  CHECK(infer("Einsum", {f32({3, 4})}, einsum_attrs("ij->")).shape == Shape{});
  CHECK(infer("Einsum", {f32({4, 4})}, einsum_attrs("ii->i")).shape == Shape{4});
  // Implicit: the letters that occur once, in alphabetical order; "ii" has none (a trace).
  CHECK(infer("Einsum", {f32({3, 3})}, einsum_attrs("ii")).shape == Shape{});
  CHECK(infer("Einsum", {f32({2, 3})}, einsum_attrs("ba")).shape == Shape{3, 2});
  // ONNX's node test test_einsum_batch_diagonal, blanks and all.
  CHECK(infer("Einsum", {f32({3, 5, 5})}, einsum_attrs("...ii ->...i")).shape == Shape{3, 5});
}

TEST_CASE("Einsum of two operands: the ellipsis aligns the axes it stands for at the right") {
  CHECK(infer("Einsum", {f32({2, 2, 3}), f32({2, 3, 4})}, einsum_attrs("...ij,...jk->...ik"))
            .shape == Shape{2, 2, 4});
  // An operand with fewer of them takes the last: [7] against [2, 7].
  CHECK(infer("Einsum", {f32({2, 7, 3, 4}), f32({7, 4, 5})}, einsum_attrs("...ij,...jk")).shape ==
        Shape{2, 7, 3, 5});
  // A letter in one operand only and not in the output is summed.
  CHECK(infer("Einsum", {f32({3, 4}), f32({4, 2})}, einsum_attrs("ij,jk->i")).shape == Shape{3});
}

TEST_CASE("Einsum refuses equations that do not fit their operands, saying why") {
  CHECK_THAT(infer_error("Einsum", {f32({3, 4})}, einsum_attrs("ij,jk->ik")),
             Contains("2 input terms for 1 operands"));
  CHECK_THAT(infer_error("Einsum", {f32({3, 4})}, einsum_attrs("ijk->i")),
             Contains("3 letters for operand 0 of rank 2"));
  CHECK_THAT(infer_error("Einsum", {f32({3, 4})}, einsum_attrs("ii->i")),
             Contains("letter 'i' has extents 3 and 4"));
  CHECK_THAT(infer_error("Einsum", {f32({3, 4})}, einsum_attrs("ij->ii")),
             Contains("repeats 'i'"));
  CHECK_THAT(infer_error("Einsum", {f32({3, 4})}, einsum_attrs("ij->k")),
             Contains("output letter 'k' is in no input term"));
  CHECK_THAT(infer_error("Einsum", {f32({3, 4})}, einsum_attrs("i1->i")), Contains("has '1'"));
  CHECK_THAT(infer_error("Einsum", {f32({2, 3}), f32({4, 3})}, einsum_attrs("...i,...i")),
             Contains("axis 0 of the ellipsis has extents 2 and 4"));
}

// The unary element-wise family: functions of one element, named and defined as ONNX defines
// them, whose y has x's dtype and shape. Their specifications differ only in words, in the
// dtypes they accept and in their references, so each op is one row of a table.
#include <string>

#include "ops/builtin_op_families.hpp"
#include "ops/infer_checks.hpp"

namespace hxrt::detail {

namespace {

struct UnaryOp {
  const char* name;
  const char* summary;
  bool integers;       // also i32 and i64, beside the floating dtypes
  const char* y;       // what y holds
  const char* domain;  // what happens at the edges of the function's domain
  ReferenceCasesFn reference_cases;
  int onnx_since = 13;  // ONNX's latest version of the op through kMaxOnnxOpset
};

constexpr const char* kIntegral =
    " Whole numbers, zeros of either sign, infinities and NaN come out unchanged.";
constexpr const char* kWrapping =
    " Integer results wrap modulo 2^bits, as in NumPy: the dtype's minimum gives itself.";

OpSchema unary_schema(const UnaryOp& op) {
  const std::vector<DType>& dtypes = op.integers ? numeric_dtypes() : floating_dtypes();
  OpSchema schema{op.name, 1, 1, 1, op.integers ? infer_numeric_unary : infer_floating_unary, ""};
  schema.summary = op.summary;
  schema.inputs = {{"x", "T", dtypes,
                    op.integers ? "any tensor" : "any tensor of a floating dtype", false}};
  schema.outputs = {{"y", "T", dtypes, op.y, false}};
  schema.shape_rule = std::string("y has x's shape.") + op.domain;
  schema.reference_cases = op.reference_cases;
  schema.onnx.versions = {op.onnx_since};
  return schema;
}

}  // namespace

void add_unary_ops(OpRegistry& registry) {
  const UnaryOp ops[] = {
      {"Exp", "e raised to the power x, element by element.", false, "exp(x), positive",
       " Where exp(x) is beyond the dtype's largest value (x > 88.7 for float32, x > 11.1 for "
       "float16) it overflows to +inf, and it underflows to 0 for large negative x; NaN stays "
       "NaN.",
       exp_cases},
      {"Log", "The natural logarithm of x, element by element.", false, "ln(x)",
       " Log of 0 is -inf, of +inf +inf, of a negative x NaN (IEEE 754).", log_cases},
      {"Sqrt", "The square root of x, element by element.", false, "sqrt(x)",
       " A negative x gives NaN; -0 gives -0 (IEEE 754).", sqrt_cases},
      {"Reciprocal", "1 / x element by element.", false, "1 / x",
       " 1 / 0 is an infinity of the zero's sign, as IEEE 754 division gives.",
       reciprocal_cases},
      {"Erf", "The Gauss error function of x, element by element.", false,
       "erf(x) = 2 / sqrt(pi) * (the integral of exp(-t^2) from 0 to x), in [-1, 1]",
       " Defined for every x: large |x| gives -1 or 1; NaN stays NaN.", erf_cases},
      {"Tanh", "The hyperbolic tangent of x, element by element.", false, "tanh(x), in [-1, 1]",
       " Large negative x gives -1 and large positive x 1, never NaN; NaN stays NaN.",
       tanh_cases},
      {"Sigmoid", "The logistic function: 1 / (1 + exp(-x)) element by element.", false,
       "1 / (1 + exp(-x)), in [0, 1]",
       " Large negative x gives 0 and large positive x 1, never NaN; NaN stays NaN.",
       sigmoid_cases},
      {"Floor", "Rounds x down to a whole number, element by element.", false,
       "the largest whole number not above x", kIntegral, floor_cases},
      {"Ceil", "Rounds x up to a whole number, element by element.", false,
       "the smallest whole number not below x", kIntegral, ceil_cases},
      {"Round",
       "Rounds x to the nearest whole number, element by element; halves round to the even "
       "one (2.5 gives 2, -1.5 gives -2).",
       false, "the whole number nearest x, the even one of two", kIntegral, round_cases, 11},
      {"Neg", "Negates x element by element: y = -x.", true, "-x", kWrapping, neg_cases},
      {"Abs", "The absolute value of x, element by element.", true, "|x|",
       kWrapping, abs_cases},
      {"Sign", "The sign of x, element by element: -1, 0 or 1.", true,
       "1 where x > 0, -1 where x < 0, x itself where x is 0 or NaN",
       " NaN stays NaN; -0 stays -0.", sign_cases},
  };
  for (const UnaryOp& op : ops) {
    registry.add(unary_schema(op));
  }
}

}  // namespace hxrt::detail

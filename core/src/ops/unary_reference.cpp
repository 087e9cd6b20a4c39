// Reference cases of the unary family (unary_ops.cpp), computed in double on the exact input
// values. Each op's inputs come from a range where its result is finite in every dtype it
// accepts: the kit compares within a relative tolerance, which no NaN and no infinity passes,
// so a case that reached one would fail every kernel instead of testing it.
#include <cmath>

#include "ops/builtin_op_families.hpp"
#include "ops/reference/random_values.hpp"
#include "ops/reference/unary_cases.hpp"

namespace hxrt::detail {

std::vector<ReferenceCase> exp_cases(DType type, DType, RandomValues& random) {
  // Not wide: exp overflows float16 above 11.1, where the reference in double stays finite.
  return unary_cases([](double x) { return std::exp(x); }, type, ValueRange::kModerate, random);
}

std::vector<ReferenceCase> log_cases(DType type, DType, RandomValues& random) {
  return unary_cases([](double x) { return std::log(x); }, type, ValueRange::kPositive, random);
}

std::vector<ReferenceCase> sqrt_cases(DType type, DType, RandomValues& random) {
  return unary_cases([](double x) { return std::sqrt(x); }, type, ValueRange::kPositive, random);
}

std::vector<ReferenceCase> reciprocal_cases(DType type, DType, RandomValues& random) {
  return unary_cases([](double x) { return 1 / x; }, type, ValueRange::kDivisor, random);
}

std::vector<ReferenceCase> erf_cases(DType type, DType, RandomValues& random) {
  // Moderate, not wide: erf is 1 to double precision beyond |x| = 6, so wide inputs would
  // mostly test the constant.
  return unary_cases([](double x) { return std::erf(x); }, type, ValueRange::kModerate, random);
}

std::vector<ReferenceCase> tanh_cases(DType type, DType, RandomValues& random) {
  // Wide inputs reach where exp(2x) overflows a float (x > 44 for float32), which a kernel
  // written with exponentials survives only when the infinities give -1 and 1, not NaN.
  return unary_cases([](double x) { return std::tanh(x); }, type, ValueRange::kWide, random);
}

std::vector<ReferenceCase> sigmoid_cases(DType type, DType, RandomValues& random) {
  // Wide inputs reach where exp(-x) overflows a float (x < -89 for f32), which a kernel
  // written as 1 / (1 + exp(-x)) survives only when the infinity gives 0, not NaN.
  return unary_cases([](double x) { return 1 / (1 + std::exp(-x)); }, type, ValueRange::kWide,
                     random);
}

// The rounding functions see quarters, which hold each one's every kind of input: whole
// numbers, ties and values on either side of them, negative ones included.
std::vector<ReferenceCase> floor_cases(DType type, DType, RandomValues& random) {
  return unary_cases([](double x) { return std::floor(x); }, type, ValueRange::kQuarters, random);
}

std::vector<ReferenceCase> ceil_cases(DType type, DType, RandomValues& random) {
  return unary_cases([](double x) { return std::ceil(x); }, type, ValueRange::kQuarters, random);
}

std::vector<ReferenceCase> round_cases(DType type, DType, RandomValues& random) {
  // nearbyint rounds in the current mode, the default to-nearest-even: nothing changes it.
  return unary_cases([](double x) { return std::nearbyint(x); }, type, ValueRange::kQuarters,
                     random);
}

// Wide inputs: about one in eight is 0, Sign's third value; small integers never overflow.
std::vector<ReferenceCase> neg_cases(DType type, DType, RandomValues& random) {
  return unary_cases([](double x) { return -x; }, type, ValueRange::kWide, random);
}

std::vector<ReferenceCase> abs_cases(DType type, DType, RandomValues& random) {
  return unary_cases([](double x) { return std::fabs(x); }, type, ValueRange::kWide, random);
}

std::vector<ReferenceCase> sign_cases(DType type, DType, RandomValues& random) {
  return unary_cases([](double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0; }, type,
                     ValueRange::kWide, random);
}

}  // namespace hxrt::detail

// The case lists of each op family, behind reference_cases (cases.hpp).
#pragma once

#include <vector>

#include "reference/cases.hpp"
#include "reference/elementwise.hpp"

namespace hxrt_conformance {

std::vector<KernelCase> binary_cases(BinaryOp op, hx_dtype dtype, RandomInputs& random);
std::vector<KernelCase> add_n_cases(hx_dtype dtype, RandomInputs& random);
std::vector<KernelCase> relu_cases(hx_dtype dtype, RandomInputs& random);
std::vector<KernelCase> matmul_cases(hx_dtype dtype, RandomInputs& random);
std::vector<KernelCase> sum_cases(hx_dtype dtype, RandomInputs& random);
std::vector<KernelCase> cast_cases(hx_dtype dtype, hx_dtype output_dtype, RandomInputs& random);
std::vector<KernelCase> fill_cases(hx_dtype dtype, RandomInputs& random);
std::vector<KernelCase> identity_cases(hx_dtype dtype, RandomInputs& random);

}  // namespace hxrt_conformance

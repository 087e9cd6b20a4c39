// The kernels on cuDNN and cuBLASLt against the core's reference cases (hxrt/op_reference.hpp,
// what the conformance kit holds every plugin to), for f32, f16 and bf16: every case the GPU
// takes must match within the case's tolerance, and every case it declines must say why in
// its error (the strict runtime turns a decline into one). Declines are counted, not failed:
// the pads cuDNN cannot give, MaxPool's Indices and training mode are the CPU's.
#include <hxrt/op_reference.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "kernel_test_support.hpp"

namespace cuda_kernel_test {
namespace {

const char* const kLibraryOps[] = {"Conv",
                                   "FusedConv",
                                   "MaxPool",
                                   "AveragePool",
                                   "GlobalMaxPool",
                                   "GlobalAveragePool",
                                   "BatchNormalization",
                                   "FusedGemm"};

std::string case_text(const hxrt::ReferenceCase& reference) {
  std::ostringstream text;
  for (const hxrt::ReferenceTensor& input : reference.inputs) {
    text << input.shape.to_string() << ' ';
  }
  for (const auto& [name, value] : reference.attrs.items()) {
    text << name << '=' << hxrt::attr_value_to_string(value) << ' ';
  }
  return text.str();
}

// Each output against the case's expectation: |got - expected| <= tolerance * max(1,
// |expected|), NaN matching NaN.
void check_reference_outputs(const std::vector<hxrt::Tensor>& got,
                             const hxrt::ReferenceCase& reference) {
  const std::vector<const hxrt::ReferenceTensor*> expected = hxrt::expected_outputs(reference);
  REQUIRE(got.size() >= expected.size());
  for (size_t output = 0; output < expected.size(); ++output) {
    INFO("output " << output);
    const hxrt::ReferenceTensor& want = *expected[output];
    CHECK(got[output].shape().to_string() == want.shape.to_string());
    const std::vector<double> values = values_of(got[output]);
    REQUIRE(values.size() == want.values.size());
    size_t mismatches = 0;
    std::ostringstream first;
    for (size_t i = 0; i < values.size(); ++i) {
      const double w = want.values[i];
      const double g = values[i];
      const bool same = std::isnan(w)
                            ? std::isnan(g)
                            : std::fabs(g - w) <= reference.tolerance * std::max(1.0, std::fabs(w));
      if (same) continue;
      if (mismatches++ == 0) first << "element " << i << ": got " << g << ", want " << w;
    }
    INFO(mismatches << " of " << values.size() << " differ; " << first.str());
    CHECK(mismatches == 0);
  }
}

}  // namespace

TEST_CASE("GPU kernels on cuDNN and cuBLASLt match the core's reference cases",
          "[cuda][reference]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  for (const char* op : kLibraryOps) {
    for (const hxrt::DType dtype : kElementwiseDTypes) {
      const std::vector<hxrt::ReferenceCase> cases = hxrt::reference_cases(op, dtype, dtype, 11);
      size_t declined = 0;
      std::string first_decline;
      for (size_t index = 0; index < cases.size(); ++index) {
        const hxrt::ReferenceCase& reference = cases[index];
        INFO(op << ' ' << hxrt::dtype_name(dtype) << " case " << index << ": "
                << case_text(reference));
        std::vector<hxrt::Tensor> inputs;
        for (const hxrt::ReferenceTensor& input : reference.inputs) {
          inputs.push_back(cpu_tensor(input.dtype, input.shape, input.values));
        }
        std::vector<hxrt::Tensor> got;
        try {
          got = runtime().execute_multi(op, inputs, reference.attrs, kGpu0);
        } catch (const hxrt::Error& error) {
          // A decline names the op "on GPU" and says why; anything else is a failure.
          INFO(error.what());
          CHECK(std::string(error.what()).find(std::string(op) + " on GPU") != std::string::npos);
          if (declined++ == 0) first_decline = error.what();
          continue;
        }
        check_reference_outputs(got, reference);
      }
      if (declined > 0) {
        WARN(op << ' ' << hxrt::dtype_name(dtype) << ": the GPU declined " << declined << " of "
                << cases.size() << " cases; first: " << first_decline);
      }
    }
  }
}

}  // namespace cuda_kernel_test

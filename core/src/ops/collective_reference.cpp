// Reference cases of AllReduce and ReduceScatter, computed in double on the exact inputs, and
// of AllGather.
#include <algorithm>
#include <cmath>
#include <string>

#include "ops/builtin_op_families.hpp"
#include "ops/reference/random_values.hpp"
#include "ops/reference/reference_tensors.hpp"
#include "ops/reference/tolerances.hpp"

namespace hxrt::detail {

namespace {

constexpr const char* kReferenceReductions[] = {"sum", "mean", "max", "min"};

// Element `e` of the replicas' reduction, in double.
double reduced_element(const std::vector<ReferenceTensor>& replicas, const std::string& reduction,
                       DType type, size_t e) {
  double value = replicas[0].values[e];
  for (size_t i = 1; i < replicas.size(); ++i) {
    const double next = replicas[i].values[e];
    if (reduction == "max") {
      value = std::max(value, next);
    } else if (reduction == "min") {
      value = std::min(value, next);
    } else {
      value += next;
    }
  }
  if (reduction == "mean") {
    value /= static_cast<double>(replicas.size());
    if (is_integer(type)) value = std::trunc(value);
  }
  return value;
}

}  // namespace

std::vector<ReferenceCase> all_reduce_cases(DType type, DType, RandomValues& random) {
  const std::vector<std::pair<int, Shape>> calls = {
      {1, {3, 4}}, {2, {3, 4}}, {4, {17}}, {3, {2, 1, 3}}, {2, {}}, {3, {0, 2}},
  };
  std::vector<ReferenceCase> cases;
  for (const std::string reduction : kReferenceReductions) {
    for (const auto& [count, shape] : calls) {
      ReferenceCase call;
      call.attrs = {{"reduction", reduction}};
      for (int i = 0; i < count; ++i) call.inputs.push_back(random.tensor(type, shape));
      call.expected = empty_reference(type, shape);
      for (size_t e = 0; e < static_cast<size_t>(shape.num_elements()); ++e) {
        call.expected.values.push_back(reduced_element(call.inputs, reduction, type, e));
      }
      call.tolerance = reduction_tolerance(type, count);
      cases.push_back(std::move(call));
    }
  }
  return cases;
}

std::vector<ReferenceCase> reduce_scatter_cases(DType type, DType, RandomValues& random) {
  const std::vector<std::pair<int, Shape>> calls = {
      {1, {3, 4}}, {2, {4, 3}}, {4, {8}}, {3, {6, 1, 2}}, {3, {0, 2}},
  };
  std::vector<ReferenceCase> cases;
  for (const std::string reduction : kReferenceReductions) {
    for (const auto& [count, shape] : calls) {
      ReferenceCase call;
      call.attrs = {{"reduction", reduction}};
      for (int i = 0; i < count; ++i) call.inputs.push_back(random.tensor(type, shape));
      Shape shard = shape;
      shard.set_dim(0, shape[0] / count);
      const auto per_shard = static_cast<size_t>(shard.num_elements());
      for (int s = 0; s < count; ++s) {
        ReferenceTensor out = empty_reference(type, shard);
        for (size_t e = 0; e < per_shard; ++e) {
          const size_t element = static_cast<size_t>(s) * per_shard + e;
          out.values.push_back(reduced_element(call.inputs, reduction, type, element));
        }
        if (s == 0) {
          call.expected = std::move(out);
        } else {
          call.more_expected.push_back(std::move(out));
        }
      }
      call.tolerance = reduction_tolerance(type, count);
      cases.push_back(std::move(call));
    }
  }
  return cases;
}

std::vector<ReferenceCase> all_gather_cases(DType type, DType, RandomValues& random) {
  const std::vector<std::pair<int, Shape>> calls = {
      {1, {3, 4}}, {2, {3, 4}}, {4, {5}}, {3, {2, 1, 3}}, {2, {}}, {3, {0, 2}},
  };
  std::vector<ReferenceCase> cases;
  for (const auto& [count, shape] : calls) {
    ReferenceCase call;
    Shape gathered = shape;
    if (shape.rank() == 0) {
      gathered = Shape{count};
    } else {
      gathered.set_dim(0, shape[0] * count);
    }
    call.expected = empty_reference(type, gathered);
    for (int i = 0; i < count; ++i) {
      call.inputs.push_back(random.tensor(type, shape));
      for (double value : call.inputs.back().values) call.expected.values.push_back(value);
    }
    cases.push_back(std::move(call));
  }
  return cases;
}

}  // namespace hxrt::detail

// Reference cases of Split (split_op.cpp). The parts' extents are written out by hand for each
// call, and each part is picked element by element from the input, independently of the
// rule shape inference and kernels share.
#include <optional>
#include <utility>

#include "ops/builtin_op_families.hpp"
#include "ops/reference/moved_elements.hpp"
#include "ops/reference/random_values.hpp"

namespace hxrt::detail {
namespace {

struct SplitCall {
  Shape input;
  std::optional<int64_t> axis;
  std::optional<std::vector<int64_t>> split;
  std::optional<int64_t> num_outputs;
  std::vector<int64_t> extents;  // each part's along the axis, as ONNX's rules give them
};

}  // namespace

std::vector<ReferenceCase> split_cases(DType type, DType, RandomValues& random) {
  const std::vector<SplitCall> calls = {
      {{4, 3}, {}, {}, {}, {4}},                            // one part: the whole input
      {{6}, {}, {}, 3, {2, 2, 2}},                          // equal parts
      {{7, 2}, {}, {}, 3, {3, 3, 1}},                       // the last smaller (ONNX 18)
      {{2, 9}, 1, {}, 4, {3, 3, 3, 0}},                     // the last empty
      {{2, 5, 3}, 1, std::vector<int64_t>{1, 4}, {}, {1, 4}},
      {{2, 5, 3}, -1, std::vector<int64_t>{2, 0, 1}, 3, {2, 0, 1}},  // a part of none
      {{3, 4}, -2, std::vector<int64_t>{3}, {}, {3}},
      {{0, 4}, 1, std::vector<int64_t>{1, 3}, {}, {1, 3}},  // an empty input
      {{2, 3, 2, 5}, 3, {}, 2, {3, 2}},
  };
  std::vector<ReferenceCase> cases;
  for (const SplitCall& call : calls) {
    ReferenceCase c;
    c.inputs = {random.tensor(type, call.input)};
    if (call.axis) c.attrs.set("axis", *call.axis);
    if (call.split) c.attrs.set("split", *call.split);
    if (call.num_outputs) c.attrs.set("num_outputs", *call.num_outputs);
    const int64_t given_axis = call.axis.value_or(0);
    const auto axis = static_cast<size_t>(given_axis < 0 ? given_axis + call.input.rank()
                                                         : given_axis);
    const ReferenceTensor& input = c.inputs[0];
    int64_t start = 0;
    std::vector<ReferenceTensor> parts;
    for (int64_t extent : call.extents) {
      std::vector<int64_t> dims = call.input.to_vector();
      dims[axis] = extent;
      parts.push_back(picked(type, Shape(dims), [&](const Coordinates& at) {
        Coordinates from = at;
        from[axis] += start;
        return element_at(input, from);
      }));
      start += extent;
    }
    c.expected = std::move(parts.front());
    c.more_expected.assign(std::make_move_iterator(parts.begin() + 1),
                           std::make_move_iterator(parts.end()));
    cases.push_back(std::move(c));
  }
  return cases;
}

}  // namespace hxrt::detail

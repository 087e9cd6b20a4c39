// Reference cases of NonZero (non_zero_op.cpp): X from a few whole values, so that about one
// element in seven is zero, and inputs with none or only zeros.
#include "ops/builtin_op_families.hpp"
#include "ops/reference/moved_elements.hpp"
#include "ops/reference/random_values.hpp"

namespace hxrt::detail {

std::vector<ReferenceCase> non_zero_cases(DType type, DType, RandomValues& random) {
  const std::vector<Shape> shapes = {{3, 4}, {2, 3, 5}, {17}, {}, {0, 3}, {2, 1, 2, 3}};
  std::vector<ReferenceCase> cases;
  for (const Shape& shape : shapes) {
    ReferenceCase c;
    c.inputs = {random.tensor(type, shape, ValueRange::kFew)};
    cases.push_back(std::move(c));
  }
  ReferenceCase zeros;  // none is nonzero, -0.0 neither: Y is [2, 0]
  zeros.inputs = {random.tensor(type, {2, 3}, ValueRange::kFew)};
  bool negative = false;
  for (double& value : zeros.inputs[0].values) value = (negative = !negative) ? -0.0 : 0.0;
  cases.push_back(std::move(zeros));

  for (ReferenceCase& c : cases) {
    const ReferenceTensor& x = c.inputs[0];
    const int rows = x.shape.rank() == 0 ? 1 : x.shape.rank();
    std::vector<Coordinates> found;
    for_each_coordinate(x.shape, [&](const Coordinates& at) {
      if (element_at(x, at) != 0) found.push_back(at);
    });
    const auto count = static_cast<int64_t>(found.size());
    c.output_bounds = {Shape{rows, x.shape.num_elements()}};
    c.expected = picked(DType::kI64, Shape{rows, count}, [&](const Coordinates& at) {
      const Coordinates& coordinate = found[static_cast<size_t>(at[1])];
      return coordinate.empty() ? 0.0 : static_cast<double>(coordinate[static_cast<size_t>(at[0])]);
    });
  }
  return cases;
}

}  // namespace hxrt::detail

// Reference cases of Einsum: every assignment of values to the equation's letters, the
// product of the operands' elements added to the output element it selects, in double. A
// letter twice in a term reads the diagonal by itself: both axes take its one value.
#include <string>
#include <utility>

#include "base/tensor_meta.hpp"
#include "ops/builtin_op_families.hpp"
#include "ops/einsum_equation.hpp"
#include "ops/reference/random_values.hpp"
#include "ops/reference/reference_tensors.hpp"
#include "ops/reference/tolerances.hpp"

namespace hxrt::detail {
namespace {

// The row-major offset, in a tensor whose axes are `term`'s letters, of the letters' values.
int64_t offset_of(const std::string& term, const EinsumEquation& equation,
                  const int64_t* values) {
  int64_t offset = 0;
  for (const char letter : term) {
    offset = offset * equation.extent(letter) + values[static_cast<unsigned char>(letter)];
  }
  return offset;
}

ReferenceTensor einsum_reference(const ReferenceCase& call, int64_t* summed) {
  std::vector<TensorMeta> metas;
  for (const ReferenceTensor& input : call.inputs) metas.push_back({input.dtype, input.shape});
  const InferContext context{std::string("Einsum"), metas.data(), metas.size(), call.attrs};
  const EinsumEquation equation = parse_einsum(context);
  std::string letters = equation.output;
  for (const std::string& term : equation.inputs) {
    for (const char letter : term) {
      if (letters.find(letter) == std::string::npos) letters += letter;
    }
  }
  Shape out_shape;
  for (const char letter : equation.output) out_shape.push_back(equation.extent(letter));
  std::vector<double> out(static_cast<size_t>(out_shape.num_elements()), 0.0);
  int64_t combinations = 1;
  for (const char letter : letters) combinations *= equation.extent(letter);
  *summed = out.empty() ? 1 : combinations / static_cast<int64_t>(out.size());
  int64_t values[128] = {};
  for (int64_t index = 0; index < combinations; ++index) {
    int64_t rest = index;
    for (size_t i = letters.size(); i-- > 0;) {
      const int64_t extent = equation.extent(letters[i]);
      values[static_cast<unsigned char>(letters[i])] = rest % extent;
      rest /= extent;
    }
    double product = 1;
    for (size_t input = 0; input < equation.inputs.size(); ++input) {
      const int64_t at = offset_of(equation.inputs[input], equation, values);
      product *= call.inputs[input].values[static_cast<size_t>(at)];
    }
    out[static_cast<size_t>(offset_of(equation.output, equation, values))] += product;
  }
  ReferenceTensor y = empty_reference(call.inputs[0].dtype, out_shape);
  y.values = std::move(out);
  return y;
}

}  // namespace

std::vector<ReferenceCase> einsum_cases(DType type, DType, RandomValues& random) {
  const std::vector<std::pair<std::string, std::pair<Shape, Shape>>> calls = {
      {"ij,jk->ik", {{3, 4}, {4, 5}}},
      {"ij,jk", {{2, 3}, {3, 4}}},
      {"bij,bjk->bik", {{2, 3, 4}, {2, 4, 5}}},
      {"bhqd,bhkd->bhqk", {{2, 2, 3, 4}, {2, 2, 5, 4}}},
      {"bhqk,bhkd->bhqd", {{1, 2, 3, 5}, {1, 2, 5, 4}}},
      {"ij,j->i", {{3, 4}, {4}}},
      {"i,i->", {{6}, {6}}},
      {"i,j->ij", {{3}, {4}}},
      {"ik,jk->ij", {{3, 4}, {5, 4}}},
      {"ki,kj->ji", {{4, 3}, {4, 2}}},
      {"bik,kj->bij", {{2, 3, 4}, {4, 5}}},
      {"abc,cd->dba", {{2, 3, 4}, {4, 2}}},
      {"bnm,bmk->bkn", {{2, 3, 4}, {2, 4, 3}}},
      {"ij,jk->ik", {{0, 3}, {3, 2}}},
      {"ij,jk->ik", {{2, 0}, {0, 3}}},
      {"Ab,bC->AC", {{2, 3}, {3, 2}}},
      {" bij, bjk -> bik ", {{2, 3, 4}, {2, 4, 2}}},
      {"ij,jk->i", {{3, 4}, {4, 2}}},
      {"...ij,...jk->...ik", {{2, 2, 3}, {2, 3, 4}}},
      {"...ij,jk", {{2, 3, 2, 3}, {3, 2}}},
      {"ij,ij->ij", {{2, 3}, {2, 3}}},
  };
  // One operand: shapes.second unused.
  const std::vector<std::pair<std::string, Shape>> unary = {
      {"ij->ji", {3, 4}},          {"ij->i", {3, 4}},          {"ij->", {2, 5}},
      {"ii->i", {4, 4}},           {"ii", {3, 3}},             {"...ii->...i", {3, 5, 5}},
      {"bij->bji", {2, 3, 4}},     {"ijk->kji", {2, 0, 3}},    {"i...->...", {3, 2, 2}},
      {"iij->j", {2, 2, 3}},       {"ij", {2, 3}},             {"ba", {2, 3}},
  };
  std::vector<ReferenceCase> cases;
  for (const auto& [equation, shape] : unary) {
    ReferenceCase einsum;
    einsum.inputs = {random.tensor(type, shape)};
    einsum.attrs.set("equation", equation);
    int64_t summed = 1;
    einsum.expected = einsum_reference(einsum, &summed);
    einsum.tolerance = reduction_tolerance(type, summed);
    cases.push_back(std::move(einsum));
  }
  for (const auto& [equation, shapes] : calls) {
    ReferenceCase einsum;
    einsum.inputs = {random.tensor(type, shapes.first), random.tensor(type, shapes.second)};
    einsum.attrs.set("equation", equation);
    int64_t summed = 1;
    einsum.expected = einsum_reference(einsum, &summed);
    einsum.tolerance = reduction_tolerance(type, summed);
    cases.push_back(std::move(einsum));
  }
  return cases;
}

}  // namespace hxrt::detail

// Einsum. Two operands in the form of a (batched) matrix product run as MatMul's GEMM products:
// each operand is gathered into the layout of a stack of matrices (a [batch, m, k], b
// [batch, k, n], letters of one kind merged, in float, or double for f64), multiplied by the
// GEMM of gemm_products.hpp, and the product [batch, m, n] is scattered to the output's letter
// order, rounded once. The gathers cost one pass over each operand, next to the product's
// batch * m * n * k. Every other form (one operand: a transpose, a sum, a diagonal; a letter
// summed within one operand) runs as a direct loop over the letters, summed in double. The
// equation is read per call (hxcommon/einsum_terms.hpp, as the core reads it), as its
// ellipsis depends on the operands' ranks.
#include <hxcommon/einsum_terms.hpp>
#include <hxplugin/kernel_create.hpp>

#include <algorithm>
#include <cctype>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/element_convert.hpp"
#include "kernels/element_types.hpp"
#include "kernels/gemm_products.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

struct EinsumInstance {
  std::string equation;
};

// An equation read for one call's operands.
struct EinsumForm {
  std::string a, b, output;  // b empty with one operand
};

bool has(const std::string& term, char letter) {
  return term.find(letter) != std::string::npos;
}

using LetterSteps = std::vector<int64_t>;  // by letter: a tensor's step along it, in elements

LetterSteps view_steps(const hx_tensor_view& view, const std::string& term) {
  LetterSteps steps(128, 0);
  for (size_t axis = 0; axis < term.size(); ++axis) {
    steps[static_cast<unsigned char>(term[axis])] = view.strides[axis];
  }
  return steps;
}

LetterSteps dense_steps(const std::string& term, const LetterSteps& extents) {
  LetterSteps steps(128, 0);
  int64_t step = 1;
  for (size_t i = term.size(); i-- > 0;) {
    steps[static_cast<unsigned char>(term[i])] = step;
    step *= extents[static_cast<unsigned char>(term[i])];
  }
  return steps;
}

// to[i] for each element i, in row-major order over `order`'s letters, of `from` read at its
// steps per letter, converted.
template <class To, class From>
void gather(const From* from, const LetterSteps& from_steps, const std::string& order,
            const LetterSteps& extents, To* to) {
  int64_t count = 1;
  for (const char letter : order) count *= extents[static_cast<unsigned char>(letter)];
  int64_t index[HX_MAX_RANK] = {};
  int64_t offset = 0;
  const int rank = static_cast<int>(order.size());
  for (int64_t i = 0; i < count; ++i) {
    to[i] = convert_element<To>(from[offset]);
    for (int axis = rank - 1; axis >= 0; --axis) {
      const unsigned char letter = static_cast<unsigned char>(order[static_cast<size_t>(axis)]);
      offset += from_steps[letter];
      if (++index[axis] < extents[letter]) break;
      offset -= from_steps[letter] * extents[letter];
      index[axis] = 0;
    }
  }
}

struct Letters {
  std::string batch, m, n, k;
};

Letters classify(const EinsumForm& einsum) {
  Letters letters;
  for (const char letter : einsum.output) {
    const bool in_a = has(einsum.a, letter);
    const bool in_b = has(einsum.b, letter);
    if (in_a && in_b) letters.batch += letter;
    if (in_a && !in_b) letters.m += letter;
    if (!in_a && in_b) letters.n += letter;
  }
  for (const char letter : einsum.a) {
    if (has(einsum.b, letter) && !has(einsum.output, letter)) letters.k += letter;
  }
  return letters;
}

int64_t product_of(const std::string& letters, const LetterSteps& extents) {
  int64_t product = 1;
  for (const char letter : letters) product *= extents[static_cast<unsigned char>(letter)];
  return product;
}

// Two operands, no letter twice in a term, and every letter in two or three of the three
// terms (K, M or N; batch): the GEMM path's form. A letter of one operand alone is summed
// within it, which the direct loop does.
bool is_product(const EinsumForm& einsum, size_t operands) {
  if (operands != 2) return false;
  for (const std::string* term : {&einsum.a, &einsum.b, &einsum.output}) {
    for (size_t i = 0; i < term->size(); ++i) {
      const char letter = (*term)[i];
      if (term->find(letter, i + 1) != std::string::npos) return false;
      const int terms = has(einsum.a, letter) + has(einsum.b, letter) + has(einsum.output, letter);
      if (terms < 2) return false;
    }
  }
  return true;
}

// y[output letters] = the sum, over the letters not in the output, of the product of the
// operands' elements. A letter twice in a term steps along both axes at once: the diagonal.
template <class T>
void einsum_direct(const KernelCall& call, const EinsumForm& einsum, size_t operands,
                   const LetterSteps& extents) {
  const std::string* terms[] = {&einsum.a, &einsum.b};
  LetterSteps steps[2] = {LetterSteps(128, 0), LetterSteps(128, 0)};
  std::string summed;
  for (size_t i = 0; i < operands; ++i) {
    const hx_tensor_view& view = call.input(i);
    for (size_t axis = 0; axis < terms[i]->size(); ++axis) {
      const char letter = (*terms[i])[axis];
      steps[i][static_cast<unsigned char>(letter)] += view.strides[axis];
      if (!has(einsum.output, letter) && !has(summed, letter)) summed += letter;
    }
  }
  const T* data[2] = {input_data<T>(call.input(0)),
                      operands == 2 ? input_data<T>(call.input(1)) : nullptr};
  T* out = output_data<T>(call.output(0));
  const int64_t sums = product_of(summed, extents);
  const int64_t count = product_of(einsum.output, extents);
  // Odometers over the output's letters and the summed ones, keeping each operand's offset.
  int64_t out_index[HX_MAX_RANK] = {};
  int64_t base[2] = {0, 0};
  std::vector<int64_t> sum_index(summed.size(), 0);
  for (int64_t element = 0; element < count; ++element) {
    double total = 0;
    int64_t at[2] = {base[0], base[1]};
    for (int64_t s = 0; s < sums; ++s) {
      double product = convert_element<double>(data[0][at[0]]);
      if (operands == 2) product *= convert_element<double>(data[1][at[1]]);
      total += product;
      for (size_t axis = summed.size(); axis-- > 0;) {
        const auto letter = static_cast<unsigned char>(summed[axis]);
        for (size_t i = 0; i < operands; ++i) at[i] += steps[i][letter];
        if (++sum_index[axis] < extents[letter]) break;
        for (size_t i = 0; i < operands; ++i) at[i] -= steps[i][letter] * extents[letter];
        sum_index[axis] = 0;
      }
    }
    out[element] = convert_element<T>(total);
    for (size_t axis = einsum.output.size(); axis-- > 0;) {
      const auto letter = static_cast<unsigned char>(einsum.output[axis]);
      for (size_t i = 0; i < operands; ++i) base[i] += steps[i][letter];
      if (++out_index[axis] < extents[letter]) break;
      for (size_t i = 0; i < operands; ++i) base[i] -= steps[i][letter] * extents[letter];
      out_index[axis] = 0;
    }
  }
}

template <class T>
hx_status* einsum(const KernelCall& call, const EinsumForm& einsum, size_t operands,
                  const LetterSteps& extents) {
  if (!is_product(einsum, operands)) {
    einsum_direct<T>(call, einsum, operands, extents);
    return nullptr;
  }
  using W = std::conditional_t<std::is_same_v<T, double>, double, float>;
  const Letters letters = classify(einsum);
  const int64_t batch = product_of(letters.batch, extents);
  const int64_t m = product_of(letters.m, extents);
  const int64_t n = product_of(letters.n, extents);
  const int64_t k = product_of(letters.k, extents);
  const GemmShape shape{m, n, k, k, n, n, false, false};
  if (k > 0 && !takes_small_path(shape) && !fits_blas(shape)) {
    return call.error(HX_INVALID_ARGUMENT,
                      "Einsum: a product of %lld x %lld by %lld x %lld exceeds the BLAS "
                      "interface's limit of %d",
                      static_cast<long long>(m), static_cast<long long>(k),
                      static_cast<long long>(k), static_cast<long long>(n), INT_MAX);
  }
  const std::string a_order = letters.batch + letters.m + letters.k;
  const std::string b_order = letters.batch + letters.k + letters.n;
  const std::string c_order = letters.batch + letters.m + letters.n;
  std::vector<W> a(static_cast<size_t>(batch * m * k));
  std::vector<W> b(static_cast<size_t>(batch * k * n));
  std::vector<W> c(static_cast<size_t>(batch * m * n), W(0));
  if (k > 0) {
    gather(input_data<T>(call.input(0)), view_steps(call.input(0), einsum.a), a_order, extents,
           a.data());
    gather(input_data<T>(call.input(1)), view_steps(call.input(1), einsum.b), b_order, extents,
           b.data());
    MatMulBatches plan;
    plan.gemm = shape;
    plan.count = batch;
    if (batch > 1) {
      plan.rank = 1;
      plan.shape[0] = batch;
      plan.a_step[0] = m * k;
      plan.b_step[0] = k * n;
      plan.c_step[0] = m * n;
    }
    products(plan, static_cast<const W*>(a.data()), static_cast<const W*>(b.data()), c.data());
  }
  gather(static_cast<const W*>(c.data()), dense_steps(c_order, extents), einsum.output, extents,
         output_data<T>(call.output(0)));
  return nullptr;
}

}  // namespace

hx_status* einsum_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const hxplugin::KernelCreate create(*args,
                                      *static_cast<const CpuPlugin*>(args->user_data)->services);
  const char* text = nullptr;
  size_t length = 0;
  if (hx_status* status = create.attr_string("equation", &text, &length)) return status;
  if (text == nullptr) {
    return create.error(HX_INVALID_ARGUMENT, "Einsum: missing required attribute 'equation'");
  }
  // Read per call, for the operands' ranks; a wrong equation is the core's to reject first.
  *out_instance = hxplugin::to_instance(new EinsumInstance{std::string(text, length)});
  return nullptr;
}

void einsum_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<EinsumInstance>(instance, user_data);
}

hx_status* einsum_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const EinsumInstance& instance = hxplugin::instance_of<EinsumInstance>(call.instance());
  const size_t operands = call.num_inputs();
  std::vector<int> ranks;
  for (size_t i = 0; i < operands; ++i) ranks.push_back(call.input(i).rank);
  const hxcommon::EinsumTerms terms = hxcommon::expand_einsum(instance.equation, ranks);
  if (!terms.error.empty() || operands < 1 || operands > 2) {
    return call.error(HX_INVALID_ARGUMENT, "Einsum: equation \"%s\" does not fit the call: %s",
                      instance.equation.c_str(),
                      terms.error.empty() ? "it takes one or two operands" : terms.error.c_str());
  }
  const EinsumForm einsum{terms.inputs[0], operands == 2 ? terms.inputs[1] : std::string(),
                          terms.output};
  LetterSteps extents(128, -1);
  for (size_t i = 0; i <= operands; ++i) {
    const hx_tensor_view& view = i < operands ? call.input(i) : call.output(0);
    const std::string& term = i < operands ? terms.inputs[i] : terms.output;
    bool fits = static_cast<size_t>(view.rank) == term.size() &&
                view.dtype == call.output(0).dtype;
    for (size_t axis = 0; fits && axis < term.size(); ++axis) {
      const unsigned char letter = static_cast<unsigned char>(term[axis]);
      fits = letter < 128 && (extents[letter] < 0 || extents[letter] == view.shape[axis]);
      if (fits) extents[letter] = view.shape[axis];
    }
    if (!fits) {
      return call.error(HX_INVALID_ARGUMENT,
                        "Einsum: the operands do not fit the equation \"%s\"",
                        instance.equation.c_str());
    }
  }
  if (element_count(call.output(0)) == 0) return nullptr;
  switch (call.output(0).dtype) {
    case HX_DTYPE_F32: return hxcpu::einsum<float>(call, einsum, operands, extents);
    case HX_DTYPE_F64: return hxcpu::einsum<double>(call, einsum, operands, extents);
    case HX_DTYPE_F16: return hxcpu::einsum<Half>(call, einsum, operands, extents);
    case HX_DTYPE_BF16: return hxcpu::einsum<BFloat16>(call, einsum, operands, extents);
    default:
      return call.error(HX_INVALID_ARGUMENT, "Einsum: the CPU kernel has no %s variant",
                        hx_dtype_name(call.output(0).dtype));
  }
}

}  // namespace hxcpu

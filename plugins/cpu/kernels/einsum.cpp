// Einsum of two operands as MatMul's GEMM products: each operand is gathered into the layout
// of a stack of matrices (a [batch, m, k], b [batch, k, n], letters of one kind merged, in
// float, or double for f64), multiplied by the GEMM of gemm_products.hpp, and the product
// [batch, m, n] is scattered to the output's letter order, rounded once. The gathers cost one
// pass over each operand, next to the product's batch * m * n * k. The equation is parsed at
// create; the core checked it against the shapes.
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
  std::string a, b, output;
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

Letters classify(const EinsumInstance& einsum) {
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

template <class T>
hx_status* einsum(const KernelCall& call, const EinsumInstance& einsum,
                  const LetterSteps& extents) {
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
  std::string equation(text, length);  // without the blanks ONNX allows around the terms
  equation.erase(std::remove_if(equation.begin(), equation.end(),
                                [](unsigned char c) { return std::isspace(c) != 0; }),
                 equation.end());
  const size_t arrow = equation.find("->");
  const std::string inputs = equation.substr(0, arrow);
  const size_t comma = inputs.find(',');
  if (comma == std::string::npos) {
    return create.error(HX_INVALID_ARGUMENT, "Einsum: equation \"%s\" has no second operand",
                        equation.c_str());
  }
  EinsumInstance einsum{inputs.substr(0, comma), inputs.substr(comma + 1), ""};
  if (arrow != std::string::npos) {
    einsum.output = equation.substr(arrow + 2);
  } else {  // the letters that occur once, in alphabetical order
    for (const char letter : einsum.a + einsum.b) {
      if (has(einsum.a, letter) != has(einsum.b, letter)) einsum.output += letter;
    }
    std::sort(einsum.output.begin(), einsum.output.end());
  }
  *out_instance = hxplugin::to_instance(new EinsumInstance(einsum));
  return nullptr;
}

void einsum_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<EinsumInstance>(instance, user_data);
}

hx_status* einsum_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const EinsumInstance& einsum = hxplugin::instance_of<EinsumInstance>(call.instance());
  const hx_tensor_view* views[] = {&call.input(0), &call.input(1), &call.output(0)};
  const std::string* terms[] = {&einsum.a, &einsum.b, &einsum.output};
  LetterSteps extents(128, -1);
  for (size_t i = 0; i < 3; ++i) {
    const hx_tensor_view& view = *views[i];
    bool fits = static_cast<size_t>(view.rank) == terms[i]->size() && view.dtype == views[2]->dtype;
    for (size_t axis = 0; fits && axis < terms[i]->size(); ++axis) {
      const unsigned char letter = static_cast<unsigned char>((*terms[i])[axis]);
      fits = letter < 128 && (extents[letter] < 0 || extents[letter] == view.shape[axis]);
      if (fits) extents[letter] = view.shape[axis];
    }
    if (!fits) {
      return call.error(HX_INVALID_ARGUMENT,
                        "Einsum: the operands do not fit the equation \"%s,%s->%s\"",
                        einsum.a.c_str(), einsum.b.c_str(), einsum.output.c_str());
    }
  }
  if (element_count(call.output(0)) == 0) return nullptr;
  switch (call.output(0).dtype) {
    case HX_DTYPE_F32: return hxcpu::einsum<float>(call, einsum, extents);
    case HX_DTYPE_F64: return hxcpu::einsum<double>(call, einsum, extents);
    case HX_DTYPE_F16: return hxcpu::einsum<Half>(call, einsum, extents);
    case HX_DTYPE_BF16: return hxcpu::einsum<BFloat16>(call, einsum, extents);
    default:
      return call.error(HX_INVALID_ARGUMENT, "Einsum: the CPU kernel has no %s variant",
                        hx_dtype_name(call.output(0).dtype));
  }
}

}  // namespace hxcpu

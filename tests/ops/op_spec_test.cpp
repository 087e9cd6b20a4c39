// Every core op's specification is complete, and true to shape inference: the dtypes it lists
// are the ones inference accepts, and the defaults it declares are the ones inference applies.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "builtin_op_calls.hpp"
#include "hxrt/error.hpp"
#include "hxrt/op_reference.hpp"
#include "ops/op_schema.hpp"

using hxrt::Attrs;
using hxrt::AttrValue;
using hxrt::DType;
using hxrt::OpArgInfo;
using hxrt::OpAttrInfo;
using hxrt::detail::OpSchema;
using hxrt::detail::TensorMeta;
using hxrt_test_ops::builtin_registry;
using hxrt_test_ops::builtin_schema;
using hxrt_test_ops::infer;
using hxrt_test_ops::meta;

namespace {

// One call of each core op that inference accepts, with its required attributes and as few
// optional ones as it can have (none, but for an op that needs one of two, as Resize needs
// scales or sizes): the first such of the op's reference cases (hxrt/op_reference.hpp), at
// the first dtype its T accepts. Their shapes are non-square, so that a wrong default (a
// transpose) would change the output.
struct SampleCall {
  std::vector<TensorMeta> inputs;  // the case's: the dtypes of inputs not typed T are kept
  Attrs attrs;
};

size_t optional_count(const OpSchema& schema, const Attrs& attrs) {
  return static_cast<size_t>(
      std::count_if(attrs.items().begin(), attrs.items().end(), [&](const auto& item) {
        return std::none_of(schema.attrs.begin(), schema.attrs.end(), [&](const OpAttrInfo& attr) {
          return attr.name == item.first && attr.required;
        });
      }));
}

// The first dtype T may be.
DType sample_dtype(const OpSchema& schema) {
  const std::vector<DType>& t = (schema.inputs.empty() ? schema.outputs : schema.inputs)[0].dtypes;
  REQUIRE_FALSE(t.empty());
  return t[0];
}

SampleCall sample_call(const OpSchema& schema) {
  const DType type = sample_dtype(schema);
  const std::vector<hxrt::ReferenceCase> cases =
      hxrt::reference_cases(schema.name, type, DType::kF16, 1);
  REQUIRE_FALSE(cases.empty());
  const auto fewest = std::min_element(
      cases.begin(), cases.end(), [&](const hxrt::ReferenceCase& a, const hxrt::ReferenceCase& b) {
        return optional_count(schema, a.attrs) < optional_count(schema, b.attrs);
      });
  SampleCall call{{}, fewest->attrs};
  for (const hxrt::ReferenceTensor& input : fewest->inputs) {
    call.inputs.push_back(meta(input.dtype, input.shape));
  }
  return call;
}

// Every core op with its sample call.
const std::map<std::string, SampleCall>& sample_calls() {
  static const std::map<std::string, SampleCall> calls = [] {
    std::map<std::string, SampleCall> all;
    for (const OpSchema* schema : builtin_registry().all()) {
      all.emplace(schema->name, sample_call(*schema));
    }
    return all;
  }();
  return calls;
}

// The call with `dtype` for every input typed T; the others (Gather's indices) as they were.
std::vector<TensorMeta> inputs_of(const std::string& op, const SampleCall& call, DType dtype) {
  const std::vector<OpArgInfo>& args = builtin_schema(op).inputs;
  std::vector<TensorMeta> inputs = call.inputs;
  for (size_t i = 0; i < inputs.size(); ++i) {
    // A variadic last argument stands for the rest.
    if (args[std::min(i, args.size() - 1)].type == "T") inputs[i].dtype = dtype;
  }
  return inputs;
}

bool accepts(const std::string& op, const SampleCall& call, DType dtype) {
  try {
    infer(op, inputs_of(op, call, dtype), call.attrs);
    return true;
  } catch (const hxrt::Error&) {
    return false;
  }
}

void check_arg(const OpArgInfo& arg) {
  INFO("argument " << arg.name);
  CHECK_FALSE(arg.name.empty());
  CHECK_FALSE(arg.type.empty());
  CHECK_FALSE(arg.dtypes.empty());
  CHECK_FALSE(arg.description.empty());
}

}  // namespace

TEST_CASE("every core op has a complete specification") {
  for (const OpSchema* schema : builtin_registry().all()) {
    INFO(schema->name);
    CHECK_FALSE(schema->summary.empty());
    CHECK_FALSE(schema->shape_rule.empty());
    // One entry per input a call may have (optional trailing inputs too); a variadic last
    // input stands for the rest.
    const bool variadic = !schema->inputs.empty() && schema->inputs.back().variadic;
    CHECK(static_cast<int>(schema->inputs.size()) == (variadic ? 1 : schema->max_inputs));
    CHECK((schema->max_inputs < 0) == variadic);
    // One entry per output; for an op whose calls decide how many, the last entry is variadic
    // and stands for the outputs from its place on (Split's parts, MaxPool's Indices).
    const bool decided = schema->output_count != nullptr;
    const int entries = static_cast<int>(schema->outputs.size());
    if (decided) {
      CHECK(entries >= 1);
      CHECK(entries <= schema->num_outputs);
    } else {
      CHECK(entries == schema->num_outputs);
    }
    CHECK(decided == (!schema->outputs.empty() && schema->outputs.back().variadic));
    for (const OpArgInfo& arg : schema->inputs) check_arg(arg);
    for (const OpArgInfo& arg : schema->outputs) check_arg(arg);
    for (const OpAttrInfo& attr : schema->attrs) {
      INFO("attribute " << attr.name);
      CHECK_FALSE(attr.name.empty());
      CHECK_FALSE(attr.description.empty());
      CHECK_FALSE((attr.required && attr.default_value));
      if (attr.default_value) CHECK(hxrt::attr_type_of(*attr.default_value) == attr.type);
    }
    // An op that broadcasts says so, and its reference cases broadcast.
    const std::vector<hxrt::ReferenceCase> cases =
        hxrt::reference_cases(schema->name, sample_dtype(*schema), DType::kF16, 1);
    CHECK(schema->broadcasts == std::any_of(cases.begin(), cases.end(), [](const auto& c) {
            return c.broadcast;
          }));
  }
}

TEST_CASE("the dtypes a spec lists for the inputs are the ones inference accepts") {
  for (const auto& entry : sample_calls()) {
    const OpSchema& schema = builtin_schema(entry.first);
    // The dtypes of the first input typed T, which inputs_of varies (Where's condition is
    // bool whatever T is).
    const auto typed = std::find_if(schema.inputs.begin(), schema.inputs.end(),
                                    [](const OpArgInfo& arg) { return arg.type == "T"; });
    if (typed == schema.inputs.end()) continue;
    for (DType dtype : hxrt::kAllDTypes) {
      INFO(entry.first << " with " << hxrt::dtype_name(dtype));
      const std::vector<DType>& listed = typed->dtypes;
      const bool in_spec = std::find(listed.begin(), listed.end(), dtype) != listed.end();
      CHECK(accepts(entry.first, entry.second, dtype) == in_spec);
    }
  }
}

TEST_CASE("the outputs' dtypes a spec lists are the ones inference gives") {
  for (const auto& entry : sample_calls()) {
    const OpSchema& schema = builtin_schema(entry.first);
    for (DType dtype : hxrt::kAllDTypes) {
      if (!accepts(entry.first, entry.second, dtype)) continue;
      const std::vector<TensorMeta> inputs = inputs_of(entry.first, entry.second, dtype);
      const std::vector<TensorMeta> outputs = hxrt_test_ops::infer_all(entry.first, inputs,
                                                                       entry.second.attrs);
      for (size_t i = 0; i < outputs.size(); ++i) {
        // A variadic last output stands for the rest.
        const OpArgInfo& arg = schema.outputs[std::min(i, schema.outputs.size() - 1)];
        const DType out = outputs[i].dtype;
        INFO(entry.first << " with " << hxrt::dtype_name(dtype) << " gives "
                         << hxrt::dtype_name(out) << " as output " << i << " (" << arg.name
                         << ")");
        CHECK(std::find(arg.dtypes.begin(), arg.dtypes.end(), out) != arg.dtypes.end());
      }
    }
  }
}

TEST_CASE("a declared default is what inference does when the attribute is absent") {
  for (const auto& entry : sample_calls()) {
    const OpSchema& schema = builtin_schema(entry.first);
    // At a dtype the op accepts: not every op takes float32 (And takes bool only).
    const std::vector<TensorMeta> inputs = inputs_of(entry.first, entry.second, sample_dtype(schema));
    const TensorMeta absent = infer(entry.first, inputs, entry.second.attrs);
    for (const OpAttrInfo& attr : schema.attrs) {
      if (!attr.default_value) continue;
      INFO(entry.first << " attribute " << attr.name);
      Attrs given = entry.second.attrs;
      given.set(attr.name, *attr.default_value);
      const TensorMeta present = infer(entry.first, inputs, given);
      // Sum's keep_dims, MatMul's transposes and Fill's dtype each change this call's result
      // when set to anything but their true default.
      CHECK(present.dtype == absent.dtype);
      CHECK(present.shape == absent.shape);
    }
  }
}

TEST_CASE("required attributes are required by inference") {
  for (const auto& entry : sample_calls()) {
    const OpSchema& schema = builtin_schema(entry.first);
    for (const OpAttrInfo& attr : schema.attrs) {
      if (!attr.required) continue;
      INFO(entry.first << " attribute " << attr.name);
      Attrs without;
      for (const auto& item : entry.second.attrs.items()) {
        if (item.first != attr.name) without.set(item.first, item.second);
      }
      const std::vector<TensorMeta> inputs = inputs_of(entry.first, entry.second, sample_dtype(schema));
      CHECK_THROWS_WITH(infer(entry.first, inputs, without),
                        Catch::Contains("missing required attribute '" + attr.name + "'"));
    }
  }
}

// An op whose extents are known at run expects what its kernel reports, within the bounds
// shape inference gives, which its cases name (ReferenceCase::output_bounds).
TEST_CASE("every reference case expects the outputs shape inference gives for its call") {
  for (const OpSchema* schema : builtin_registry().all()) {
    for (DType type : (schema->inputs.empty() ? schema->outputs : schema->inputs)[0].dtypes) {
      for (const hxrt::ReferenceCase& c :
           hxrt::reference_cases(schema->name, type, DType::kF16, 3)) {
        std::vector<TensorMeta> inputs;
        for (const hxrt::ReferenceTensor& input : c.inputs) {
          inputs.push_back(meta(input.dtype, input.shape));
        }
        const std::vector<TensorMeta> inferred =
            hxrt_test_ops::infer_all(schema->name, inputs, c.attrs);
        const std::vector<const hxrt::ReferenceTensor*> expected = hxrt::expected_outputs(c);
        INFO(schema->name << " on " << hxrt::dtype_name(type) << ", first input "
                          << (inputs.empty() ? std::string("none")
                                             : inputs[0].shape.to_string()));
        REQUIRE(expected.size() == inferred.size());
        CHECK(c.output_bounds.size() == (schema->extents_at_run ? expected.size() : 0));
        for (size_t i = 0; i < expected.size(); ++i) {
          INFO("output " << i);
          CHECK(expected[i]->dtype == inferred[i].dtype);
          if (!schema->extents_at_run) {
            CHECK(expected[i]->shape == inferred[i].shape);
            continue;
          }
          const hxrt::Shape& bound = c.output_bounds[i];
          CHECK(bound == inferred[i].shape);
          REQUIRE(expected[i]->shape.rank() == bound.rank());
          for (int d = 0; d < bound.rank(); ++d) CHECK(expected[i]->shape[d] <= bound[d]);
        }
      }
    }
  }
}

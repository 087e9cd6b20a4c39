#include <algorithm>
#include <cstdint>
#include <string>

#include "hxrt/error.hpp"
#include "base/logger.hpp"
#include "base/plugin_identity.hpp"
#include "ops/op_schema.hpp"

namespace hxrt::detail {

namespace {

std::string count_of_inputs(int n) {
  return std::to_string(n) + (n == 1 ? " input" : " inputs");
}

std::string expected_arity(const OpSchema& schema) {
  if (schema.max_inputs == schema.min_inputs) return count_of_inputs(schema.min_inputs);
  if (schema.max_inputs < 0) return "at least " + count_of_inputs(schema.min_inputs);
  return "between " + std::to_string(schema.min_inputs) + " and " +
         count_of_inputs(schema.max_inputs);
}

std::string owner_phrase(const std::string& owner) {
  return owner.empty() ? "the core" : "plugin '" + owner + "'";
}

// An attribute that carries T or the outputs' dtype must be declared as a dtype, and one that
// carries T needs a default or must be required, so that every call has a T.
void check_dtype_attribute(const OpSchema& schema, const std::string& who,
                           const std::string& name, const char* role) {
  for (const OpAttrInfo& attr : schema.attrs) {
    if (attr.name != name) continue;
    const bool has_dtype_default =
        attr.default_value && attr_type_of(*attr.default_value) == AttrType::kDType;
    if (attr.type == AttrType::kDType && (attr.required || has_dtype_default)) return;
    throw Error(StatusCode::kInvalidArgument,
                who + ": attribute '" + name + "' carries " + role +
                    ", so it must be a dtype attribute that is required or has a dtype "
                    "default");
  }
  throw Error(StatusCode::kInvalidArgument,
              who + ": " + role + " is carried by attribute '" + name +
                  "', which the op does not declare");
}

void check_type_parameter(const OpSchema& schema, const std::string& who) {
  const TypeParameter& t = schema.type_parameter;
  if (t.source == TypeParameter::Source::kInput &&
      (t.input < 0 || t.input >= schema.min_inputs)) {
    const std::string expected =
        schema.min_inputs == 0
            ? "the op may be called without inputs, so T must come from its first output "
              "(type_input -1)"
            : "expected 0 to " + std::to_string(schema.min_inputs - 1) +
                  " (an input every call has), or -1 for T from the first output";
    throw Error(StatusCode::kInvalidArgument,
                who + ": type_input " + std::to_string(t.input) + " is not an input every " +
                    "call has; " + expected);
  }
  if (t.source == TypeParameter::Source::kAttribute) {
    check_dtype_attribute(schema, who, t.attribute, "T");
  }
  if (!t.output_dtype_attribute.empty()) {
    check_dtype_attribute(schema, who, t.output_dtype_attribute, "the outputs' dtype");
  }
}

void check_schema(const OpSchema& schema) {
  // A custom op's name comes from a plugin and is quoted before its form is checked.
  const std::string who = "op '" + printable(schema.name) + "' from " + owner_phrase(schema.owner);
  check_op_name(schema.name, who);
  if (schema.min_inputs < 0 || schema.max_inputs < -1 ||
      (schema.max_inputs >= 0 && schema.max_inputs < schema.min_inputs)) {
    throw Error(StatusCode::kInvalidArgument,
                who + ": min_inputs " + std::to_string(schema.min_inputs) + " and max_inputs " +
                    std::to_string(schema.max_inputs) +
                    " are not an arity; expected 0 <= min_inputs <= max_inputs, or max_inputs "
                    "= -1 for no upper bound");
  }
  if (schema.num_outputs < 1 || schema.num_outputs > kMaxOutputs) {
    throw Error(StatusCode::kInvalidArgument,
                who + ": num_outputs is " + std::to_string(schema.num_outputs) +
                    "; an op has 1 to " + std::to_string(kMaxOutputs) + " outputs");
  }
  if (!schema.infer) {
    throw Error(StatusCode::kInvalidArgument, who + ": it has no shape-inference function");
  }
  check_type_parameter(schema, who);
}

bool name_less(const OpSchema& schema, const std::string& name) { return schema.name < name; }

// A name's length and its first, middle and last characters, mixed: op names differ there
// (custom ops that share a prefix differ at the end), and reading three bytes costs a few
// instructions where hashing a whole name costs tens. Names alike there only probe further.
uint64_t name_key(std::string_view name) {
  const size_t size = name.size();
  if (size == 0) return 0;
  const auto byte = [&](size_t i) { return uint64_t{static_cast<unsigned char>(name[i])}; };
  const uint64_t key = (size | byte(0) << 8 | byte(size / 2) << 16 | byte(size - 1) << 24) *
                       0x9e3779b97f4a7c15ull;
  return key >> 32;
}

}  // namespace

void infer_outputs(const OpSchema& schema, const InferContext& call, TensorMeta* outputs) {
  const auto given = static_cast<long long>(call.num_inputs);
  if (given < schema.min_inputs || (schema.max_inputs >= 0 && given > schema.max_inputs)) {
    throw Error(StatusCode::kInvalidArgument,
                schema.name + " expects " + expected_arity(schema) + ", got " +
                    std::to_string(given));
  }
  const InferContext full{call.op, call.inputs, call.num_inputs, call.attrs, &schema,
                          num_outputs_of(schema, call.attrs, call.num_inputs)};
  schema.infer(full, outputs);
  check_outputs(full, outputs);
}

int num_outputs_of(const OpSchema& schema, const Attrs& attrs, size_t num_inputs) {
  if (schema.output_count == nullptr) return schema.num_outputs;
  const int count = schema.output_count(schema.name, attrs, num_inputs);
  if (count < 1 || count > schema.num_outputs) {
    throw Error(StatusCode::kInvalidArgument,
                schema.name + ": the call asks for " + std::to_string(count) +
                    " outputs; it may have 1 to " + std::to_string(schema.num_outputs));
  }
  return count;
}

void OpRegistry::add(OpSchema schema) {
  check_schema(schema);
  const auto at = std::lower_bound(schemas_.begin(), schemas_.end(), schema.name, name_less);
  if (at != schemas_.end() && at->name == schema.name) {
    throw Error(StatusCode::kAlreadyExists,
                "op '" + schema.name + "' from " + owner_phrase(schema.owner) +
                    " is already registered by " + owner_phrase(at->owner) +
                    "; a custom op needs a name of its own");
  }
  schemas_.insert(at, std::move(schema));
  index_names();
}

const OpSchema* OpRegistry::find(std::string_view name) const {
  if (name_index_.empty()) return nullptr;
  const size_t mask = name_index_.size() - 1;
  for (size_t i = name_key(name) & mask;; i = (i + 1) & mask) {  // ends: a slot is empty
    const uint32_t entry = name_index_[i];
    if (entry == 0) return nullptr;
    const OpSchema& schema = schemas_[entry - 1];
    if (schema.name == name) return &schema;
  }
}

void OpRegistry::index_names() {
  size_t capacity = 16;
  while (capacity < 2 * schemas_.size()) capacity *= 2;
  name_index_.assign(capacity, 0);
  const size_t mask = capacity - 1;
  for (size_t s = 0; s < schemas_.size(); ++s) {
    size_t i = name_key(schemas_[s].name) & mask;
    while (name_index_[i] != 0) i = (i + 1) & mask;
    name_index_[i] = static_cast<uint32_t>(s + 1);
  }
}

std::vector<const OpSchema*> OpRegistry::all() const {
  std::vector<const OpSchema*> out;
  out.reserve(schemas_.size());
  for (const OpSchema& schema : schemas_) out.push_back(&schema);
  return out;
}

}  // namespace hxrt::detail

#include "ops_report.hpp"

#include <string>

#include "hxrt/printable.hpp"

namespace hxrt_info {
namespace {

using hxrt::OpArgInfo;
using hxrt::OpAttrInfo;
using hxrt::OpInfo;
using hxrt::TypeParameter;

std::string dtype_list(const std::vector<hxrt::DType>& dtypes) {
  std::string names;
  for (hxrt::DType dtype : dtypes) {
    if (!names.empty()) names += ", ";
    names += hxrt::dtype_name(dtype);
  }
  return names;
}

std::string arity(const OpInfo& op) {
  const std::string plural = op.max_inputs == 1 ? " input" : " inputs";
  if (op.max_inputs < 0) return std::to_string(op.min_inputs) + " or more inputs";
  if (op.max_inputs == op.min_inputs) return std::to_string(op.min_inputs) + plural;
  return std::to_string(op.min_inputs) + " to " + std::to_string(op.max_inputs) + plural;
}

// "1 output", "3 outputs", or for an op whose calls decide how many (its last output
// variadic) "1 to 64 outputs".
std::string outputs_text(const OpInfo& op) {
  const std::string plural = op.num_outputs == 1 ? " output" : " outputs";
  if (!op.outputs.empty() && op.outputs.back().variadic && op.num_outputs > 1) {
    return std::to_string(op.outputs.size()) + " to " + std::to_string(op.num_outputs) + plural;
  }
  return std::to_string(op.num_outputs) + plural;
}

// "input 0 (a)", "attribute dtype", "output 0".
std::string type_parameter_text(const OpInfo& op) {
  const TypeParameter& t = op.type_parameter;
  std::string text;
  switch (t.source) {
    case TypeParameter::Source::kInput: {
      text = "the dtype of input " + std::to_string(t.input);
      const auto index = static_cast<size_t>(t.input);
      if (index < op.inputs.size()) text += " (" + op.inputs[index].name + ")";
      break;
    }
    case TypeParameter::Source::kAttribute:
      text = "the value of attribute " + t.attribute;
      for (const OpAttrInfo& attr : op.attrs) {
        if (attr.name == t.attribute && attr.default_value) {
          text += " (default " + hxrt::attr_value_to_string(*attr.default_value) + ")";
        }
      }
      break;
    case TypeParameter::Source::kOutput:
      text = "the dtype of output 0";
      break;
  }
  if (!t.output_dtype_attribute.empty()) {
    text += "; the outputs' dtype is attribute " + t.output_dtype_attribute +
            " (kernels list the output dtypes they accept)";
  }
  return text;
}

std::string default_text(const OpAttrInfo& attr) {
  if (attr.required) return "required";
  if (attr.default_value) return "default " + hxrt::attr_value_to_string(*attr.default_value);
  return "optional";
}

const char* const kBroadcastText =
    "inputs broadcast as in NumPy; kernels receive them at the output's shape, with stride 0 "
    "where an input repeats";

const char* const kExtentsAtRunText =
    "the outputs' extents depend on the inputs' values: outputs come with the most they may "
    "hold, and compute writes the actual extents to hx_kernel_args.output_extents (ABI 2.8)";

void print_args_text(std::ostream& out, const char* title, const std::vector<OpArgInfo>& args) {
  if (args.empty()) return;
  out << "  " << title << ":\n";
  for (const OpArgInfo& arg : args) {
    out << "    " << arg.name << (arg.variadic ? "..." : "") << ": " << arg.type << " in {"
        << dtype_list(arg.dtypes) << "}: " << arg.description << '\n';
  }
}

// "Relu, versions 14" / "Sum, versions 13": the ONNX op a model's node of which runs as this
// one, and the versions of it that do.
std::string onnx_text(const OpInfo& op) {
  std::string versions;
  for (int version : op.onnx_versions) {
    versions += (versions.empty() ? "" : ", ") + std::to_string(version);
  }
  return op.onnx_op + ", versions " + versions;
}

void print_op_text(std::ostream& out, const OpInfo& op) {
  out << hxrt::printable(op.name) << " (" << hxrt::printable(op.owner) << ", " << arity(op)
      << ", " << outputs_text(op) << ")\n";
  out << "  " << (op.summary.empty() ? "(no summary)" : hxrt::printable(op.summary)) << '\n';
  out << "  T: " << type_parameter_text(op) << '\n';
  print_args_text(out, "inputs", op.inputs);
  print_args_text(out, "outputs", op.outputs);
  if (!op.attrs.empty()) {
    out << "  attributes:\n";
    for (const OpAttrInfo& attr : op.attrs) {
      out << "    " << attr.name << ": " << hxrt::attr_type_name(attr.type) << ", "
          << default_text(attr) << ": " << attr.description << '\n';
    }
  }
  if (op.broadcasts) out << "  broadcasting: " << kBroadcastText << '\n';
  if (op.extents_at_run) out << "  extents_at_run: " << kExtentsAtRunText << '\n';
  if (!op.shape_rule.empty()) out << "  shape: " << op.shape_rule << '\n';
  if (!op.onnx_op.empty()) out << "  ONNX: " << onnx_text(op) << '\n';
  out << "  kernels:";
  if (op.kernels.empty()) out << " none";
  for (size_t i = 0; i < op.kernels.size(); ++i) {
    out << (i == 0 ? " " : "; ") << op.kernels[i].device_type << " ("
        << dtype_list(op.kernels[i].dtypes) << ")";
  }
  out << '\n';
}

// A table cell: a '|' would end the cell, a line break the row.
std::string cell(const std::string& text) {
  std::string out;
  for (char c : hxrt::printable(text)) {
    if (c == '|') {
      out += "\\|";
    } else {
      out += c;
    }
  }
  return out;
}

void print_args_markdown(std::ostream& out, const char* title,
                         const std::vector<OpArgInfo>& args) {
  if (args.empty()) return;
  out << "\n" << title << ":\n\n| name | type | dtypes | description |\n| --- | --- | --- | --- |\n";
  for (const OpArgInfo& arg : args) {
    out << "| `" << cell(arg.name) << (arg.variadic ? "...`" : "`") << " | " << cell(arg.type)
        << " | " << dtype_list(arg.dtypes) << " | " << cell(arg.description) << " |\n";
  }
}

void print_op_markdown(std::ostream& out, const OpInfo& op) {
  out << "\n## " << hxrt::printable(op.name) << "\n\n";
  if (!op.summary.empty()) out << hxrt::printable(op.summary) << "\n\n";
  out << "- Owner: " << hxrt::printable(op.owner) << "\n";
  out << "- Arity: " << arity(op) << ", " << outputs_text(op) << "\n";
  out << "- T: " << type_parameter_text(op) << "\n";
  if (op.broadcasts) out << "- Broadcasting: " << kBroadcastText << "\n";
  if (op.extents_at_run) out << "- Extents at run: " << kExtentsAtRunText << "\n";
  if (!op.onnx_op.empty()) out << "- ONNX: " << onnx_text(op) << "\n";
  print_args_markdown(out, "Inputs", op.inputs);
  print_args_markdown(out, "Outputs", op.outputs);
  if (!op.attrs.empty()) {
    out << "\nAttributes:\n\n| name | type | default | description |\n"
           "| --- | --- | --- | --- |\n";
    for (const OpAttrInfo& attr : op.attrs) {
      out << "| `" << cell(attr.name) << "` | " << hxrt::attr_type_name(attr.type) << " | "
          << cell(default_text(attr)) << " | " << cell(attr.description) << " |\n";
    }
  }
  if (!op.shape_rule.empty()) out << "\nShape: " << op.shape_rule << "\n";
}

nlohmann::ordered_json args_json(const std::vector<OpArgInfo>& args) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const OpArgInfo& arg : args) {
    nlohmann::ordered_json dtypes = nlohmann::ordered_json::array();
    for (hxrt::DType dtype : arg.dtypes) dtypes.push_back(hxrt::dtype_name(dtype));
    out.push_back({{"name", arg.name},
                   {"type", arg.type},
                   {"dtypes", dtypes},
                   {"variadic", arg.variadic},
                   {"description", arg.description}});
  }
  return out;
}

nlohmann::ordered_json type_parameter_json(const TypeParameter& t) {
  switch (t.source) {
    case TypeParameter::Source::kInput:
      return {{"input", t.input}};
    case TypeParameter::Source::kAttribute:
      return {{"attribute", t.attribute}};
    case TypeParameter::Source::kOutput:
      break;
  }
  return {{"output", 0}};
}

}  // namespace

void print_ops_text(std::ostream& out, const std::vector<OpInfo>& ops) {
  out << "Ops: " << ops.size() << " (T is the dtype kernels are registered for)\n";
  for (const OpInfo& op : ops) {
    out << '\n';
    print_op_text(out, op);
  }
}

void print_ops_markdown(std::ostream& out, const std::vector<OpInfo>& ops) {
  out << "# hxrt ops reference\n\n"
         "Every op of the hxrt core: what it computes, its inputs and outputs with the dtypes "
         "they may have, its attributes with their types and defaults, its shape rule, and "
         "its type parameter T, the dtype a kernel registers for (hx_kernel_def.dtypes in "
         "<hxrt/plugin_api.h>). Generated from the op schemas; `hxrt-info --ops` prints the "
         "same for the ops of a running installation, plugins' custom ops included, with the "
         "kernels each device type has.\n";
  for (const OpInfo& op : ops) print_op_markdown(out, op);
}

nlohmann::ordered_json ops_json(const std::vector<OpInfo>& ops) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const OpInfo& op : ops) {
    nlohmann::ordered_json attrs = nlohmann::ordered_json::array();
    for (const OpAttrInfo& attr : op.attrs) {
      attrs.push_back({{"name", attr.name},
                       {"type", hxrt::attr_type_name(attr.type)},
                       {"required", attr.required},
                       {"default", attr.default_value
                                       ? nlohmann::ordered_json(
                                             hxrt::attr_value_to_string(*attr.default_value))
                                       : nlohmann::ordered_json(nullptr)},
                       {"description", attr.description}});
    }
    nlohmann::ordered_json kernels = nlohmann::ordered_json::object();
    for (const hxrt::OpKernelInfo& kernel : op.kernels) {
      nlohmann::ordered_json dtypes = nlohmann::ordered_json::array();
      for (hxrt::DType dtype : kernel.dtypes) dtypes.push_back(hxrt::dtype_name(dtype));
      kernels[kernel.device_type] = dtypes;
    }
    nlohmann::ordered_json t = type_parameter_json(op.type_parameter);
    if (!op.type_parameter.output_dtype_attribute.empty()) {
      t["output_dtype_attribute"] = op.type_parameter.output_dtype_attribute;
    }
    out.push_back({{"name", op.name},
                   {"owner", op.owner},
                   {"summary", op.summary},
                   {"min_inputs", op.min_inputs},
                   {"max_inputs", op.max_inputs},
                   {"num_outputs", op.num_outputs},
                   {"type_parameter", t},
                   {"broadcasts", op.broadcasts},
                   {"extents_at_run", op.extents_at_run},
                   {"inputs", args_json(op.inputs)},
                   {"outputs", args_json(op.outputs)},
                   {"attributes", attrs},
                   {"shape_rule", op.shape_rule},
                   {"onnx", {{"op", op.onnx_op}, {"versions", op.onnx_versions}}},
                   {"kernels", kernels}});
  }
  return out;
}

}  // namespace hxrt_info

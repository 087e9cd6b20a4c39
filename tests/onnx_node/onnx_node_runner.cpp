// ONNX's backend node tests (onnx/backend/test/data/node/<case>/, from the pinned `onnx` package)
// run through Runtime::load_onnx on one device: each case's model with the inputs of each of
// its data sets, its outputs compared with the expected ones at the suite's tolerances
// (onnx.backend.test: rtol 1e-3, atol 1e-7). Prints a table per op (cases, passed, failed, not
// supported) and every case that did not pass, with why.
//
//   onnx_node_runner DATA_DIR [--device /CPU:0] [--expected FILE] [--table FILE] [--only NAME]
//                    [--write-expected FILE]
//
// --expected lists the cases known not to pass, one per line ("test_x  reason"): the run fails
// when a case outside it does not pass, or a case in it passes (so that the list stays true).
// --table writes the per-op table as Markdown (docs/onnx-conformance.md). --write-expected
// writes the list of this run's cases that do not pass, with why: the list, once each reason
// has been read.
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "hxcommon/element_values.hpp"
#include "hxrt/hxrt.hpp"

namespace fs = std::filesystem;

namespace {

enum class Outcome { kPassed, kFailed, kNotSupported };

struct CaseResult {
  std::string name;
  std::string op;
  Outcome outcome = Outcome::kPassed;
  std::string why;
};

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The first line of an error: enough to tell cases apart in a table.
std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  if (line.size() > 300) line = line.substr(0, 297) + "...";
  return line;
}

std::optional<hxrt::DType> dtype_of(int32_t type) {
  switch (type) {
    case onnx::TensorProto::FLOAT: return hxrt::DType::kF32;
    case onnx::TensorProto::DOUBLE: return hxrt::DType::kF64;
    case onnx::TensorProto::FLOAT16: return hxrt::DType::kF16;
    case onnx::TensorProto::BFLOAT16: return hxrt::DType::kBF16;
    case onnx::TensorProto::INT32: return hxrt::DType::kI32;
    case onnx::TensorProto::INT64: return hxrt::DType::kI64;
    case onnx::TensorProto::BOOL: return hxrt::DType::kBool;
    case onnx::TensorProto::INT8: return hxrt::DType::kI8;
    case onnx::TensorProto::UINT8: return hxrt::DType::kU8;
    case onnx::TensorProto::INT16: return hxrt::DType::kI16;
    case onnx::TensorProto::UINT16: return hxrt::DType::kU16;
    case onnx::TensorProto::UINT32: return hxrt::DType::kU32;
    case onnx::TensorProto::UINT64: return hxrt::DType::kU64;
    // The 8-bit floats, element types 17 to 20 of onnx 1.14 (Debian's library is older).
    case 17: return hxrt::DType::kF8E4M3FN;
    case 18: return hxrt::DType::kF8E4M3FNUZ;
    case 19: return hxrt::DType::kF8E5M2;
    case 20: return hxrt::DType::kF8E5M2FNUZ;
    default: return std::nullopt;
  }
}

// ONNX's name of an element type; the enum of Debian's onnx 1.12 ends before the 8-bit floats
// and the 4-bit integers (17 to 22).
std::string onnx_type_name(int32_t type) {
  if (onnx::TensorProto::DataType_IsValid(type)) {
    return onnx::TensorProto::DataType_Name(static_cast<onnx::TensorProto::DataType>(type));
  }
  static const char* const kNewer[] = {"FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2",
                                       "FLOAT8E5M2FNUZ", "UINT4", "INT4"};
  if (type >= 17 && type <= 22) return kNewer[type - 17];
  return std::to_string(type);
}

// A data set's tensor: its dtype, shape and bytes in hxrt's layout. The node tests store
// every tensor as raw_data or in the typed field of its type.
struct Data {
  hxrt::DType dtype = hxrt::DType::kF32;
  hxrt::Shape shape;
  std::string bytes;
};

// `declared`: the ONNX element type the model gives the tensor. The node tests store the data of
// a bfloat16 tensor as UINT16, bf16's bits (NumPy has no bfloat16), which is read as bf16.
std::optional<Data> read_data(const fs::path& file, int32_t declared, std::string& why) {
  onnx::TensorProto proto;
  if (!proto.ParseFromString(read_file(file))) {
    why = "cannot parse " + file.filename().string();
    return std::nullopt;
  }
  if (proto.data_type() == onnx::TensorProto::UINT16 && declared == onnx::TensorProto::BFLOAT16) {
    proto.set_data_type(onnx::TensorProto::BFLOAT16);
  }
  const std::optional<hxrt::DType> dtype = dtype_of(proto.data_type());
  if (!dtype) {
    why = "its data is of ONNX element type " + onnx_type_name(proto.data_type()) +
          ", which hxrt has no dtype for";
    return std::nullopt;
  }
  Data data;
  data.dtype = *dtype;
  try {
    data.shape = hxrt::Shape(std::vector<int64_t>(proto.dims().begin(), proto.dims().end()));
  } catch (const hxrt::Error&) {
    why = file.filename().string() + " is not a tensor (a sequence or map?)";
    return std::nullopt;
  }
  // A file that is not a tensor (a sequence) parses as one with any dims: no allocation of a
  // size nobody checked (AddressSanitizer aborts on one).
  if (hxrt::tensor_bytes(data.dtype, data.shape) > (size_t{1} << 30)) {
    why = file.filename().string() + " is not a tensor of a size the node tests hold";
    return std::nullopt;
  }
  const size_t count = static_cast<size_t>(data.shape.num_elements());
  const auto put = [&](const auto& field, auto element) {
    using Element = decltype(element);
    data.bytes.resize(count * sizeof(Element));
    for (size_t i = 0; i < count && i < static_cast<size_t>(field.size()); ++i) {
      const auto value = static_cast<Element>(field.Get(static_cast<int>(i)));
      std::memcpy(&data.bytes[i * sizeof(Element)], &value, sizeof(Element));
    }
  };
  if (proto.has_raw_data()) {
    data.bytes = proto.raw_data();
  } else if (data.dtype == hxrt::DType::kF32) {
    put(proto.float_data(), float{});
  } else if (data.dtype == hxrt::DType::kF64) {
    put(proto.double_data(), double{});
  } else if (data.dtype == hxrt::DType::kI64) {
    put(proto.int64_data(), int64_t{});
  } else if (data.dtype == hxrt::DType::kI32) {
    put(proto.int32_data(), int32_t{});
  } else if (data.dtype == hxrt::DType::kBool) {
    put(proto.int32_data(), bool{});
  } else if (data.dtype == hxrt::DType::kI8) {
    put(proto.int32_data(), int8_t{});
  } else if (data.dtype == hxrt::DType::kU8) {
    put(proto.int32_data(), uint8_t{});
  } else if (data.dtype == hxrt::DType::kI16) {
    put(proto.int32_data(), int16_t{});
  } else if (data.dtype == hxrt::DType::kU32) {
    put(proto.uint64_data(), uint32_t{});
  } else if (data.dtype == hxrt::DType::kU64) {
    put(proto.uint64_data(), uint64_t{});
  } else if (hxrt::is_float8(data.dtype)) {
    put(proto.int32_data(), uint8_t{});
  } else {  // f16, bf16 and uint16: int32_data holds each element's 16 bits
    put(proto.int32_data(), uint16_t{});
  }
  if (data.bytes.size() != hxrt::tensor_bytes(data.dtype, data.shape)) {
    why = file.filename().string() + " holds " + std::to_string(data.bytes.size()) +
          " bytes for shape " + data.shape.to_string();
    return std::nullopt;
  }
  return data;
}

double element(const std::string& bytes, hxrt::DType dtype, size_t i) {
  return hxcommon::element_to_double(bytes.data(), static_cast<int32_t>(dtype), i);
}

// "" when `got` matches `expected` at the suite's tolerances, else what differs.
std::string compare(const hxrt::Tensor& got, const Data& expected, const std::string& name) {
  if (got.dtype() != expected.dtype) {
    return "output '" + name + "' is " + hxrt::dtype_name(got.dtype()) + ", expected " +
           hxrt::dtype_name(expected.dtype);
  }
  if (got.shape() != expected.shape) {
    return "output '" + name + "' has shape " + got.shape().to_string() + ", expected " +
           expected.shape.to_string();
  }
  std::string bytes(got.byte_size(), '\0');
  got.copy_to_host(bytes.data(), bytes.size());
  const bool exact = !hxrt::is_floating(got.dtype());
  for (size_t i = 0; i < static_cast<size_t>(expected.shape.num_elements()); ++i) {
    const double a = element(bytes, got.dtype(), i);
    const double b = element(expected.bytes, expected.dtype, i);
    const bool same = exact ? a == b
                      : std::isnan(b) ? std::isnan(a)
                                      : (a == b || std::fabs(a - b) <= 1e-7 + 1e-3 * std::fabs(b));
    if (!same) {
      std::ostringstream text;
      text.precision(9);
      text << "output '" << name << "' element " << i << " is " << a << ", expected " << b;
      return text.str();
    }
  }
  return "";
}

CaseResult run_case(hxrt::Runtime& rt, const fs::path& dir, const std::string& device) {
  CaseResult result;
  result.name = dir.filename().string();
  onnx::ModelProto model;
  const std::string bytes = read_file(dir / "model.onnx");
  model.ParseFromString(bytes);
  result.op = model.graph().node_size() > 0 ? model.graph().node(0).op_type() : "?";
  std::set<std::string> initializers;
  for (const auto& initializer : model.graph().initializer()) {
    initializers.insert(initializer.name());
  }
  std::vector<std::string> input_names;
  std::vector<int32_t> input_types;  // ONNX element types, as the model declares them
  for (const auto& input : model.graph().input()) {
    if (initializers.count(input.name()) == 0) {
      input_names.push_back(input.name());
      input_types.push_back(input.type().tensor_type().elem_type());
    }
  }
  std::vector<fs::path> data_sets;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    if (entry.is_directory() && entry.path().filename().string().rfind("test_data_set_", 0) == 0) {
      data_sets.push_back(entry.path());
    }
  }
  std::sort(data_sets.begin(), data_sets.end());
  for (const fs::path& set : data_sets) {
    hxrt::OnnxLoadOptions options;
    std::map<std::string, hxrt::Tensor> feeds;
    std::vector<Data> inputs;
    for (size_t i = 0; i < input_names.size(); ++i) {
      const fs::path file = set / ("input_" + std::to_string(i) + ".pb");
      if (!fs::exists(file)) break;  // an optional input left out
      std::string why;
      const std::optional<Data> data = read_data(file, input_types[i], why);
      if (!data) {
        result.outcome = Outcome::kNotSupported;
        result.why = "input " + std::to_string(i) + ": " + why;
        return result;
      }
      options.input_shapes[input_names[i]] = data->shape;
      // Known at load too, for the nodes that take an input as an attribute (a Reshape's
      // shape): the node tests feed those as inputs, where models hold initializers.
      options.input_values[input_names[i]] =
          rt.from_host(data->dtype, data->shape, data->bytes.data(), data->bytes.size(), device);
      inputs.push_back(*data);
    }
    try {
      const hxrt::OnnxModel loaded = rt.load_onnx(bytes.data(), bytes.size(), options);
      for (size_t i = 0; i < inputs.size() && i < loaded.inputs.size(); ++i) {
        feeds[loaded.inputs[i]] = rt.from_host(inputs[i].dtype, inputs[i].shape,
                                               inputs[i].bytes.data(), inputs[i].bytes.size(),
                                               device);
      }
      const hxrt::Executable exe = rt.compile(loaded.graph, loaded.outputs);
      // Only what the fetches read: an input whose shape alone was used (Shape, Size) is
      // needed at load, not at run time.
      std::map<std::string, hxrt::Tensor> needed;
      for (const std::string& input : exe.inputs()) needed[input] = feeds.at(input);
      const std::vector<hxrt::Tensor> outputs = exe.run(needed);
      for (size_t k = 0; k < outputs.size(); ++k) {
        std::string why;
        const int32_t declared =
            static_cast<int>(k) < model.graph().output_size()
                ? model.graph().output(static_cast<int>(k)).type().tensor_type().elem_type()
                : 0;
        const std::optional<Data> expected =
            read_data(set / ("output_" + std::to_string(k) + ".pb"), declared, why);
        if (!expected) {
          result.outcome = Outcome::kNotSupported;
          result.why = "output " + std::to_string(k) + ": " + why;
          return result;
        }
        const std::string differs = compare(outputs[k], *expected, loaded.output_names[k]);
        if (!differs.empty()) {
          result.outcome = Outcome::kFailed;
          result.why = set.filename().string() + ": " + differs;
          return result;
        }
      }
    } catch (const hxrt::Error& error) {
      // Refused at load: a version, attribute or dtype hxrt does not implement. Anything
      // later is a failure of what it claims to run.
      const std::string message = error.what();
      const bool at_load = message.rfind("model (", 0) == 0;
      result.outcome = at_load ? Outcome::kNotSupported : Outcome::kFailed;
      result.why = first_line(message);
      return result;
    }
  }
  return result;
}

const char* outcome_name(Outcome outcome) {
  switch (outcome) {
    case Outcome::kPassed: return "passed";
    case Outcome::kFailed: return "failed";
    case Outcome::kNotSupported: return "not supported";
  }
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: onnx_node_runner DATA_DIR [--device D] [--expected FILE] "
                 "[--table FILE] [--only NAME]\n";
    return 2;
  }
  const fs::path data_dir = argv[1];
  std::string device = "/CPU:0";
  std::string expected_file;
  std::string table_file;
  std::string only;
  std::string write_expected;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--device") device = argv[i + 1];
    if (flag == "--expected") expected_file = argv[i + 1];
    if (flag == "--table") table_file = argv[i + 1];
    if (flag == "--only") only = argv[i + 1];
    if (flag == "--write-expected") write_expected = argv[i + 1];
  }
  if (!fs::is_directory(data_dir)) {
    std::cout << "ONNX node test data not found at " << data_dir
              << " (fetched from PyPI by scripts/fetch-onnx-node-tests.sh); skipped\n";
    return 77;
  }
  hxrt::RuntimeOptions runtime_options;
  runtime_options.log_sink = [](hxrt::LogLevel, std::string_view) {};
  hxrt::Runtime rt = hxrt::Runtime::create(runtime_options);

  std::vector<fs::path> cases;
  for (const fs::directory_entry& entry : fs::directory_iterator(data_dir)) {
    const std::string name = entry.path().filename().string();
    // The _expanded cases run an op's ONNX function body, ops of other names: they test the
    // function, not the op.
    if (name.find("_expanded") != std::string::npos) continue;
    if (!only.empty() && name != only) continue;
    if (fs::exists(entry.path() / "model.onnx")) cases.push_back(entry.path());
  }
  std::sort(cases.begin(), cases.end());

  std::map<std::string, std::string> expected;  // case -> reason
  if (!expected_file.empty()) {
    std::ifstream in(expected_file);
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      const size_t space = line.find_first_of(" \t");
      expected[line.substr(0, space)] =
          space == std::string::npos ? "" : line.substr(line.find_first_not_of(" \t", space));
    }
  }

  std::vector<CaseResult> results;
  for (const fs::path& dir : cases) {
    try {
      results.push_back(run_case(rt, dir, device));
    } catch (const std::exception& error) {
      // The case's own files, not hxrt: a sequence or optional type this reader cannot read.
      results.push_back({dir.filename().string(), "?", Outcome::kNotSupported,
                         std::string("reading the case: ") + error.what()});
    }
  }

  struct Counts {
    int cases = 0, passed = 0, failed = 0, unsupported = 0;
  };
  std::map<std::string, Counts> per_op;
  // The ONNX ops hxrt imports: the core's (OpInfo::onnx_op) and the importer's own.
  std::set<std::string> implemented = {"Constant", "ConstantOfShape", "Shape", "Size"};
  for (const hxrt::OpInfo& op : hxrt::core_ops()) {
    if (!op.onnx_op.empty()) implemented.insert(op.onnx_op);
  }
  for (const CaseResult& result : results) {
    Counts& counts = per_op[result.op];
    ++counts.cases;
    if (result.outcome == Outcome::kPassed) ++counts.passed;
    if (result.outcome == Outcome::kFailed) ++counts.failed;
    if (result.outcome == Outcome::kNotSupported) ++counts.unsupported;
  }

  std::ostringstream table;
  table << "| op | cases | passed | failed | not supported |\n|---|---|---|---|---|\n";
  Counts total;
  for (const auto& [op, counts] : per_op) {
    if (implemented.count(op) == 0) continue;
    table << "| " << op << " | " << counts.cases << " | " << counts.passed << " | "
          << counts.failed << " | " << counts.unsupported << " |\n";
    total.cases += counts.cases;
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.unsupported += counts.unsupported;
  }
  table << "| **all** | " << total.cases << " | " << total.passed << " | " << total.failed
        << " | " << total.unsupported << " |\n";
  std::ostringstream missing;
  for (const auto& [op, counts] : per_op) {
    if (implemented.count(op) == 0) missing << (missing.tellp() > 0 ? ", " : "") << op;
  }
  // Cases whose expected outputs hxrt departs from on purpose, and why: the data of the
  // pinned onnx release against what ONNX Runtime and PyTorch compute.
  const std::map<std::string, std::string> deliberate = {
      {"test_cast_FLOAT_to_BFLOAT16",
       "onnx 1.16's data truncates to bfloat16; hxrt rounds to nearest even, as ONNX Runtime, "
       "PyTorch and onnx/onnx#8293 do"},
      {"test_averagepool_3d_dilations_large_count_include_pad_is_1_ceil_mode_is_True",
       "onnx 1.16's reference divides ceil_mode's last window by the whole kernel; hxrt does "
       "not count the taps past the end padding, as PyTorch (onnx/onnx#5276, "
       "microsoft/onnxruntime#16203)"},
  };
  std::ostringstream not_passing;
  for (const CaseResult& result : results) {
    if (result.outcome == Outcome::kPassed || implemented.count(result.op) == 0) continue;
    not_passing << "- `" << result.name << "` (" << result.op << ", "
                << outcome_name(result.outcome) << "): " << result.why;
    const auto why = deliberate.find(result.name);
    if (why != deliberate.end()) not_passing << ". **Deliberate**: " << why->second;
    not_passing << "\n";
  }
  std::cout << table.str() << "\nONNX ops hxrt does not implement: " << missing.str() << "\n\n"
            << not_passing.str();
  if (!table_file.empty()) {
    std::ofstream out(table_file);
    out << "# ONNX conformance\n\nONNX's backend node tests (the `onnx` package 1.16.2, "
        << "`onnx/backend/test/data/node`) run through `Runtime::load_onnx` on " << device
        << ": each case's model on each of its data sets, its outputs compared with the "
        << "expected ones at the suite's tolerances (rtol 1e-3, atol 1e-7). A case is *not "
        << "supported* when hxrt refuses it at load (a version, attribute or dtype it does not "
        << "implement) or cannot feed its data (uint8, strings, sequences), and *failed* when "
        << "it runs and gives other outputs or an error. The `_expanded` cases, which run an "
        << "op's ONNX function body, are left out.\n\nGenerated by `cmake --build build "
        << "--target update_onnx_conformance` (tests/onnx_node in the source tree).\n\n"
        << total.passed << " of " << total.cases << " cases of the ops hxrt implements pass.\n\n"
        << table.str() << "\nThe cases of the ops above that do not pass, and why:\n\n"
        << not_passing.str() << "\nONNX ops hxrt does not implement (their cases are not "
        << "counted above): " << missing.str() << ".\n";
  }

  if (!write_expected.empty()) {
    std::ofstream out(write_expected);
    out << "# ONNX node test cases (onnx 1.16.2) of ops hxrt implements that do not pass on "
        << device << ", and why.\n# Written by onnx_node_runner --write-expected; the test "
        << "fails when a case outside this list does not pass, or one in it passes.\n";
    for (const CaseResult& result : results) {
      if (result.outcome == Outcome::kPassed || implemented.count(result.op) == 0) continue;
      out << result.name << "  " << outcome_name(result.outcome) << ": " << result.why << "\n";
    }
  }

  int surprises = 0;
  if (!expected_file.empty()) {
    for (const CaseResult& result : results) {
      const bool listed = expected.count(result.name) > 0;
      const bool passed = result.outcome == Outcome::kPassed;
      if (implemented.count(result.op) == 0) continue;
      if (!passed && !listed) {
        std::cout << "UNEXPECTED: " << result.name << " " << outcome_name(result.outcome) << ": "
                  << result.why << "\n";
        ++surprises;
      } else if (passed && listed) {
        std::cout << "UNEXPECTED: " << result.name
                  << " passed; take it off the list of expected failures\n";
        ++surprises;
      }
    }
  }
  std::cout << total.passed << " of " << total.cases << " cases of implemented ops passed on "
            << device << "\n";
  return surprises == 0 ? 0 : 1;
}

#include "command_line.hpp"

#include <vector>

#include "hxrt/error.hpp"

namespace hxrun {
namespace {

[[noreturn]] void refuse(const std::string& why) {
  throw hxrt::Error(hxrt::StatusCode::kInvalidArgument, why + "\n" + usage());
}

// "name=value" split at its first '='.
std::pair<std::string, std::string> name_value(const std::string& flag, const std::string& text) {
  const size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == text.size()) {
    refuse(flag + " takes NAME=VALUE, not '" + text + "'");
  }
  return {text.substr(0, equals), text.substr(equals + 1)};
}

int64_t number(const std::string& flag, const std::string& text, int64_t low, int64_t high) {
  if (text.empty() || text.size() > 18 ||
      text.find_first_not_of("0123456789") != std::string::npos) {
    refuse(flag + " takes a whole number, not '" + text + "'");
  }
  const int64_t value = std::stoll(text);
  if (value < low || value > high) {
    refuse(flag + " takes a number from " + std::to_string(low) + " to " +
           std::to_string(high) + ", not " + text);
  }
  return value;
}

hxrt::Shape shape(const std::string& flag, const std::string& text) {
  std::vector<int64_t> dims;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = std::min(text.find('x', start), text.size());
    dims.push_back(number(flag, text.substr(start, end - start), 0, INT64_MAX / 2));
    start = end + 1;
  }
  try {
    return hxrt::Shape(dims);
  } catch (const hxrt::Error& error) {
    refuse(flag + " " + text + ": " + error.what());
  }
}

}  // namespace

const char* usage() {
  return "usage: hxrt-run MODEL.onnx [--input NAME=FILE.npy]... [--shape NAME=2x3x224x224]...\n"
         "                [--dim NAME=N]... [--save-outputs DIR] [--device DEVICE]\n"
         "                [--placer simple|dynamic] [--runs N] [--seed N] [--config FILE]\n"
         "                [--plan-topology CLUSTER.json]\n"
         "Loads an ONNX model, compiles it, runs it N times (10) on the given inputs or random\n"
         "ones of the right shape, and prints the placement summary, compile time and run-time\n"
         "statistics. --shape and --dim bind the dimensions the model leaves open.\n"
         "--plan-topology plans the model over the cluster the file describes with the dynamic\n"
         "placer instead (docs/cluster.md, \"Planning on a topology\"): where each node would\n"
         "run and the estimated run time; nothing is compiled or run.";
}

Options parse_command_line(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      options.help = true;
      return options;
    }
    if (arg.rfind("--", 0) != 0) {
      if (!options.model.empty()) refuse("one model at a time: '" + arg + "' is a second");
      options.model = arg;
      continue;
    }
    if (i + 1 >= argc) refuse(arg + " needs a value");
    const std::string value = argv[++i];
    if (arg == "--input") {
      options.input_files.insert(name_value(arg, value));
    } else if (arg == "--shape") {
      const auto [name, text] = name_value(arg, value);
      options.shapes[name] = shape(arg, text);
    } else if (arg == "--dim") {
      const auto [name, text] = name_value(arg, value);
      options.dims[name] = number(arg, text, 0, INT64_MAX / 2);
    } else if (arg == "--save-outputs") {
      options.save_outputs = value;
    } else if (arg == "--device") {
      options.device = value;
    } else if (arg == "--placer") {
      if (value != "simple" && value != "dynamic") refuse("--placer is simple or dynamic");
      options.placer = value;
    } else if (arg == "--config") {
      options.config = value;
    } else if (arg == "--plan-topology") {
      options.plan_topology = value;
    } else if (arg == "--runs") {
      options.runs = static_cast<int>(number(arg, value, 1, 1000000));
    } else if (arg == "--seed") {
      options.seed = static_cast<uint32_t>(number(arg, value, 0, UINT32_MAX));
    } else {
      refuse("unknown option '" + arg + "'");
    }
  }
  if (options.model.empty()) refuse("give the model: an .onnx file");
  return options;
}

}  // namespace hxrun

// hxrt-run: an ONNX model from the command line, as onnxruntime_perf_test and trtexec run one.
// Loads it (Runtime::load_onnx), compiles it, runs it on the given or random inputs, writes
// its outputs as .npy, and prints where its nodes run (and which fell back, and why), the
// compile time and the run times; or, with --plan-topology, plans it over a described cluster.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "hxcommon/element_values.hpp"
#include "hxrt/hxrt.hpp"
#include "npy_file.hpp"
#include "run_report.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double milliseconds_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Random elements for an input: floats in [-1, 1], integers in [0, 10), bools either way.
hxrun::NpyArray random_array(hxrt::DType dtype, const hxrt::Shape& shape, std::mt19937& random) {
  hxrun::NpyArray array;
  array.dtype = dtype;
  array.shape = shape;
  array.bytes.resize(hxrt::tensor_bytes(dtype, shape));
  std::uniform_real_distribution<double> real(-1, 1);
  std::uniform_int_distribution<int> whole(0, 9);
  for (size_t i = 0; i < static_cast<size_t>(shape.num_elements()); ++i) {
    const double value = hxrt::is_floating(dtype)      ? real(random)
                         : dtype == hxrt::DType::kBool ? whole(random) % 2
                                                       : whole(random);
    hxcommon::element_from_double(value, static_cast<int32_t>(dtype), array.bytes.data(), i);
  }
  return array;
}

// Where the feeds are made: the inputs come from files or the generator, in host memory, so
// they are fed from the host's device (the first CPU), where the placers take a feed to live,
// and as ONNX Runtime is fed; "" (the runtime's default) without a CPU.
std::string host_device(const hxrt::Runtime& rt) {
  for (const hxrt::DeviceInfo& device : rt.devices()) {
    if (device.type == "CPU") return device.name;
  }
  return "";
}

// --plan-topology: the model planned over a described cluster, printed, nothing run.
int plan(hxrt::Runtime& rt, const hxrun::Options& options, const hxrt::OnnxModel& model,
         double load_ms) {
  std::ifstream file(options.plan_topology, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  if (!file) {
    throw hxrt::Error(hxrt::StatusCode::kNotFound,
                      "--plan-topology " + options.plan_topology + ": cannot read the file");
  }
  const Clock::time_point start = Clock::now();
  const hxrt::PlacementPlan planned =
      rt.plan_placement(model.graph, model.outputs, text.str(), hxrt::CompileOptions());
  const double plan_ms = milliseconds_since(start);
  std::printf("Model: %s, loaded in %.1f ms\n", options.model.c_str(), load_ms);
  std::printf("Planned over %s in %.1f ms (nothing compiled or run):\n",
              options.plan_topology.c_str(), plan_ms);
  std::cout << planned.summary();
  std::printf("Estimated run: %.3f ms on %d task%s, against %.3f ms on the first task alone\n",
              planned.makespan_ms, planned.tasks_used, planned.tasks_used == 1 ? "" : "s",
              planned.one_task_makespan_ms);
  return 0;
}

int run(const hxrun::Options& options) {
  hxrt::RuntimeOptions runtime_options;
  runtime_options.config_path = options.config;
  hxrt::Runtime rt = hxrt::Runtime::create(runtime_options);

  hxrt::OnnxLoadOptions load_options;
  load_options.dims = options.dims;
  load_options.input_shapes = options.shapes;
  std::map<std::string, hxrun::NpyArray> given;
  for (const auto& [name, file] : options.input_files) {
    given[name] = hxrun::read_npy(file);
    load_options.input_shapes[name] = given[name].shape;
  }
  const Clock::time_point load_start = Clock::now();
  hxrt::OnnxModel model;
  {
    std::optional<hxrt::DeviceScope> scope;
    if (!options.device.empty()) scope.emplace(rt.device(options.device));
    model = rt.load_onnx(options.model, load_options);
  }
  const double load_ms = milliseconds_since(load_start);
  for (const auto& [name, array] : given) {
    if (std::find(model.inputs.begin(), model.inputs.end(), name) == model.inputs.end()) {
      throw hxrt::Error(hxrt::StatusCode::kInvalidArgument,
                        "--input " + name + ": the model has no input of that name; its inputs: " +
                            hxrun::join(model.inputs));
    }
  }

  if (!options.plan_topology.empty()) return plan(rt, options, model, load_ms);
  hxrt::CompileOptions compile_options;
  if (options.placer == "dynamic") compile_options.placer = hxrt::GraphPlacer::kDynamic;
  if (options.placer == "simple") compile_options.placer = hxrt::GraphPlacer::kSimple;
  const Clock::time_point compile_start = Clock::now();
  const hxrt::Executable exe = rt.compile(model.graph, model.outputs, compile_options);
  const double compile_ms = milliseconds_since(compile_start);

  std::mt19937 random(options.seed);
  std::map<std::string, hxrt::Tensor> feeds;
  std::vector<hxrun::InputLine> inputs;
  for (const std::string& name : exe.inputs()) {
    const hxrt::GraphNode& node = *model.graph.find(name);
    const auto file = options.input_files.find(name);
    const hxrun::NpyArray array =
        file != options.input_files.end()
            ? given.at(name)
            : random_array(node.output_dtypes[0], node.output_shapes[0], random);
    if (array.dtype != node.output_dtypes[0]) {
      throw hxrt::Error(hxrt::StatusCode::kInvalidArgument,
                        "--input " + name + ": the file holds " + hxrt::dtype_name(array.dtype) +
                            ", the model's input is " + hxrt::dtype_name(node.output_dtypes[0]));
    }
    feeds[name] = rt.from_host(array.dtype, array.shape, array.bytes.data(), array.bytes.size(),
                               host_device(rt));
    inputs.push_back({name, array.dtype, array.shape,
                      file != options.input_files.end() ? file->second : "random"});
  }

  std::vector<double> run_ms;
  std::vector<hxrt::Tensor> outputs;
  for (int i = 0; i < options.runs; ++i) {
    const Clock::time_point start = Clock::now();
    outputs = exe.run(feeds);
    for (const hxrt::Tensor& output : outputs) output.wait();
    run_ms.push_back(milliseconds_since(start));
  }

  hxrun::Report report;
  report.model = options.model;
  report.loaded = &model;
  report.exe = &exe;
  report.inputs = inputs;
  report.load_ms = load_ms;
  report.compile_ms = compile_ms;
  report.run_ms = run_ms;
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::string saved;
    if (!options.save_outputs.empty()) {
      std::filesystem::create_directories(options.save_outputs);
      hxrun::NpyArray array;
      array.dtype = outputs[i].dtype();
      array.shape = outputs[i].shape();
      array.bytes.resize(outputs[i].byte_size());
      outputs[i].copy_to_host(array.bytes.data(), array.bytes.size());
      // An ONNX name may hold '/' (torch's "/fc1/Gemm_output_0"): not a folder here.
      std::string file = model.output_names[i];
      std::replace(file.begin(), file.end(), '/', '_');
      saved = (std::filesystem::path(options.save_outputs) / (file + ".npy")).string();
      hxrun::write_npy(saved, array);
    }
    report.outputs.push_back({model.output_names[i], outputs[i].dtype(), outputs[i].shape(),
                              saved});
  }
  std::cout << hxrun::report_text(report);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const hxrun::Options options = hxrun::parse_command_line(argc, argv);
    if (options.help) {
      std::cout << hxrun::usage() << "\n";
      return 0;
    }
    return run(options);
  } catch (const hxrt::Error& error) {
    std::cerr << "hxrt-run: " << error.what() << "\n";
    return 1;
  }
}

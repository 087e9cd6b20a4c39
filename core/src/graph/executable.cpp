// The Executable handle: feeds checked by name and declaration, then run.cpp runs it.
#include "hxrt/executable.hpp"

#include <chrono>

#include "graph/executable_handle.hpp"
#include "graph/run/run.hpp"
#include "tensors/tensor_impl.hpp"

namespace hxrt {
namespace {

std::string describe(DType dtype, const Shape& shape) {
  return std::string(dtype_name(dtype)) + shape.to_string();
}

std::string input_list(const std::vector<std::string>& inputs) {
  if (inputs.empty()) return "it has none";
  std::string list;
  for (const std::string& input : inputs) list += (list.empty() ? "'" : ", '") + input + "'";
  return "its inputs are " + list;
}

// Error(kInvalidArgument) unless `inputs` feeds each of `names` a tensor of its declaration.
void check_feeds(const std::vector<Tensor>& inputs, const std::vector<std::string>& names,
                 const std::vector<DType>& dtypes, const std::vector<Shape>& shapes) {
  if (inputs.size() != names.size()) {
    throw Error(StatusCode::kInvalidArgument,
                "run was given " + std::to_string(inputs.size()) + " inputs; the executable " +
                    "needs " + std::to_string(names.size()) + " (" + input_list(names) + ")");
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string& name = names[i];
    if (!inputs[i].valid()) {
      throw Error(StatusCode::kInvalidArgument,
                  "graph input '" + name + "' was fed an empty Tensor");
    }
    const detail::TensorImpl& fed = *inputs[i].impl();
    if (fed.dtype != dtypes[i] || fed.shape != shapes[i]) {
      throw Error(StatusCode::kInvalidArgument,
                  "graph input '" + name + "' was fed a " + describe(fed.dtype, fed.shape) +
                      " tensor; it was declared " + describe(dtypes[i], shapes[i]));
    }
  }
}

// What describes an executable: its compiled graph, or for a graph run in stages whose
// first stage compiles nothing, an empty one.
const detail::ExecutableImpl& described(const detail::ExecutableHandle& handle) {
  static const detail::ExecutableImpl nothing_compiled;
  const detail::ExecutableImpl* current = handle.current().get();
  return current != nullptr ? *current : nothing_compiled;
}

}  // namespace

Executable::Executable(std::shared_ptr<detail::ExecutableHandle> handle)
    : handle_(std::move(handle)) {}

detail::ExecutableHandle& Executable::handle() const {
  if (handle_ == nullptr) {
    throw Error(StatusCode::kFailedPrecondition,
                "this Executable is empty; assign it the result of Runtime::compile");
  }
  return *handle_;
}

std::vector<Tensor> Executable::run(const std::vector<Tensor>& inputs) const {
  detail::ExecutableHandle& handle = this->handle();
  if (const detail::StagedRuns* stages = handle.stages()) {
    check_feeds(inputs, stages->inputs(), stages->input_dtypes(), stages->input_shapes());
    return stages->run(inputs);
  }
  const std::shared_ptr<const detail::ExecutableImpl> current = handle.current();
  const detail::ExecutableImpl& exe = *current;
  check_feeds(inputs, exe.inputs, exe.input_dtypes, exe.input_shapes);
  if (!handle.adapts()) return detail::run_executable(exe, inputs);
  const auto start = std::chrono::steady_clock::now();
  std::vector<Tensor> fetched = detail::run_executable(exe, inputs, handle.measures_next_run());
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  handle.after_run(exe, inputs, took.count());
  return fetched;
}

std::vector<Tensor> Executable::run(const std::map<std::string, Tensor>& feeds) const {
  const detail::ExecutableHandle& exe = handle();
  std::vector<Tensor> inputs;
  inputs.reserve(exe.inputs().size());
  for (const std::string& name : exe.inputs()) {
    auto fed = feeds.find(name);
    if (fed == feeds.end()) {
      throw Error(StatusCode::kInvalidArgument,
                  "graph input '" + name + "' was not fed; the fetches need it");
    }
    inputs.push_back(fed->second);
  }
  if (feeds.size() != inputs.size()) {
    for (const auto& fed : feeds) {
      if (std::find(exe.inputs().begin(), exe.inputs().end(), fed.first) == exe.inputs().end()) {
        throw Error(StatusCode::kInvalidArgument,
                    "feed '" + fed.first + "' is not an input the fetches need; " +
                        input_list(exe.inputs()));
      }
    }
  }
  return run(inputs);
}

const std::vector<std::string>& Executable::inputs() const { return handle().inputs(); }
const std::vector<NodeOutput>& Executable::fetches() const { return handle().fetches(); }
const std::vector<NodePlacement>& Executable::placement() const {
  return described(handle()).placement;
}
const std::vector<DeviceMemoryPlan>& Executable::memory_plan() const {
  return described(handle()).memory_plan;
}
std::vector<std::string> Executable::transfers() const { return described(handle()).transfers; }
int Executable::replacements() const { return handle().replacements(); }

std::map<std::string, std::string> Executable::placement_map() const {
  std::map<std::string, std::string> map;
  for (const NodePlacement& node : described(handle()).placement) {
    map.emplace(node.node, node.device);
  }
  return map;
}

}  // namespace hxrt

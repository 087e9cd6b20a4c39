// Runtime::cost_model_json and load_cost_model_json: the dynamic placer's knowledge, kept
// between runs of a program.
#include "runtime/runtime_impl.hpp"

namespace hxrt {
namespace {

std::vector<std::string> device_names(Runtime::Impl& runtime) {
  runtime.ensure_initialized();
  std::vector<std::string> names;
  for (const auto& device : runtime.devices.all()) names.push_back(device->name());
  return names;
}

}  // namespace

std::string Runtime::cost_model_json() const {
  Impl& runtime = impl();
  return runtime.cost_model.to_json(device_names(runtime));
}

void Runtime::load_cost_model_json(const std::string& text) {
  Impl& runtime = impl();
  runtime.cost_model.merge_json(text, "Runtime::load_cost_model_json", device_names(runtime));
}

}  // namespace hxrt

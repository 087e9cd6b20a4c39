// The cost model's saved form (core/src/cost/cost_model_json.cpp), as load_cost_model_json and
// CompileOptions::cost_model_json give it. The input is the saved text; the model is the
// core's own, for a runtime with the devices below.
//
// Oracle: merging gives a model or throws Error(kInvalidArgument) naming its source and the
// JSON pointer of the mistake, and a refused text leaves the model as it was; a model saved
// and loaded into a fresh one saves to the same text. Anything else (another exception, a
// crash, a sanitizer report) is a finding.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cost/cost_model.hpp"
#include "saved_json_fuzz.hpp"

namespace {

constexpr const char* kTarget = "cost_model_fuzz";
constexpr const char* kSource = "fuzz";

const std::vector<std::string>& device_names() {
  static const std::vector<std::string> names = {
      "/job:localhost/replica:0/task:0/device:CPU:0",
      "/job:localhost/replica:0/task:0/device:GPU:0",
      "/job:localhost/replica:0/task:0/device:GPU:1"};
  return names;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  hxrt::detail::CostModel model;
  model.set_speed(0, {1e10, 1e9, 1e-6});  // something a refused text must leave alone
  const std::string before = model.to_json(device_names());
  try {
    model.merge_json(text, kSource, device_names());
  } catch (const hxrt::Error& error) {
    saved_json_fuzz::check_refusal(kTarget, error, kSource);
    if (model.to_json(device_names()) != before) {
      saved_json_fuzz::finding(kTarget, "a refused text changed the model");
    }
    return 0;
  }
  const std::string saved = model.to_json(device_names());
  hxrt::detail::CostModel again;
  try {
    again.merge_json(saved, kSource, device_names());
  } catch (const hxrt::Error& error) {
    saved_json_fuzz::finding(kTarget, std::string("a saved model is refused: ") + error.what());
  }
  if (again.to_json(device_names()) != saved) {
    saved_json_fuzz::finding(kTarget, "a saved model loads into another model");
  }
  return 0;
}

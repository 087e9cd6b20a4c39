#include "blas/blas_core_choice.hpp"

#include <cstdlib>
#include <mutex>
#include <optional>

#include "blas/openblas_dynamic.hpp"

namespace hxcpu {
namespace {

// What the plugin can choose from in this process, found at its first init.
struct Choices {
  std::optional<OpenBlasDynamic> library;
  std::string why_fixed;                     // why there is no library to switch
  std::string picked;                        // OpenBLAS's own pick, before any switch
  uint32_t features = 0;                     // the CPU's
  std::vector<const OpenBlasCore*> runnable;  // run by the CPU, held by the library
};

Choices find_choices() {
  Choices choices;
  choices.library = OpenBlasDynamic::find(&choices.why_fixed);
  choices.features = cpu_features();
  if (choices.library) {
    choices.picked = choices.library->core_in_use();
    for (const OpenBlasCore& core : openblas_cores()) {
      if (missing_features(core, choices.features).empty() && choices.library->holds(core)) {
        choices.runnable.push_back(&core);
      }
    }
  }
  return choices;
}

// Lives as long as the plugin stays loaded: every runtime that uses the plugin keeps it
// loaded, so a plugin loaded again later finds the core the earlier one settled as OpenBLAS's
// own pick.
struct ProcessState {
  std::mutex mutex;
  const Choices choices = find_choices();
  std::string settled;  // the core the first init settled on (switched to or kept); "" before
};

ProcessState& process_state() {
  static ProcessState state;
  return state;
}

std::string choice_list(const Choices& choices) {
  std::string list = "\"auto\"";
  for (const OpenBlasCore* core : choices.runnable) list += std::string(", \"") + core->name + "\"";
  return list;
}

std::string quoted(const nlohmann::json& value) {
  std::string text = value.dump();
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

}  // namespace

bool read_blas_core(const nlohmann::json& value, BlasCoreRequest* out, std::string* error) {
  ProcessState& state = process_state();
  const Choices& choices = state.choices;
  if (!value.is_string()) {
    *error = "expected \"auto\" or the name of an OpenBLAS core, got " + quoted(value) +
             "; the choices on this machine are " + choice_list(choices);
    return false;
  }
  const std::string name = value.get<std::string>();
  if (name == "auto") {
    *out = {};
    return true;
  }
  const OpenBlasCore* core = find_openblas_core(name);
  if (core == nullptr) {
    *error = "unknown OpenBLAS core " + quoted(value) + "; the choices on this machine are " +
             choice_list(choices);
    return false;
  }
  const std::string missing = missing_features(*core, choices.features);
  if (!missing.empty()) {
    *error = std::string("this CPU cannot run OpenBLAS core \"") + core->name + "\" (it lacks " +
             missing + "); the choices on this machine are " + choice_list(choices);
    return false;
  }
  if (!choices.library) {
    *error = std::string("OpenBLAS core \"") + core->name +
             "\" cannot be selected: " + choices.why_fixed + "; the only choice is \"auto\"";
    return false;
  }
  if (!choices.library->holds(*core)) {
    *error = std::string("this OpenBLAS was built without core \"") + core->name +
             "\"; the choices on this machine are " + choice_list(choices);
    return false;
  }
  *out = {core};
  return true;
}

const OpenBlasCore* automatic_core(const std::vector<const OpenBlasCore*>& runnable,
                                   const OpenBlasCore* detected) {
  for (const char* preferred : {"Cooperlake", "SkylakeX", "Haswell", "Sandybridge"}) {
    for (const OpenBlasCore* core : runnable) {
      if (std::string(core->name) != preferred) continue;
      if (detected != nullptr && detected->vector_bits >= core->vector_bits) return nullptr;
      return core;
    }
  }
  return nullptr;
}

BlasCoreReport apply_blas_core(const BlasCoreRequest& request) {
  ProcessState& state = process_state();
  const std::lock_guard<std::mutex> lock(state.mutex);
  const Choices& choices = state.choices;
  const std::string option = request.core == nullptr
                                 ? std::string("blas_core \"auto\"")
                                 : std::string("blas_core \"") + request.core->name + "\"";
  // OpenBLAS finds no core for an empty name and picks its own, as if unset.
  const char* forced = std::getenv("OPENBLAS_CORETYPE");
  if (forced != nullptr && *forced != '\0') {
    const std::string in_use = choices.library ? choices.library->core_in_use() : forced;
    if (request.core == nullptr) {
      return {HX_LOG_INFO, "OpenBLAS core " + in_use + " (OPENBLAS_CORETYPE=" + forced +
                               " sets it; blas_core \"auto\" leaves it)"};
    }
    return {HX_LOG_WARNING, "OpenBLAS core " + in_use + ": OPENBLAS_CORETYPE=" + forced +
                                " sets it, so " + option + " is not applied"};
  }
  if (!choices.library) {
    return {HX_LOG_INFO, "OpenBLAS core left as it is: " + choices.why_fixed};
  }
  const OpenBlasCore* detected = find_openblas_core(choices.picked);
  const OpenBlasCore* target =
      request.core != nullptr ? request.core : automatic_core(choices.runnable, detected);
  if (!state.settled.empty()) {
    const std::string in_use = "OpenBLAS core " + state.settled;
    if (request.core == nullptr || state.settled == request.core->name) {
      return {HX_LOG_INFO, in_use + ", settled by an earlier init of this plugin in this process"};
    }
    return {HX_LOG_WARNING, in_use + ", settled by an earlier init of this plugin in this process: "
                                     "OpenBLAS has one core per process, so " + option +
                                     " is not applied"};
  }
  if (target == nullptr) {
    state.settled = choices.picked;
    return {HX_LOG_INFO, "OpenBLAS core " + choices.picked +
                             " (OpenBLAS's own pick; blas_core \"auto\" keeps it: no core this "
                             "CPU runs has wider vectors)"};
  }
  if (choices.picked != target->name) choices.library->use(*target);
  state.settled = choices.library->core_in_use();
  if (state.settled != target->name) {
    return {HX_LOG_WARNING, "OpenBLAS core " + state.settled + ": asked for " + target->name +
                                " (" + option + "), OpenBLAS did not take it"};
  }
  return {HX_LOG_INFO, "OpenBLAS core " + state.settled + " (OpenBLAS picked " + choices.picked +
                           "; " + option + ")"};
}

}  // namespace hxcpu

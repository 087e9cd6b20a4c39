#include "config/config_sections.hpp"
#include "config/json_checks.hpp"

namespace hxrt::detail {

namespace {

// Far beyond any machine's cores: a larger count is a typo, and every thread costs a stack.
constexpr int64_t kMaxThreads = 4096;

// `value` of /execution/<key>: an integer from 0 to kMaxThreads, 0 meaning `zero_means`.
int read_thread_count(const nlohmann::json& value, const std::string& key,
                      const std::string& zero_means, const std::string& source) {
  const std::optional<int64_t> count = integer_in(value, 0, kMaxThreads);
  if (!count) {
    fail(source, "/execution/" + key,
         "expected an integer from 0 to " + std::to_string(kMaxThreads) + " (0: " + zero_means +
             "), got " + type_of(value));
  }
  return static_cast<int>(*count);
}

}  // namespace

void apply_execution_section(const nlohmann::json& execution, const std::string& source,
                             Config& config) {
  require_object(execution, source, "/execution");
  check_keys(execution, {"inter_op_threads", "intra_op_threads"}, source, "/execution");
  if (execution.contains("inter_op_threads")) {
    config.execution.inter_op_threads = read_thread_count(
        execution["inter_op_threads"], "inter_op_threads", "one per core", source);
    config.origins["/execution/inter_op_threads"] = source;
  }
  if (execution.contains("intra_op_threads")) {
    config.execution.intra_op_threads = read_thread_count(
        execution["intra_op_threads"], "intra_op_threads", "each plugin's default", source);
    config.origins["/execution/intra_op_threads"] = source;
  }
}

}  // namespace hxrt::detail

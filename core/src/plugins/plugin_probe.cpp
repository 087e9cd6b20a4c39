#include "plugins/plugin_probe.hpp"

#include <filesystem>

#include "plugins/core_location.hpp"
#include "plugins/probe_process.hpp"

namespace hxrt::detail {

ProbeSettings probe_settings(bool enabled, std::chrono::milliseconds time_limit) {
  ProbeSettings settings;
  settings.enabled = enabled;
  settings.time_limit = time_limit;
  const std::string core = core_library_dir();
  settings.program =
      (std::filesystem::path(core.empty() ? "." : core) / HXRT_PROBE_SUBDIR / "hxrt-probe")
          .string();
  settings.cache_file = ProbeCache::default_file();
  return settings;
}

PluginProbe::PluginProbe(ProbeSettings settings, std::shared_ptr<Logger> logger)
    : settings_(std::move(settings)), logger_(std::move(logger)), cache_(settings_.cache_file) {}

std::string PluginProbe::check(const std::string& path, const std::string& name,
                               const std::string& options, uint32_t intra_op_threads) {
  const std::optional<std::string> key = ProbeCache::key(path, options, intra_op_threads);
  if (key && cache_.contains(*key)) {
    logger_->log(LogLevel::kDebug, "plugin " + path + " is known good from an earlier probe (" +
                                       cache_.file() + "): not probed again");
    return {};
  }
  const auto started = std::chrono::steady_clock::now();
  const ProbeOutcome outcome =
      run_probe(settings_.program, path, name, options, intra_op_threads, settings_.time_limit);
  const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - started);
  switch (outcome.verdict) {
    case ProbeOutcome::Verdict::kSurvived:
      logger_->log(LogLevel::kInfo, "probed plugin " + path + " in a child process (" +
                                        std::to_string(took.count()) +
                                        " ms): it survived init, enumeration and shutdown");
      if (key) cache_.add(*key);
      return {};
    case ProbeOutcome::Verdict::kFatal:
      return outcome.reason;
    case ProbeOutcome::Verdict::kUnknown:
      break;
  }
  logger_->log(LogLevel::kWarning,
               "plugin " + path + " is loaded without a probe, so a crash in its init would "
               "end this process: " + outcome.reason +
               "; check that hxrt-probe is installed beside libhxrt.so, or set plugins.probe "
               "to false");
  return {};
}

void PluginProbe::save() {
  const std::string failure = cache_.save();
  if (failure.empty()) return;
  logger_->log(LogLevel::kInfo, "plugin probe verdicts are not kept for the next start-up, "
                                "which will probe its plugins again: " + failure);
}

}  // namespace hxrt::detail

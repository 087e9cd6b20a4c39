#include "guide_options.hpp"

#include <cstdlib>
#include <iostream>
#include <string_view>

namespace guide {
namespace {

std::string_view program_name(int argc, char** argv) {
  const std::string_view path = argc > 0 ? argv[0] : "guide sample";
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::optional<hxrt::RuntimeOptions> options_from_command_line(int argc, char** argv) {
  const char* config_from_environment = std::getenv("HXRT_CONFIG");
  const bool has_config_from_environment =
      config_from_environment != nullptr && *config_from_environment != '\0';
  if (argc > 2 || (argc < 2 && !has_config_from_environment)) {
    std::cerr << "usage: " << program_name(argc, argv) << " CONFIG_FILE (or set HXRT_CONFIG)\n"
              << "  config/examples/sim_4_gpus.json makes the sim plugin four GPUs\n";
    return std::nullopt;
  }
  hxrt::RuntimeOptions options;
  // Without an argument the runtime reads $HXRT_CONFIG itself.
  if (argc == 2) options.config_path = argv[1];
  options.log_device_placement = true;
  options.log_sink = [](hxrt::LogLevel, std::string_view line) { std::cout << line << '\n'; };
  return options;
}

}  // namespace guide

#include "plugins/refused_options.hpp"

#include <nlohmann/json.hpp>

#include "config/json_pointer.hpp"

namespace hxrt::detail {

std::string refused_options_path(const std::string& name, const std::string& options,
                                 const std::string& message) {
  const std::string options_path = pointer_child("/plugins/options", name);
  const nlohmann::json parsed = nlohmann::json::parse(options, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object()) return options_path;
  std::string first_key;
  size_t first_at = std::string::npos;
  for (const auto& item : parsed.items()) {
    // The key alone, or the start of a path into it ('devices[1].memory_mb', 'a.b').
    for (const char quote : {'\'', '"', '`'}) {
      for (const char after : {quote, '.', '['}) {
        const size_t at = message.find(quote + item.key() + after);
        if (at < first_at) {
          first_at = at;
          first_key = item.key();
        }
      }
    }
  }
  return first_at != std::string::npos ? pointer_child(options_path, first_key) : options_path;
}

}  // namespace hxrt::detail

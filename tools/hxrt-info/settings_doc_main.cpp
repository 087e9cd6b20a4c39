// hxrt-settings-doc <source dir>: rewrites the config reference in the source tree from the
// settings table (core/src/config/settings_table.hpp): config/hxrt.schema.json whole, and the
// settings table between the markers of docs/configuration.md. Run through the CMake target
// update_config_reference; the files are committed, and config_test fails while they differ
// from what this writes. A file already up to date is left untouched.
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include "config/settings_markdown.hpp"
#include "config/settings_schema.hpp"

namespace {

std::optional<std::string> read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool update(const std::string& path, const std::string& text) {
  if (read_text(path) == text) {
    std::cout << path << " is up to date\n";
    return true;
  }
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) {
    std::cerr << "hxrt-settings-doc: cannot write " << path << '\n';
    return false;
  }
  std::cout << "rewrote " << path << '\n';
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: hxrt-settings-doc <source dir>\n";
    return 2;
  }
  const std::string root = argv[1];
  const std::string docs = root + "/docs/configuration.md";
  try {
    const std::optional<std::string> page = read_text(docs);
    const std::optional<std::string> updated =
        page ? hxrt::detail::with_settings_table(*page) : std::nullopt;
    if (!updated) {
      std::cerr << "hxrt-settings-doc: " << docs << " is missing or lacks the lines\n  "
                << hxrt::detail::kSettingsTableBegin << "\n  "
                << hxrt::detail::kSettingsTableEnd << "\n";
      return 1;
    }
    const bool ok = update(root + "/config/hxrt.schema.json",
                           hxrt::detail::settings_schema_text()) &&
                    update(docs, *updated);
    return ok ? 0 : 1;
  } catch (const std::logic_error& e) {  // a row the renderers have no place for
    std::cerr << "hxrt-settings-doc: " << e.what() << '\n';
    return 1;
  }
}

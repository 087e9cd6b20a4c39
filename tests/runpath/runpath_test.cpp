// The RUNPATH and RPATH of every ELF program and shared object in the build tree, read with
// readelf (binutils). An empty entry (a leading, trailing or doubled ':') or a relative one
// makes the dynamic loader search the current directory, so a library planted there (a
// ./libstdc++.so.6) would be loaded into every hxrt program run from it.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "run_program.hpp"

namespace fs = std::filesystem;

namespace {

// True for an entry the loader resolves without the current directory.
bool is_anchored(const std::string& entry) {
  for (const std::string origin : {"$ORIGIN", "${ORIGIN}"}) {
    if (entry == origin || entry.rfind(origin + "/", 0) == 0) return true;
  }
  return !entry.empty() && entry.front() == '/';
}

// The entries of a ':'-separated search path, empty ones included.
std::vector<std::string> split_search_path(const std::string& path) {
  std::vector<std::string> entries;
  std::string::size_type start = 0;
  while (true) {
    const std::string::size_type end = path.find(':', start);
    entries.push_back(path.substr(start, end - start));
    if (end == std::string::npos) return entries;
    start = end + 1;
  }
}

// An executable or a shared object (ELF types ET_EXEC and ET_DYN), not an object file.
bool is_elf_program_or_library(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  char header[18] = {};
  if (!in.read(header, sizeof header)) return false;
  const bool elf = header[0] == 0x7f && header[1] == 'E' && header[2] == 'L' && header[3] == 'F';
  const int type = static_cast<unsigned char>(header[16]);  // little-endian e_type, low byte
  return elf && (type == 2 || type == 3);
}

// Every ELF program and shared object of the build tree, outside CMake's own folders (where
// its compiler checks leave programs of their own).
std::vector<fs::path> built_binaries() {
  std::vector<fs::path> binaries;
  const fs::path root = HXRT_TEST_BUILD_DIR;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
       ++it) {
    if (it->is_directory() && it->path().filename() == "CMakeFiles") {
      it.disable_recursion_pending();
    } else if (it->is_regular_file() && !it->is_symlink() &&
               is_elf_program_or_library(it->path())) {
      binaries.push_back(it->path());
    }
  }
  return binaries;
}

// The search paths in `file`'s dynamic section, as readelf prints them between brackets:
//  0x...1d (RUNPATH)   Library runpath: [/a:$ORIGIN/../lib]
std::vector<std::string> search_paths_of(const fs::path& file) {
  const hxrt_test::ProgramResult readelf =
      hxrt_test::run_program("readelf -d -W " + hxrt_test::shell_quote(file.string()) + " 2>&1");
  INFO(readelf.output);
  REQUIRE(readelf.exit_code == 0);
  std::vector<std::string> paths;
  std::string::size_type line_start = 0;
  while (line_start < readelf.output.size()) {
    std::string::size_type line_end = readelf.output.find('\n', line_start);
    if (line_end == std::string::npos) line_end = readelf.output.size();
    const std::string line = readelf.output.substr(line_start, line_end - line_start);
    line_start = line_end + 1;
    if (line.find("(RUNPATH)") == std::string::npos && line.find("(RPATH)") == std::string::npos) {
      continue;
    }
    const std::string::size_type open = line.find('[');
    const std::string::size_type close = line.rfind(']');
    REQUIRE(open != std::string::npos);
    REQUIRE(close > open);
    paths.push_back(line.substr(open + 1, close - open - 1));
  }
  return paths;
}

}  // namespace

TEST_CASE("a search path entry must be absolute or relative to $ORIGIN") {
  CHECK(is_anchored("/usr/lib"));
  CHECK(is_anchored("$ORIGIN/../lib"));
  CHECK(is_anchored("${ORIGIN}"));
  CHECK_FALSE(is_anchored("$ORIGINAL/lib"));
  CHECK_FALSE(is_anchored(""));
  CHECK_FALSE(is_anchored("lib"));
  CHECK_FALSE(is_anchored("./lib"));
  CHECK(split_search_path("/a:") == std::vector<std::string>{"/a", ""});
  CHECK(split_search_path(":/a") == std::vector<std::string>{"", "/a"});
  CHECK(split_search_path("/a::/b") == std::vector<std::string>{"/a", "", "/b"});
  CHECK(split_search_path("/a") == std::vector<std::string>{"/a"});
}

TEST_CASE("no built program or shared object searches the current directory for libraries") {
  const std::vector<fs::path> binaries = built_binaries();
  // This very test is one of them: an empty list means the walk is broken, not the tree clean.
  REQUIRE(binaries.size() > 1);
  for (const fs::path& binary : binaries) {
    for (const std::string& path : search_paths_of(binary)) {
      for (const std::string& entry : split_search_path(path)) {
        INFO(binary.string() << " has the search path [" << path << "], whose entry '" << entry
                             << "' is empty or relative, so the dynamic loader looks in the "
                                "current directory; give its target an absolute or $ORIGIN-"
                                "relative RPATH (see hxrt_install_program)");
        CHECK(is_anchored(entry));
      }
    }
  }
}

#include "hxcommon/cache_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "hxcommon/fd_io.hpp"

namespace hxcommon {
namespace {

namespace fs = std::filesystem;

std::string time_text(const timespec& time) {
  char text[48];
  std::snprintf(text, sizeof text, "%lld.%09ld", static_cast<long long>(time.tv_sec),
                static_cast<long>(time.tv_nsec));
  return text;
}

}  // namespace

std::optional<std::string> file_identity(const std::string& path) {
  struct stat info;
  if (path.empty() || stat(path.c_str(), &info) != 0) return std::nullopt;
  return std::to_string(info.st_dev) + ":" + std::to_string(info.st_ino) + " " +
         std::to_string(info.st_size) + " " + time_text(info.st_mtim) + " " +
         time_text(info.st_ctim);
}

std::string cache_file_path(const std::string& name) {
  fs::path base;
  const char* cache_home = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  if (cache_home != nullptr && cache_home[0] == '/') {
    base = cache_home;
  } else if (home != nullptr && home[0] == '/') {
    base = fs::path(home) / ".cache";
  } else {
    return {};
  }
  return (base / "hxrt" / name).string();
}

std::optional<std::string> read_small_file(const std::string& path, size_t max_bytes) {
  std::error_code error;
  if (path.empty() || fs::file_size(path, error) > max_bytes || error) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad() || text.size() > max_bytes) return std::nullopt;
  return text;
}

std::string replace_cache_file(const std::string& path, const std::string& text) {
  if (path.empty()) return "no cache folder ($XDG_CACHE_HOME and $HOME are unset)";
  const fs::path folder = fs::path(path).parent_path();
  std::error_code error;
  fs::create_directories(folder, error);
  if (error) return "cannot create the folder " + folder.string() + ": " + error.message();
  // Written beside the file and renamed over it, so that a reader never sees half a file.
  std::string temporary = path + ".XXXXXX";
  const int fd = mkostemp(temporary.data(), O_CLOEXEC);
  if (fd < 0) return "cannot create a file in " + folder.string() + ": " + std::strerror(errno);
  const bool written = write_all(fd, text);
  const int write_error = errno;
  const bool closed = close(fd) == 0;
  if (!written || !closed || rename(temporary.c_str(), path.c_str()) != 0) {
    const int failure = written ? errno : write_error;
    unlink(temporary.c_str());
    return "cannot write " + path + ": " + std::strerror(failure);
  }
  return {};
}

}  // namespace hxcommon

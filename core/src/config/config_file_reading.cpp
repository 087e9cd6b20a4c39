#include "config/config_file_reading.hpp"

#include <cerrno>
#include <cstdint>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/message_text.hpp"
#include "hxrt/error.hpp"
#include "base/file_kind.hpp"

namespace hxrt::detail {
namespace {

// Closes the descriptor however reading ends.
class OpenFile {
 public:
  explicit OpenFile(int descriptor) : descriptor_(descriptor) {}
  OpenFile(const OpenFile&) = delete;
  OpenFile& operator=(const OpenFile&) = delete;
  ~OpenFile() { ::close(descriptor_); }
  int descriptor() const { return descriptor_; }

 private:
  int descriptor_;
};

std::string named(const std::string& path) { return "config file '" + shown(path) + "'"; }

[[noreturn]] void fail_unreadable(const std::string& path, const std::string& named_by,
                                  int error) {
  const bool missing = error == ENOENT || error == ENOTDIR;
  throw Error(missing ? StatusCode::kNotFound : StatusCode::kFailedPrecondition,
              named(path) + " cannot be read (" + std::strerror(error) +
                  "): check the path (given by " + named_by + ")");
}

[[noreturn]] void fail_too_large(const std::string& path, const std::string& named_by) {
  throw Error(StatusCode::kInvalidArgument,
              named(path) + " is larger than the " + std::to_string(kMaxConfigFileBytes >> 20) +
                  " MiB a config file may have: check that " + named_by +
                  " names the config file");
}

void check_regular_file(const struct stat& status, const std::string& path,
                        const std::string& named_by) {
  if (!S_ISREG(status.st_mode)) {
    throw Error(StatusCode::kInvalidArgument,
                named(path) + " is " + file_kind(status.st_mode) +
                    ", not a regular file: point " + named_by + " at a JSON file");
  }
  if (static_cast<uintmax_t>(status.st_size) > kMaxConfigFileBytes) {
    fail_too_large(path, named_by);
  }
}

}  // namespace

std::string read_config_file(const std::string& path, const std::string& named_by) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) fail_unreadable(path, named_by, errno);
  check_regular_file(status, path, named_by);
  // Should the path have become a FIFO since stat, O_NONBLOCK makes open return at once
  // rather than wait for a writer, and fstat sees what was opened.
  const int descriptor = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (descriptor < 0) fail_unreadable(path, named_by, errno);
  const OpenFile file(descriptor);
  if (::fstat(file.descriptor(), &status) != 0) fail_unreadable(path, named_by, errno);
  check_regular_file(status, path, named_by);

  std::string text;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t count = ::read(file.descriptor(), buffer, sizeof buffer);
    if (count < 0 && errno == EINTR) continue;
    if (count < 0) fail_unreadable(path, named_by, errno);
    if (count == 0) return text;
    text.append(buffer, static_cast<size_t>(count));
    // The file may grow after fstat.
    if (text.size() > kMaxConfigFileBytes) fail_too_large(path, named_by);
  }
}

}  // namespace hxrt::detail

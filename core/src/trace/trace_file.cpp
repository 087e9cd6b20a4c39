#include "trace/trace_file.hpp"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hxrt/error.hpp"
#include "base/file_kind.hpp"

namespace hxrt::detail {
namespace {

[[noreturn]] void fail_unwritable(const std::string& path, const std::string& why) {
  throw Error(StatusCode::kInvalidArgument,
              "cannot open '" + path + "' for writing (" + why +
                  "); give a path in a folder that exists and that this process may write to");
}

void check_regular(const struct stat& status, const std::string& path) {
  if (!S_ISREG(status.st_mode)) {
    throw Error(StatusCode::kInvalidArgument,
                "'" + path + "' is " + file_kind(status.st_mode) +
                    ", not a regular file: give the path of a file to write the trace to (a "
                    "new one, or a regular file that the trace replaces)");
  }
}

// The file `path` names once symbolic links are followed; `path` itself when nothing is
// there yet (a dangling link is then replaced by the trace).
std::string resolved(const std::string& path) {
  char* real = ::realpath(path.c_str(), nullptr);
  if (real == nullptr) return path;
  std::string target(real);
  std::free(real);
  return target;
}

// What is at `target` already must be a regular file this process may write: the rename
// would replace a read-only file all the same, but its owner most likely means to keep it.
void check_existing(const std::string& path, const std::string& target) {
  struct stat status {};
  if (::stat(target.c_str(), &status) != 0) {
    if (errno == ENOENT) return;  // a new file
    fail_unwritable(path, std::strerror(errno));
  }
  check_regular(status, path);
  // Should it have become a FIFO since stat, O_NONBLOCK makes open return at once rather than
  // wait for a reader, and fstat sees what was opened. Nothing is truncated.
  const int descriptor = ::open(target.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (descriptor < 0) fail_unwritable(path, std::strerror(errno));
  const bool seen = ::fstat(descriptor, &status) == 0;
  const int error = errno;
  ::close(descriptor);
  if (!seen) fail_unwritable(path, std::strerror(error));
  check_regular(status, path);
}

std::string folder_of(const std::string& file) {
  const size_t slash = file.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : file.substr(0, slash);
}

// Creates "<target>.partial-<pid>-<n>", a name no other file has (O_EXCL, which also refuses
// a symbolic link planted there), with the permissions a new file gets (0666 less the umask).
// Returns its descriptor, or -1 with errno set.
int create_beside(const std::string& target, std::string& temporary) {
  static std::atomic<unsigned> next{0};
  for (int attempt = 0; attempt < 100; ++attempt) {
    temporary = target + ".partial-" + std::to_string(::getpid()) + "-" +
                std::to_string(next.fetch_add(1, std::memory_order_relaxed));
    const int descriptor =
        ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (descriptor >= 0 || errno != EEXIST) return descriptor;
  }
  return -1;  // errno is EEXIST
}

}  // namespace

TraceFile::TraceFile(const std::string& path)
    : path_(path), target_(resolved(path)), stream_(nullptr) {
  check_existing(path_, target_);
  descriptor_ = create_beside(target_, temporary_);
  if (descriptor_ < 0) {
    const int error = errno;
    temporary_.clear();
    fail_unwritable(path_, "cannot create a file in its folder '" + folder_of(target_) +
                               "', where the trace is written first: " +
                               std::strerror(error));
  }
  try {
    output_ = std::make_unique<DescriptorOutput>(descriptor_);
  } catch (...) {
    // No destructor runs for an object whose constructor throws.
    ::close(descriptor_);
    ::unlink(temporary_.c_str());
    throw;
  }
  stream_.rdbuf(output_.get());
}

TraceFile::~TraceFile() {
  if (descriptor_ >= 0) ::close(descriptor_);
  if (!temporary_.empty()) ::unlink(temporary_.c_str());
}

void TraceFile::commit() {
  stream_.flush();
  if (output_->error() != 0) {
    fail("writing it to '" + temporary_ + "' failed", output_->error());
  }
  // Linux closes the descriptor even when close reports an error, so it is not closed again.
  const int descriptor = descriptor_;
  descriptor_ = -1;
  if (::close(descriptor) != 0) fail("closing '" + temporary_ + "' failed", errno);
  if (::rename(temporary_.c_str(), target_.c_str()) != 0) {
    fail("renaming '" + temporary_ + "' over it failed", errno);
  }
  temporary_.clear();
}

void TraceFile::fail(const std::string& step, int error) {
  throw Error(StatusCode::kInternal,
              "the timeline trace could not be written to '" + path_ + "': " + step + " (" +
                  std::strerror(error) +
                  "); the trace is lost and the path is as it was: check that its folder still "
                  "exists and has room, and that nothing else took the path");
}

}  // namespace hxrt::detail

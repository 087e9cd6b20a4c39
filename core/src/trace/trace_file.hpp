// The file a timeline trace is written to, so that neither a reader nor a failure ever finds
// half a trace at its path: the JSON goes to a temporary file created beside the path when the
// trace starts (which is also when an unwritable path is found out), renamed over the path
// once complete, and removed when anything fails. Only a regular file, or a path where none
// is yet, takes a trace: opening a FIFO to write waits for a reader for ever, and a device or
// a folder is nothing a trace can replace.
#pragma once

#include <memory>
#include <ostream>
#include <string>

#include "trace/descriptor_output.hpp"

namespace hxrt::detail {

class TraceFile {
 public:
  // Checks `path` (through a symbolic link, the file it points to, whose folder then holds
  // the temporary file) and creates the temporary file. Error(kInvalidArgument) naming the
  // path when it is not a regular file (saying what it is), or when it, or a file in its
  // folder, cannot be opened for writing (with the system's reason).
  explicit TraceFile(const std::string& path);
  ~TraceFile();  // removes the temporary file unless commit succeeded
  TraceFile(const TraceFile&) = delete;
  TraceFile& operator=(const TraceFile&) = delete;

  // The path as given.
  const std::string& path() const { return path_; }
  std::ostream& stream() { return stream_; }

  // Completes the temporary file and renames it over the path. Error(kInternal) naming the
  // path and the system's reason when a write, the close or the rename failed; the
  // temporary file is then removed, and what was at the path is left as it was.
  void commit();

 private:
  [[noreturn]] void fail(const std::string& step, int error);

  std::string path_;
  std::string target_;     // the path, or the file its symbolic link points to
  std::string temporary_;  // beside target_, so that the rename stays on one file system
  int descriptor_ = -1;    // the temporary file's, until commit closes it
  std::unique_ptr<DescriptorOutput> output_;
  std::ostream stream_;
};

}  // namespace hxrt::detail

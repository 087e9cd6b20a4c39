// A stream buffer that writes to a file descriptor, so that the trace's file, opened with
// open(2) for the flags std::ofstream cannot take (O_EXCL, O_NONBLOCK, O_NOFOLLOW), is still
// written through std::ostream. It keeps the errno of the first write that failed, which a
// stream's badbit forgets, for the message that says why the trace was lost.
#pragma once

#include <streambuf>
#include <vector>

namespace hxrt::detail {

class DescriptorOutput : public std::streambuf {
 public:
  // Writes to `descriptor`, which the caller opened and closes.
  explicit DescriptorOutput(int descriptor);

  // 0, or the errno of the first write that failed; output after it is dropped.
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override;
  int sync() override;

 private:
  bool write_buffered();

  int descriptor_;
  int error_ = 0;
  std::vector<char> buffer_;
};

}  // namespace hxrt::detail

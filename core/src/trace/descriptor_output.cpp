#include "trace/descriptor_output.hpp"

#include <cerrno>

#include <unistd.h>

namespace hxrt::detail {
namespace {

// Large enough that a trace of millions of events costs few system calls.
constexpr size_t kBufferBytes = size_t{1} << 16;

}  // namespace

DescriptorOutput::DescriptorOutput(int descriptor)
    : descriptor_(descriptor), buffer_(kBufferBytes) {
  setp(buffer_.data(), buffer_.data() + buffer_.size());
}

bool DescriptorOutput::write_buffered() {
  const char* next = pbase();
  while (error_ == 0 && next < pptr()) {
    const ssize_t wrote = ::write(descriptor_, next, static_cast<size_t>(pptr() - next));
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote < 0) {
      error_ = errno;
    } else if (wrote == 0) {
      error_ = EIO;  // a regular file that takes no byte of a non-empty write: never expected
    } else {
      next += wrote;
    }
  }
  setp(buffer_.data(), buffer_.data() + buffer_.size());
  return error_ == 0;
}

DescriptorOutput::int_type DescriptorOutput::overflow(int_type c) {
  if (!write_buffered()) return traits_type::eof();
  if (!traits_type::eq_int_type(c, traits_type::eof())) {
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
  }
  return traits_type::not_eof(c);
}

int DescriptorOutput::sync() { return write_buffered() ? 0 : -1; }

}  // namespace hxrt::detail

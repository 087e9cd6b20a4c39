#include "byte_format.hpp"

namespace hxrt_info {

std::string format_limit(size_t bytes) { return bytes == SIZE_MAX ? "none" : format_bytes(bytes); }

}  // namespace hxrt_info

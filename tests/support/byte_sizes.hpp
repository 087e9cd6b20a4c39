// Byte sizes the tests write sizes in, one definition for every test file (a unity build puts
// several test files in one translation unit).
#pragma once

#include <cstddef>

namespace hxrt_test {

inline constexpr size_t kMiB = size_t{1} << 20;

}  // namespace hxrt_test

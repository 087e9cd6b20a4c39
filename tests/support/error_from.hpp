// Catching the hxrt::Error a call throws, so tests can check its code and text.
#pragma once

#include <optional>

#include "hxrt/error.hpp"

namespace hxrt_test {

// The hxrt::Error that `body` throws, or nothing when it throws none.
template <class Body>
std::optional<hxrt::Error> error_from(Body body) {
  try {
    body();
  } catch (const hxrt::Error& error) {
    return error;
  }
  return std::nullopt;
}

}  // namespace hxrt_test

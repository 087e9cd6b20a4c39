// A runtime with the CPU plugin and the declining fixture (tests/fixtures/declining.c): device
// DECLINE:0, a discrete accelerator whose MatMul and Relu kernels decline some calls.
#pragma once

#include <cstdint>
#include <string>

#include "hxrt/runtime.hpp"

namespace placement_test {

inline const std::string kDecline0 = "/job:localhost/replica:0/task:0/device:DECLINE:0";
inline const std::string kDecliningPath =
    std::string(HXRT_TEST_FIXTURE_DIR) + "/placement/libhx_fixture_declining.so";
// The same fixture built for ABI 2.2 (fixture_declining_v22).
inline const std::string kDecliningV22Path =
    std::string(HXRT_TEST_FIXTURE_DIR) + "/placement/libhx_fixture_declining_v22.so";

hxrt::Runtime declining_runtime(const std::string& fixture_path = kDecliningPath);

// The fixture's MatMul instances made and destroyed since the library was loaded. The caller
// holds the library loaded (DecliningLibrary), so the counts outlive any runtime.
struct InstanceCounts {
  int64_t creates;
  int64_t destroys;
};

class DecliningLibrary {
 public:
  explicit DecliningLibrary(const std::string& path = kDecliningPath);
  ~DecliningLibrary();
  DecliningLibrary(const DecliningLibrary&) = delete;
  DecliningLibrary& operator=(const DecliningLibrary&) = delete;

  InstanceCounts counts() const;
  // How many times the core has asked the Relu kernels' checks.
  int64_t checks() const;

 private:
  void* library_;
};

}  // namespace placement_test

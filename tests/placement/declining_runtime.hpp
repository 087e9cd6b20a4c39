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

hxrt::Runtime declining_runtime();

// The fixture's MatMul instances made and destroyed since the library was loaded. The caller
// holds the library loaded (DecliningLibrary), so the counts outlive any runtime.
struct InstanceCounts {
  int64_t creates;
  int64_t destroys;
};

class DecliningLibrary {
 public:
  DecliningLibrary();
  ~DecliningLibrary();
  DecliningLibrary(const DecliningLibrary&) = delete;
  DecliningLibrary& operator=(const DecliningLibrary&) = delete;

  InstanceCounts counts() const;

 private:
  void* library_;
};

}  // namespace placement_test

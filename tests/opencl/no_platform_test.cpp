// With no OpenCL platform the plugin loads, reports zero devices and says why.
#include <catch2/catch.hpp>

#include <stdlib.h>

#include "opencl_harness.hpp"
#include "temp_dir.hpp"

namespace opencl_test {
namespace {

TEST_CASE("With no OpenCL platform the plugin loads with no devices and says why",
          "[opencl]") {
  // An empty vendors folder: the ICD loader finds no platform (CL_PLATFORM_NOT_FOUND_KHR).
  const hxrt_test::TempDir vendors("opencl_no_vendors");
  REQUIRE(setenv("OCL_ICD_VENDORS", vendors.path().c_str(), 1) == 0);
  REQUIRE(unsetenv("OCL_ICD_FILENAMES") == 0);
  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  int32_t count = -1;
  const Outcome counted =
      DirectPlugin::outcome(plugin.api().device_count(plugin.api().plugin, &count));
  CHECK(counted.code == HX_UNAVAILABLE);
  CHECK(counted.message == "no OpenCL platform (install an ICD such as pocl-opencl-icd)");
  CHECK(count == 0);
  hx_device* device = nullptr;
  CHECK(DirectPlugin::outcome(plugin.api().device_get(plugin.api().plugin, 0, &device)).code ==
        HX_OUT_OF_RANGE);
}

}  // namespace
}  // namespace opencl_test

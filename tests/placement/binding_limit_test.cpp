// A device's binding limit (hx_device_properties.max_binding, ABI 2.5): a call whose input or
// output spans more bytes than one kernel of the device may bind declines the device's kernels,
// so placement moves the op on, or, where the request allows no other device, fails naming the
// limit. The sim's kernels refuse such a view themselves, so a core that passed one would fail.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "hxrt/hxrt.hpp"
#include "sim_runtime.hpp"

using namespace placement_test;

namespace {

// A simulated GPU whose kernels bind at most 64 KiB: 16,384 floats.
hxrt::Runtime gpu_binding_64k(bool strict = false) {
  hxrt::RuntimeOptions options = sim_options(
      R"({"device_type": "GPU", "device_count": 1, "max_binding": 65536})");
  options.log_device_placement = true;
  if (strict) options.soft_placement = hxrt::SoftPlacement::kStrict;
  return hxrt::Runtime::create(options);
}

}  // namespace

TEST_CASE("An op within the binding limit runs on the device, and one beyond it moves to the "
          "next device and says why", "[placement]") {
  hxrt::Runtime rt = gpu_binding_64k();
  LogCapture log;
  log.attach(rt);
  CHECK(rt.devices()[1].max_binding == 65536);
  const std::vector<float> small(16384, 1.0f);  // 64 KiB: exactly the limit
  const hxrt::Tensor a = rt.tensor({16384}, small, "/GPU:0");
  CHECK(rt.execute("Add", {a, a}).device() == kGpu0);

  const std::vector<float> large(16385, 2.0f);  // one float more
  const hxrt::Tensor b = rt.tensor({16385}, large, "/GPU:0");  // copies are not limited
  const hxrt::Tensor sum = rt.execute("Add", {b, b});
  CHECK(sum.device() == kCpu0);
  CHECK(sum.to_vector<float>() == std::vector<float>(16385, 4.0f));
  CHECK(log.count_starting_with("Executing op Add in device " + kCpu0) == 1);
  bool said_why = false;
  for (const std::string& line : log.lines) {
    said_why |= line.find("input 0 spans 64.00 KiB") != std::string::npos &&
                line.find("max_binding 64.00 KiB") != std::string::npos;
  }
  CHECK(said_why);
}

TEST_CASE("A broadcast input reaches only its own elements, so a small one stays within the "
          "limit", "[placement]") {
  hxrt::Runtime rt = gpu_binding_64k();
  const std::vector<float> row(4096, 1.0f);                 // 16 KiB
  const std::vector<float> column(4, 3.0f);                 // broadcast across 4,096 columns
  const hxrt::Tensor a = rt.tensor({1, 4096}, row, "/GPU:0");
  const hxrt::Tensor b = rt.tensor({4, 1}, column, "/GPU:0");
  const hxrt::Tensor sum = rt.execute("Add", {a, b});  // output 4 x 4096 = 64 KiB
  CHECK(sum.device() == kGpu0);
  CHECK(sum.to_vector<float>() == std::vector<float>(4 * 4096, 4.0f));
}

TEST_CASE("Asked for the device strictly, an op beyond the binding limit fails naming it",
          "[placement]") {
  hxrt::Runtime rt = gpu_binding_64k(/*strict=*/true);
  const hxrt::Tensor big = rt.tensor({32768}, std::vector<float>(32768, 1.0f), "/GPU:0");
  const auto error = error_from([&] { rt.execute("Relu", {big}, {}, "/GPU:0"); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("declined: input 0 spans 128.00 KiB") &&
                                Catch::Contains("(max_binding 64.00 KiB)"));
}

TEST_CASE("A graph node beyond the binding limit is placed on another device at compile time",
          "[placement]") {
  hxrt::Runtime rt = gpu_binding_64k();
  hxrt::GraphBuilder builder(rt);
  const hxrt::NodeOutput x = builder.input("x", hxrt::DType::kF32, {32768});
  const hxrt::NodeOutput y = builder.input("y", hxrt::DType::kF32, {8});
  const hxrt::NodeOutput big = builder.add("big", "Relu", {x});
  const hxrt::NodeOutput small = builder.add("small", "Relu", {y});
  const hxrt::Executable executable = rt.compile(builder.graph(), {big, small});
  const std::vector<hxrt::Tensor> outputs =
      executable.run({{"x", rt.tensor({32768}, std::vector<float>(32768, -1.0f))},
                      {"y", rt.tensor({8}, std::vector<float>(8, 5.0f))}});
  CHECK(outputs[0].device() == kCpu0);
  CHECK(outputs[0].to_vector<float>() == std::vector<float>(32768, 0.0f));
  CHECK(outputs[1].device() == kGpu0);
  CHECK(outputs[1].to_vector<float>() == std::vector<float>(8, 5.0f));
}

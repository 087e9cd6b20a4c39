#include <catch2/catch.hpp>

#include <string>

#include "base/device_name.hpp"
#include "hxrt/error.hpp"

using hxrt::Error;
using hxrt::StatusCode;
using hxrt::detail::DeviceSpec;
using hxrt::detail::parse_device_name;

namespace {

struct Expected {
  std::string job;
  int replica;
  int task;
  std::string type;
  int index;
};

void check_spec(const DeviceSpec& spec, const Expected& expected) {
  CHECK(spec.job == expected.job);
  CHECK(spec.replica == expected.replica);
  CHECK(spec.task == expected.task);
  CHECK(spec.type == expected.type);
  CHECK(spec.index == expected.index);
}

}  // namespace

TEST_CASE("every full device form of the guide parses to the same device") {
  const char* cpu_names[] = {"/device:CPU:0", "/CPU:0", "/cpu:0", "CPU:0", "cpu:0"};
  for (const char* name : cpu_names) {
    INFO(name);
    check_spec(parse_device_name(name), {"", -1, -1, "CPU", 0});
  }
  const char* gpu_names[] = {"/GPU:1", "/gpu:1", "/device:GPU:1", "/device:gpu:1", "GPU:1"};
  for (const char* name : gpu_names) {
    INFO(name);
    const DeviceSpec spec = parse_device_name(name);
    check_spec(spec, {"", -1, -1, "GPU", 1});
    CHECK(spec.fully_specified());
    CHECK(to_string(spec) == "/job:localhost/replica:0/task:0/device:GPU:1");
  }
}

TEST_CASE("the canonical name parses back to itself") {
  const std::string canonical = "/job:localhost/replica:0/task:0/device:GPU:1";
  const DeviceSpec spec = parse_device_name(canonical);
  check_spec(spec, {"localhost", 0, 0, "GPU", 1});
  CHECK(to_string(spec) == canonical);
  CHECK(hxrt::detail::canonical_device_name("GPU", 1) == canonical);
  CHECK(hxrt::detail::short_device_name("GPU", 1) == "GPU:1");
}

TEST_CASE("partial specs leave the rest open") {
  SECTION("/GPU") {
    const DeviceSpec spec = parse_device_name("/GPU");
    check_spec(spec, {"", -1, -1, "GPU", -1});
    CHECK_FALSE(spec.fully_specified());
    CHECK(to_string(spec) == "/job:localhost/device:GPU");
  }
  SECTION("/device:GPU") {
    check_spec(parse_device_name("/device:GPU"), {"", -1, -1, "GPU", -1});
  }
  SECTION("/job:localhost") {
    const DeviceSpec spec = parse_device_name("/job:localhost");
    check_spec(spec, {"localhost", -1, -1, "", -1});
    CHECK(to_string(spec) == "/job:localhost");
  }
  SECTION("/job:localhost/replica:0/task:1") {
    const DeviceSpec spec = parse_device_name("/job:localhost/replica:0/task:1");
    check_spec(spec, {"localhost", 0, 1, "", -1});
    CHECK(to_string(spec) == "/job:localhost/replica:0/task:1");
  }
  SECTION("/job:localhost/device:CPU:0 fills in replica and task when printed") {
    CHECK(to_string(parse_device_name("/job:localhost/device:CPU:0")) ==
          "/job:localhost/replica:0/task:0/device:CPU:0");
  }
}

TEST_CASE("plugin device types parse like CPU and GPU") {
  check_spec(parse_device_name("/SIM:3"), {"", -1, -1, "SIM", 3});
  check_spec(parse_device_name("/sim:3"), {"", -1, -1, "SIM", 3});
  check_spec(parse_device_name("/device:MY_ACCEL_2:0"), {"", -1, -1, "MY_ACCEL_2", 0});
  check_spec(parse_device_name("/device:my_accel_2:0"), {"", -1, -1, "MY_ACCEL_2", 0});
}

TEST_CASE("the largest index an int holds is accepted") {
  CHECK(parse_device_name("/GPU:2147483647").index == 2147483647);
}

TEST_CASE("malformed device names are errors that quote the name and list the forms") {
  const char* malformed[] = {
      "",
      "/",
      "GPU:",
      "GPU:-1",
      "GPU:+1",
      "GPU:1x",
      "/device:",
      "/device:GPU:",
      "/device:GPU:0:1",
      "/job:localhost/replica:x",
      "/job:localhost/task:",
      "/job:",
      "/job",
      "/job:1host",
      "/foo:1:2",
      "/GPU:0/CPU:0",
      "/device:GPU:0/job:localhost",
      "/task:0/replica:0",
      "/job:a/job:b",
      "//GPU:0",
      "/GPU:0/",
      "GPU 0",
      "/1GPU:0",
      "/G-PU:0",
      "/GPU:2147483648",
      "/GPU:99999999999999999999999",
      "/device:task:3",
      "/device:JOB",
  };
  for (const char* name : malformed) {
    INFO("name: '" << name << "'");
    try {
      parse_device_name(name);
      FAIL("accepted");
    } catch (const Error& error) {
      CHECK(error.code() == StatusCode::kInvalidArgument);
      const std::string message = error.what();
      CHECK_THAT(message, Catch::Contains("'" + std::string(name) + "'"));
      CHECK_THAT(message, Catch::Contains("/job:localhost/replica:0/task:0/device:GPU:1"));
      CHECK_THAT(message, Catch::Contains("\"/GPU:1\""));
      CHECK_THAT(message, Catch::Contains("\"/GPU\""));
    }
  }
}

TEST_CASE("device name errors say what is wrong") {
  const auto message_of = [](const char* name) {
    try {
      parse_device_name(name);
    } catch (const Error& error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  CHECK_THAT(message_of(""), Catch::Contains("empty"));
  CHECK_THAT(message_of("GPU:1x"), Catch::Contains("device index '1x'"));
  CHECK_THAT(message_of("/GPU:2147483648"), Catch::Contains("larger than 2147483647"));
  CHECK_THAT(message_of("/job:localhost/replica:x"), Catch::Contains("replica 'x'"));
  CHECK_THAT(message_of("/GPU:0/CPU:0"), Catch::Contains("names the device twice"));
  CHECK_THAT(message_of("/device:GPU:0/job:localhost"),
             Catch::Contains("'job:localhost' comes too late"));
  CHECK_THAT(message_of("/foo:1:2"),
             Catch::Contains("'foo:1:2' is not of the form TYPE or TYPE:INDEX"));
  CHECK_THAT(message_of("GPU 0"), Catch::Contains("'GPU 0' is not a device type"));
  CHECK_THAT(message_of("//GPU:0"), Catch::Contains("empty component"));
  CHECK_THAT(message_of("/device:task:3"),
             Catch::Contains("'task' is a component keyword (job, replica, task, device)"));
}

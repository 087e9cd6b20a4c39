// Host memory (HX_MEMORY_HOST): the core reads and writes it directly, and a device of
// another host-memory plugin reads a tensor in place, with no copy at all. The fixture plugin
// HOSTMEM (tests/fixtures/host_memory.c) counts its copy calls.
#include <dlfcn.h>

#include <catch2/catch.hpp>
#include <hxrt/hxrt.hpp>
#include <mutex>

namespace {

const std::string kFixture = std::string(HXRT_TEST_FIXTURE_DIR) + "/libhx_fixture_host_memory.so";

unsigned long fixture_copies() {
  void* library = dlopen(kFixture.c_str(), RTLD_NOW | RTLD_NOLOAD);
  REQUIRE(library != nullptr);
  auto copies = reinterpret_cast<unsigned long (*)()>(
      dlsym(library, "hx_fixture_host_memory_copies"));
  REQUIRE(copies != nullptr);
  const unsigned long count = copies();
  dlclose(library);
  return count;
}

struct Log {
  std::mutex mutex;
  std::string text;
};

}  // namespace

TEST_CASE("A host-memory device reads another plugin's host memory in place, and the core "
          "reads and writes host memory directly", "[execution]") {
  auto log = std::make_shared<Log>();
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so", kFixture};
  options.log_sink = [log](hxrt::LogLevel, std::string_view message) {
    std::lock_guard<std::mutex> lock(log->mutex);
    log->text.append(message).append("\n");
  };
  hxrt::Runtime rt = hxrt::Runtime::create(options);
  REQUIRE(rt.devices().size() == 2);
  rt.set_log_device_placement(true);
  const unsigned long copies_before = fixture_copies();

  const hxrt::Tensor on_cpu = rt.tensor<float>({4}, {-1, 2, -3, 4}, "/CPU:0");
  const hxrt::Tensor relu = rt.execute("Relu", {on_cpu}, {}, "/HOSTMEM:0");
  CHECK(relu.device() == "/job:localhost/replica:0/task:0/device:HOSTMEM:0");
  CHECK(relu.to_vector<float>() == std::vector<float>{0, 2, 0, 4});
  const hxrt::Tensor uploaded = rt.tensor<float>({2}, {5, 6}, "/HOSTMEM:0");
  CHECK(uploaded.to_vector<float>() == std::vector<float>{5, 6});
  // The CPU's Relu reads the fixture's tensor in place too.
  const hxrt::Tensor back = rt.execute("Relu", {relu}, {}, "/CPU:0");
  CHECK(back.to_vector<float>() == std::vector<float>{0, 2, 0, 4});

  CHECK(fixture_copies() == copies_before);
  std::lock_guard<std::mutex> lock(log->mutex);
  CHECK_THAT(log->text, Catch::Contains("Reading input 0 of Relu in place from "
                                        "/job:localhost/replica:0/task:0/device:CPU:0"));
  CHECK_THAT(log->text, !Catch::Contains("Copying input"));
}

#include "declining_runtime.hpp"

#include <dlfcn.h>

#include <stdexcept>

namespace placement_test {

hxrt::Runtime declining_runtime(const std::string& fixture_path) {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so", fixture_path};
  return hxrt::Runtime::create(options);
}

DecliningLibrary::DecliningLibrary(const std::string& path)
    : library_(dlopen(path.c_str(), RTLD_NOW)) {
  if (library_ == nullptr) throw std::runtime_error("cannot load " + path);
}

DecliningLibrary::~DecliningLibrary() { dlclose(library_); }

InstanceCounts DecliningLibrary::counts() const {
  using CountsFn = void (*)(int64_t*, int64_t*);
  auto counts = reinterpret_cast<CountsFn>(dlsym(library_, "fixture_declining_counts"));
  if (counts == nullptr) throw std::runtime_error("no fixture_declining_counts in the fixture");
  InstanceCounts out{};
  counts(&out.creates, &out.destroys);
  return out;
}

int64_t DecliningLibrary::checks() const {
  using ChecksFn = int64_t (*)();
  auto checks = reinterpret_cast<ChecksFn>(dlsym(library_, "fixture_declining_checks"));
  if (checks == nullptr) throw std::runtime_error("no fixture_declining_checks in the fixture");
  return checks();
}

}  // namespace placement_test

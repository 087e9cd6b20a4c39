#include "declining_runtime.hpp"

#include <dlfcn.h>

#include <stdexcept>

namespace placement_test {

hxrt::Runtime declining_runtime() {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so", kDecliningPath};
  return hxrt::Runtime::create(options);
}

DecliningLibrary::DecliningLibrary() : library_(dlopen(kDecliningPath.c_str(), RTLD_NOW)) {
  if (library_ == nullptr) throw std::runtime_error("cannot load " + kDecliningPath);
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

}  // namespace placement_test

// Graph constants carry an id to the kernels that read them (ABI 2.10, hx_kernel_args.
// input_constants), the same on every run of an executable, another for each constant and each
// compile, none for eager calls; the kernels hear that the ids are gone when the executable is
// destroyed (hx_kernel_def.forget_constants). The fixture IDS records what its Add received.
#include <catch2/catch.hpp>
#include <hxrt/hxrt.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using hxrt::DType;
using hxrt::GraphBuilder;
using hxrt::NodeOutput;
using hxrt::Tensor;

namespace {

const std::string kFixture = HXRT_TEST_FIXTURE_DIR "/placement/libhx_fixture_constant_ids.so";

// The fixture's record, read through the copy of it the runtime loaded (dlopen of the same
// path gives the same library).
class IdsRecord {
 public:
  IdsRecord() : library_(dlopen(kFixture.c_str(), RTLD_NOW | RTLD_NOLOAD)) {
    REQUIRE(library_ != nullptr);
    last_ = reinterpret_cast<LastFn>(dlsym(library_, "fixture_constant_ids_last"));
    forgotten_ = reinterpret_cast<ForgottenFn>(dlsym(library_, "fixture_constant_ids_forgotten"));
    REQUIRE(last_ != nullptr);
    REQUIRE(forgotten_ != nullptr);
  }
  ~IdsRecord() { dlclose(library_); }
  IdsRecord(const IdsRecord&) = delete;
  IdsRecord& operator=(const IdsRecord&) = delete;

  // The last Add's input ids; nullopt when it had none (input_constants NULL).
  std::optional<std::vector<uint64_t>> last() const {
    std::vector<uint64_t> ids(2);
    if (!last_(&ids[0], &ids[1])) return std::nullopt;
    return ids;
  }
  std::vector<uint64_t> forgotten() const {
    std::vector<uint64_t> ids(64);
    ids.resize(std::min<size_t>(forgotten_(ids.data(), ids.size()), ids.size()));
    return ids;
  }

 private:
  using LastFn = int (*)(uint64_t*, uint64_t*);
  using ForgottenFn = size_t (*)(uint64_t*, size_t);
  void* library_;
  LastFn last_ = nullptr;
  ForgottenFn forgotten_ = nullptr;
};

hxrt::Runtime ids_runtime() {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so", kFixture};
  return hxrt::Runtime::create(options);
}

// y = (x + c) + d on IDS:0, c and d constants.
hxrt::Graph sum_graph(hxrt::Runtime& rt) {
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {3});
  const NodeOutput c = builder.constant("c", rt.tensor<float>({3}, {1, 2, 3}));
  const NodeOutput d = builder.constant("d", rt.tensor<float>({3}, {10, 20, 30}));
  const NodeOutput first = builder.add("first", "Add", {x, c}, {}, "/IDS:0");
  builder.add("second", "Add", {first, d}, {}, "/IDS:0");
  return builder.build();
}

bool contains(const std::vector<uint64_t>& ids, uint64_t id) {
  return std::count(ids.begin(), ids.end(), id) == 1;
}

}  // namespace

TEST_CASE("Kernels get an id for each graph constant they read, the same on every run",
          "[graph][constant_ids]") {
  hxrt::Runtime rt = ids_runtime();
  const IdsRecord record;
  const hxrt::Graph graph = sum_graph(rt);
  auto exe = std::make_unique<hxrt::Executable>(rt.compile(graph, {{"second", 0}}));
  const Tensor x = rt.tensor<float>({3}, {0.5f, 0.5f, 0.5f});
  CHECK(exe->run({{"x", x}})[0].to_string() == "[11.5, 22.5, 33.5]");
  // The last Add read the first's output (no constant) and d.
  const std::optional<std::vector<uint64_t>> first_run = record.last();
  REQUIRE(first_run);
  CHECK((*first_run)[0] == 0);
  const uint64_t d_id = (*first_run)[1];
  CHECK(d_id != 0);
  exe->run({{"x", x}});
  CHECK(record.last() == first_run);

  // Another compile of the same graph: other ids.
  auto again = std::make_unique<hxrt::Executable>(rt.compile(graph, {{"second", 0}}));
  again->run({{"x", x}});
  REQUIRE(record.last());
  const uint64_t again_d_id = (*record.last())[1];
  CHECK(again_d_id != 0);
  CHECK(again_d_id != d_id);

  // An eager call passes none.
  CHECK(rt.execute("Add", {x, x}, hxrt::kNoAttrs, "/IDS:0").to_string() == "[1, 1, 1]");
  CHECK_FALSE(record.last());

  // Destroying an executable forgets its ids (c's and d's), once each, and no other's.
  const size_t before = record.forgotten().size();
  exe.reset();
  std::vector<uint64_t> forgotten = record.forgotten();
  REQUIRE(forgotten.size() == before + 2);
  CHECK(contains(forgotten, d_id));
  CHECK_FALSE(contains(forgotten, again_d_id));
  const uint64_t c_id = forgotten[before] == d_id ? forgotten[before + 1] : forgotten[before];
  CHECK(c_id != 0);
  CHECK(c_id != d_id);
  again.reset();
  forgotten = record.forgotten();
  CHECK(forgotten.size() == before + 4);
  CHECK(contains(forgotten, again_d_id));
}

// Every sim kernel against the CPU plugin's kernel: the same op on random inputs, placed once
// on /GPU:0 (the sim plugin) and once on /CPU:0, must agree.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "sim_test_support.hpp"

namespace {

constexpr const char* kGpu0 = "/job:localhost/replica:0/task:0/device:GPU:0";
constexpr const char* kCpu0 = "/job:localhost/replica:0/task:0/device:CPU:0";

struct Results {
  std::vector<float> sim;
  std::vector<float> cpu;
};

// Runs `op` on both devices; checks that each result lives where it was asked to run, so that
// a silent fallback to the CPU cannot make the comparison pass.
Results run_on_both(const std::string& op, const std::vector<hxrt::Tensor>& inputs,
                    const hxrt::Attrs& attrs = {}) {
  hxrt::Runtime& rt = sim_test::four_gpus();
  const hxrt::Tensor on_sim = rt.execute(op, inputs, attrs, "/GPU:0");
  const hxrt::Tensor on_cpu = rt.execute(op, inputs, attrs, "/CPU:0");
  CHECK(on_sim.device() == kGpu0);
  CHECK(on_cpu.device() == kCpu0);
  REQUIRE(on_sim.shape() == on_cpu.shape());
  REQUIRE(on_sim.dtype() == hxrt::DType::kF32);
  return {on_sim.to_vector<float>(), on_cpu.to_vector<float>()};
}

void require_equal(const Results& results) {
  REQUIRE(results.sim.size() == results.cpu.size());
  for (size_t i = 0; i < results.sim.size(); ++i) {
    INFO("element " << i);
    if (std::isnan(results.cpu[i])) {
      CHECK(std::isnan(results.sim[i]));
    } else {
      CHECK(results.sim[i] == results.cpu[i]);
    }
  }
}

hxrt::Tensor random_tensor(const hxrt::Shape& shape, uint32_t seed) {
  return sim_test::four_gpus().tensor<float>(
      shape, sim_test::random_floats(static_cast<size_t>(shape.num_elements()), seed));
}

}  // namespace

TEST_CASE("Sim MatMul agrees with the CPU for both values of transpose_b", "[sim][kernels]") {
  const bool transpose_a = false;  // declined by the sim kernel: see the next test
  const bool transpose_b = GENERATE(false, true);
  const int64_t m = 7, k = 13, n = 5;
  INFO("transpose_a=" << transpose_a << " transpose_b=" << transpose_b);
  const hxrt::Tensor a = random_tensor(transpose_a ? hxrt::Shape{k, m} : hxrt::Shape{m, k}, 1);
  const hxrt::Tensor b = random_tensor(transpose_b ? hxrt::Shape{n, k} : hxrt::Shape{k, n}, 2);
  const Results results =
      run_on_both("MatMul", {a, b}, {{"transpose_a", transpose_a}, {"transpose_b", transpose_b}});
  REQUIRE(results.sim.size() == static_cast<size_t>(m * n));
  // BLAS sums in another order, with fused multiply-adds: equal up to rounding.
  for (size_t i = 0; i < results.sim.size(); ++i) {
    INFO("element " << i);
    CHECK(results.sim[i] == Approx(results.cpu[i]).epsilon(1e-5).margin(1e-4));
  }
}

TEST_CASE("Sim MatMul declines transpose_a, and the op falls back to the CPU", "[sim][kernels]") {
  hxrt::Runtime& rt = sim_test::four_gpus();
  const hxrt::Tensor a = random_tensor({3, 2}, 1);
  const hxrt::Tensor b = random_tensor({3, 4}, 2);
  const hxrt::Attrs attrs = {{"transpose_a", true}};
  const hxrt::Tensor asked_gpu = rt.execute("MatMul", {a, b}, attrs, "/GPU:0");
  const hxrt::Tensor on_cpu = rt.execute("MatMul", {a, b}, attrs, "/CPU:0");
  CHECK(asked_gpu.device() == kCpu0);
  CHECK(asked_gpu.to_vector<float>() == on_cpu.to_vector<float>());
}

TEST_CASE("Sim MatMul with an empty inner dimension gives zeros", "[sim][kernels]") {
  const Results results =
      run_on_both("MatMul", {random_tensor({3, 0}, 3), random_tensor({0, 2}, 4)});
  CHECK(results.sim == std::vector<float>(6, 0.0f));
  require_equal(results);
}

TEST_CASE("Sim Add and Mul agree with the CPU, broadcasting one-element operands",
          "[sim][kernels]") {
  const std::string op = GENERATE("Add", "Mul");
  struct Shapes {
    hxrt::Shape x, y;
  };
  const Shapes shapes = GENERATE(Shapes{{4, 6}, {4, 6}}, Shapes{{4, 6}, {}}, Shapes{{1, 1}, {4, 6}},
                                 Shapes{{1}, {}}, Shapes{{0, 3}, {1}});
  INFO(op << " " << shapes.x.to_string() << " " << shapes.y.to_string());
  const Results results = run_on_both(op, {random_tensor(shapes.x, 5), random_tensor(shapes.y, 6)});
  require_equal(results);
}

TEST_CASE("Sim Relu agrees with the CPU, NaN included", "[sim][kernels]") {
  std::vector<float> values = sim_test::random_floats(40, 7);
  values[3] = NAN;
  values[4] = -0.0f;
  const hxrt::Tensor x = sim_test::four_gpus().tensor<float>({5, 8}, values);
  const Results results = run_on_both("Relu", {x});
  CHECK(std::isnan(results.sim[3]));
  require_equal(results);
}

TEST_CASE("Sim AddN agrees with the CPU", "[sim][kernels]") {
  const size_t n = GENERATE(1, 2, 5);
  std::vector<hxrt::Tensor> inputs;
  for (size_t i = 0; i < n; ++i)
    inputs.push_back(random_tensor({3, 4}, 10 + static_cast<uint32_t>(i)));
  require_equal(run_on_both("AddN", inputs));
}

TEST_CASE("Sim Identity copies its input", "[sim][kernels]") {
  const hxrt::Tensor x = random_tensor({2, 3, 4}, 20);
  const Results results = run_on_both("Identity", {x});
  CHECK(results.sim == x.to_vector<float>());
  require_equal(results);
}

TEST_CASE("Sim AllGather joins its replicas along axis 0, as the CPU does", "[sim][kernels]") {
  struct Call {
    size_t replicas;
    hxrt::Shape shape, gathered;
  };
  const Call call = GENERATE(Call{1, {3, 4}, {3, 4}}, Call{3, {2, 1, 3}, {6, 1, 3}},
                             Call{2, {}, {2}}, Call{3, {0, 2}, {0, 2}});
  INFO(call.replicas << " of " << call.shape.to_string());
  std::vector<hxrt::Tensor> replicas;
  std::vector<float> joined;
  for (size_t i = 0; i < call.replicas; ++i) {
    replicas.push_back(random_tensor(call.shape, 30 + static_cast<uint32_t>(i)));
    for (float value : replicas.back().to_vector<float>()) joined.push_back(value);
  }
  CHECK(sim_test::four_gpus().execute("AllGather", replicas, {}, "/GPU:0").shape() ==
        call.gathered);
  const Results results = run_on_both("AllGather", replicas);
  CHECK(results.sim == joined);
  require_equal(results);
}

TEST_CASE("Sim Broadcast copies the root's tensor", "[sim][kernels]") {
  const hxrt::Shape shape = GENERATE(hxrt::Shape{2, 3, 4}, hxrt::Shape{}, hxrt::Shape{0, 3});
  const hxrt::Tensor root = random_tensor(shape, 40);
  const Results results = run_on_both("Broadcast", {root});
  CHECK(results.sim == root.to_vector<float>());
  require_equal(results);
}

TEST_CASE("Sim Fill agrees with the CPU", "[sim][kernels]") {
  const double value = GENERATE(2.5, -1e10, 0.1);
  const hxrt::Attrs attrs{{"shape", std::vector<int64_t>{3, 5}}, {"value", value}};
  const Results results = run_on_both("Fill", {}, attrs);
  CHECK(results.sim == std::vector<float>(15, static_cast<float>(value)));
  require_equal(results);
}

// hxrt::Op: an op resolved once by name (Runtime::op), run through the same execute calls.
#include <catch2/catch.hpp>

#include <vector>

#include "hxrt/runtime.hpp"
#include "runtime_fixture.hpp"

using namespace runtime_test;
using Catch::Matchers::Contains;

TEST_CASE("an Op handle runs its op as the name does") {
  hxrt::Runtime rt = cpu_runtime();
  const hxrt::Op matmul = rt.op("MatMul");
  CHECK(matmul.valid());
  CHECK(matmul.name() == "MatMul");
  const hxrt::Tensor a = rt.tensor<float>({2, 2}, {1, 2, 3, 4});
  CHECK(rt.execute(matmul, {a, a}).to_vector<float>() ==
        rt.execute("MatMul", {a, a}).to_vector<float>());
  CHECK(rt.execute(matmul, std::vector<hxrt::Tensor>{a, a}, {{"transpose_b", true}})
            .to_vector<float>() == std::vector<float>{5, 11, 11, 25});
  const std::vector<hxrt::Tensor> outputs = rt.execute_multi(rt.op("Relu"), {a});
  REQUIRE(outputs.size() == 1);
  CHECK(outputs[0].to_vector<float>() == std::vector<float>{1, 2, 3, 4});
}

TEST_CASE("Runtime::op refuses an unknown name, listing the ops") {
  hxrt::Runtime rt = cpu_runtime();
  auto error = error_from([&] { rt.op("MatMull"); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kNotFound);
  CHECK_THAT(error->what(), Contains("unknown op 'MatMull'") && Contains("MatMul"));
}

TEST_CASE("an empty Op handle, or one of another runtime, is refused") {
  hxrt::Runtime rt = cpu_runtime();
  hxrt::Runtime other = cpu_runtime();
  const hxrt::Tensor a = rt.tensor<float>({2}, {1, 2});
  const hxrt::Op empty;
  CHECK_FALSE(empty.valid());
  CHECK(empty.name().empty());
  auto error = error_from([&] { rt.execute(empty, {a}); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(), Contains("empty") && Contains("Runtime::op"));

  error = error_from([&] { rt.execute(other.op("Relu"), {a}); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(), Contains("'Relu' was resolved by another runtime"));
}

TEST_CASE("an Op handle of several outputs is refused by execute, as its name is") {
  hxrt::Runtime rt = cpu_runtime();
  for (const hxrt::OpInfo& info : rt.ops()) {
    // Ops of a fixed number of outputs; MaxPool, whose calls decide theirs (Indices is
    // variadic), has one unless asked for two.
    if (info.outputs.size() < 2 || info.outputs.back().variadic) continue;
    const hxrt::Op op = rt.op(info.name);
    auto error = error_from([&] { rt.execute(op, std::vector<hxrt::Tensor>{}); });
    REQUIRE(error);
    CHECK_THAT(error->what(), Contains("execute_multi"));
  }
}

TEST_CASE("an Op handle keeps its runtime's op table alive") {
  hxrt::Op relu;
  {
    hxrt::Runtime rt = cpu_runtime();
    relu = rt.op("Relu");
  }
  CHECK(relu.name() == "Relu");
}

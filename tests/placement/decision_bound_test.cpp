// The placer keeps a decision per kind of request, and a request may name any device: past
// Placer::kMostDecisions kept, new kinds are decided per call, so a program that names ever new
// devices does not grow the runtime without end (ARCHITECTURE.md, "The caches").
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "graph/graph_context.hpp"
#include "placement/placer.hpp"
#include "sim_runtime.hpp"

using hxrt::detail::Placer;

TEST_CASE("Requests for ever new devices keep at most kMostDecisions decisions, each placed") {
  hxrt::Runtime rt = placement_test::four_gpus();
  rt.set_soft_placement(hxrt::SoftPlacement::kSoft);  // an unknown device falls back
  const hxrt::Tensor x = rt.tensor<float>({2}, {-1.0f, 2.0f}, "/CPU:0");
  const Placer& placer = *hxrt::detail::graph_context_of(rt)->placer;
  const size_t requests = Placer::kMostDecisions + 500;
  for (size_t i = 0; i < requests; ++i) {
    const hxrt::Tensor y = rt.execute("Relu", {x}, {}, "/GPU:" + std::to_string(100 + i));
    REQUIRE(y.to_vector<float>() == std::vector<float>{0.0f, 2.0f});
  }
  CHECK(placer.cached_decisions() <= Placer::kMostDecisions);
  CHECK(placer.cached_decisions() >= Placer::kMostDecisions - 10);  // the table was used
}

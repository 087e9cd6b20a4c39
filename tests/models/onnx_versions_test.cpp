// Every core op's ONNX form (OpInfo::onnx_versions) against ONNX's own operator registry
// (Debian's libonnx, which knows opsets up to 17): at each opset from the op's first listed
// version through 17, the version ONNX resolves a node to must be one hxrt lists, so that no
// version with other semantics slips between two hxrt implements. Versions from 18 to 21 are
// checked by the node tests of the pinned onnx package (tests/onnx_node).
#include <catch2/catch.hpp>

#include <onnx/defs/schema.h>

#include <algorithm>

#include <hxrt/hxrt.hpp>

TEST_CASE("Each op's ONNX versions are the versions ONNX defines, up to opset 17",
          "[models][onnx]") {
  const int registry_max = 17;  // libonnx 1.12
  int checked = 0;
  for (const hxrt::OpInfo& op : hxrt::core_ops()) {
    if (op.onnx_versions.empty()) continue;
    INFO(op.name << " as ONNX's " << op.onnx_op);
    const std::vector<int>& versions = op.onnx_versions;
    CHECK(std::is_sorted(versions.begin(), versions.end()));
    for (int opset = versions.front(); opset <= registry_max; ++opset) {
      const onnx::OpSchema* schema =
          onnx::OpSchemaRegistry::Schema(op.onnx_op, opset, onnx::ONNX_DOMAIN);
      REQUIRE(schema != nullptr);
      INFO("opset " << opset << ": ONNX's version " << schema->SinceVersion());
      CHECK(std::count(versions.begin(), versions.end(), schema->SinceVersion()) == 1);
      ++checked;
    }
  }
  CHECK(checked > 0);
}

// hxrt-ops-doc <file>: writes the ops reference (share/doc/hxrt/ops.md) from the core's op
// schemas at build time, the text hxrt-info --ops --markdown prints, without plugins or their
// custom ops. A core op without a summary or a shape rule fails the build here.
#include <fstream>
#include <iostream>
#include <vector>

#include "hxrt/op_info.hpp"
#include "ops/op_schema.hpp"
#include "ops_report.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: hxrt-ops-doc <output file>\n";
    return 2;
  }
  hxrt::detail::OpRegistry registry;
  hxrt::detail::add_builtin_ops(registry);
  std::vector<hxrt::OpInfo> ops;
  for (const hxrt::detail::OpSchema* schema : registry.all()) {
    if (schema->summary.empty() || schema->shape_rule.empty()) {
      std::cerr << "hxrt-ops-doc: op " << schema->name
                << " has no summary or no shape rule; write them in its schema (core/src/ops)\n";
      return 1;
    }
    ops.push_back(hxrt::detail::op_info(*schema));
  }
  std::ofstream out(argv[1]);
  hxrt_info::print_ops_markdown(out, ops);
  out.close();
  if (!out) {
    std::cerr << "hxrt-ops-doc: cannot write " << argv[1] << '\n';
    return 1;
  }
  return 0;
}

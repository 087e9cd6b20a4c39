#include "hxrt/graph.hpp"

namespace hxrt {

const GraphNode* Graph::find(const std::string& name) const {
  const auto found = index_.find(name);
  return found == index_.end() ? nullptr : &nodes_[found->second];
}

std::vector<std::string> Graph::inputs() const {
  std::vector<std::string> names;
  for (const GraphNode& node : nodes_) {
    if (node.kind == GraphNode::Kind::kInput) names.push_back(node.name);
  }
  return names;
}

}  // namespace hxrt

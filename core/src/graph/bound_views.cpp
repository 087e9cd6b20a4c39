#include "graph/bound_views.hpp"

#include "graph/executable_impl.hpp"

namespace hxrt::detail {
namespace {

bool same_blocks(const std::vector<Device::Block>& a, const std::vector<Device::Block>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].buffer != b[i].buffer || a[i].offset != b[i].offset) return false;
  }
  return true;
}

}  // namespace

BoundViews::BoundViews(const ExecutableImpl& exe) : views_(exe.operand_views) {
  for (const ArenaOperand& operand : exe.arena_operands) {
    views_[operand.operand].device = exe.arenas[operand.arena].device->handle();
  }
}

void BoundViews::bind_arenas(const ExecutableImpl& exe, const std::vector<Device::Block>& blocks) {
  if (same_blocks(blocks, bound_to_)) return;  // also an executable without arenas
  bound_to_.clear();  // until every view is bound, and should the copy below throw
  for (const ArenaOperand& operand : exe.arena_operands) {
    const Device::Block& block = blocks[operand.arena];
    hx_tensor_view& view = views_[operand.operand];
    view.buffer = block.buffer;
    view.byte_offset = block.offset + operand.offset;
  }
  bound_to_ = blocks;
}

}  // namespace hxrt::detail

#include "graph/bound_views.hpp"

#include "graph/executable_impl.hpp"

namespace hxrt::detail {

BoundViews::BoundViews(const ExecutableImpl& exe) : views_(exe.operand_views) {
  for (const ArenaOperand& operand : exe.arena_operands) {
    views_[operand.operand].device = exe.arenas[operand.arena].device->handle();
  }
}

void BoundViews::bind_arenas(const ExecutableImpl& exe,
                             const std::vector<Device::Block>& blocks) noexcept {
  for (const ArenaOperand& operand : exe.arena_operands) {
    const Device::Block& block = blocks[operand.arena];
    hx_tensor_view& view = views_[operand.operand];
    view.buffer = block.buffer;
    view.byte_offset = block.offset + operand.offset;
  }
}

}  // namespace hxrt::detail

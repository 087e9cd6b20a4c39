// Ids of graph constants for kernels (hx_kernel_args.input_constants): a kernel may keep what
// it derives from a constant (weights reordered to its own layout, packed) under the id, rather
// than derive it on every run, until the executable that holds the constant goes and the core
// forgets the id (hx_kernel_def.forget_constants).
#pragma once

#include <cstdint>

namespace hxrt::detail {

struct ExecutableImpl;

// An id no other constant of the process has had or will have: 1, 2, ...
uint64_t new_constant_id();

// Sets exe.operand_constants from the steps that read constants (finish_steps calls it once
// the operands are numbered).
void mark_constant_operands(ExecutableImpl& exe);

// Calls forget_constants of each kernel that received some of exe's constant ids, once per
// instance with all the ids it received.
void forget_constant_ids(const ExecutableImpl& exe) noexcept;

}  // namespace hxrt::detail

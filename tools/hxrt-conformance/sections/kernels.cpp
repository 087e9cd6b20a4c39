// The kernels section: every kernel the plugin registered, run on device 0 as the core runs it
// (an instance per combination, check before each call, tensors at aligned offsets of one
// buffer, broadcast inputs with stride 0) and compared with the core's reference (core ops) or
// with its own shape inference (custom ops). Division by zero goes last, so that a kernel that
// crashes on it loses no other check.
#include <optional>
#include <string>
#include <vector>

#include "device_stream.hpp"
#include "reference/cases.hpp"
#include "sections/kernel_checks.hpp"
#include "sections/sections.hpp"

namespace hxrt_conformance {
namespace {

void check_variant(const KernelRunner& runner, const KernelVariant& variant,
                   const PluginSession& session, uint64_t seed, SectionLog& log) {
  const std::string& op = variant.kernel->op;
  if (const RegisteredOp* custom = session.core().custom_op(op)) {
    check_custom_op_kernel(runner, variant, *custom, seed, log);
  } else {
    check_reference_cases(runner, variant, seed, log);
  }
}

}  // namespace

void check_kernels(const Target& target, PluginSession& session, SectionLog& log) {
  const std::vector<RegisteredKernel>& kernels = session.core().kernels();
  if (kernels.empty()) {
    log.skip("kernels", "the plugin registers no kernels");
    return;
  }
  if (!require_devices(session, log, "kernels")) return;
  const DeviceUnderTest device = devices_under_test(session).front();
  const std::optional<DeviceStream> stream = stream_if_offered(session, device);
  if (stream && !stream->ok()) {
    log.fail("a stream for the kernel checks",
             stream->failure() + "; the kernels run without a stream instead");
  }
  const KernelRunner runner(device, stream ? stream->get() : nullptr);

  std::vector<KernelVariant> divisions;
  for (const RegisteredKernel& kernel : kernels) {
    for (const KernelVariant& variant : variants_of(kernel, kernels)) {
      check_variant(runner, variant, session, target.seed, log);
      if (kernel.op == "Div" && is_integer_dtype(variant.dtype)) divisions.push_back(variant);
    }
  }
  for (const RegisteredOp& op : session.core().ops()) {
    log.skip(op.name + " matches a reference",
             "no reference for custom op " + op.name + ": values not checked");
  }
  for (const KernelVariant& variant : divisions) check_division_by_zero(runner, variant, log);
}

}  // namespace hxrt_conformance

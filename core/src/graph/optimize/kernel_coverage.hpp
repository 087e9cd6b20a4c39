// Whether a chain of nodes may become one node of another op (a fusion, a blocked op), asked of
// the kernel registry once per chain, T and device type asked for: the passes that make ops a
// plugin declares by registering their kernels (graph/optimize) change a chain only where it
// goes to a device whose plugin has the new op, and never take a device from the placer.
// Plugins without devices (a CUDA plugin on a machine without a driver) run nothing, and count
// for nothing.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "graph/graph_context.hpp"
#include "hxrt/dtype.hpp"

namespace hxrt::detail {

class KernelCoverage {
 public:
  // `dynamic`: the graph is placed by the dynamic placer, which may choose any device.
  KernelCoverage(const GraphContext& context, bool dynamic)
      : context_(context), dynamic_(dynamic) {}

  // Whether `parts` (the chain's ops, its first node's first) may become `fused` at T, for a
  // chain that asks for the device `requested` ("" for none). Among the plugins that could run
  // it, some must have `fused` and each that has every part must: those of the device type it
  // goes to (the type requested, else, under the simple placer, the placer's first type with
  // a kernel for the first part), so that a chain that goes to the CPU fuses there though a
  // GPU without the fused kernel is present; every plugin for a chain that the dynamic placer
  // may put anywhere.
  bool fusable(const std::vector<std::string>& parts, const std::string& fused, DType t,
               const std::string& requested);

 private:
  // The device type a node of `op` at T goes to: the type `requested` names, else the first
  // type in the placer's priority with a kernel for it (the simple placer's); "" when none.
  std::string device_type_of(const std::string& op, DType t, const std::string& requested);
  // The plugins with a kernel for `op` at type T and output dtype T, of device type `type`
  // ("" : any).
  std::set<std::string> plugins_with(const std::string& op, DType t,
                                     const std::string& type) const;
  void read_kernels();

  const GraphContext& context_;
  const bool dynamic_;
  std::vector<const KernelEntry*> kernels_;  // read when a chain is first met
  std::map<std::string, bool> answers_;
};

}  // namespace hxrt::detail

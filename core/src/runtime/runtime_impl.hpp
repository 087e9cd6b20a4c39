// The state behind a Runtime handle, in start-up order. Members are destroyed in reverse:
// the placer, then the devices (which keep their plugins alive while tensors hold memory).
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "config/config.hpp"
#include "devices/device_manager.hpp"
#include "hxrt/runtime.hpp"
#include "kernel_registry.hpp"
#include "logger.hpp"
#include "ops/op_schema.hpp"
#include "placement/placer.hpp"
#include "plugins/plugin_loader.hpp"

namespace hxrt {

struct Runtime::Impl {
  std::shared_ptr<detail::Logger> logger = std::make_shared<detail::Logger>();
  detail::Config config;
  detail::OpRegistry ops;
  detail::KernelRegistry kernels;
  detail::LoadedPlugins loaded;
  detail::DeviceManager devices;
  std::unique_ptr<detail::Placer> placer;
  std::atomic<bool> log_placement{false};

  // Runs one op: shape inference, placement, input copies, output allocation, the kernel.
  // Writes schema.num_outputs tensors to `outputs`, which must have room for them.
  void run(const detail::OpSchema& schema, const Tensor* inputs, size_t num_inputs,
           const Attrs& attrs, const std::string& requested, Tensor* outputs);
  // The schema of `op`, or Error(kNotFound) listing the ops that exist.
  const detail::OpSchema& schema_of(const std::string& op) const;
  // The device a spec names for data placement: the first match; CPU:0 for "".
  detail::Device& data_device(const std::string& spec) const;
  Tensor to_device(const Tensor& tensor, detail::Device& device);
};

}  // namespace hxrt

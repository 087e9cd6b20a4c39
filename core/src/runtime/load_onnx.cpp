// Runtime::load_onnx: ONNX's protobuf messages read the model (models/onnx/onnx_file), and the
// importer builds its graph with this runtime's GraphBuilder, computing what is known at load
// with this runtime's host kernels.
#include <new>

#include "eager/quiet_placement_log.hpp"
#include "graph/graph_context.hpp"
#include "hxrt/runtime.hpp"
#include "models/onnx/onnx_file.hpp"
#include "models/onnx/onnx_import.hpp"

namespace hxrt {
namespace {

OnnxModel import_model(Runtime& runtime, const void* data, size_t size, const std::string& what,
                       const OnnxLoadOptions& options, const std::string& external_dir) {
  try {
    const onnx::ModelProto model = detail::parse_model(data, size, what);
    // Values known at load live on the host, where the importer reads them; without a CPU
    // device, where a tensor made with no device goes.
    std::string host;
    for (const DeviceInfo& device : runtime.devices()) {
      if (device.type == "CPU") {
        host = device.name;
        break;
      }
    }
    detail::ImportServices services;
    services.host_tensor = [&](const detail::TensorValue& value) {
      return runtime.from_host(value.dtype, value.shape, value.bytes.data(), value.bytes.size(),
                               host);
    };
    services.run_on_host = [&](const std::string& op, const std::vector<Tensor>& inputs,
                               const Attrs& attrs) {
      // The runtime's own work, which the user's placement log would only clutter.
      const detail::QuietPlacementLog quiet;
      return runtime.execute_multi(op, inputs, attrs, host);
    };
    GraphBuilder builder(runtime);
    return detail::import_onnx(model, builder, detail::graph_context_of(runtime)->ops, services,
                               options, external_dir);
  } catch (const Error& error) {
    throw Error(error.code(), what + ": " + error.what());
  } catch (const std::bad_alloc&) {
    throw Error(StatusCode::kOutOfMemory,
                what + ": the host ran out of memory while loading it; nothing was kept");
  }
}

}  // namespace

OnnxModel Runtime::load_onnx(const std::string& path, const OnnxLoadOptions& options) {
  const std::string bytes = detail::read_model_file(path);
  const size_t slash = path.find_last_of('/');
  const std::string folder = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  return import_model(*this, bytes.data(), bytes.size(), "model '" + path + "'", options,
                      options.external_data_dir.empty() ? folder : options.external_data_dir);
}

OnnxModel Runtime::load_onnx(const void* data, size_t size, const OnnxLoadOptions& options) {
  return import_model(*this, data, size, "model (" + std::to_string(size) + " bytes)", options,
                      options.external_data_dir);
}

}  // namespace hxrt

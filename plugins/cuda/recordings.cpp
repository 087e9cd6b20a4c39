#include "recordings.hpp"

#include <hxplugin/status.hpp>

#include <cuda_runtime_api.h>

#include <memory>
#include <utility>

#include "cuda_recording.hpp"
#include "device.hpp"
#include "device_errors.hpp"
#include "errors.hpp"
#include "handle_errors.hpp"
#include "plugin_state.hpp"
#include "streams.hpp"

namespace hxcuda {
namespace {

hx_status* precondition(const CudaDevice& device, const char* what, const hx_stream* stream) {
  return hxplugin::make_status(device.services(), HX_FAILED_PRECONDITION, "%s: %s (stream %p)",
                               device.label().c_str(), what, static_cast<const void*>(stream));
}

// The errors by which CUDA says that captured work broke the rules of stream capture.
bool breaks_capture_rules(cudaError_t error) {
  switch (error) {
    case cudaErrorStreamCaptureUnsupported:
    case cudaErrorStreamCaptureInvalidated:
    case cudaErrorStreamCaptureMerge:
    case cudaErrorStreamCaptureUnmatched:
    case cudaErrorStreamCaptureUnjoined:
    case cudaErrorStreamCaptureIsolation:
    case cudaErrorStreamCaptureImplicit:
    case cudaErrorCapturedEvent:
    case cudaErrorStreamCaptureWrongThread:
      return true;
    default:
      return false;
  }
}

// end's refusal when CUDA will not make a graph of what was captured: UNIMPLEMENTED (this
// work cannot be recorded; the core runs it without) for a broken capture rule, with CUDA's
// error, which the core logs as the reason; any other failure as every call reports one.
hx_status* refused(const CudaDevice& device, cudaError_t error, const char* call) {
  if (!breaks_capture_rules(error)) return device_error(device, error, call);
  char text[512];
  describe_cuda_error(error, call, text, sizeof text);
  (void)cudaGetLastError();
  return hxplugin::make_status(
      device.services(), HX_UNIMPLEMENTED,
      "%s: the recorded work cannot be replayed as a CUDA graph: %s (a recorded call did what "
      "stream capture forbids, such as waiting for its stream or reading device memory on the "
      "host)",
      device.label().c_str(), text);
}

}  // namespace

hx_status* recording_begin(hx_device* device, hx_stream* stream) {
  CudaDevice& gpu = from_handle(device);
  return hxplugin::guarded(gpu.services(), kPluginName, [&]() -> hx_status* {
    CudaStream* live = nullptr;
    if (hx_status* status = live_stream(gpu, stream, &live)) return status;
    constexpr char kRecords[] = "begin: the stream records already; end that recording first";
    if (live->recording() != nullptr) return precondition(gpu, kRecords, stream);
    // Started here if it never had work: the capture needs the CUDA stream, and the stream's
    // first-work event (cuda_stream.hpp) must be recorded outside the capture.
    cudaStream_t cuda_stream = nullptr;
    if (hx_status* status = stream_for_work(gpu, live, &cuda_stream)) return status;
    auto recording = std::make_unique<CudaRecording>(gpu);
    if (!live->start_recording(&recording)) return precondition(gpu, kRecords, stream);
    const cudaError_t error = cudaStreamBeginCapture(cuda_stream, cudaStreamCaptureModeRelaxed);
    if (error != cudaSuccess) live->stop_recording();
    return device_error(gpu, error, "cudaStreamBeginCapture");
  });
}

hx_status* recording_end(hx_device* device, hx_stream* stream, hx_recording** out_recording) {
  CudaDevice& gpu = from_handle(device);
  *out_recording = nullptr;
  return hxplugin::guarded(gpu.services(), kPluginName, [&]() -> hx_status* {
    CudaStream* live = nullptr;
    if (hx_status* status = live_stream(gpu, stream, &live)) return status;
    // Out of recording mode from here on, whatever follows.
    std::unique_ptr<CudaRecording> recording = live->stop_recording();
    if (recording == nullptr) {
      return precondition(gpu, "end: the stream is not recording; call begin first", stream);
    }
    if (hx_status* status = gpu.make_current()) return status;
    cudaGraph_t graph = nullptr;
    const cudaError_t ended = cudaStreamEndCapture(live->started(), &graph);
    if (ended != cudaSuccess) {
      if (graph != nullptr) (void)cudaGraphDestroy(graph);
      return refused(gpu, ended, "cudaStreamEndCapture");
    }
    cudaGraphExec_t executable = nullptr;
    const cudaError_t made = cudaGraphInstantiate(&executable, graph, 0);
    // The executable graph needs nothing of the graph it was made from.
    (void)cudaGraphDestroy(graph);
    if (made != cudaSuccess) return refused(gpu, made, "cudaGraphInstantiate");
    recording->set_graph(executable);
    *out_recording = gpu.plugin().handles.add_recording(std::move(recording));
    return nullptr;
  });
}

hx_status* recording_replay(hx_device* device, hx_stream* stream, hx_recording* recording) {
  CudaDevice& gpu = from_handle(device);
  CudaStream* live = nullptr;
  if (hx_status* status = live_stream(gpu, stream, &live)) return status;
  const CudaRecording* recorded = gpu.plugin().handles.find_recording(recording);
  if (recorded == nullptr) return not_a_live_handle(gpu, "recording", recording);
  if (&recorded->device() != &gpu) {
    return belongs_elsewhere(gpu, "recording", recording, recorded->device());
  }
  if (live->recording() != nullptr) {
    return precondition(gpu, "replay: the stream records; replay on a stream that does not",
                        stream);
  }
  cudaStream_t cuda_stream = nullptr;
  if (hx_status* status = stream_for_work(gpu, live, &cuda_stream)) return status;
  return device_error(gpu, cudaGraphLaunch(recorded->graph(), cuda_stream), "cudaGraphLaunch");
}

void recording_destroy(hx_device* device, hx_recording* recording) {
  if (recording == nullptr) return;
  const CudaDevice& gpu = from_handle(device);
  if (!gpu.plugin().handles.remove_recording(gpu, recording)) {
    gpu.plugin().log(HX_LOG_WARNING,
                     "%s: recording destroy(%p) ignored: not a live recording of this device",
                     gpu.label().c_str(), static_cast<const void*>(recording));
  }
}

}  // namespace hxcuda

// One recording of one device (hx_recording): the work a stream captured between begin and
// end (recordings.hpp), instantiated as a CUDA graph that replays launch as one. While the
// stream still records, the object belongs to the stream (CudaStream::recording) and has no
// graph yet; end gives it its graph and the plugin's registry (handles.hpp).
#pragma once

#include <cuda_runtime_api.h>

#include <hxrt/plugin_api.h>

#include <memory>

#include "library_workspace.hpp"

namespace hxcuda {

class CudaDevice;

class CudaRecording {
 public:
  explicit CudaRecording(CudaDevice& device) : device_(device) {}
  // Destroys the executable graph and frees the library workspace, if they were made.
  ~CudaRecording();
  CudaRecording(const CudaRecording&) = delete;
  CudaRecording& operator=(const CudaRecording&) = delete;

  CudaDevice& device() const { return device_; }

  // The workspace of the library calls (GEMMs, convolutions) recorded into this recording,
  // made at the first (the device must be current). A recording has its own rather than its
  // stream's: its replays may run on any stream, at the same time as other recordings'
  // replays and GEMMs, and a workspace two of them use at once gives wrong products. The core
  // calls the calls of one recording one at a time, and never replays one recording twice at
  // once, so this one needs no lock.
  hx_status* library_workspace(const LibraryWorkspace** out);

  // Takes ownership of the instantiated graph, at end.
  void set_graph(cudaGraphExec_t graph) { graph_ = graph; }
  // The graph to launch; nullptr before end.
  cudaGraphExec_t graph() const { return graph_; }

 private:
  CudaDevice& device_;
  cudaGraphExec_t graph_ = nullptr;
  std::unique_ptr<LibraryWorkspace> library_workspace_;
};

}  // namespace hxcuda

// Recorded work (plugin_api.h, hx_recording_api): the function-table entries, on CUDA stream
// capture. begin starts a capture on the stream; the calls the core then makes on it (kernels,
// memset, device-to-device copies) enqueue as always, and CUDA captures their work instead of
// running it; end instantiates what was captured as a CUDA graph, which replay launches with
// one cudaGraphLaunch.
//
// Work a CUDA graph cannot hold (a call that waits for its stream, say) makes CUDA invalidate
// the capture, and end refuses the recording, naming CUDA's error: the ABI lets a plugin
// refuse at end rather than at the call. The capture is relaxed
// (cudaStreamCaptureModeRelaxed): the core may end a recording on another thread than the
// one that began it, which the stricter modes forbid.
#pragma once

#include <hxrt/plugin_api.h>

namespace hxcuda {

hx_status* recording_begin(hx_device* device, hx_stream* stream);
hx_status* recording_end(hx_device* device, hx_stream* stream, hx_recording** out_recording);
hx_status* recording_replay(hx_device* device, hx_stream* stream, hx_recording* recording);
void recording_destroy(hx_device* device, hx_recording* recording);

}  // namespace hxcuda

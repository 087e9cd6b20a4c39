// The recording group (plugin_api.h, "Recorded work"): begin makes a stream keep the items its
// calls would queue (stream_recorder.hpp), end turns them into a recording, and a replay queues
// them on a stream as one item, whose modelled time is the sum of theirs. A replay costs the
// caller the model's host_replay_us once where the calls cost host_launch_us each, which is
// what recording saves a GPU's host. Calls other than kernels, memsets and copies between
// devices on a stream that records are refused (submit.hpp, streams.cpp).
#pragma once

#include <hxrt/plugin_api.h>

namespace hxsim {

extern const hx_recording_api kRecordingApi;

}  // namespace hxsim

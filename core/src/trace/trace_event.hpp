// One recorded event, as the hooks leave it: raw values only (name ids, the inputs' shapes
// in the log's pool, static labels), so that recording costs a few hundred instructions;
// it becomes Trace Event Format JSON only when the trace is written.
#pragma once

#include <cstdint>
#include <string>

#include "trace/name_table.hpp"

namespace hxrt::detail {

// A stream index that is no stream: a device call that completes before it returns (a
// synchronous device's work, or an asynchronous device's NULL-stream copy).
constexpr int32_t kNullStream = -1;

struct TraceEvent {
  enum class Kind : uint8_t {
    kOp,          // an op's host-side span, on the calling thread
    kKernel,      // an op's span on its device's stream
    kCopy,        // a copy's span on the stream of the device that runs it
    kHostWait,    // the host waiting for a device, on the waiting thread
    kStreamWait,  // a stream told to wait for another device's event: an instant on it
    kError,       // an op that failed (at its call, or at a later wait): an instant
    kAllocation,
    kFree,
    kGraphPass,  // one of compile's passes over a graph, on the compiling thread
  };
  Kind kind = Kind::kOp;
  bool unfinished = false;  // device work still pending when the trace stopped
  uint16_t num_inputs = 0;  // kOp, kKernel: the inputs' shapes at dims_begin in the pool
  int32_t stream = 0;       // the device's stream, or kNullStream
  uint32_t host_thread = 0;  // ordinal of the recording thread, set by the event log
  uint32_t dims_begin = 0;   // per input: dtype, rank, extents (DrainedEvents::dims)
  int64_t start_ns = 0;      // steady clock
  int64_t duration_ns = 0;   // spans only
  // the op (kOp, kKernel, kError, kStreamWait: the waited-for op); kGraphPass: the pass
  NameId name = kNoName;
  NameId device = kNoName;   // whose timeline (kNoName: the recording host thread)
  NameId plugin = kNoName;   // kOp, kKernel, kError
  NameId node = kNoName;     // kOp, kKernel, kError: the graph node ("mm"); kNoName when eager
  NameId from = kNoName;     // kCopy: source; kStreamWait: the device waited for
  NameId to = kNoName;       // kCopy: destination
  const char* label = "";    // static text: a copy's direction, a wait's reason
  const void* address = nullptr;  // kAllocation, kFree: the block
  uint64_t bytes = 0;             // kAllocation, kCopy; kGraphPass: the nodes it changed
  // Rare, so a copy costs nothing (empty) or stays in the small buffer: kOp the device the
  // call asked for, kError the message, kGraphPass the nodes it changed.
  std::string text;
  std::string reason;  // kOp: the placer's reason, "" when the device is what was asked for
};

}  // namespace hxrt::detail

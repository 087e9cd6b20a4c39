// The calls of the stream checks: a failed call as the words of a failure, and the bounded
// wait for a query to report done.
#pragma once

#include <hxrt/plugin_api.h>

#include <chrono>
#include <functional>
#include <initializer_list>
#include <string>

#include "kit_core.hpp"

namespace hxrt_conformance::stream_section {

// "" when `status` is NULL, else "<call> failed: CODE: message" (the status is freed).
std::string failed_call(const std::string& call, hx_status* status);

// The first of `failures` that is not "", or "".
std::string first_failure(std::initializer_list<std::string> failures);

// How long the checks wait for a query to report done before calling the work lost.
constexpr std::chrono::seconds kQueryLimit{10};

struct PollResult {
  Outcome outcome;    // the status of the first query that failed; OK otherwise
  bool done = false;  // a query reported done within the limit
};

// Calls `query` (stream_query or event_query bound to its handle) until it reports done,
// fails, or kQueryLimit passes.
PollResult poll_until_done(const std::function<hx_status*(bool* out_done)>& query);

}  // namespace hxrt_conformance::stream_section

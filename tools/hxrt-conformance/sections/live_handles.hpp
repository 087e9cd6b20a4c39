// Handles of one kind (buffers, events, streams) created one after another until a target
// number is live or the plugin refuses the next, as a device at its limit does (Vulkan allows
// about 4096 live allocations). What each create returns is judged here, the same way for
// every kind: a refusal must be a status with a message (of the code the ABI names for it, if
// it names one); a success must give a handle, and one that no live handle equals. Handles are
// compared for equality only, which the ABI allows: the core refuses a handle that is still
// live. A handle given twice is kept once, so that it is released once.
#pragma once

#include <hxrt/plugin_api.h>
#include <hxrt/plugin_vocabulary.h>

#include <cstddef>
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "call_text.hpp"
#include "kit_core.hpp"

namespace hxrt_conformance::in_flight_section {

// What is created, in the words of the checks' details.
struct HandleKind {
  std::string noun;  // "buffer"
  std::string call;  // "allocate(256 bytes, alignment 256)"
  // The code a refusal must have; HX_OK where the ABI names none (any error code then does).
  int32_t refusal_code = HX_OK;
  std::string limit_advice;  // "at its limit refuse with OUT_OF_MEMORY naming the limit"
};

template <class Handle>
class LiveHandles {
 public:
  using Create = std::function<hx_status*(Handle** out)>;
  using Release = std::function<void(Handle*)>;

  LiveHandles(HandleKind kind, Release release)
      : kind_(std::move(kind)), release_(std::move(release)) {}
  ~LiveHandles() { release_all(); }
  LiveHandles(const LiveHandles&) = delete;
  LiveHandles& operator=(const LiveHandles&) = delete;

  // Creates until `target` are live, the plugin refuses one (refusal()), or it returns
  // something wrong (problem()).
  void fill(size_t target, const Create& create) {
    while (handles_.size() < target) {
      Handle* handle = nullptr;
      const Outcome outcome = KitCore::take(create(&handle));
      if (!outcome.ok()) {
        refusal_ = outcome;
        problem_ = refusal_problem();
        return;
      }
      if (handle == nullptr) {
        problem_ = call_with_live() + " returned no error but a NULL " + kind_.noun +
                   "; return a " + kind_.noun + ", or " + kind_.limit_advice;
        return;
      }
      const auto [known, is_new] = index_.emplace(handle, handles_.size());
      if (!is_new) {
        problem_ = call_with_live() + " returned the same handle as live " + kind_.noun + " " +
                   std::to_string(known->second + 1) + "; give each live " + kind_.noun +
                   " a handle of its own (plugin_api.h), or " + kind_.limit_advice;
        return;
      }
      handles_.push_back(handle);
    }
  }

  const std::vector<Handle*>& handles() const { return handles_; }
  size_t count() const { return handles_.size(); }
  // The status that stopped fill short of its target; OK when it reached it.
  const Outcome& refusal() const { return refusal_; }
  // What was wrong with what the plugin returned; "" when nothing.
  const std::string& problem() const { return problem_; }
  // "8192 live buffers", or "OUT_OF_MEMORY after 4096 live buffers: <message>".
  std::string summary() const {
    const std::string live = live_text();
    if (refusal_.ok()) return live;
    return std::string(hx_status_code_name(refusal_.code)) + " after " + live + ": " +
           refusal_.message;
  }

  // Releases every live handle, the last created first.
  void release_all() {
    while (!handles_.empty()) {
      release_(handles_.back());
      handles_.pop_back();
    }
    index_.clear();
  }

 private:
  std::string live_text() const {
    return std::to_string(handles_.size()) + " live " + kind_.noun + "s";
  }
  // "allocate(256 bytes, alignment 256) with 1000 live buffers".
  std::string call_with_live() const { return kind_.call + " with " + live_text(); }
  // "" for a refusal the ABI allows.
  std::string refusal_problem() const {
    if (kind_.refusal_code != HX_OK && refusal_.code != kind_.refusal_code) {
      return call_failed(call_with_live(), refusal_) + "; " + kind_.limit_advice;
    }
    if (refusal_.message.empty()) {
      return call_with_live() + " returned " + hx_status_code_name(refusal_.code) +
             " with an empty message; say which limit was reached";
    }
    return {};
  }

  const HandleKind kind_;
  const Release release_;
  std::vector<Handle*> handles_;
  std::unordered_map<const Handle*, size_t> index_;  // each live handle's place in handles_
  Outcome refusal_;
  std::string problem_;
};

}  // namespace hxrt_conformance::in_flight_section

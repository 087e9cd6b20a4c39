#include "execution/recorded_work.hpp"

#include "devices/device.hpp"
#include "base/status.hpp"

namespace hxrt::detail {

RecordedWork::RecordedWork(std::shared_ptr<Device> device)
    : device_(std::move(device)), api_(device_->plugin().recording()) {
  if (api_ == nullptr) {
    throw Error(StatusCode::kUnimplemented,
                "plugin '" + device_->plugin().name() + "' records no work (it has no "
                "recording group)");
  }
  throw_if_error(device_->plugin().streams()->create(device_->handle(), &stream_),
                 context("streams.create for recording"));
}

RecordedWork::~RecordedWork() {
  abandon();
  api_->destroy(device_->handle(), recording_);
  device_->plugin().streams()->destroy(device_->handle(), stream_);
}

std::string RecordedWork::context(const char* call) const {
  return "plugin '" + device_->plugin().name() + "' recording." + call + " on " +
         device_->name();
}

void RecordedWork::begin() {
  throw_if_error(api_->begin(device_->handle(), stream_), context("begin"));
  recording_open_ = true;
}

void RecordedWork::end() {
  recording_open_ = false;  // end leaves recording mode whatever it returns
  hx_recording* made = nullptr;
  hx_status* status = api_->end(device_->handle(), stream_, &made);
  if (status != nullptr) {
    api_->destroy(device_->handle(), made);  // a plugin should give none with a failure
    throw_if_error(status, context("end"));
  }
  api_->destroy(device_->handle(), recording_);
  recording_ = made;
}

void RecordedWork::abandon() noexcept {
  if (!recording_open_) return;
  recording_open_ = false;
  hx_recording* made = nullptr;
  if (hx_status* status = api_->end(device_->handle(), stream_, &made)) {
    (void)consume_status(status);
  }
  api_->destroy(device_->handle(), made);
}

void RecordedWork::replay() {
  throw_if_error(api_->replay(device_->handle(), device_->stream(), recording_),
                 context("replay"));
}

}  // namespace hxrt::detail

#include "driver_setup_lock.hpp"

namespace hxopencl {

std::mutex& driver_setup_mutex() {
  static std::mutex mutex;
  return mutex;
}

}  // namespace hxopencl

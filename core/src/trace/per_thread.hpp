// PerThread<T, Tag>::get(): the calling thread's T, made at its first use and freed at its
// exit. For the trace's per-thread caches, which every traced op reads: a plain thread_local in
// libhxrt.so is general-dynamic TLS, a call to __tls_get_addr per read (176 instructions per
// traced op with two of them); here a read is one load through an initial-exec pointer, as in
// memory/thread_cache_slots.hpp. The T itself lives on the heap, since static TLS is small
// (a libhxrt.so opened by dlopen must fit in glibc's surplus). Tag tells instances apart.
#pragma once

#include <memory>

namespace hxrt::detail {

template <class T, class Tag>
class PerThread {
 public:
  static T& get() {
    if (T* value = current_) return *value;
    return make();
  }

 private:
  // Frees the thread's T at its exit; a later use in that thread makes another.
  struct Owner {
    std::unique_ptr<T> value;
    ~Owner() { current_ = nullptr; }
  };

  __attribute__((noinline)) static T& make() {
    thread_local Owner owner;
    owner.value = std::make_unique<T>();
    current_ = owner.value.get();
    return *current_;
  }

  static __thread T* current_ __attribute__((tls_model("initial-exec")));
};

template <class T, class Tag>
__thread T* PerThread<T, Tag>::current_;

}  // namespace hxrt::detail

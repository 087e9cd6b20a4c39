// PerThread<T, Tag>::get(): the calling thread's T, made at its first use and freed at its
// exit. For the trace's per-thread caches, which every traced op reads: a plain thread_local in
// libhxrt.so is general-dynamic TLS, a call to __tls_get_addr per read (176 instructions per
// traced op with two of them); here a read is one load through an initial-exec pointer, as in
// memory/thread_cache_slots.hpp. The T itself lives on the heap, since static TLS is small
// (a libhxrt.so opened by dlopen must fit in glibc's surplus). A pthread key frees it, after
// the thread's thread_local destructors: those may still trace (an allocator's thread cache
// gives its blocks back), and a use after the key's destructor makes a T again, which glibc
// then frees in its next round. Tag tells instances apart.
#pragma once

#include <pthread.h>

namespace hxrt::detail {

template <class T, class Tag>
class PerThread {
 public:
  static T& get() {
    if (T* value = current_) return *value;
    return make();
  }

 private:
  __attribute__((noinline)) static T& make() {
    static const Key key;
    T* value = new T();
    // Without a key (the process ran out of them) the T is left to the process's end.
    if (key.made) pthread_setspecific(key.key, value);
    current_ = value;
    return *value;
  }

  struct Key {
    Key() : made(pthread_key_create(&key, &free_current) == 0) {}
    pthread_key_t key{};
    bool made;
  };

  static void free_current(void* value) {
    current_ = nullptr;
    delete static_cast<T*>(value);
  }

  static __thread T* current_ __attribute__((tls_model("initial-exec")));
};

template <class T, class Tag>
__thread T* PerThread<T, Tag>::current_;

}  // namespace hxrt::detail

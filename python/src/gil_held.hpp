// A Python object the runtime keeps from C++ (an imported array under a tensor, a placement
// function), which it may let go on any thread, with or without the GIL: it is released under
// the GIL, unless the interpreter is gone, when there is nothing left to release it to.
#pragma once

#include <Python.h>

#include <new>
#include <utility>

#include "bindings.hpp"

namespace hxpy {

template <class Object>
struct GilHeld {
  explicit GilHeld(Object held) : object(std::move(held)) {}
  GilHeld(const GilHeld&) = delete;
  GilHeld& operator=(const GilHeld&) = delete;
  ~GilHeld() {
#if PY_VERSION_HEX >= 0x030D0000
    const bool finalizing = Py_IsFinalizing();
#else
    const bool finalizing = _Py_IsFinalizing();
#endif
    if (!Py_IsInitialized() || finalizing) {
      new (&object) Object();  // the reference is dropped without a call into Python
      return;
    }
    const nb::gil_scoped_acquire locked;
    object = Object();
  }
  Object object;
};

}  // namespace hxpy

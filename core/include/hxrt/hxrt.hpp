// Everything a host application needs.
#pragma once

#include "hxrt/attrs.hpp"
#include "hxrt/config_setting.hpp"
#include "hxrt/device_setup.hpp"
#include "hxrt/dtype.hpp"
#include "hxrt/error.hpp"
#include "hxrt/executable.hpp"
#include "hxrt/graph.hpp"
#include "hxrt/log.hpp"
#include "hxrt/pinned_memory.hpp"
#include "hxrt/memory_stats.hpp"
#include "hxrt/op.hpp"
#include "hxrt/printable.hpp"
#include "hxrt/runtime.hpp"
#include "hxrt/shape.hpp"
#include "hxrt/tensor.hpp"

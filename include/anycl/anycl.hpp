// SPDX-License-Identifier: Apache-2.0
// Umbrella header: all of AnyCL's public API.
#pragma once

#include "anycl/array.hpp"
#include "anycl/buffer.hpp"
#include "anycl/cl.hpp"
#include "anycl/command_queue.hpp"
#include "anycl/context.hpp"
#include "anycl/device.hpp"
#include "anycl/device_selector.hpp"
#include "anycl/elementwise.hpp"
#include "anycl/error.hpp"
#include "anycl/event.hpp"
#include "anycl/kernel.hpp"
#include "anycl/kernel_loader.hpp"
#include "anycl/nd_range.hpp"
#include "anycl/platform.hpp"
#include "anycl/random.hpp"
#include "anycl/reduce.hpp"
#include "anycl/program.hpp"
#include "anycl/scan.hpp"
#include "anycl/sort.hpp"
#include "anycl/version.hpp"

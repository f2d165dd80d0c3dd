// SPDX-License-Identifier: Apache-2.0
// Must not compile: parallel_for_each_device with a function that takes neither (queue, range)
// nor (index, queue, range) (CTest checks the static_assert text).
#include "anycl/device_group.hpp"

void run(const anycl::device_group& g) {
  anycl::parallel_for_each_device(g, 10, [](int) {});
}

// SPDX-License-Identifier: Apache-2.0
#include "arrays/launch_shape.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace anycl::detail {

launch_shape launch_shape_from_env() {
  const char* v = std::getenv("ANYCL_LAUNCH_SHAPE");
  if (v == nullptr || *v == '\0') return launch_shape::automatic;
  const std::string s = v;
  if (s == "auto") return launch_shape::automatic;
  if (s == "cpu") return launch_shape::cpu;
  if (s == "gpu") return launch_shape::gpu;
  throw std::invalid_argument("ANYCL_LAUNCH_SHAPE='" + s +
                              "' is not a launch shape: use auto (the device's own), cpu (few "
                              "work-items, contiguous chunks) or gpu (work-groups, local-memory "
                              "trees, grid-stride loops)");
}

bool takes_cpu_shape(launch_shape shape, const device& dev) {
  if (shape == launch_shape::automatic) return dev.type() == device_type::cpu;
  return shape == launch_shape::cpu;
}

}  // namespace anycl::detail

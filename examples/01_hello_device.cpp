// SPDX-License-Identifier: Apache-2.0
// Lists every OpenCL platform and device, picks one by spec, and runs a first kernel on it.
//
//   01_hello_device            the default device: ANYCL_DEVICE if set, else the best one found
//   01_hello_device 'cpu'      the device a spec selects (see anycl/device_selector.hpp)
#include <anycl/anycl.hpp>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

int main(int argc, char** argv) try {
  // Every platform (driver) the ICD loader finds, and its devices.
  for (const anycl::platform& p : anycl::platform::all()) {
    std::printf("platform: %s (%s)\n", p.name().c_str(), p.version().c_str());
    for (const anycl::device& d : p.devices())
      std::printf("  device: %-40s %-4s %u compute units, %.1f GiB\n", d.name().c_str(),
                  std::string(anycl::to_string(d.type())).c_str(), d.compute_units(),
                  static_cast<double>(d.global_memory()) / (1u << 30));
  }
  // The same listing with the spec that selects each device, as error messages show it.
  std::printf("devices, with the spec that selects each:\n%s", anycl::describe_devices().c_str());

  // A spec that matches nothing throws device_not_found, whose message lists what exists.
  try {
    anycl::select_device("no-such-device");
  } catch (const anycl::device_not_found&) {
    std::printf("spec 'no-such-device' selects nothing, as expected\n");
  }

  // Pick a device: by the spec given on the command line, else the default choice.
  anycl::device dev = argc > 1 ? anycl::select_device(argv[1]) : anycl::select_device();
  std::printf("selected: %s\n", dev.name().c_str());

  // A context and a queue on it, and a kernel from source text to prove the device works.
  anycl::command_queue q(dev);
  anycl::program prog(q.context(), R"(
    __kernel void square(__global int* v) { const size_t i = get_global_id(0); v[i] *= v[i]; })",
                      "square.cl");
  prog.build();
  auto square = prog.function<anycl::buffer_view<int>>("square");

  std::vector<int> host(64);
  for (int i = 0; i < 64; ++i) host[i] = i - 32;
  anycl::buffer buf = anycl::buffer::from(q.context(), host);
  anycl::event done = square(q, anycl::nd_range{host.size()}, buf);
  std::vector<int> result = q.read(anycl::buffer_view<int>(buf), {done});

  for (std::size_t i = 0; i < host.size(); ++i)
    if (result[i] != host[i] * host[i]) {
      std::fprintf(stderr, "mismatch at %zu: %d, expected %d\n", i, result[i], host[i] * host[i]);
      return 1;
    }
  std::printf("squared %zu integers on the device: ok\n", host.size());
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}

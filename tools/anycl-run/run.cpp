// SPDX-License-Identifier: Apache-2.0
// anycl-run: build through the kernel loader, check the arguments against the kernel's declared
// parameters and the device's limits, launch once on a profiling queue, print or save outputs.
#include "run.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <stdexcept>
#include <system_error>

#include "anycl/anycl.hpp"
#include "bind.hpp"

namespace anycl::tools {

namespace {

namespace fs = std::filesystem;

struct loaded_kernel {
  anycl::kernel kernel;
  std::vector<kernel_arg_info> params;
  source_types types;  // typedefs and struct sizes: argument info names a type, nothing more
};

// sizeof each of `names` as the compiler sees them in `src`: a kernel appended to the source
// writes them (one extra build, only for kernels with struct-like parameters). Empty when that
// kernel does not build: the check then says the sizes are unchecked.
std::map<std::string, std::size_t> sizes_of(const anycl::kernel_loader& loader,
                                            const anycl::resolved_source& src,
                                            const anycl::build_options& options,
                                            const std::vector<std::string>& names) {
  std::string probe = src.text + "\nkernel void anycl_run_sizeof(global ulong* out) {";
  for (std::size_t i = 0; i < names.size(); ++i)
    probe += " out[" + std::to_string(i) + "] = sizeof(" + names[i] + ");";
  probe += " }\n";
  std::map<std::string, std::size_t> sizes;
  try {
    const anycl::context& ctx = loader.context();
    anycl::program prog = loader.load_source(probe, src.name + " (sizes)", options);
    anycl::command_queue q(ctx, ctx.devices().at(0));
    anycl::buffer out(ctx, names.size() * sizeof(cl_ulong));
    prog.function<anycl::buffer_view<cl_ulong>>("anycl_run_sizeof")(q, anycl::nd_range{1}, out);
    const std::vector<cl_ulong> got = q.read(anycl::buffer_view<cl_ulong>(out));
    for (std::size_t i = 0; i < names.size(); ++i) sizes[names[i]] = got[i];
  } catch (const anycl::error&) {
    sizes.clear();
  }
  return sizes;
}

// Every parameter's declaration, or nothing when the driver keeps none.
std::optional<std::vector<kernel_arg_info>> params_of(const anycl::kernel& k) {
  std::vector<kernel_arg_info> params;
  for (cl_uint i = 0; i < k.num_args(); ++i) {
    std::optional<kernel_arg_info> info = k.arg_info(i);
    if (!info) return std::nullopt;
    params.push_back(std::move(*info));
  }
  return params;
}

// Builds FILE with -cl-kernel-arg-info through a kernel_loader with the disk cache on (as
// ANYCL_CACHE says): running the same kernel again with other arguments is the common case, and a
// cached binary skips the compile (about a second on POCL). The cache key covers the options, so
// these builds never mix with ones without arg info. POCL keeps arg info in its binaries; a
// driver that drops it from a binary gets one uncached build from source before giving up.
loaded_kernel load_kernel(const anycl::context& ctx, const run_request& r) {
  anycl::build_options options = r.options;
  options.flag("-cl-kernel-arg-info");
  // FILE as a path if something is there (the loader then reports what is wrong with it), else a
  // name on the loader's search path, such as anycl/demo.cl from the library's embedded copy.
  const fs::path given(r.file);
  std::error_code ec;
  const bool on_disk = fs::exists(given, ec);
  anycl::loader_options lo;
  if (on_disk)
    lo.search_path.push_back(given.parent_path().empty() ? "." : given.parent_path().string());
  const std::string name = on_disk ? given.filename().string() : r.file;
  anycl::kernel_loader loader(ctx, lo);
  if (!on_disk) {
    try {
      (void)loader.locate(name);
    } catch (const anycl::source_error& e) {
      throw std::runtime_error("no such file '" + r.file + "', and " + e.what());
    }
  }

  anycl::kernel k = loader.load(name, options).kernel(r.kernel);
  std::optional<std::vector<kernel_arg_info>> params = params_of(k);
  const anycl::resolved_source src = loader.resolve(name, options);
  if (!params) {
    anycl::program prog(ctx, src.text, src.name);
    prog.build(options);
    k = prog.kernel(r.kernel);
    params = params_of(k);
  }
  if (!params)
    throw std::runtime_error("the driver gives no argument info for kernel '" + r.kernel +
                             "' even with -cl-kernel-arg-info; anycl-run checks every argument "
                             "against the kernel's declaration and does not run it unchecked");
  source_types types{find_typedefs(src.text), {}};
  const std::vector<std::string> unknown = unknown_types(*params, types.aliases);
  if (!unknown.empty()) types.sizes = sizes_of(loader, src, options, unknown);
  return {std::move(k), std::move(*params), std::move(types)};
}

// Sizes the device refuses, or that drivers accept and then crash on, found before any
// allocation: one buffer over CL_DEVICE_MAX_MEM_ALLOC_SIZE, all of them over the global memory,
// __constant buffers over their own limits. (__local sizes are checked by the launch itself.)
void check_limits(const anycl::device& dev, const loaded_kernel& lk, const run_request& r) {
  const cl_ulong max_alloc = dev.max_alloc(), global = dev.global_memory();
  const auto max_constant = dev.info<cl_ulong>(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE);
  const auto max_constant_args = dev.info<cl_uint>(CL_DEVICE_MAX_CONSTANT_ARGS);
  cl_ulong total = 0;
  cl_uint constant_args = 0;
  for (std::size_t i = 0; i < r.args.size(); ++i) {
    const arg_spec& a = r.args[i];
    if (!a.holds_memory()) continue;
    total += a.bytes();
    if (a.kind == arg_kind::image) continue;  // its extents are checked against the image limits
    const std::string what = "argument " + std::to_string(i) + " '" + lk.params[i].name + "' ('" +
                             a.text + "'): " + std::to_string(a.bytes()) + " bytes";
    if (a.bytes() > max_alloc)
      throw std::runtime_error(what + " exceed CL_DEVICE_MAX_MEM_ALLOC_SIZE, " +
                               std::to_string(max_alloc) + " bytes on '" + dev.name() + "'");
    if (lk.params[i].space == address_space::constant) {
      ++constant_args;
      if (a.bytes() > max_constant)
        throw std::runtime_error(what + " exceed CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, " +
                                 std::to_string(max_constant) + " bytes on '" + dev.name() + "'");
    }
  }
  if (total > global)
    throw std::runtime_error("the buffers, SVM and images take " + std::to_string(total) +
                             " bytes together, more than CL_DEVICE_GLOBAL_MEM_SIZE, " +
                             std::to_string(global) + " bytes on '" + dev.name() + "'");
  if (constant_args > max_constant_args)
    throw std::runtime_error(std::to_string(constant_args) +
                             " __constant buffers, more than CL_DEVICE_MAX_CONSTANT_ARGS (" +
                             std::to_string(max_constant_args) + ") on '" + dev.name() + "'");
}

anycl::range to_range(const std::vector<std::size_t>& v) {
  switch (v.size()) {
    case 0:
      return {};
    case 1:
      return anycl::range(v[0]);
    case 2:
      return anycl::range(v[0], v[1]);
    default:
      return anycl::range(v[0], v[1], v[2]);
  }
}

// --- output ---

std::string sizes_text(const std::vector<std::size_t>& v, const char* sep) {
  std::string s;
  for (std::size_t x : v) s += (s.empty() ? "" : sep) + std::to_string(x);
  return s;
}

// An output in the text form: "inout float[8]", "image2d CL_R/CL_FLOAT float 4x3".
std::string output_label(const arg_spec& a) {
  if (a.kind != arg_kind::image)
    return std::string(kind_name(a.kind)) + " " + a.type.name() + "[" + std::to_string(a.count) +
           "]";
  return std::string(image_type_word(a.image.type)) + " " + a.image.format.to_string() + " " +
         a.type.name() + " " + sizes_text(image_sizes(a.image), "x");
}

// Elements of an output shown: --show N (or all), at most the buffer's count.
std::size_t shown(const run_request& r, const arg_spec& a) {
  return r.show && *r.show < a.count ? *r.show : a.count;
}

struct result {
  std::string device;
  std::int64_t time_ns = 0;
  std::vector<std::vector<unsigned char>> outputs;  ///< per argument; empty unless out/inout
  std::vector<std::string> paths;                   ///< per argument, with --out
};

void print_text(const run_request& r, const loaded_kernel& lk, const result& res) {
  std::cout << r.kernel << " (" << r.file << ") on '" << res.device << "', global "
            << sizes_text(r.global, "x") << ", local "
            << (r.local.empty() ? "chosen by the driver" : sizes_text(r.local, "x")) << "\n";
  char time[64];
  std::snprintf(time, sizeof time, "%.3f", static_cast<double>(res.time_ns) / 1000.0);
  std::cout << "kernel time: " << time << " us\n";
  for (std::size_t i = 0; i < r.args.size(); ++i) {
    const arg_spec& a = r.args[i];
    if (!is_output(a, lk.params[i])) continue;
    std::cout << "arg " << i << " '" << lk.params[i].name << "' " << output_label(a) << ":";
    if (!r.out_dir.empty()) {
      std::cout << " wrote " << res.paths[i] << " (" << a.bytes() << " bytes)\n";
      continue;
    }
    const std::size_t n = shown(r, a);
    for (std::size_t e = 0; e < n; ++e)
      std::cout << " " << format_element(a.type, res.outputs[i].data() + e * a.type.size());
    if (n < a.count) std::cout << " ... (" << a.count - n << " more)";
    std::cout << "\n";
  }
}

// One entry of "args": what the spec made, and the values of an output.
void print_json_arg(const run_request& r, const loaded_kernel& lk, const result& res,
                    std::size_t i) {
  const arg_spec& a = r.args[i];
  const kernel_arg_info& p = lk.params[i];
  std::cout << "    {\"index\": " << i << ", \"name\": " << json_string(p.name)
            << ", \"declared\": " << json_string(declared_type(p))
            << ", \"spec\": " << json_string(a.text) << ", \"kind\": \"" << kind_name(a.kind)
            << "\"";
  if (a.kind == arg_kind::sampler) {
    std::cout << ", \"sampler\": " << json_string(a.sampler.to_string()) << "}";
    return;
  }
  std::cout << ", \"type\": " << json_string(a.type.name());
  if (a.kind == arg_kind::scalar) {
    std::cout << ", \"value\": " << format_element(a.type, a.value.data(), true) << "}";
    return;
  }
  if (a.kind == arg_kind::image)
    std::cout << ", \"image\": \"" << image_type_word(a.image.type)
              << "\", \"format\": " << json_string(a.image.format.to_string()) << ", \"sizes\": ["
              << sizes_text(image_sizes(a.image), ", ") << "]";
  std::cout << ", \"count\": " << a.count << ", \"bytes\": " << a.bytes();
  if (a.kind != arg_kind::out && a.kind != arg_kind::local)
    std::cout << ", \"init\": " << json_string(a.init.text.empty() ? "zero" : a.init.text);
  if (is_output(a, p)) {
    if (!res.paths[i].empty()) std::cout << ", \"path\": " << json_string(res.paths[i]);
    const std::size_t n = shown(r, a);
    std::cout << ", \"shown\": " << n << ", \"values\": [";
    for (std::size_t e = 0; e < n; ++e)
      std::cout << (e ? ", " : "")
                << format_element(a.type, res.outputs[i].data() + e * a.type.size(), true);
    std::cout << "]";
  }
  std::cout << "}";
}

void print_json(const run_request& r, const loaded_kernel& lk, const result& res) {
  std::cout << "{\n  \"file\": " << json_string(r.file)
            << ",\n  \"kernel\": " << json_string(r.kernel)
            << ",\n  \"device\": " << json_string(res.device) << ",\n  \"global\": ["
            << sizes_text(r.global, ", ") << "],\n  \"local\": "
            << (r.local.empty() ? "null" : "[" + sizes_text(r.local, ", ") + "]")
            << ",\n  \"time_ns\": " << res.time_ns << ",\n  \"args\": [";
  for (std::size_t i = 0; i < r.args.size(); ++i) {
    std::cout << (i ? ",\n" : "\n");
    print_json_arg(r, lk, res, i);
  }
  std::cout << "\n  ]\n}\n";
}

// Waits for the disk-cache write that the first launch starts, on every way out of run_kernel.
// The library writes it in the launch's completion callback, before a blocking read returns, so
// this normally returns at once; on the error paths it keeps a write from running into process
// exit.
struct cache_write_guard {
  cache_write_guard() = default;
  cache_write_guard(const cache_write_guard&) = delete;
  cache_write_guard& operator=(const cache_write_guard&) = delete;
  ~cache_write_guard() {
    try {
      anycl::wait_for_cache_writes();
    } catch (...) {  // a destructor never throws; the cache is never fatal
    }
  }
};

void write_output(const std::string& path, const std::vector<unsigned char>& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (f)
    f.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  f.close();
  if (!f) throw std::runtime_error("cannot write " + path);
}

/// Throws, listing every problem, unless the arguments fit the kernel's parameters.
void require_matching_arguments(const run_request& r, const loaded_kernel& lk) {
  std::vector<std::string> assumed;
  const std::vector<std::string> problems =
      check_arguments(r.kernel, lk.params, r.args, lk.types, &assumed);
  // Said on stderr, so that stdout (text or --json) stays the run's result.
  for (const std::string& a : assumed) std::cerr << "anycl-run: assumed: " << a << "\n";
  if (problems.empty()) return;
  std::string msg;
  for (const std::string& p : problems) msg += (msg.empty() ? "" : "\n") + p;
  throw std::runtime_error(msg);
}

/// Reads every output back and, with --out DIR, writes each to DIR/argI_NAME.bin.
void read_outputs(const anycl::command_queue& q, const run_request& r, const loaded_kernel& lk,
                  const bound_arguments& bound, result& res) {
  res.outputs.resize(r.args.size());
  res.paths.resize(r.args.size());
  if (!r.out_dir.empty()) {
    std::error_code ec;
    fs::create_directories(r.out_dir, ec);
    if (ec) throw std::runtime_error("--out " + r.out_dir + ": " + ec.message());
  }
  for (std::size_t i = 0; i < r.args.size(); ++i) {
    if (!is_output(r.args[i], lk.params[i])) continue;
    res.outputs[i] = read_output(q, bound, i, r.args[i]);
    if (!r.out_dir.empty()) {
      res.paths[i] =
          (fs::path(r.out_dir) / ("arg" + std::to_string(i) + "_" + lk.params[i].name + ".bin"))
              .string();
      write_output(res.paths[i], res.outputs[i]);
    }
  }
}

}  // namespace

int run_kernel(const arguments& args, const run_request& r) {
  for (const arg_spec& a : r.args) check_init_file(a);  // before the slow part: device and build

  const anycl::device dev = tool_device(args);
  const anycl::context ctx(dev);
  anycl::queue_properties props;
  props.profiling = true;
  const anycl::command_queue q(ctx, dev, props);
  const loaded_kernel lk = load_kernel(ctx, r);
  require_matching_arguments(r, lk);
  check_limits(dev, lk, r);
  bound_arguments bound = bind_arguments(q, r.args, lk.params);

  // enqueue_kernel checks the geometry and the __local total against the device and the kernel
  // (work-group size, local memory) before the driver sees them.
  const anycl::nd_range range(to_range(r.global), to_range(r.local));
  const cache_write_guard wait_for_cache;
  const anycl::event done =
      detail::enqueue_kernel(lk.kernel, q, range, bound.kargs.data(), bound.kargs.size(), {});
  done.wait();

  result res;
  res.device = dev.name();
  res.time_ns = static_cast<std::int64_t>(done.duration().count());
  read_outputs(q, r, lk, bound, res);
  if (r.json) {
    print_json(r, lk, res);
  } else {
    print_text(r, lk, res);
  }
  return 0;
}

}  // namespace anycl::tools

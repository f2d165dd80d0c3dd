// SPDX-License-Identifier: Apache-2.0
// kernel_loader: search path, in-memory sharing of built programs, the disk cache, and prebuilt
// binaries for devices without a compiler.
#include "anycl/kernel_loader.hpp"

#include <dlfcn.h>
#include <sys/stat.h>

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>

#include "anycl/platform.hpp"
#include "cache/digest.hpp"
#include "cache/disk_cache.hpp"
#include "cache/entry.hpp"
#include "cache/key.hpp"
#include "cache/statistics.hpp"
#include "core/process.hpp"
#include "core/read_file.hpp"
#include "kernels/loader_state.hpp"
#include "kernels/sources.hpp"

namespace anycl {
namespace detail {
namespace fs = std::filesystem;

namespace {
/// The installed share/anycl/cl_kernels: first relative to this library (or, when it is linked
/// statically, to the executable), so that a relocated install tree finds it; then the folder
/// fixed at build time, only if it holds this version's stamp, so that an older install there
/// never shadows a newer build's embedded kernels.
std::string installed_kernels_dir() {
  std::error_code ec;
  Dl_info info{};
  if (::dladdr(reinterpret_cast<void*>(&installed_kernels_dir), &info) != 0 &&
      info.dli_fname != nullptr) {
    fs::path self = fs::canonical(fs::path(info.dli_fname), ec);
#ifdef ANYCL_STATIC_DEFINE
    fs::path dir = self.parent_path() / ANYCL_KERNELS_FROM_BINDIR;
#else
    fs::path dir = self.parent_path() / ANYCL_KERNELS_FROM_LIBDIR;
#endif
    dir = dir.lexically_normal();
    if (!ec && fs::is_directory(dir, ec)) return dir.string();
  }
  file_read stamp = read_regular_file(std::string(ANYCL_KERNELS_INSTALLED) + "/.anycl-version", 64);
  if (stamp && std::string(stamp.bytes.begin(), stamp.bytes.end()) == ANYCL_VERSION_STRING)
    return ANYCL_KERNELS_INSTALLED;
  return {};
}

std::string slug(const std::string& name) {
  std::string s;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) != 0) {
      s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!s.empty() && s.back() != '-') {
      s += '-';
    }
    if (s.size() >= 24) break;
  }
  while (!s.empty() && s.back() == '-') s.pop_back();
  return s.empty() ? "device" : s;
}
}  // namespace

std::shared_ptr<program_table> table_for(cl_context ctx) {
  static std::mutex m;
  static auto* tables = new std::map<cl_context, std::weak_ptr<program_table>>;  // never destroyed
  std::lock_guard<std::mutex> lock(m);
  for (auto it = tables->begin(); it != tables->end();)
    it = it->second.expired() ? tables->erase(it) : std::next(it);
  std::shared_ptr<program_table> t = (*tables)[ctx].lock();
  if (!t) {
    t = std::make_shared<program_table>();
    (*tables)[ctx] = t;
  }
  return t;
}

std::vector<std::string> loader_state::candidates(std::string_view file, const device& dev,
                                                  std::size_t index) const {
  fs::path f(file);
  std::string stem = f.stem().string();
  std::vector<fs::path> places;
  if (f.is_absolute()) {
    places.push_back(f.parent_path());
  } else {
    for (const auto& d : dirs) places.push_back(fs::path(d) / f.parent_path());
  }
  std::string key = slug(dev.name()) + "-" + identity_hashes[index].substr(0, 12);
  std::vector<std::string> out;
  for (const auto& p : places)
    for (const std::string& name : {stem + "." + key + ".bin", stem + ".aocx", stem + ".xclbin"})
      out.push_back((p / name).lexically_normal().string());
  return out;
}

std::string loader_state::how_to_make(std::string_view file, std::size_t index,
                                      const std::string& target) const {
  const device& dev = devices[index];
  if (!dev.compiler_available())
    return "make one with the device vendor's offline compiler (e.g. aoc for Intel FPGAs, v++ "
           "for AMD/Xilinx) as " +
           fs::path(file).stem().string() + ".aocx or .xclbin on the search path";
  // anycl-build writes next to the source by default; name the output only when that differs.
  source_file src;
  std::string source = std::string(file);
  bool beside = false;
  if (find_source(file, dirs, src) && !src.embedded) {
    source = src.path;
    beside = fs::path(src.path).parent_path() == fs::path(target).parent_path();
  }
  return "make one with: anycl-build " + source + " --device '" + dev.name() + "'" +
         (beside || target.empty() ? std::string() : " -o " + target);
}

program loader_state::build_prebuilt(std::string_view file, const build_options& options) {
  std::vector<std::vector<unsigned char>> bins;
  std::vector<std::string> looked;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    auto list = candidates(file, devices[i], i);
    bool found = false;
    for (const auto& path : list) {
      struct stat st {};
      if (::stat(path.c_str(), &st) != 0) continue;
      file_read r = read_regular_file(path, entry_max_payload + entry_header_size);
      if (!r)
        throw binary_not_found(
            "prebuilt binary " + path + " " + r.why(entry_max_payload + entry_header_size), list);
      std::vector<unsigned char>& data = r.bytes;
      std::string why;
      if (path.size() > 4 && path.compare(path.size() - 4, 4, ".bin") == 0) {
        why = check_entry(data.data(), data.size(), prebuilt_key(identity_hashes[i]));
        if (!why.empty())
          throw binary_not_found("prebuilt binary " + path + " is unusable: " + why + "; " +
                                     how_to_make(file, i, path),
                                 list);
        data.erase(data.begin(), data.begin() + entry_header_size);
      } else if (data.empty()) {
        throw binary_not_found("prebuilt binary " + path + " is empty", list);
      }
      bins.push_back(std::move(data));
      found = true;
      break;
    }
    if (!found) {
      std::string why = devices[i].compiler_available() ? "the loader is in binary-only mode"
                                                        : "it has no compiler";
      std::string msg = "no prebuilt binary of '" + std::string(file) + "' for device '" +
                        devices[i].name() + "' (" + why + "); looked for:";
      for (const auto& c : list) msg += "\n  " + c;
      if (list.empty()) msg += " (no folders on the search path)";
      msg += "\n" + how_to_make(file, i, list.empty() ? std::string() : list.front());
      throw binary_not_found(msg, list);
    }
  }
  program p = program::from_binaries(ctx, devices, bins, std::string(file));
  p.build(options);
  return p;
}

program loader_state::build(const resolved_source& src, const build_options& options) {
  std::vector<digest> keys;
  disk_cache::lookup_result found;
  if (cache) {
    std::string opts = options.with_environment();
    for (const auto& id : identities) keys.push_back(cache_key(src.text, opts, id));
    found = cache->lookup(keys);
    if (found.binaries) {
      try {
        program p = program::from_binaries(ctx, devices, *found.binaries, src.name);
        p.build(options);
        disk_cache::accepted(found);
        return p;
      } catch (const api_error& e) {  // a binary the driver refuses: rebuild from source
        cache->reject(keys, std::string(status_name(e.status())));
      }
    }
    count(cache_event::miss, static_cast<unsigned>(devices.size()));
  }
  program p(ctx, src.text, src.name);
  p.build(options);  // a failed build releases the locks: a waiting process builds and fails too
  if (cache) cache->save_after_first_launch(p, devices, std::move(keys), std::move(found.locks));
  return p;
}

}  // namespace detail

// --- kernel_loader ---
kernel_loader::kernel_loader(anycl::context ctx, loader_options options)
    : s_(std::make_shared<detail::loader_state>()) {
  if (!ctx) throw std::invalid_argument("kernel_loader: the context is empty");
  auto& s = *s_;
  s.ctx = std::move(ctx);
  s.options = std::move(options);
  s.dirs = s.options.search_path;
  if (s.options.use_environment)
    if (const char* env = std::getenv("ANYCL_KERNEL_PATH")) {
      std::string_view rest = env;
      while (!rest.empty()) {
        std::size_t colon = rest.find(':');
        std::string_view part = rest.substr(0, colon);
        if (!part.empty()) s.dirs.emplace_back(part);
        if (colon == std::string_view::npos) break;
        rest.remove_prefix(colon + 1);
      }
    }
  static const std::string installed = detail::installed_kernels_dir();  // fixed per process
  if (!installed.empty()) s.dirs.push_back(installed);
  s.devices = s.ctx.devices();
  s.table = detail::table_for(s.ctx.get());
  s.prebuilt_only = s.options.binary_only;
  for (const device& d : s.devices) {
    s.identities.push_back(detail::identify(d));  // hashed from these: no second round of queries
    s.identity_hashes.push_back(detail::identity_hash(s.identities.back()));
    if (!d.compiler_available()) s.prebuilt_only = true;
  }
  bool cache_on = s.options.disk_cache.value_or(detail::cache_enabled_by_env());
  std::string dir = s.options.cache_dir ? *s.options.cache_dir : default_cache_dir();
  if (cache_on && !dir.empty()) s.cache = detail::disk_cache::open(dir);
}

const anycl::context& kernel_loader::context() const noexcept { return s_->ctx; }

std::vector<std::string> kernel_loader::search_path() const { return s_->dirs; }

std::string kernel_loader::locate(std::string_view file) const {
  detail::source_file f;
  if (detail::find_source(file, s_->dirs, f)) return f.display;
  std::string looked;
  for (const auto& d : s_->dirs) looked += (looked.empty() ? "" : ", ") + d;
  throw source_error(std::string(file), 0,
                     "kernel source '" + std::string(file) + "' not found; looked in " +
                         (looked.empty() ? std::string() : looked + " and ") +
                         "the embedded cl_kernels/ (add a folder with loader_options::search_path "
                         "or ANYCL_KERNEL_PATH)");
}

resolved_source kernel_loader::resolve(std::string_view file, const build_options& options) const {
  detail::source_file f;
  if (!detail::find_source(file, s_->dirs, f)) locate(file);  // throws the not-found error
  std::string text = f.embedded ? std::string(f.embedded_text) : detail::read_source_file(f.path);
  return detail::splice_includes(f, std::move(text), s_->include_dirs(options));
}

resolved_source kernel_loader::resolve_source(std::string_view source, std::string name,
                                              const build_options& options) const {
  std::size_t nul = source.find('\0');
  if (nul != std::string_view::npos)
    throw source_error(name, 0,
                       "kernel source '" + name + "': contains a NUL byte at offset " +
                           std::to_string(nul) + "; OpenCL compilers silently stop reading there");
  detail::source_file f;
  f.display = std::move(name);
  return detail::splice_includes(f, std::string(source), s_->include_dirs(options));
}

program detail::shared_build(detail::loader_state& s, const std::string& key,
                             const std::function<program()>& make) {
  std::promise<program> promise;
  {
    std::unique_lock<std::mutex> lock(s.table->m);
    auto it = s.table->programs.find(key);
    if (it != s.table->programs.end()) {
      auto fut = it->second;
      lock.unlock();
      return fut.get();
    }
    s.table->programs.emplace(key, promise.get_future().share());
  }
  try {
    program p = make();
    promise.set_value(p);
    return p;
  } catch (...) {
    promise.set_exception(std::current_exception());
    std::lock_guard<std::mutex> lock(s.table->m);
    s.table->programs.erase(key);  // a later call tries again (the file may have been fixed)
    throw;
  }
}

std::string detail::memory_key(std::string_view kind, std::string_view text,
                               const build_options& o) {
  return detail::to_hex(
      detail::sha256().field(kind).field(text).field(o.with_environment()).finish());
}
namespace {
/// Prebuilt binaries are found by name on the search path, so the folders are part of the key.
std::string prebuilt_memory_key(const detail::loader_state& s, std::string_view file,
                                const build_options& o) {
  detail::sha256 h;
  h.field("prebuilt").field(file).field(o.with_environment());
  for (const auto& d : s.dirs) h.field(d);
  return detail::to_hex(h.finish());
}
}  // namespace

program kernel_loader::load(std::string_view file, const build_options& options) const {
  detail::check_not_forked();
  auto& s = *s_;
  if (s.prebuilt_only)
    return detail::shared_build(s, prebuilt_memory_key(s, file, options),
                                [&] { return s.build_prebuilt(file, options); });
  resolved_source src = resolve(file, options);
  return detail::shared_build(s, detail::memory_key("source", src.text, options),
                              [&] { return s.build(src, options); });
}

program kernel_loader::load_source(std::string_view source, std::string name,
                                   const build_options& options) const {
  detail::check_not_forked();
  auto& s = *s_;
  if (s.prebuilt_only)
    return detail::shared_build(s, prebuilt_memory_key(s, name, options),
                                [&] { return s.build_prebuilt(name, options); });
  resolved_source src = resolve_source(source, std::move(name), options);
  return detail::shared_build(s, detail::memory_key("source", src.text, options),
                              [&] { return s.build(src, options); });
}

std::vector<std::string> kernel_loader::prebuilt_candidates(std::string_view file,
                                                            const device& dev) const {
  for (std::size_t i = 0; i < s_->devices.size(); ++i)
    if (s_->devices[i] == dev) return s_->candidates(file, dev, i);
  std::string identity = detail::identity_of(dev);
  detail::loader_state tmp;
  tmp.dirs = s_->dirs;
  tmp.identity_hashes = {identity};
  return tmp.candidates(file, dev, 0);
}

std::string device_key(const device& dev) {
  return detail::slug(dev.name()) + "-" + detail::identity_of(dev).substr(0, 12);
}

std::string prebuilt_file_name(std::string_view file, const device& dev) {
  return std::filesystem::path(file).stem().string() + "." + device_key(dev) + ".bin";
}

void write_prebuilt(const program& prog, const device& dev, const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".aocx" || ext == ".xclbin")
    throw std::invalid_argument("write_prebuilt: '" + path +
                                "': .aocx and .xclbin files are read without AnyCL's header, so "
                                "a prebuilt binary must be named *.bin (see prebuilt_file_name)");
  auto ids = prog.devices();
  auto bins = prog.binaries();
  for (std::size_t i = 0; i < ids.size() && i < bins.size(); ++i) {
    if (ids[i] != dev) continue;
    if (bins[i].empty()) break;
    detail::write_entry_file(path, detail::prebuilt_key(detail::identity_of(dev)), bins[i]);
    return;
  }
  detail::throw_api_error("clGetProgramInfo", CL_INVALID_PROGRAM_EXECUTABLE,
                          "program '" + prog.name() + "' has no binary for device '" + dev.name() +
                              "'; build it for that device first");
}

}  // namespace anycl

// SPDX-License-Identifier: Apache-2.0
// The kernels and device profiles of the array layer, one table per context.
#include "arrays/library_kernels.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

#include "anycl/kernel_loader.hpp"
#include "arrays/context_registry.hpp"
#include "arrays/launch_shape.hpp"

namespace anycl::detail {

class context_kernels {
 public:
  explicit context_kernels(const anycl::context& ctx) : loader_(ctx) {}

  kernel get(const std::string& file, const std::string& name, const build_options& options) {
    // The loader builds once even when several threads ask at once; the kernel object is shared.
    return find_or_build(kernels_, file, name, options,
                         [&] { return loader_.load(file, options).kernel(name); });
  }

  kernel get_source(const std::string& source, const std::string& program_name,
                    const std::string& name, const build_options& options) {
    return find_or_build(generated_, source, name, options, [&] {
      return loader_.load_source(source, program_name, options).kernel(name);
    });
  }

  void put_sources(const std::vector<std::string>& sources, const std::string& program_name,
                   const std::string& name, const build_options& options) {
    const std::vector<std::size_t> missing = missing_sources(generated_, sources, name, options);
    if (missing.empty()) return;
    // Each source's kernel gets a name of its own in the joint program through a macro.
    std::string text;
    for (std::size_t j = 0; j < missing.size(); ++j)
      text += "#define " + name + " " + name + "_" + std::to_string(j) + "\n" +
              sources[missing[j]] + "\n#undef " + name + "\n";
    program p = loader_.load_source(text, program_name, options);
    std::vector<kernel> ks;
    for (std::size_t j = 0; j < missing.size(); ++j)
      ks.push_back(p.kernel(name + "_" + std::to_string(j)));
    std::lock_guard<std::mutex> lock(m_);
    for (std::size_t j = 0; j < missing.size(); ++j)
      generated_.emplace(key_of(sources[missing[j]], name, options), std::move(ks[j]));
  }

  device_profile profile(const command_queue& q) {
    cl_device_id id = q.device_id();
    {
      std::lock_guard<std::mutex> lock(m_);
      auto it = profiles_.find(id);
      if (it != profiles_.end()) return it->second;
    }
    device dev = q.device();
    device_profile p;
    p.cpu = takes_cpu_shape(launch_shape_from_env(), dev);
    p.compute_units = std::max<cl_uint>(1, dev.compute_units());
    p.max_work_group = std::max<std::size_t>(1, dev.max_work_group_size());
    p.fp64 = dev.fp64();
    p.local_memory = dev.local_memory();
    p.options.define(p.cpu ? "ANYCL_CPU" : "ANYCL_GPU");
    if (p.fp64) p.options.define("ANYCL_FP64");
    std::lock_guard<std::mutex> lock(m_);
    return profiles_.emplace(id, std::move(p)).first->second;
  }

 private:
  using table = std::unordered_map<std::string, kernel>;

  static std::string key_of(const std::string& what, const std::string& name,
                            const build_options& options) {
    std::string key = what;
    key += '\0';
    key += options.str();
    key += '\0';
    key += name;
    return key;
  }

  // The indices of the `sources` (kernel `name`, `options`) that `t` lacks, each source once.
  std::vector<std::size_t> missing_sources(const table& t, const std::vector<std::string>& sources,
                                           const std::string& name, const build_options& options) {
    std::vector<std::size_t> missing;
    std::lock_guard<std::mutex> lock(m_);
    for (std::size_t i = 0; i < sources.size(); ++i) {
      const bool seen =
          std::find(sources.begin(), sources.begin() + i, sources[i]) != sources.begin() + i;
      if (!seen && t.count(key_of(sources[i], name, options)) == 0) missing.push_back(i);
    }
    return missing;
  }

  // The kernel of `table` for (what, name, options); build() makes it the first time.
  template <class Build>
  kernel find_or_build(table& t, const std::string& what, const std::string& name,
                       const build_options& options, Build build) {
    std::string key = key_of(what, name, options);
    {
      std::lock_guard<std::mutex> lock(m_);
      auto it = t.find(key);
      if (it != t.end()) return it->second;
    }
    kernel k = build();
    std::lock_guard<std::mutex> lock(m_);
    return t.emplace(std::move(key), std::move(k)).first->second;
  }

  kernel_loader loader_;
  std::mutex m_;
  table kernels_;
  table generated_;
  std::map<cl_device_id, device_profile> profiles_;
};

std::shared_ptr<context_kernels> kernels_for(const anycl::context& ctx) {
  return registry_of<context_kernels>().get(ctx.get(),
                                            [&] { return std::make_shared<context_kernels>(ctx); });
}

device_profile profile(const command_queue& queue) {
  return kernels_for(queue.context())->profile(queue);
}

kernel library_kernel(const command_queue& queue, const std::string& file, const std::string& name,
                      const build_options& options) {
  return kernels_for(queue.context())->get(file, name, options);
}

kernel generated_kernel(const command_queue& queue, const std::string& source,
                        const std::string& program_name, const std::string& name,
                        const build_options& options) {
  return kernels_for(queue.context())->get_source(source, program_name, name, options);
}

void generated_kernels_together(const command_queue& queue, const std::vector<std::string>& sources,
                                const std::string& program_name, const std::string& kernel_name,
                                const build_options& options) {
  kernels_for(queue.context())->put_sources(sources, program_name, kernel_name, options);
}

build_options typed_options(const command_queue& queue, scalar_type t) {
  build_options o = library_options(queue);
  o.define("T", cl_storage_name(t));
  return o;
}

}  // namespace anycl::detail

// SPDX-License-Identifier: Apache-2.0
// kernel_loader::link: several .cl files compiled on their own and linked into one program,
// through the same disk cache and per-context table as load().
#include <stdexcept>
#include <string>
#include <vector>

#include "cache/statistics.hpp"
#include "core/process.hpp"
#include "kernels/loader_state.hpp"

namespace anycl {

namespace {

/// One text standing for every part, in order: what the cache and the table key on.
std::string parts_text(const std::vector<resolved_source>& parts) {
  std::string all = "anycl-link";
  for (const resolved_source& p : parts)
    all += "\n" + std::to_string(p.name.size()) + ":" + p.name + std::to_string(p.text.size()) +
           ":" + p.text;
  return all;
}

}  // namespace

program detail::loader_state::link(const std::vector<resolved_source>& parts,
                                   const build_options& options, const std::string& name) {
  const std::string text = parts_text(parts);
  std::vector<digest> keys;
  disk_cache::lookup_result found;
  if (cache) {
    const std::string opts = options.with_environment();
    for (const auto& id : identities) keys.push_back(cache_key(text, opts, id));
    found = cache->lookup(keys);
    if (found.binaries) {
      try {
        program p = program::from_binaries(ctx, devices, *found.binaries, name);
        p.build(options);
        disk_cache::accepted(found);
        return p;
      } catch (const api_error& e) {  // a binary the driver refuses: compile and link again
        cache->reject(keys, std::string(status_name(e.status())));
      }
    }
    count(cache_event::miss, static_cast<unsigned>(devices.size()));
  }
  std::vector<program> compiled;
  for (const resolved_source& part : parts) {
    program p(ctx, part.text, part.name);
    p.compile(options);  // a failure releases the locks, as a failed build does
    compiled.push_back(std::move(p));
  }
  program linked = program::link(ctx, compiled, {}, link_target::executable, name);
  if (cache)
    cache->save_after_first_launch(linked, devices, std::move(keys), std::move(found.locks));
  return linked;
}

program kernel_loader::link(const std::vector<std::string>& files,
                            const build_options& options) const {
  detail::check_not_forked();
  if (files.empty()) throw std::invalid_argument("kernel_loader::link: no files to link");
  auto& s = *s_;
  std::string name;
  for (const std::string& f : files) name += (name.empty() ? "" : "+") + f;
  if (s.prebuilt_only)
    throw binary_not_found("kernel_loader::link of " + name +
                               ": the loader takes prebuilt binaries only (a device without a "
                               "compiler, or binary_only): link the parts offline and load() "
                               "the result",
                           {});
  std::vector<resolved_source> parts;
  for (const std::string& f : files) parts.push_back(resolve(f, options));
  return detail::shared_build(s, detail::memory_key("link", parts_text(parts), options),
                              [&] { return s.link(parts, options, name); });
}

}  // namespace anycl

// SPDX-License-Identifier: Apache-2.0
// Host tasks: maps, clEnqueueNativeKernel and unmaps, in queue order.
#include "launch/native_task.hpp"

#include <vector>

#include "core/check.hpp"

namespace anycl::detail {

namespace {

// A buffer's root (itself, or the parent of a sub-buffer) and its first byte in the root.
struct rooted {
  cl_mem root;
  std::size_t offset;
};

rooted root_of(const anycl::buffer& b) {
  cl_mem parent = nullptr;
  ANYCL_CHECK(
      clGetMemObjectInfo(b.get(), CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, nullptr),
      "clGetMemObjectInfo", "CL_MEM_ASSOCIATED_MEMOBJECT");
  if (parent == nullptr) return {b.get(), 0};
  std::size_t offset = 0;
  ANYCL_CHECK(clGetMemObjectInfo(b.get(), CL_MEM_OFFSET, sizeof offset, &offset, nullptr),
              "clGetMemObjectInfo", "CL_MEM_OFFSET");
  return {parent, offset};
}

std::size_t size_of_mem(cl_mem m) {
  std::size_t bytes = 0;
  ANYCL_CHECK(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof bytes, &bytes, nullptr),
              "clGetMemObjectInfo", "CL_MEM_SIZE");
  return bytes;
}

struct mapping {
  cl_mem root;
  void* base;
};

// After a failure: undoes the maps made, best effort (the failure is what gets thrown).
void unmap_quietly(const command_queue& q, const std::vector<mapping>& maps) {
  for (const mapping& m : maps)
    clEnqueueUnmapMemObject(q.get(), m.root, m.base, 0, nullptr, nullptr);
}

// Unmaps every mapping after the task (in-order: after `after`); the events of the unmaps.
std::vector<event> unmap_all(const command_queue& q, const std::vector<mapping>& maps,
                             const wait_list& after) {
  std::vector<event> out;
  for (const mapping& m : maps) {
    cl_event ev = nullptr;
    ANYCL_CHECK(clEnqueueUnmapMemObject(q.get(), m.root, m.base, after.size(), after.data(), &ev),
                "clEnqueueUnmapMemObject", "a buffer mapped for a host task");
    out.push_back(event::adopt(ev));
  }
  return out;
}

// Maps each distinct root once; fills the addresses.
std::vector<mapping> map_all(const command_queue& q, std::size_t count,
                             const anycl::buffer* const* bufs, void** const* addresses,
                             const wait_list& waits, std::vector<event>& mapped) {
  std::vector<mapping> maps;
  try {
    for (std::size_t i = 0; i < count; ++i) {
      const rooted r = root_of(*bufs[i]);
      void* base = nullptr;
      for (const mapping& m : maps)
        if (m.root == r.root) base = m.base;
      if (base == nullptr) {
        cl_int status = CL_SUCCESS;
        cl_event ev = nullptr;
        base = clEnqueueMapBuffer(q.get(), r.root, CL_FALSE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                  size_of_mem(r.root), waits.size(), waits.data(), &ev, &status);
        ANYCL_CHECK(status, "clEnqueueMapBuffer", "a buffer of a host task, read-write");
        mapped.push_back(event::adopt(ev));
        maps.push_back({r.root, base});
      }
      *addresses[i] = static_cast<char*>(base) + r.offset;
    }
  } catch (...) {
    unmap_quietly(q, maps);
    throw;
  }
  return maps;
}

}  // namespace

bool host_task_can_map(const anycl::buffer& b) {
  if (b.empty()) return false;
  cl_mem_flags flags = 0;
  ANYCL_CHECK(clGetMemObjectInfo(b.get(), CL_MEM_FLAGS, sizeof flags, &flags, nullptr),
              "clGetMemObjectInfo", "CL_MEM_FLAGS");
  return (flags & (CL_MEM_HOST_NO_ACCESS | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)) == 0;
}

event enqueue_host_task(const command_queue& q, void (*fn)(void*), void* args, std::size_t size,
                        std::size_t count, const anycl::buffer* const* bufs,
                        void** const* addresses, const wait_list& waits) {
  std::vector<event> mapped;
  const std::vector<mapping> maps = map_all(q, count, bufs, addresses, waits, mapped);
  const wait_list after_maps = mapped.empty() ? waits : wait_list(mapped);
  cl_event task = nullptr;
  const cl_int status = clEnqueueNativeKernel(q.get(), fn, args, size, 0, nullptr, nullptr,
                                              after_maps.size(), after_maps.data(), &task);
  if (status != CL_SUCCESS) {
    unmap_quietly(q, maps);
    ANYCL_CHECK(status, "clEnqueueNativeKernel", count,
                " buffers; the device must list CL_EXEC_NATIVE_KERNEL");
  }
  const event done = event::adopt(task);
  std::vector<event> unmapped = unmap_all(q, maps, done);
  if (unmapped.empty()) return done;
  if (unmapped.size() == 1) return unmapped[0];
  return q.marker(unmapped);
}

}  // namespace anycl::detail

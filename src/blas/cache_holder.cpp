// SPDX-License-Identifier: Apache-2.0
// The per-context holder that clears CLBlast's program cache once a context's BLAS buffers are
// gone: each buffer a BLAS call used holds it through a destructor callback.
#include "blas/cache_holder.hpp"

#include <clblast.h>

#include <map>
#include <memory>
#include <mutex>
#include <unordered_set>

namespace anycl::detail {

namespace {

// Lives while a buffer that a BLAS call used on its context lives: each such buffer holds a
// reference through its destructor callback. CLBlast 1.5.3 can only clear its whole cache, so the
// last reference clears it; the programs of other contexts are rebuilt on their next call.
class blas_context {
 public:
  blas_context() = default;
  blas_context(const blas_context&) = delete;
  blas_context& operator=(const blas_context&) = delete;
  ~blas_context() { clblast::ClearCache(); }

  // Registers `mem` once; returns false when it already was.
  bool add(cl_mem mem) {
    std::lock_guard<std::mutex> lock(m_);
    return watched_.insert(mem).second;
  }
  void remove(cl_mem mem) {
    std::lock_guard<std::mutex> lock(m_);
    watched_.erase(mem);
  }

 private:
  std::mutex m_;
  std::unordered_set<cl_mem> watched_;
};

struct watch_token {
  std::shared_ptr<blas_context> holder;
};

// Runs when the cl_mem is destroyed (possibly on a driver thread); dropping the token may destroy
// the holder, which clears CLBlast's cache. The cl_mem still holds its context here.
void CL_CALLBACK on_buffer_released(cl_mem mem, void* data) {
  auto* token = static_cast<watch_token*>(data);
  token->holder->remove(mem);
  delete token;
}

std::mutex holders_mutex;
std::map<cl_context, std::weak_ptr<blas_context>>& holders() {
  static auto* h = new std::map<cl_context, std::weak_ptr<blas_context>>();
  return *h;
}

std::shared_ptr<blas_context> holder_for(cl_context ctx) {
  std::lock_guard<std::mutex> lock(holders_mutex);
  auto& h = holders();
  auto it = h.find(ctx);
  if (it != h.end()) {
    if (auto sp = it->second.lock()) return sp;
  }
  for (auto i = h.begin(); i != h.end();) i = i->second.expired() ? h.erase(i) : std::next(i);
  auto sp = std::make_shared<blas_context>();
  h[ctx] = sp;
  return sp;
}

void watch_one(const std::shared_ptr<blas_context>& holder, const anycl::buffer& buf) {
  cl_mem mem = buf.get();
  if (mem == nullptr || !holder->add(mem)) return;
  auto* token = new watch_token{holder};
  const cl_int status = clSetMemObjectDestructorCallback(mem, on_buffer_released, token);
  if (status != CL_SUCCESS) {
    holder->remove(mem);
    delete token;
    throw_api_error("clSetMemObjectDestructorCallback", status,
                    "registering a BLAS buffer for CLBlast's cache clean-up");
  }
}

}  // namespace

void watch_buffers(cl_context ctx, const std::vector<const anycl::buffer*>& buffers) {
  const std::shared_ptr<blas_context> holder = holder_for(ctx);
  for (const anycl::buffer* b : buffers) watch_one(holder, *b);
}

}  // namespace anycl::detail

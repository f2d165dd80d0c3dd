// SPDX-License-Identifier: Apache-2.0
// anycl-run's arguments made on the device, and its outputs read back.
#include "bind.hpp"

namespace anycl::tools {

namespace {

anycl::memory_access image_access(const kernel_arg_info& p) {
  switch (p.access) {
    case access_qualifier::write_only:
      return anycl::memory_access::write_only;
    case access_qualifier::read_write:
      return anycl::memory_access::read_write;
    default:
      return anycl::memory_access::read_only;
  }
}

}  // namespace

bool is_output(const arg_spec& a, const kernel_arg_info& p) {
  switch (a.kind) {
    case arg_kind::out:
    case arg_kind::inout:
    case arg_kind::svm:
      return true;
    case arg_kind::image:
      return p.access == access_qualifier::write_only || p.access == access_qualifier::read_write;
    default:
      return false;
  }
}

bound_arguments bind_arguments(const anycl::command_queue& q, const std::vector<arg_spec>& args,
                               const std::vector<kernel_arg_info>& params) {
  const anycl::context ctx = q.context();
  const std::size_t n = args.size();
  bound_arguments b;
  b.buffers.resize(n);
  b.svm.resize(n);
  b.images.resize(n);
  b.samplers.resize(n);
  b.kargs.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const arg_spec& a = args[i];
    detail::kernel_arg& k = b.kargs[i];
    k.size = a.bytes();
    const std::vector<unsigned char> init =
        a.holds_memory() ? initial_contents(a) : std::vector<unsigned char>();
    switch (a.kind) {
      case arg_kind::scalar:
        k.value = a.value.data();
        break;
      case arg_kind::local:
        k.k = detail::kernel_arg::kind::local;
        break;
      case arg_kind::sampler:
        b.samplers[i] =
            anycl::sampler(ctx, a.sampler.normalized, a.sampler.addressing, a.sampler.filter);
        k = detail::arg_traits<anycl::sampler>::make(b.samplers[i]);
        break;
      case arg_kind::svm:
        b.svm[i] = anycl::svm_buffer<unsigned char>(ctx, init.size());
        q.svm_write(b.svm[i], init.data(), init.size());
        k = detail::arg_traits<anycl::svm_buffer<unsigned char>>::make(b.svm[i]);
        break;
      case arg_kind::image:
        b.images[i] = anycl::image(ctx, a.image.type, a.image.format, a.image.extent, init.data(),
                                   0, 0, image_access(params.at(i)));
        k = detail::arg_traits<anycl::image>::make(b.images[i]);
        break;
      default:
        b.buffers[i] = anycl::buffer(ctx, init.data(), init.size());
        k = detail::memory_arg(b.buffers[i].get());
        break;
    }
  }
  return b;
}

std::vector<unsigned char> read_output(const anycl::command_queue& q, const bound_arguments& b,
                                       std::size_t i, const arg_spec& a) {
  std::vector<unsigned char> out(a.bytes());
  if (a.kind == arg_kind::svm) {
    q.svm_read(out.data(), b.svm[i], out.size());
  } else if (a.kind == arg_kind::image) {
    q.read_image(b.images[i], {0, 0, 0}, b.images[i].region(), out.data());
  } else {
    q.read_bytes(b.buffers[i], 0, out.size(), out.data());
  }
  return out;
}

}  // namespace anycl::tools

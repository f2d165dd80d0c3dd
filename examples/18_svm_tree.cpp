// SPDX-License-Identifier: Apache-2.0
// Shared virtual memory: a binary search tree built on the host with ordinary pointers, in one
// SVM allocation, then searched by a kernel (one work-item per key, each following the
// pointers); checked against std::set. Then the same tree with each node in an allocation of its
// own, which the kernel reaches through kernel::use_svm.
#include <anycl/anycl.hpp>

#include <cstdio>
#include <exception>
#include <random>
#include <set>
#include <vector>

namespace {

// The kernel's struct and the host's have the same layout: pointers are the same on both sides.
struct node {
  node* left;
  node* right;
  int key;
  int pad;
};

const char* const src =
    "typedef struct node { global struct node* left; global struct node* right; int key, pad; } "
    "node;\n"
    "kernel void find(global const node* root, global const int* keys, global int* found) {\n"
    "  const int k = keys[get_global_id(0)];\n"
    "  global const node* n = root;\n"
    "  while (n != 0 && n->key != k) n = k < n->key ? n->left : n->right;\n"
    "  found[get_global_id(0)] = n != 0;\n"
    "}\n";

// Inserts `key` below `root` into the next free node of `pool` (unbalanced: random keys keep it
// shallow enough).
node* insert(node* root, node*& pool, int key) {
  node* fresh = pool++;
  *fresh = {nullptr, nullptr, key, 0};
  if (root == nullptr) return fresh;
  for (node* n = root;;) {
    node*& next = key < n->key ? n->left : n->right;
    if (next == nullptr) {
      next = fresh;
      return root;
    }
    n = next;
  }
}

// The keys: distinct, random.
std::vector<int> tree_keys(std::size_t n, std::mt19937& rng) {
  std::set<int> seen;
  std::vector<int> keys;
  std::uniform_int_distribution<int> pick(0, 1 << 20);
  while (keys.size() < n)
    if (int k = pick(rng); seen.insert(k).second) keys.push_back(k);
  return keys;
}

// Searches `queries` from `root` on the device; returns how many answers match std::set.
std::size_t check(
    const anycl::command_queue& q,
    const anycl::kernel_function<anycl::svm_ptr<const node>, anycl::svm_ptr<const int>,
                                 anycl::svm_ptr<int>>& find,
    const anycl::svm_ptr<const node>& root, const std::set<int>& keys,
    const std::vector<int>& queries) {
  const anycl::context ctx = q.context();
  anycl::svm_buffer<int> asked(ctx, queries.size()), found(ctx, queries.size());
  q.svm_write(asked, queries.data(), queries.size());
  find(q, anycl::nd_range{queries.size()}, root, asked, found);
  const std::vector<int> got = q.svm_read(found, queries.size());
  std::size_t right = 0;
  for (std::size_t i = 0; i < queries.size(); ++i)
    right += (got[i] != 0) == (keys.count(queries[i]) != 0);
  return right;
}

}  // namespace

int main() try {
  anycl::command_queue q(anycl::select_device());
  const anycl::context ctx = q.context();
  const anycl::svm_support svm = q.device().svm_capabilities();
  if (!svm.coarse_grain_buffer) {
    std::printf("%s has no SVM (CL_DEVICE_SVM_CAPABILITIES: %s): nothing to show\n",
                q.device().name().c_str(), svm.to_string().c_str());
    return 0;
  }
  anycl::program prog(ctx, src, "tree.cl");
  prog.build();
  auto find =
      prog.function<anycl::svm_ptr<const node>, anycl::svm_ptr<const int>, anycl::svm_ptr<int>>(
          "find");
  std::mt19937 rng(7);
  const std::size_t n = 10000, asked = 100000;
  const std::vector<int> keys = tree_keys(n, rng);
  const std::set<int> key_set(keys.begin(), keys.end());
  std::vector<int> queries(asked);
  for (std::size_t i = 0; i < asked; ++i)  // half of them in the tree
    queries[i] = i % 2 == 0 ? keys[rng() % n] : static_cast<int>(rng() % (1 << 20));

  // One allocation: built while mapped, with the allocation's own addresses as pointers.
  anycl::svm_buffer<node> nodes(ctx, n);
  node* root = nullptr;
  {
    anycl::svm_mapping<node> m = q.svm_map(nodes, n, anycl::map_access::write);
    node* pool = m.data();
    for (int k : keys) root = insert(root, pool, k);
  }
  const std::size_t right =
      check(q, find, nodes.ptr(static_cast<std::size_t>(root - nodes.data())), key_set, queries);
  std::printf("tree of %zu keys in one SVM allocation, %zu lookups on the device: %zu right: %s\n",
              n, asked, right, right == asked ? "ok" : "WRONG");

  // A node per allocation: the kernel reaches them through pointers only, so it is told of them.
  const std::size_t m_nodes = 500;
  std::vector<anycl::svm_buffer<node>> each;
  std::vector<anycl::svm_memory> all;
  node* root2 = nullptr;
  for (std::size_t i = 0; i < m_nodes; ++i) {
    each.emplace_back(
        ctx, 1,
        svm.fine_grain_buffer ? anycl::svm_kind::fine_grain : anycl::svm_kind::coarse_grain);
    all.push_back(each.back());
  }
  {
    std::vector<anycl::svm_mapping<node>> maps;  // coarse grain: every node mapped while linked
    for (auto& b : each) maps.push_back(q.svm_map(b, 1, anycl::map_access::read_write));
    for (std::size_t i = 0; i < m_nodes; ++i) {
      node* pool = maps[i].data();
      root2 = insert(root2, pool, keys[i]);
    }
  }
  find.kernel().use_svm(all);
  const std::set<int> first(keys.begin(), keys.begin() + m_nodes);
  const anycl::svm_ptr<const node> root_ptr(each[0].memory(), root2);
  const std::size_t right2 = check(q, find, root_ptr, first, queries);
  std::printf(
      "tree of %zu nodes in %zu allocations (kernel::use_svm), %zu lookups: %zu right: %s\n",
      m_nodes, m_nodes, asked, right2, right2 == asked ? "ok" : "WRONG");
  const bool ok = right == asked && right2 == asked;
  std::printf("svm tree: %s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}

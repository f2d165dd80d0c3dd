// SPDX-License-Identifier: Apache-2.0
// Kernels only shared virtual memory can run: they follow pointers the host stored in the data.

// A node of a singly linked list, laid out as the host's struct of the same name.
typedef struct node {
  global struct node* next;
  int value;
  int pad;
} node;

// Sums the values of the list starting at `head` into out[0], counting the nodes into out[1].
kernel void walk(global node* head, global int* out) {
  int sum = 0, count = 0;
  for (global node* n = head; n != 0; n = n->next) {
    sum += n->value;
    ++count;
  }
  out[0] = sum;
  out[1] = count;
}

// Adds 1 to every element through a table of pointers, one per work-item.
kernel void add_one_through(global int* const global* table) { *table[get_global_id(0)] += 1; }

// a[i] = a[i] * 2 + 1: plain SVM arguments.
kernel void twice_plus_one(global int* a) {
  const size_t i = get_global_id(0);
  a[i] = a[i] * 2 + 1;
}

// Copies the SVM `src` into the buffer `dst`.
kernel void copy_out(global const int* src, global int* dst) {
  dst[get_global_id(0)] = src[get_global_id(0)];
}

// SPDX-License-Identifier: Apache-2.0
// Indexing of arrays of T by arrays of integer indices of type I: take (gather), put (scatter,
// the last of duplicate indices winning) and searchsorted (binary search in a sorted array).
// Options: -DT=<element type> -DI=<index type>, -DANYCL_FLOATING for floating T (searchsorted
// orders NaN last, as numpy's sort does).
#include "loop.h"

#ifndef T
#define T float
#endif
#ifndef I
#define I long
#endif

// What the host's index_mode numbers mean: 0 raise (out of range sets *bad), 1 wrap, 2 clip.
#define ANYCL_INDEX_RAISE 0u
#define ANYCL_INDEX_WRAP 1u

// Index v into an axis of `len` (> 0) elements: negative ones count from the end (raise and
// wrap, as numpy's). Returns -1 for an index out of range under raise, after flagging *bad.
inline long anycl_index(I v, ulong len, uint mode, global uint* bad) {
  long i = (long)v;
  const long n = (long)len;
  if (mode == ANYCL_INDEX_WRAP) {
    i %= n;
    return i < 0 ? i + n : i;
  }
  if (mode != ANYCL_INDEX_RAISE) return i < 0 ? 0 : (i >= n ? n - 1 : i);
  // An unsigned index past LONG_MAX converts to a negative long that stays negative here.
  if (i < 0) i += n;
  if (i < 0 || i >= n) {
    atomic_or(bad, 1u);
    return -1;
  }
  return i;
}

// Index v into an axis of `len` (> 0) elements without branches on the data (so that the
// gather loop vectorises): negative ones count from the end under raise and wrap; *ok is false
// for one out of range under raise (the result is then 0, a valid position).
inline ulong anycl_index_fast(I v, ulong len, uint mode, bool* ok) {
  long i = (long)v;
  const long n = (long)len;
  if (mode == ANYCL_INDEX_WRAP) {
    i %= n;
    return (ulong)(i < 0 ? i + n : i);
  }
  if (mode != ANYCL_INDEX_RAISE) return (ulong)(i < 0 ? 0 : (i >= n ? n - 1 : i));
  i += i < 0 ? n : 0;
  *ok = i >= 0 && i < n;
  return *ok ? (ulong)i : 0;
}

// out[out_off + k] for k < n, row-major element (o, j, r) of the shape (outer, m, inner), is
// element (o, idx[j], r) of a's dense (outer, len, inner) form: take along an axis (outer and
// inner 1 for a flat take). An index out of range under raise gives 0 there and sets *bad.
kernel void anycl_take(global const T* a, ulong a_off, global const I* idx, ulong idx_off,
                       ulong len, ulong m, ulong inner, uint mode, global uint* bad,
                       global T* out, ulong out_off, ulong n, ulong chunk) {
  bool all_ok = true;
  a += a_off;
  idx += idx_off;
  out += out_off;
  if (inner == 1 && m == n) {
    // A flat take: out[k] = a[idx[k]].
    ANYCL_FOR_EACH(k, n, chunk) {
      bool ok = true;
      const ulong i = anycl_index_fast(idx[k], len, mode, &ok);
      out[k] = ok ? a[i] : (T)0;
      all_ok &= ok;
    }
  } else {
    ANYCL_FOR_EACH(k, n, chunk) {
      // No 64-bit division where the first outer index (t < m) needs none: a division costs
      // more than the gather itself on a CPU.
      const ulong t = inner == 1 ? k : k / inner;
      const ulong r = k - t * inner;
      const ulong o = t < m ? 0 : t / m;
      const ulong j = t - o * m;
      bool ok = true;
      const ulong i = anycl_index_fast(idx[j], len, mode, &ok);
      out[k] = ok ? a[(o * len + i) * inner + r] : (T)0;
      all_ok &= ok;
    }
  }
  if (!all_ok) atomic_or(bad, 1u);
}

// The first pass of put: owner[i] becomes the largest k + 1 of the m indices k that address
// element i, so that the last of duplicate indices writes (as numpy's put). Out of range under
// raise sets *bad; the host then writes nothing.
kernel void anycl_put_claim(global const I* idx, ulong idx_off, ulong len, uint mode,
                            global uint* bad, global uint* owner, ulong m, ulong chunk) {
  ANYCL_FOR_EACH(k, m, chunk) {
    const long i = anycl_index(idx[idx_off + k], len, mode, bad);
    if (i >= 0) atomic_max(owner + i, (uint)(k + 1));
  }
}

// The second pass: a[a_off + i] = v[v_off + k % nv] for the owner k of each addressed i (values
// repeat when there are fewer than indices, as numpy's put).
kernel void anycl_put_write(global const I* idx, ulong idx_off, ulong len, uint mode,
                            global uint* bad, global const uint* owner, global const T* v,
                            ulong v_off, ulong nv, global T* a, ulong a_off, ulong m,
                            ulong chunk) {
  ANYCL_FOR_EACH(k, m, chunk) {
    const long i = anycl_index(idx[idx_off + k], len, mode, bad);
    if (i >= 0 && owner[i] == (uint)(k + 1)) a[a_off + (ulong)i] = v[v_off + (k < nv ? k : k % nv)];
  }
}

// Whether x sorts before y: `<`, with NaN after every number for floating T.
inline bool anycl_before(T x, T y) {
#ifdef ANYCL_FLOATING
  return x < y || (isnan(y) && !isnan(x));
#else
  return x < y;
#endif
}

// out[k] for k < n: the first position p of sorted a[0, len) where v[k] can go keeping the order,
// the first such (a[p] not before v[k]) for the left side, the last (v[k] before a[p]) for the
// right side.
kernel void anycl_searchsorted(global const T* a, ulong a_off, ulong len, global const T* v,
                               ulong v_off, uint right, global ulong* out, ulong n, ulong chunk) {
  ANYCL_FOR_EACH(k, n, chunk) {
    const T x = v[v_off + k];
    ulong lo = 0, hi = len;
    while (lo < hi) {
      const ulong mid = lo + (hi - lo) / 2;
      const T y = a[a_off + mid];
      if (right ? !anycl_before(x, y) : anycl_before(y, x))
        lo = mid + 1;
      else
        hi = mid;
    }
    out[k] = lo;
  }
}

// The device side of value_store.h: a kernel takes its values as a functor
// V, vals(k) the value of stored entry k, so one kernel body serves native
// values, 1- and 2-byte codes into the table (read through the read-only
// path: 256 doubles stay in L1), 4-bit codes where the format packs them,
// and a pattern's one value. with_values
// launches the kernel with the functor of a format's storage.
#ifndef SPMVLAB_PLUGINS_COMMON_VALUE_STORE_CUH
#define SPMVLAB_PLUGINS_COMMON_VALUE_STORE_CUH

#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

#include "value_store.h"

// A load of a stored entry (a value or a code): through L1 by the
// read-only path, or with Stream past it (evict-first, ld.global.cs), so
// that entries read once do not push a kernel's x out of L1. The table of
// a code is always read through L1.
template <bool Stream, typename P> __device__ __forceinline__ P entry_load(const P *p)
{
    if constexpr (Stream)
        return __ldcs(p);
    else
        return __ldg(p);
}

// Values of type T stored as they are.
template <typename T, bool Stream = false> struct native_values {
    const T *__restrict__ val;
    __device__ __forceinline__ T operator()(int64_t k) const { return entry_load<Stream>(val + k); }
};

// Codes of type C (uint8_t, uint16_t) into a table of values of type T.
template <typename T, typename C, bool Stream = false> struct coded_values {
    const C *__restrict__ code;
    const T *__restrict__ table;
    __device__ __forceinline__ T operator()(int64_t k) const { return __ldg(table + entry_load<Stream>(code + k)); }
};

// 4-bit codes, two a byte (entry k in byte k / 2, the low half when k is
// even), into a table of values of type T.
template <typename T, bool Stream = false> struct coded4_values {
    const uint8_t *__restrict__ code;
    const T *__restrict__ table;
    __device__ __forceinline__ T operator()(int64_t k) const
    {
        return __ldg(table + ((entry_load<Stream>(code + (k >> 1)) >> ((k & 1) << 2)) & 15u));
    }
};

// One value for every entry.
template <typename T> struct pattern_values {
    T value;
    __device__ __forceinline__ T operator()(int64_t) const { return value; }
};

// The functor of the same storage over another stored array of the format
// (a remainder beside the blocks): the same table or pattern value.
template <typename T, bool S>
__host__ __device__ native_values<T, S> values_over(native_values<T, S>, const void *stored)
{
    return native_values<T, S>{static_cast<const T *>(stored)};
}
template <typename T, typename C, bool S>
__host__ __device__ coded_values<T, C, S> values_over(coded_values<T, C, S> v, const void *stored)
{
    return coded_values<T, C, S>{static_cast<const C *>(stored), v.table};
}
template <typename T, bool S>
__host__ __device__ coded4_values<T, S> values_over(coded4_values<T, S> v, const void *stored)
{
    return coded4_values<T, S>{static_cast<const uint8_t *>(stored), v.table};
}
template <typename T> __host__ __device__ pattern_values<T> values_over(pattern_values<T> v, const void *) { return v; }

// The 4-bit codes' functor for a format that takes them (Codes4), else an
// error: a kernel is built for them only where the format packs them.
template <typename T, bool Codes4, bool Stream> struct codes4_launch {
    template <typename Launch> static cudaError_t run(const void *stored, const T *table, Launch &launch)
    {
        return launch(coded4_values<T, Stream>{static_cast<const uint8_t *>(stored), table});
    }
};
template <typename T, bool Stream> struct codes4_launch<T, false, Stream> {
    template <typename Launch> static cudaError_t run(const void *, const T *, Launch &)
    {
        return cudaErrorInvalidValue;
    }
};

// launch(vals) with the functor of storage s over the device array stored
// (its entries of s->elem bytes, or 4-bit codes when Codes4: the format's
// build took them by spmvlab_value_store_code_bits), values of type T,
// entries loaded past L1 with Stream (entry_load); returns what launch
// returns (a cudaError_t).
template <typename T, bool Codes4 = false, bool Stream = false, typename Launch>
static inline cudaError_t with_values(const spmvlab_value_store *s, const void *stored, Launch launch)
{
    switch (s->kind) {
    case SPMVLAB_STORE_CODES4:
        return codes4_launch<T, Codes4, Stream>::run(stored, static_cast<const T *>(s->d_table), launch);
    case SPMVLAB_STORE_CODES8:
        return launch(coded_values<T, uint8_t, Stream>{static_cast<const uint8_t *>(stored),
                                                       static_cast<const T *>(s->d_table)});
    case SPMVLAB_STORE_CODES16:
        return launch(coded_values<T, uint16_t, Stream>{static_cast<const uint16_t *>(stored),
                                                        static_cast<const T *>(s->d_table)});
    case SPMVLAB_STORE_PATTERN: {
        T v;
        memcpy(&v, s->pattern, sizeof v);
        return launch(pattern_values<T>{v});
    }
    default:
        return launch(native_values<T, Stream>{static_cast<const T *>(stored)});
    }
}

#endif

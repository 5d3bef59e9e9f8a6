/*
 * jds kernels: one thread per row in sorted (longest-first) order, writing
 * its sum straight to the row's original position through perm. No atomics:
 * every row belongs to exactly one thread. jds.c mirrors both on the CPU.
 */
#include "jds.h"

#include "spmvlab/plugin.h"

namespace {

/* a*b + c rounded once, as fma()/fmaf() in jds_host_*. */
__device__ __forceinline__ double jds_fma(double a, double b, double c)
{
    return __fma_rn(a, b, c);
}
__device__ __forceinline__ float jds_fma(float a, float b, float c)
{
    return __fmaf_rn(a, b, c);
}

/* Plain JDS. Diagonal d holds entry d of the first jd_ptr[d+1] - jd_ptr[d]
 * sorted rows, so consecutive threads read consecutive addresses, and a
 * thread stops at the first diagonal too short to reach its row (rows are
 * sorted, so every later diagonal is shorter still). */
template <typename T>
__global__ void __launch_bounds__(JDS_BLOCK)
    jds_diagonal_kernel(int32_t rows, int32_t diagonals, const int32_t *__restrict__ perm,
                        const int32_t *__restrict__ jd_ptr, const int32_t *__restrict__ col,
                        const T *__restrict__ val, const T *__restrict__ x, T *__restrict__ y)
{
    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= rows)
        return;
    const int32_t r = (int32_t)t;
    T sum = 0;
    int32_t begin = __ldg(jd_ptr);
    for (int32_t d = 0; d < diagonals; d++) {
        const int32_t end = __ldg(jd_ptr + d + 1);
        if (r >= end - begin)
            break;
        const int32_t k = begin + r;
        sum = jds_fma(__ldg(val + k), __ldg(x + __ldg(col + k)), sum);
        begin = end;
    }
    y[__ldg(perm + r)] = sum;
}

/* Sectioned JDS: each section of section_rows sorted rows is a column-major
 * ELL block as wide as its first (longest) row; a row stops at its first
 * padding slot (col < 0). */
template <typename T>
__global__ void __launch_bounds__(JDS_BLOCK)
    jds_section_kernel(int32_t rows, int32_t section_rows, const int32_t *__restrict__ perm,
                       const int32_t *__restrict__ sec_ptr, const int32_t *__restrict__ col,
                       const T *__restrict__ val, const T *__restrict__ x, T *__restrict__ y)
{
    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= rows)
        return;
    const int32_t r = (int32_t)t;
    const int32_t s = r / section_rows, first = s * section_rows;
    const int32_t height = rows - first < section_rows ? rows - first : section_rows;
    const int32_t begin = __ldg(sec_ptr + s), width = (__ldg(sec_ptr + s + 1) - begin) / height;
    T sum = 0;
    long long k = (long long)begin + (r - first);
    for (int32_t j = 0; j < width; j++, k += height) {
        const int32_t c = __ldg(col + k);
        if (c < 0)
            break;
        sum = jds_fma(__ldg(val + k), __ldg(x + c), sum);
    }
    y[__ldg(perm + r)] = sum;
}

inline unsigned blocks_for(int32_t rows)
{
    return (unsigned)(((long long)rows + JDS_BLOCK - 1) / JDS_BLOCK);
}

template <typename T>
cudaError_t launch_diagonals(int32_t rows, int32_t diagonals, const int32_t *perm,
                             const int32_t *jd_ptr, const int32_t *col, const void *val,
                             const void *x, void *y, cudaStream_t stream)
{
    jds_diagonal_kernel<T><<<blocks_for(rows), JDS_BLOCK, 0, stream>>>(
        rows, diagonals, perm, jd_ptr, col, static_cast<const T *>(val), static_cast<const T *>(x),
        static_cast<T *>(y));
    return cudaGetLastError();
}

template <typename T>
cudaError_t launch_sections(int32_t rows, int32_t section_rows, const int32_t *perm,
                            const int32_t *sec_ptr, const int32_t *col, const void *val,
                            const void *x, void *y, cudaStream_t stream)
{
    jds_section_kernel<T><<<blocks_for(rows), JDS_BLOCK, 0, stream>>>(
        rows, section_rows, perm, sec_ptr, col, static_cast<const T *>(val),
        static_cast<const T *>(x), static_cast<T *>(y));
    return cudaGetLastError();
}

} // namespace

extern "C" cudaError_t jds_launch_diagonals(int dtype, int32_t rows, int32_t diagonals,
                                            const int32_t *perm, const int32_t *jd_ptr,
                                            const int32_t *col, const void *val, const void *x,
                                            void *y, cudaStream_t stream)
{
    if (rows <= 0)
        return cudaSuccess;
    if (dtype == SPMVLAB_F64)
        return launch_diagonals<double>(rows, diagonals, perm, jd_ptr, col, val, x, y, stream);
    return launch_diagonals<float>(rows, diagonals, perm, jd_ptr, col, val, x, y, stream);
}

extern "C" cudaError_t jds_launch_sections(int dtype, int32_t rows, int32_t section_rows,
                                           const int32_t *perm, const int32_t *sec_ptr,
                                           const int32_t *col, const void *val, const void *x,
                                           void *y, cudaStream_t stream)
{
    if (rows <= 0 || section_rows <= 0)
        return cudaSuccess;
    if (dtype == SPMVLAB_F64)
        return launch_sections<double>(rows, section_rows, perm, sec_ptr, col, val, x, y, stream);
    return launch_sections<float>(rows, section_rows, perm, sec_ptr, col, val, x, y, stream);
}

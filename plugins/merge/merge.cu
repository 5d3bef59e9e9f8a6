// merge kernels: the merge-path launch sequence of ../common/merge_path.cuh
// (the search of the tiles' starts when it runs apart from the tiles, the
// tile kernel, the fix-up of rows cut between tiles) over the instance's
// CSR.
#include <cuda_runtime.h>

#include "merge.h"
#include "../common/merge_path.cuh"
#include "../common/launch.cuh"

namespace {

template <typename A> cudaError_t launch_typed(const merge_dev *d, const A *x, A *y, cudaStream_t s)
{
    return merge_path_launch<A>(d, x, y, s);
}

} // namespace

SPMVLAB_TYPED_LAUNCHER(merge_launch, merge_dev, f->tiles > 0)

SPMVLAB_CUDA_ERROR_STRING(merge)

/*
 * cuda.h for gorgonia.org/cu v0.9.6 on CUDA 13 headers.
 *
 * cu v0.9.6 was written against CUDA 10/11 and calls five driver functions
 * whose signatures CUDA 13's cuda.h moved to new versions (the name is now
 * a macro for the new symbol). The driver still exports the old symbols
 * for programs built against older headers (checked on the lent H100 with
 * driver 580.159: nm -D libcuda.so.1 lists cuCtxCreate_v2, cuMemAdvise,
 * cuMemPrefetchAsync, cuGraphAddDependencies and cuGraphGetEdges), so this
 * header includes the real one and points the five names back at the old
 * symbols with their old prototypes. Nothing changes for CUDA < 13.
 *
 * Used by accel/cuda/device-run.sh through CGO_CFLAGS=-I<this folder>
 * ahead of the CUDA include folder; gorgonia.org/cu's source is untouched.
 */
#ifndef GOBAYES_CUCOMPAT_CUDA_H
#define GOBAYES_CUCOMPAT_CUDA_H

#include_next <cuda.h>

#if defined(CUDA_VERSION) && CUDA_VERSION >= 13000
#ifdef __cplusplus
extern "C" {
#endif

#undef cuCtxCreate
#define cuCtxCreate cuCtxCreate_v2
CUresult CUDAAPI cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev);

#undef cuMemAdvise
CUresult CUDAAPI cuMemAdvise(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUdevice device);

#undef cuMemPrefetchAsync
CUresult CUDAAPI cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream hStream);

#undef cuGraphAddDependencies
CUresult CUDAAPI cuGraphAddDependencies(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to, size_t numDependencies);

#undef cuGraphGetEdges
CUresult CUDAAPI cuGraphGetEdges(CUgraph hGraph, CUgraphNode *from, CUgraphNode *to, size_t *numEdges);

#ifdef __cplusplus
}
#endif
#endif /* CUDA_VERSION >= 13000 */

#endif /* GOBAYES_CUCOMPAT_CUDA_H */

// Raw shared storage for an object nvcc leaves unconstructed (a __shared__
// cuda::barrier, cuda::pipeline_shared_state...):
// analyzer/toolchain/NvccCompatRewrite.h rewrites such declarations to this,
// with a reference of the original name. Included by both the toolkit's
// compatibility header and the bundled shim.
#pragma once

template <class T> struct __kcheck_uninitialized_shared {
  alignas(T) unsigned char __bytes[sizeof(T)];
  __device__ T &get() { return *reinterpret_cast<T *>(__bytes); }
};

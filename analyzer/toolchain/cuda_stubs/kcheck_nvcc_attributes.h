// GNU attributes as nvcc reads them, where Clang reads them otherwise.
// Included last by both the toolkit's compatibility header and the bundled
// shim, so Clang's own headers (__clang_cuda_intrinsics.h builds __ldg on
// ext_vector_type) are already parsed with Clang's meaning; from here on the
// user's code gets nvcc's.
#pragma once

// nvcc (CUDA 13.0, EDG front end, host and device alike) accepts
// __attribute__((ext_vector_type(N))) silently and ignores it: sizeof and
// alignof stay the element's (measured: a 4-float ext vector is 4 bytes on
// both sides). Code written for HIP uses it for 16-byte "wide" loads and
// picks scalar or vector paths by sizeof, so under Clang's meaning kcheck
// would simulate a path nvcc never compiles (HeCBench topk: LDG.128 where the
// H100 runs LDG.32). Attribute names are macro-expanded inside
// __attribute__((...)); `__unused__` is an attribute that changes nothing
// and draws no warning wherever a type attribute may stand.
#define ext_vector_type(N) __unused__
#define __ext_vector_type__(N) __unused__

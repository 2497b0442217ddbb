// kcheck stub: clang's __clang_cuda_intrinsics.h includes this; nothing is needed from it.
#pragma once
#ifdef __clang__
#pragma clang system_header // the stubs stand for system headers
#endif

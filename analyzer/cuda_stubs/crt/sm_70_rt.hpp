// kcheck stub: clang's __clang_cuda_intrinsics.h includes this; nothing is needed from it.
#pragma once

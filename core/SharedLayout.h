#pragma once
// Where a kernel's static __shared__ variables live in its shared window, as
// ptxas places them. Measured on the H100 (CUDA 13.0, ptxas -O3; the offsets
// read back with __cvta_generic_to_shared): the variables the kernel uses, in
// the PTX's declaration order, each at the next offset that is a multiple of
// its own .align; no 16-byte rounding in between (two `int[6]` CUB
// TempStorage objects sit at 0 and 24, and `char c[3]; float4 f[2]; int i[5];
// double d; short s;` at 0, 16, 48, 72, 80). Dynamic (extern) shared memory
// starts at the next multiple of 16 after them (`int a[5]` then extern: 32).
// The window's own 1 KB reserved base on sm_90 is left out: offsets are
// relative to the first variable, which bank and wavefront counts do not
// notice (1024 is a multiple of 128).
#include <cstdint>
#include <vector>

namespace kcheck::core {

/// Dynamic (extern) shared memory starts at a multiple of this (measured,
/// above); nvcc's NVVM declares every extern __shared__ array `.align 16`,
/// whatever its element type, and vectorizes on that.
inline constexpr uint64_t kDynamicSharedAlign = 16;

struct SharedVarShape {
  uint64_t bytes = 0;
  uint64_t align = 1; // a power of two
};

struct SharedLayout {
  std::vector<uint64_t> offsets; // per variable, in the order given
  uint64_t staticBytes = 0;      // where dynamic shared memory starts
};

SharedLayout layOutStaticShared(const std::vector<SharedVarShape> &vars);

/// The alignment ptxas can prove for an address of a variable at `offset`:
/// the largest power of two dividing it, at most `cap` (offset 0: `cap`).
uint64_t knownAlignmentAt(uint64_t offset, uint64_t cap);

} // namespace kcheck::core

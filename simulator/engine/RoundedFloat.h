// PTX floating-point arithmetic with an explicit rounding mode and the .ftz
// and .sat modifiers (bc::Op::RoundedFloat), computed by the host's IEEE 754
// arithmetic in that rounding direction: add, mul, fma, div, sqrt and the
// conversions are correctly rounded in every direction on both, so the bits
// are the GPU's (PTX ISA 9.7.3, "Floating-Point Instructions": .rn .rz .rm
// .rp are IEEE 754's directions; .ftz flushes subnormal inputs and results
// of .f32 to sign-preserving zero; .sat clamps to [0, 1], NaN to +0).
// rcp.rnd is IEEE's 1/x, correctly rounded. Built with -frounding-math so
// that the compiler keeps each operation in the direction set around it.
#pragma once

#include "simulator/engine/Bytecode.h"

#include <cstdint>

namespace kcheck::sim {

/// One lane's result: `bits` is the result's width (32 or 64); a, b, c are
/// the operands' bits (a float of the result's width, or for the FromX
/// conversions the source value's bits).
uint64_t roundedFloat(bc::RoundedOp op, bc::Rounding rounding, uint16_t flags,
                      unsigned bits, uint64_t a, uint64_t b, uint64_t c);

} // namespace kcheck::sim

// Arithmetic on 16-bit floats (IEEE half and bfloat16, a register's low 16
// bits) and PTX's min/max, for ExecAlu.cpp's lane loops. Pure functions.
//
// Rules and their sources:
// - +, -, *, /, sqrt and fmod of 16-bit floats are computed in double and
//   rounded once to nearest even: exact, since double has more than twice
//   their precision plus two bits (Figueroa, "When is double rounding
//   innocuous?", 1995); a fused multiply-add rounds the double result to
//   odd first (Boldo and Melquiond, "Emulation of FMA and correctly rounded
//   sums: proved algorithms using rounding to odd", 2008), then to 16 bits.
// - min and max follow the PTX ISA 9.0 ("min", "max"): a NaN operand gives
//   the other operand, two NaNs (or any NaN with .NaN) the canonical NaN;
//   -0.0 is less than +0.0; .xorsign.abs compares magnitudes and gives the
//   result the xor of the operands' signs; .ftz flushes subnormal operands.
// - A NaN result is canonical: 0x7fff for half and bfloat16 (measured on
//   the H200: tests/conformance/programs/nvvm_calls.cu, the f16/bf16 fma,
//   abs, neg and min/max builtins), 0x7fffffff for f32 (measured likewise);
//   an f64 min/max of two NaNs gives 0x7fffffffffffffff (assumed: the
//   program's inputs never give both operands a NaN).
// - tf32 (cvt.rna): a NaN keeps its top 19 bits, but with .satfinite
//   (canonical); fp8 (e4m3, e5m2) conversions saturate, as PTX requires.
#pragma once

#include <cstdint>

namespace kcheck::sim::alu {

/// A 16-bit float register's value (half, or bfloat16 when `bf`), exact.
double smallToDouble(uint64_t bits, bool bf);
/// `v` rounded to the nearest 16-bit float, ties to even; a NaN gives the
/// canonical NaN.
uint64_t smallFromDouble(double v, bool bf);
/// a * b + c of 16-bit floats, rounded once.
uint64_t smallFma(uint64_t a, uint64_t b, uint64_t c, bool bf);

/// An f32 converted to a 16-bit float in a rounding direction (0 nearest
/// even, 1 toward zero, 2 down, 3 up: bc::Rounding's order), with PTX's
/// .relu (negative results and -0 are +0) and .satfinite (infinities are
/// the largest finite value); a NaN gives the canonical NaN.
uint64_t smallFromFloat(float v, bool bf, unsigned rounding, bool relu,
                        bool satFinite);

/// An f32 as tf32 (cvt.{rn,rz,rna}{.relu}{.satfinite}.tf32.f32): its top 19
/// bits rounded (rounding 0 nearest even, 1 toward zero, 4 nearest with
/// ties away), the low 13 zero.
uint32_t tf32FromFloat(float v, unsigned rounding, bool relu, bool satFinite);
/// A value as an 8-bit float, e4m3 (bias 7, no infinities, max 448, NaN
/// 0x7f) or e5m2 (bias 15, max finite 57344), rounded to nearest even and
/// saturated to the largest finite value (.satfinite, which PTX requires
/// of these conversions); .relu gives +0 for negative values.
uint8_t fp8FromDouble(double v, bool e5m2, bool relu);
/// An 8-bit float's value (exact).
double fp8ToDouble(uint8_t v, bool e5m2);

/// PTX min/max on registers of `bits` (16: half or bfloat16 when `bf`;
/// 32; 64).
struct MinMaxMode {
  bool max = false, nan = false, xorSignAbs = false, ftz = false;
};
uint64_t ptxMinMax(MinMaxMode mode, unsigned bits, bool bf, uint64_t a,
                   uint64_t b);

} // namespace kcheck::sim::alu

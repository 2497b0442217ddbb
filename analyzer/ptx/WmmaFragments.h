// The fragments of the wmma forms (mma.h): which elements of A, B and the
// accumulator each lane holds, in which register, as the mma.sync tile a
// form is made of lays them out (PTX ISA, "Matrix Fragments for
// mma.m16n8k16 / m16n8k8 / m8n8k4"). Pure: no LLVM; tested against a brute
// force over every lane (tests/ptx/WmmaFragmentsTest.cpp): every element of
// each matrix is held, the products gather what the accumulators need.
//
// A tile is 16 x 8 (8 x 8 for f64) of the accumulator, with K the form's.
// With g = lane/4 and t = lane%4 and c the elements a 32-bit register holds
// along k (2 for 16-bit types, 4 for 8-bit, 8 for 4-bit, 32 for single
// bits, 1 for tf32 and f64):
//  - A: row g + 8*rowBit, k = 4c*kBlock + c*t + s (s < c);
//  - B: k = 4c*kBlock + c*t + s, column g;
//  - accumulators: row g + 8*rowBit, column 2t + colBit.
// The 8 x 8 forms (f64 m8n8k4, the sub-byte m8n8k32 and m8n8k128) are one
// tile of 8 rows, those of mma.m8n8k4 .f64 and mma.m8n8k32 / m8n8k128.
// A form is tiles of these over M and N (m8n32k16 is m32n8k16 transposed);
// ptxas's layout for sm_90's f16 m16n16k16 is this one, measured on the
// H100 (WmmaLowering.cpp).
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace kcheck::analyzer::wmma {

enum class Element { F16, BF16, TF32, F32, F64, S8, U8, S32, S4, U4, B1 };
enum class Matrix { A, B, C };

unsigned bitsOf(Element e);
/// Of an element of 8 bits or more.
unsigned bytesOf(Element e);
bool isInteger(Element e);
/// s4, u4 and b1: packed 8 or 32 to a 32-bit word, the first in its lowest
/// bits.
bool isSubByte(Element e);

/// c + g * (lane / 4) + t * (lane % 4).
struct Affine {
  int c = 0, g = 0, t = 0;
  int at(int lane) const { return c + g * (lane / 4) + t * (lane % 4); }
};
/// Where an element of a matrix is: (row, column) of A (m, k), B (k, n) or
/// the accumulator (m, n).
struct Position {
  Affine row, col;
};
/// Elements held side by side in one register (A, B) or as a pair
/// (accumulators), in register order: accessed together when adjacent.
struct Group {
  std::vector<Position> elements;
};
/// Of a lane's register `reg`: the elements k = firstK .. firstK+count-1.
struct RegisterSpan {
  unsigned reg, firstK, count;
};
/// One accumulator element of a lane, in fragment order.
struct AccumulatorElement {
  unsigned tileM, tileN, rowBit, colBit;
};

struct Form {
  unsigned m = 16, n = 16, k = 16;
  Element ab = Element::F16;

  unsigned baseM() const { return m == 8 && n == 8 ? 8 : 16; }
  unsigned chunk() const { return 32 / std::min(32u, bitsOf(ab)); }
  /// m8n32k16 is computed transposed, D^T = B^T A^T + C^T, as m32n8k16
  /// (measured on the H200: its accumulators pair along m, so a
  /// column-major C is the one accessed in pairs); its A is that form's B
  /// and its B that form's A.
  bool transposed() const { return m == 8 && n == 32; }
  Form transposedForm() const { return {n, m, k, ab}; }
  unsigned tilesM() const { return m / baseM(); }
  unsigned tilesN() const { return n / 8; }
  unsigned rowBits() const { return baseM() / 8; }
  unsigned kBlocks() const { return k / (4 * chunk()); }
  /// A lane's distinct registers of `m` (elements for the accumulator).
  unsigned distinct(Matrix x) const;
  /// The registers the intrinsics pass: f16's A and B have 8, repeating the
  /// distinct ones; otherwise the distinct ones.
  unsigned registers(Matrix x) const;
  /// The leading dimension of a load or store without `.stride`.
  unsigned contiguousExtent(Matrix x, bool rowMajor) const;
  /// Of a form that is not transposed: the registers of lane 4g + q that
  /// hold A's row (tile tm, rowBit) ...
  std::vector<RegisterSpan> aRowRegisters(unsigned tm, unsigned rowBit,
                                          unsigned q) const;
  /// ... the registers of lane 4 * column + q that hold B's column (tile
  /// tn), and the accumulator elements in fragment order.
  std::vector<RegisterSpan> bColumnRegisters(unsigned tn, unsigned q) const;
  std::vector<AccumulatorElement> accumulatorElements() const;
  /// A sub-byte form's A and B as the 32-bit words a register holds (k /
  /// chunk() words along k): what its loads access, one word a register
  /// (A row-major and B column-major, the only layouts the forms have).
  Form words() const { return {m, n, k / chunk(), Element::S32}; }
};

/// A lane's elements of matrix `x`, grouped as accessed.
std::vector<Group> groups(const Form &form, Matrix x);
/// Whether a group's elements are adjacent in memory, in order, for a
/// row-major (or column-major) matrix.
bool adjacent(const Group &group, bool rowMajor);
/// Where a lane accesses a 16-bit register's element whose pair is not
/// adjacent in memory: the 8 x 8 block transposed (lane (g, t)'s element s
/// at the block's (2t + s, g) for (g, 2t + s)), so that the pair is
/// adjacent; ptxas loads and stores it so (one 32-bit access per register,
/// measured on the H200) and transposes in registers (movmatrix). The
/// element a lane needs is then lane 4(2t + s) + g/2's element g%2.
Position transposedAccess(const Position &p);

/// Whether kcheck lowers the forms of this shape (every one of mma.h's).
bool isLoweredShape(unsigned m, unsigned n, unsigned k);

/// One llvm.nvvm.wmma.* intrinsic, by name.
struct Intrinsic {
  Form form;
  bool mma = false, store = false;
  Matrix matrix = Matrix::A; // loads and stores
  bool rowMajor = true, stride = false;
  Element element = Element::F16;                     // of a load or store
  Element cType = Element::F32, dType = Element::F32; // of an mma
  bool satfinite = false;
  /// b1's products: bit AND or XOR, the ones counted (.popc).
  enum class BitOp { None, Xor, And } bitOp = BitOp::None;
};
/// nullopt for what is not a form of mma.h.
std::optional<Intrinsic> parseIntrinsic(std::string_view name);

} // namespace kcheck::analyzer::wmma

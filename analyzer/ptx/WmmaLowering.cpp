// llvm.nvvm.wmma.* (the mma.h API): every shape and type of the CUDA C++
// Programming Guide's warp matrix functions (f16 and bf16 m16n16k16,
// m32n8k16, m8n32k16; tf32 m16n16k8; f64 m8n8k4; s8 and u8 m16n16k16,
// m32n8k16, m8n32k16), every layout: fragment loads and stores as the SASS
// makes them, and the product as mma.sync tiles computed with shuffles.
//
// Fragments (WmmaFragments.h) are those of the mma.sync tile each form is
// made of (PTX ISA, "Matrix Fragments for mma.m16n8k16 / m16n8k8 /
// m8n8k4"): ptxas gives sm_90 wmma fragments the layout of mma.m16n8k16,
// measured on the H100 for f16 (kernels/toolkit/tensor_core.cu, h100/sass);
// the other types are assumed to follow their tile's layout likewise. The
// elements a register holds side by side along its contiguous dimension are
// one access when they are adjacent in memory (a row-major A: four LDG.E per
// f16 wmma.load, measured), else one access each; from shared memory the
// 16-bit A and B loads are LDSM, counted by no ld/st metric (measured:
// wmma_shared). The forms mma.h marks experimental (s4, u4 m8n8k32; b1
// m8n8k128) are those of mma.m8n8k32 and mma.m8n8k128: a register holds
// eight 4-bit or 32 single-bit elements of A's row or B's column, one word
// of memory, loaded as one 32-bit access (A row-major and B column-major are
// their only layouts); b1's product counts the bits of A AND B or A XOR B.
#include "analyzer/ptx/PtxLowerer.h"
#include "analyzer/ptx/PtxLowering.h"
#include "analyzer/ptx/WmmaFragments.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

#include <map>

namespace kcheck::analyzer {

using namespace llvm;
using wmma::Element;
using wmma::Form;
using wmma::Matrix;

namespace {

/// A lane's g = lane/4 and t = lane%4, and the shuffle of a 32-bit word.
struct Lane {
  IRBuilder<> &b;
  Module &m;
  Value *g, *t;

  Lane(IRBuilder<> &builder, Module &module) : b(builder), m(module) {
    FunctionCallee laneid =
        m.getOrInsertFunction("llvm.nvvm.read.ptx.sreg.laneid", b.getInt32Ty());
    Value *lane = b.CreateCall(laneid);
    g = b.CreateLShr(lane, 2);
    t = b.CreateAnd(lane, 3);
  }
  Value *shfl(Value *word, Value *src) {
    FunctionCallee f = m.getOrInsertFunction(
        "llvm.nvvm.shfl.sync.idx.i32", b.getInt32Ty(), b.getInt32Ty(),
        b.getInt32Ty(), b.getInt32Ty(), b.getInt32Ty());
    return b.CreateCall(f, {b.getInt32(~0u), word, src, b.getInt32(31)});
  }
  Value *at(const wmma::Affine &a) {
    return b.CreateAdd(b.getInt32(a.c),
                       b.CreateAdd(b.CreateMul(g, b.getInt32(a.g)),
                                   b.CreateMul(t, b.getInt32(a.t))));
  }
};

// ---------------------------------------------------------------------------
// Loads and stores.

struct Access {
  CallInst &call;
  Form form;
  Matrix matrix;
  bool rowMajor;
  Value *base, *ldm;
  unsigned addressSpace;
};

Value *elementAddress(Lane &l, const Access &a, Value *row, Value *col,
                      unsigned elementBytes) {
  Value *index = a.rowMajor ? l.b.CreateAdd(l.b.CreateMul(row, a.ldm), col)
                            : l.b.CreateAdd(l.b.CreateMul(col, a.ldm), row);
  return l.b.CreateGEP(l.b.getIntNTy(8 * elementBytes), a.base,
                       l.b.CreateZExt(index, l.b.getInt64Ty()));
}

// A 16-byte access (an f64 pair) as four words, which the engine loads.
Type *sixteenBytes(IRBuilder<> &b) {
  return FixedVectorType::get(b.getInt32Ty(), 4);
}

// A 16-bit element pair's value exchanged across the 8 x 8 block's
// transpose (wmma::transposedAccess): what lane (g, t) needs for element s
// is lane 4(2t + s) + g/2's element g%2. An involution, so loads and stores
// use it alike.
std::vector<Value *> transposePair(Lane &l, const std::vector<Value *> &pair) {
  Value *word = l.b.CreateOr(
      l.b.CreateZExt(pair[0], l.b.getInt32Ty()),
      l.b.CreateShl(l.b.CreateZExt(pair[1], l.b.getInt32Ty()), 16));
  Value *half = l.b.CreateShl(l.b.CreateAnd(l.g, 1), 4);
  std::vector<Value *> out;
  for (unsigned s = 0; s < 2; ++s) {
    Value *src = l.b.CreateAdd(
        l.b.CreateShl(l.b.CreateAdd(l.b.CreateShl(l.t, 1), l.b.getInt32(s)), 2),
        l.b.CreateLShr(l.g, 1));
    out.push_back(l.b.CreateTrunc(l.b.CreateLShr(l.shfl(word, src), half),
                                  l.b.getInt16Ty()));
  }
  return out;
}

// How a group is accessed: whole (adjacent in memory), as a transposed
// 16-bit pair, or element by element.
enum class Way { Whole, TransposedPair, Elements };
Way wayOf(const Access &a, const wmma::Group &group, unsigned bytes,
          wmma::Group &transposed) {
  if (wmma::adjacent(group, a.rowMajor))
    return Way::Whole;
  if (bytes == 2 && group.elements.size() == 2) {
    transposed.elements = {wmma::transposedAccess(group.elements[0]),
                           wmma::transposedAccess(group.elements[1])};
    if (wmma::adjacent(transposed, a.rowMajor))
      return Way::TransposedPair;
  }
  return Way::Elements;
}

// The groups of a fragment's elements accessed together: one register's
// elements (A, B) or an element pair (accumulators), each element as bits.
std::vector<Value *> loadGroup(Lane &l, const Access &a,
                               const wmma::Group &group, unsigned bytes,
                               bool ldmatrix) {
  std::vector<Value *> out;
  auto tagged = [&](LoadInst *load) {
    if (ldmatrix)
      load->setMetadata(core::kPtxInstructionMetadata,
                        MDNode::get(a.call.getContext(),
                                    MDString::get(a.call.getContext(),
                                                  "ldmatrix (wmma.load)")));
    return load;
  };
  Type *elem = l.b.getIntNTy(8 * bytes);
  unsigned n = unsigned(group.elements.size());
  wmma::Group transposed;
  Way way = wayOf(a, group, bytes, transposed);
  const wmma::Group &at = way == Way::TransposedPair ? transposed : group;
  auto address = [&](const wmma::Position &p) {
    return elementAddress(l, a, l.at(p.row), l.at(p.col), bytes);
  };
  if (way == Way::Elements) {
    for (const wmma::Position &p : group.elements)
      out.push_back(
          tagged(l.b.CreateAlignedLoad(elem, address(p), Align(bytes))));
    return out;
  }
  if (bytes * n > 8) { // an f64 pair: one 16-byte access
    Value *v = l.b.CreateBitCast(
        tagged(l.b.CreateAlignedLoad(sixteenBytes(l.b), address(at.elements[0]),
                                     Align(16))),
        FixedVectorType::get(elem, n));
    for (unsigned i = 0; i < n; ++i)
      out.push_back(l.b.CreateExtractElement(v, i));
    return out;
  }
  Value *v = tagged(l.b.CreateAlignedLoad(
      l.b.getIntNTy(8 * bytes * n), address(at.elements[0]), Align(bytes * n)));
  for (unsigned i = 0; i < n; ++i)
    out.push_back(l.b.CreateTrunc(l.b.CreateLShr(v, 8 * bytes * i), elem));
  return way == Way::TransposedPair ? transposePair(l, out) : out;
}

void storeGroup(Lane &l, const Access &a, const wmma::Group &group,
                unsigned bytes, std::vector<Value *> bits) {
  unsigned n = unsigned(group.elements.size());
  wmma::Group transposed;
  Way way = wayOf(a, group, bytes, transposed);
  auto address = [&](const wmma::Position &p) {
    return elementAddress(l, a, l.at(p.row), l.at(p.col), bytes);
  };
  if (way == Way::Elements) {
    for (unsigned i = 0; i < n; ++i)
      l.b.CreateAlignedStore(bits[i], address(group.elements[i]), Align(bytes));
    return;
  }
  const wmma::Group &at = way == Way::TransposedPair ? transposed : group;
  if (way == Way::TransposedPair)
    bits = transposePair(l, bits);
  if (bytes * n > 8) { // an f64 pair: one 16-byte access
    Value *v = PoisonValue::get(FixedVectorType::get(bits[0]->getType(), n));
    for (unsigned i = 0; i < n; ++i)
      v = l.b.CreateInsertElement(v, bits[i], i);
    l.b.CreateAlignedStore(l.b.CreateBitCast(v, sixteenBytes(l.b)),
                           address(at.elements[0]), Align(16));
    return;
  }
  Type *whole = l.b.getIntNTy(8 * bytes * n);
  Value *v = ConstantInt::get(whole, 0);
  for (unsigned i = 0; i < n; ++i)
    v = l.b.CreateOr(
        v, l.b.CreateShl(l.b.CreateZExt(bits[i], whole), 8 * bytes * i));
  l.b.CreateAlignedStore(v, address(at.elements[0]), Align(bytes * n));
}

// Fragment registers as the intrinsics type them (<2 x half>, i32, float,
// double), from and to the elements' bits, register by register.
std::vector<Value *> registerElements(IRBuilder<> &b, Value *reg,
                                      unsigned bytes) {
  unsigned bits = unsigned(reg->getType()->getPrimitiveSizeInBits());
  Value *word = b.CreateBitCast(reg, b.getIntNTy(bits));
  std::vector<Value *> out;
  for (unsigned i = 0; i < bits / (8 * bytes); ++i)
    out.push_back(b.CreateTrunc(b.CreateLShr(word, 8 * bytes * i),
                                b.getIntNTy(8 * bytes)));
  return out;
}
Value *registerOf(IRBuilder<> &b, Type *type,
                  const std::vector<Value *> &elements, unsigned bytes) {
  unsigned bits = unsigned(type->getPrimitiveSizeInBits());
  Type *word = b.getIntNTy(bits);
  Value *v = ConstantInt::get(word, 0);
  for (unsigned i = 0; i < elements.size(); ++i)
    v = b.CreateOr(v,
                   b.CreateShl(b.CreateZExt(elements[i], word), 8 * bytes * i));
  return b.CreateBitCast(v, type);
}

bool lowerLoadStore(CallInst &call, const wmma::Intrinsic &in) {
  Module &m = *call.getModule();
  IRBuilder<> b(&call);
  Lane l(b, m);
  Access a{call,    in.form, in.matrix, in.rowMajor, call.getArgOperand(0),
           nullptr, 0};
  a.addressSpace = a.base->getType()->getPointerAddressSpace();
  // A generic pointer into a __shared__ array is shared memory to ptxas too.
  if (auto *object = dyn_cast<GlobalVariable>(getUnderlyingObject(a.base, 32)))
    a.addressSpace = object->getAddressSpace();
  a.ldm = in.stride
              ? call.getArgOperand(call.arg_size() - 1)
              : b.getInt32(in.form.contiguousExtent(in.matrix, in.rowMajor));
  unsigned bytes = wmma::bytesOf(in.element);
  if (wmma::isSubByte(in.element)) {
    // The registers' words, with the leading dimension in words.
    a.form = in.form.words();
    a.ldm = b.CreateUDiv(a.ldm, b.getInt32(in.form.chunk()));
    bytes = 4;
  }
  std::vector<wmma::Group> groups = wmma::groups(a.form, in.matrix);
  bool ldmatrix = a.addressSpace == 3 && in.matrix != Matrix::C && bytes == 2;
  if (!in.store) {
    auto *st = cast<StructType>(call.getType()->isStructTy()
                                    ? call.getType()
                                    : StructType::get(call.getType()));
    std::vector<Value *> elements;
    for (const wmma::Group &g : groups)
      for (Value *e : loadGroup(l, a, g, bytes, ldmatrix))
        elements.push_back(e);
    unsigned perRegister =
        unsigned(st->getElementType(0)->getPrimitiveSizeInBits()) / (8 * bytes);
    unsigned distinct = unsigned(elements.size()) / perRegister;
    Value *result = PoisonValue::get(st);
    std::vector<Value *> regs;
    for (unsigned r = 0; r < st->getNumElements(); ++r) {
      unsigned d = r % distinct; // f16's 8 registers repeat the distinct ones
      std::vector<Value *> part(elements.begin() + d * perRegister,
                                elements.begin() + (d + 1) * perRegister);
      regs.push_back(registerOf(b, st->getElementType(r), part, bytes));
      result = b.CreateInsertValue(result, regs.back(), r);
    }
    call.replaceAllUsesWith(call.getType()->isStructTy() ? result : regs[0]);
    call.eraseFromParent();
    return true;
  }
  // store.d: (ptr, registers..., [ldm]).
  unsigned regCount = call.arg_size() - (in.stride ? 2 : 1);
  std::vector<Value *> elements;
  for (unsigned r = 0; r < regCount; ++r)
    for (Value *e : registerElements(b, call.getArgOperand(1 + r), bytes))
      elements.push_back(e);
  size_t needed = 0;
  for (const wmma::Group &g : groups)
    needed += g.elements.size();
  if (elements.size() < needed)
    return false;
  size_t next = 0;
  for (const wmma::Group &g : groups) {
    std::vector<Value *> bits(elements.begin() + next,
                              elements.begin() + next + g.elements.size());
    next += g.elements.size();
    storeGroup(l, a, g, bytes, bits);
  }
  call.eraseFromParent();
  return true;
}

// ---------------------------------------------------------------------------
// The product.

// An element's bits as the arithmetic type of the product: float for the
// 16-bit and tf32 inputs (tf32 keeps 10 mantissa bits: the tensor core
// ignores the low 13), double for f64, i32 for the integers and bits.
Value *decode(IRBuilder<> &b, Value *bits, Element e) {
  switch (e) {
  case Element::F16:
    return b.CreateFPExt(b.CreateBitCast(bits, b.getHalfTy()), b.getFloatTy());
  case Element::BF16:
    return b.CreateFPExt(b.CreateBitCast(bits, b.getBFloatTy()),
                         b.getFloatTy());
  case Element::TF32:
    return b.CreateBitCast(b.CreateAnd(bits, b.getInt32(~0x1fffu)),
                           b.getFloatTy());
  case Element::F32:
    return b.CreateBitCast(bits, b.getFloatTy());
  case Element::F64:
    return b.CreateBitCast(bits, b.getDoubleTy());
  case Element::S8:
    return b.CreateSExt(bits, b.getInt32Ty());
  case Element::U8:
  case Element::U4:
  case Element::B1:
    return b.CreateZExt(bits, b.getInt32Ty());
  case Element::S4:
    return b.CreateSExt(bits, b.getInt32Ty());
  case Element::S32:
    return bits;
  }
  return nullptr;
}

Value *multiplyAdd(IRBuilder<> &b, Value *x, Value *y, Value *acc,
                   wmma::Intrinsic::BitOp op) {
  if (op != wmma::Intrinsic::BitOp::None) // b1: a bit counted, 0 or 1
    return b.CreateAdd(acc, op == wmma::Intrinsic::BitOp::And
                                ? b.CreateAnd(x, y)
                                : b.CreateXor(x, y));
  if (acc->getType()->isIntegerTy())
    return b.CreateAdd(acc, b.CreateMul(b.CreateSExt(x, acc->getType()),
                                        b.CreateSExt(y, acc->getType())));
  return b.CreateIntrinsic(Intrinsic::fma, {acc->getType()}, {x, y, acc});
}

// The registers' elements' bits, as 32-bit words to shuffle (a double is
// two words).
struct Words {
  std::vector<Value *> words; // per register: 1 word, or 2 for 64 bits
  unsigned wordsPerRegister = 1;
};
Words wordsOf(IRBuilder<> &b, ArrayRef<Value *> regs) {
  Words w;
  for (Value *r : regs) {
    unsigned bits = unsigned(r->getType()->getPrimitiveSizeInBits());
    Value *v = b.CreateBitCast(r, b.getIntNTy(bits));
    w.wordsPerRegister = bits / 32;
    for (unsigned i = 0; i < bits / 32; ++i)
      w.words.push_back(b.CreateTrunc(b.CreateLShr(v, 32 * i), b.getInt32Ty()));
  }
  return w;
}

// Register `reg` of another lane, as its `bits`-bit elements.
std::vector<Value *> remoteElements(Lane &l, const Words &w, unsigned reg,
                                    Value *src, unsigned bits) {
  Value *value = nullptr;
  for (unsigned i = 0; i < w.wordsPerRegister; ++i) {
    Value *word =
        l.b.CreateZExt(l.shfl(w.words[reg * w.wordsPerRegister + i], src),
                       l.b.getIntNTy(32 * w.wordsPerRegister));
    word = l.b.CreateShl(word, 32 * i);
    value = value ? l.b.CreateOr(value, word) : word;
  }
  std::vector<Value *> out;
  for (unsigned i = 0; i < 32 * w.wordsPerRegister / bits; ++i)
    out.push_back(
        l.b.CreateTrunc(l.b.CreateLShr(value, bits * i), l.b.getIntNTy(bits)));
  return out;
}

// A's rows and B's columns a lane's accumulator elements need, gathered
// once each from the lanes holding them (the tile's (row bit) or (column)).
struct TileProduct {
  Lane &l;
  const Form &f;
  Words aw, bw;
  unsigned abBits;
  std::map<std::pair<unsigned, unsigned>, std::vector<Value *>> rows, cols;

  std::vector<Value *> &aRow(unsigned tm, unsigned rowBit) {
    auto &row = rows[{tm, rowBit}];
    if (!row.empty())
      return row;
    row.assign(f.k, nullptr);
    for (unsigned q = 0; q < 4; ++q) {
      Value *src = l.b.CreateAdd(l.b.CreateShl(l.g, 2), l.b.getInt32(q));
      for (const wmma::RegisterSpan &s : f.aRowRegisters(tm, rowBit, q)) {
        std::vector<Value *> e = remoteElements(l, aw, s.reg, src, abBits);
        for (unsigned i = 0; i < s.count; ++i)
          row[s.firstK + i] = decode(l.b, e[i], f.ab);
      }
    }
    return row;
  }
  std::vector<Value *> &bColumn(unsigned tn, unsigned colBit) {
    auto &col = cols[{tn, colBit}];
    if (!col.empty())
      return col;
    col.assign(f.k, nullptr);
    // The column 2t + colBit of the tile is held by lanes 4 * column + q.
    Value *column = l.b.CreateAdd(l.b.CreateShl(l.t, 1), l.b.getInt32(colBit));
    for (unsigned q = 0; q < 4; ++q) {
      Value *src = l.b.CreateAdd(l.b.CreateShl(column, 2), l.b.getInt32(q));
      for (const wmma::RegisterSpan &s : f.bColumnRegisters(tn, q)) {
        std::vector<Value *> e = remoteElements(l, bw, s.reg, src, abBits);
        for (unsigned i = 0; i < s.count; ++i)
          col[s.firstK + i] = decode(l.b, e[i], f.ab);
      }
    }
    return col;
  }
};

// D's elements as its registers, in its type (f16 accumulators rounded,
// integer sums saturated with .satfinite).
Value *resultOf(IRBuilder<> &b, StructType *st, const wmma::Intrinsic &in,
                const std::vector<Value *> &d) {
  const unsigned dBytes = wmma::bytesOf(in.dType);
  std::vector<Value *> dBits;
  for (Value *v : d) {
    if (in.dType == Element::F16)
      dBits.push_back(
          b.CreateBitCast(b.CreateFPTrunc(v, b.getHalfTy()), b.getInt16Ty()));
    else if (in.dType == Element::S32 && in.satfinite)
      dBits.push_back(b.CreateTrunc(
          b.CreateSelect(
              b.CreateICmpSGT(v, b.getInt64(INT32_MAX)), b.getInt64(INT32_MAX),
              b.CreateSelect(b.CreateICmpSLT(v, b.getInt64(INT32_MIN)),
                             b.getInt64(INT32_MIN), v)),
          b.getInt32Ty()));
    else if (in.dType == Element::S32)
      dBits.push_back(v);
    else
      dBits.push_back(b.CreateBitCast(v, b.getIntNTy(8 * dBytes)));
  }
  unsigned perRegister =
      unsigned(st->getElementType(0)->getPrimitiveSizeInBits()) / (8 * dBytes);
  Value *result = PoisonValue::get(st);
  for (unsigned r = 0; r < st->getNumElements(); ++r) {
    std::vector<Value *> part(dBits.begin() + r * perRegister,
                              dBits.begin() + (r + 1) * perRegister);
    result = b.CreateInsertValue(
        result, registerOf(b, st->getElementType(r), part, dBytes), r);
  }
  return result;
}

bool lowerMma(CallInst &call, const wmma::Intrinsic &in) {
  Module &m = *call.getModule();
  IRBuilder<> b(&call);
  Lane l(b, m);
  unsigned aCount = in.form.registers(Matrix::A),
           bCount = in.form.registers(Matrix::B);
  if (call.arg_size() < aCount + bCount + 1)
    return false;
  std::vector<Value *> aRegs, bRegs, cRegs;
  for (unsigned i = 0; i < aCount; ++i)
    aRegs.push_back(call.getArgOperand(i));
  for (unsigned i = 0; i < bCount; ++i)
    bRegs.push_back(call.getArgOperand(aCount + i));
  for (unsigned i = aCount + bCount; i < call.arg_size(); ++i)
    cRegs.push_back(call.getArgOperand(i));
  // A transposed form is its transpose's product with A and B exchanged.
  const Form f = in.form.transposed() ? in.form.transposedForm() : in.form;
  if (in.form.transposed())
    std::swap(aRegs, bRegs);
  // The accumulation type: float, double or i32 (i64 with .satfinite,
  // clamped at the end).
  Type *accType = f.ab == Element::F64 ? b.getDoubleTy()
                  : wmma::isInteger(f.ab)
                      ? (in.satfinite ? b.getInt64Ty() : b.getInt32Ty())
                      : b.getFloatTy();
  std::vector<Value *> c;
  for (Value *r : cRegs)
    for (Value *e : registerElements(b, r, wmma::bytesOf(in.cType))) {
      Value *v = decode(b, e, in.cType);
      if (v->getType() != accType)
        v = accType->isIntegerTy() ? b.CreateSExt(v, accType)
                                   : b.CreateFPExt(v, accType);
      c.push_back(v);
    }
  TileProduct p{l,  f, wordsOf(b, aRegs), wordsOf(b, bRegs), wmma::bitsOf(f.ab),
                {}, {}};
  std::vector<wmma::AccumulatorElement> dElements = f.accumulatorElements();
  if (c.size() < dElements.size())
    return false;
  std::vector<Value *> d;
  for (size_t i = 0; i < dElements.size(); ++i) {
    const wmma::AccumulatorElement &e = dElements[i];
    std::vector<Value *> &row = p.aRow(e.tileM, e.rowBit);
    std::vector<Value *> &col = p.bColumn(e.tileN, e.colBit);
    Value *acc = c[i];
    for (unsigned k = 0; k < f.k; ++k)
      acc = multiplyAdd(b, row[k], col[k], acc, in.bitOp);
    d.push_back(acc);
  }
  call.replaceAllUsesWith(resultOf(b, cast<StructType>(call.getType()), in, d));
  call.eraseFromParent();
  return true;
}

} // namespace

void lowerWmmaIntrinsics(Module &module) {
  std::vector<CallInst *> calls = callsTo(module, [](StringRef name) {
    return name.starts_with("llvm.nvvm.wmma.");
  });
  // One it cannot lower is left for the engine to name.
  for (CallInst *call : calls) {
    std::optional<wmma::Intrinsic> in =
        wmma::parseIntrinsic(call->getCalledFunction()->getName());
    if (!in)
      continue;
    if (in->mma)
      lowerMma(*call, *in);
    else
      lowerLoadStore(*call, *in);
  }
}

} // namespace kcheck::analyzer

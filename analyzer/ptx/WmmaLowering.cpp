// llvm.nvvm.wmma.m16n16k16.* (the mma.h API): loads and stores of fragments
// as the SASS does them, and the product as two m16n8k16 tensor-core
// products (mmaM16N8).
//
// Measured on the H100 (kernels/toolkit/tensor_core.cu, h100/sass): ptxas
// gives sm_90 wmma fragments the layout of mma.m16n8k16. With g = lane/4 and
// t = lane%4, a lane's
//  - A registers r = 0..3 hold A[g + 8(r%2)][2t + 8(r/2) + {0,1}];
//  - B registers r = 0..3 hold B[2t + 8(r%2) + {0,1}][g + 8(r/2)];
//  - C/D elements i = 0..7 are [g + 8((i%4)/2)][8(i/4) + 2t + i%2].
// A pair of 16-bit elements adjacent in memory is one 32-bit access (a
// row-major A, a column-major B: four LDG.E per wmma.load), a pair of f32
// accumulators one 64-bit access (row-major store.d: four STG.E.64); pairs
// that are not adjacent are two accesses (not measured). From shared memory
// the A and B loads are LDSM, counted by no ld/st metric (wmma_shared). The
// PTX fragments' registers 4..7 (8 per lane for A and B) repeat 0..3 here.
#include "analyzer/ptx/PtxLowerer.h"
#include "analyzer/ptx/PtxLowering.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

namespace kcheck::analyzer {

using namespace llvm;

namespace {

struct Fragment {
  char matrix = 0; // 'a', 'b', 'c', 'd'
  bool rowMajor = true;
  unsigned elementBytes = 2;
  unsigned addressSpace = 0;
};

// Element (row, col) of a 16x16 fragment's address in memory.
Value *elementAddress(IRBuilder<> &b, Value *base, Value *ldm,
                      const Fragment &f, Value *row, Value *col) {
  Value *index = f.rowMajor ? b.CreateAdd(b.CreateMul(row, ldm), col)
                            : b.CreateAdd(b.CreateMul(col, ldm), row);
  return b.CreateGEP(b.getIntNTy(8 * f.elementBytes), base,
                     b.CreateZExt(index, b.getInt64Ty()));
}

// (row, col) of the first element of the pair that register (A, B) or
// element pair (accumulators) `r` holds: rows g, g+8 and columns 2t, 2t+8,
// transposed for B, whose pairs run along k.
std::pair<Value *, Value *> pairOrigin(IRBuilder<> &b, char matrix, unsigned r,
                                       Value *g, Value *t) {
  bool isB = matrix == 'b';
  Value *byGroup = b.CreateAdd(g, b.getInt32(8 * (isB ? r / 2 : r % 2)));
  Value *byQuad =
      b.CreateAdd(b.CreateShl(t, 1), b.getInt32(8 * (isB ? r % 2 : r / 2)));
  if (isB) // (k, n)
    return {byQuad, byGroup};
  return {byGroup, byQuad};
}

// Pairs run along the column for A and accumulators, along k (the row) for B.
bool pairAlongColumns(char matrix) { return matrix != 'b'; }

const unsigned kPairs = 4; // A/B registers, accumulator element pairs

// One wmma.load or wmma.store: its fragment, the lane's g and t, and the
// types of an element and of a pair.
struct FragmentAccess {
  CallInst &call;
  IRBuilder<> &b;
  Fragment f;
  Value *base, *ldm, *g, *t;
  Type *elem, *pairType;
  bool adjacent; // a pair's two elements are adjacent in memory
  bool accumulator;

  std::pair<Value *, Value *> pairAddresses(unsigned r) {
    auto [row, col] = pairOrigin(b, f.matrix, r, g, t);
    Value *row2 =
        pairAlongColumns(f.matrix) ? row : b.CreateAdd(row, b.getInt32(1));
    Value *col2 =
        pairAlongColumns(f.matrix) ? b.CreateAdd(col, b.getInt32(1)) : col;
    return std::pair{elementAddress(b, base, ldm, f, row, col),
                     elementAddress(b, base, ldm, f, row2, col2)};
  }
};

// The fragment's pairs loaded, and the call's struct of registers built.
void lowerFragmentLoad(FragmentAccess &a) {
  std::vector<Value *> words; // per pair: 2 elements as one integer
  for (unsigned r = 0; r < kPairs; ++r) {
    auto [p0, p1] = a.pairAddresses(r);
    Value *word;
    // From shared memory, A and B fragments are LDSM (ldmatrix) in the
    // SASS, counted by no ld/st metric (measured: wmma_shared).
    auto tagged = [&](LoadInst *l) {
      if (a.f.addressSpace == 3 && !a.accumulator)
        l->setMetadata(core::kPtxInstructionMetadata,
                       MDNode::get(a.call.getContext(),
                                   MDString::get(a.call.getContext(),
                                                 "ldmatrix (wmma.load)")));
      return l;
    };
    if (a.adjacent) {
      word = tagged(
          a.b.CreateAlignedLoad(a.pairType, p0, Align(2 * a.f.elementBytes)));
    } else {
      Value *lo =
          tagged(a.b.CreateAlignedLoad(a.elem, p0, Align(a.f.elementBytes)));
      Value *hi =
          tagged(a.b.CreateAlignedLoad(a.elem, p1, Align(a.f.elementBytes)));
      word = a.b.CreateOr(
          a.b.CreateZExt(lo, a.pairType),
          a.b.CreateShl(a.b.CreateZExt(hi, a.pairType), 8 * a.f.elementBytes));
    }
    words.push_back(word);
  }
  auto *st = cast<StructType>(a.call.getType());
  Value *result = PoisonValue::get(st);
  for (unsigned i = 0; i < st->getNumElements(); ++i) {
    Type *et = st->getElementType(i);
    Value *v;
    if (a.f.elementBytes == 4) { // f32 accumulators: one float per element
      Value *word = words[(i / 2) % kPairs];
      v = a.b.CreateBitCast(
          a.b.CreateTrunc(a.b.CreateLShr(word, 32 * (i % 2)), a.b.getInt32Ty()),
          et);
    } else { // <2 x half> per register
      v = a.b.CreateBitCast(words[i % kPairs], et);
    }
    result = a.b.CreateInsertValue(result, v, i);
  }
  a.call.replaceAllUsesWith(result);
}

// store.d: (ptr, elements..., ldm). False for an argument list too short.
bool lowerFragmentStore(FragmentAccess &a, bool stride) {
  unsigned n = a.call.arg_size() - (stride ? 2 : 1);
  for (unsigned r = 0; r < kPairs; ++r) {
    Value *word;
    if (a.f.elementBytes == 4) {
      if (2 * r + 1 >= n)
        return false;
      Value *lo =
          a.b.CreateBitCast(a.call.getArgOperand(1 + 2 * r), a.b.getInt32Ty());
      Value *hi =
          a.b.CreateBitCast(a.call.getArgOperand(2 + 2 * r), a.b.getInt32Ty());
      word = a.b.CreateOr(a.b.CreateZExt(lo, a.pairType),
                          a.b.CreateShl(a.b.CreateZExt(hi, a.pairType), 32));
    } else {
      if (r >= n)
        return false;
      word = a.b.CreateBitCast(a.call.getArgOperand(1 + r), a.pairType);
    }
    auto [p0, p1] = a.pairAddresses(r);
    if (a.adjacent) {
      a.b.CreateAlignedStore(word, p0, Align(2 * a.f.elementBytes));
    } else {
      a.b.CreateAlignedStore(a.b.CreateTrunc(word, a.elem), p0,
                             Align(a.f.elementBytes));
      a.b.CreateAlignedStore(
          a.b.CreateTrunc(a.b.CreateLShr(word, 8 * a.f.elementBytes), a.elem),
          p1, Align(a.f.elementBytes));
    }
  }
  return true;
}

bool lowerLoadStore(CallInst &call, StringRef name) {
  // load.{a,b,c}.{row,col}[.stride].TYPE.pN / store.d.{row,col}[.stride]...
  SmallVector<StringRef, 8> parts;
  name.split(parts, '.');
  if (parts.size() < 5)
    return false;
  Fragment f;
  f.matrix = parts[1][0];
  f.rowMajor = parts[2] == "row";
  bool stride = parts[3] == "stride";
  StringRef type = parts[stride ? 4 : 3];
  if (type == "f32")
    f.elementBytes = 4;
  else if (type != "f16")
    return false;
  bool store = parts[0] == "store";
  Module &m = *call.getModule();
  IRBuilder<> b(&call);
  Value *base = call.getArgOperand(0);
  f.addressSpace = base->getType()->getPointerAddressSpace();
  // A generic pointer into a __shared__ array is shared memory to ptxas too.
  if (auto *object = dyn_cast<GlobalVariable>(getUnderlyingObject(base, 32)))
    f.addressSpace = object->getAddressSpace();
  Value *ldm =
      stride ? call.getArgOperand(call.arg_size() - 1) : b.getInt32(16);
  FunctionCallee laneid =
      m.getOrInsertFunction("llvm.nvvm.read.ptx.sreg.laneid", b.getInt32Ty());
  Value *lane = b.CreateCall(laneid);
  Value *g = b.CreateLShr(lane, 2), *t = b.CreateAnd(lane, 3);
  bool accumulator = f.matrix == 'c' || f.matrix == 'd';
  // Adjacent in memory when the pair runs along the contiguous dimension.
  bool adjacent = pairAlongColumns(f.matrix) == f.rowMajor;
  FragmentAccess a{call,
                   b,
                   f,
                   base,
                   ldm,
                   g,
                   t,
                   b.getIntNTy(8 * f.elementBytes),
                   b.getIntNTy(16 * f.elementBytes),
                   adjacent,
                   accumulator};
  if (!store)
    lowerFragmentLoad(a);
  else if (!lowerFragmentStore(a, stride))
    return false;
  call.eraseFromParent();
  return true;
}

bool lowerMma(CallInst &call, StringRef name) {
  // mma.{row,col}.{row,col}.DTYPE.CTYPE (A and B f16): D = A*B + C, as two
  // m16n8k16 products over the columns 0..7 and 8..15.
  SmallVector<StringRef, 8> parts;
  name.split(parts, '.');
  if (parts.size() != 5 || parts[1] != "row" || parts[2] != "col")
    return false; // other layouts: fragments are the same, not measured yet
  StringRef dType = parts[3], cType = parts[4];
  if ((dType != "f32" && dType != "f16") || (cType != "f32" && cType != "f16"))
    return false;
  IRBuilder<> b(&call);
  auto word = [&](unsigned i) {
    return b.CreateBitCast(call.getArgOperand(i), b.getInt32Ty());
  };
  std::vector<Value *> a = {word(0), word(1), word(2), word(3)};
  unsigned cBase = 16;
  std::vector<Value *> c(8);
  for (unsigned i = 0; i < 8; ++i) {
    if (cType == "f32") {
      c[i] = call.getArgOperand(cBase + i);
    } else {
      Value *pair = call.getArgOperand(cBase + i / 2); // <2 x half>
      c[i] = b.CreateFPExt(b.CreateExtractElement(pair, i % 2), b.getFloatTy());
    }
  }
  std::vector<Value *> d;
  for (unsigned tile = 0; tile < 2; ++tile) {
    std::vector<Value *> bt = {word(8 + 2 * tile), word(9 + 2 * tile)};
    std::vector<Value *> ct(c.begin() + 4 * tile, c.begin() + 4 * tile + 4);
    std::vector<Value *> out =
        ptx::mmaM16N8(b, *call.getModule(), a, bt, ct, "f16", 16);
    d.insert(d.end(), out.begin(), out.end());
  }
  auto *st = cast<StructType>(call.getType());
  Value *result = PoisonValue::get(st);
  for (unsigned i = 0; i < st->getNumElements(); ++i) {
    Value *v;
    if (dType == "f32") {
      v = d[i];
    } else {
      Value *pair = PoisonValue::get(FixedVectorType::get(b.getHalfTy(), 2));
      pair = b.CreateInsertElement(
          pair, b.CreateFPTrunc(d[2 * i], b.getHalfTy()), uint64_t(0));
      pair = b.CreateInsertElement(
          pair, b.CreateFPTrunc(d[2 * i + 1], b.getHalfTy()), 1);
      v = pair;
    }
    result = b.CreateInsertValue(result, v, i);
  }
  call.replaceAllUsesWith(result);
  call.eraseFromParent();
  return true;
}

} // namespace

void lowerWmmaIntrinsics(Module &module) {
  std::vector<CallInst *> calls = callsTo(module, [](StringRef name) {
    return name.starts_with("llvm.nvvm.wmma.m16n16k16.");
  });
  // One it cannot lower is left for the engine to name.
  for (CallInst *call : calls) {
    StringRef name = call->getCalledFunction()->getName().drop_front(
        strlen("llvm.nvvm.wmma.m16n16k16."));
    if (name.starts_with("load.") || name.starts_with("store."))
      lowerLoadStore(*call, name);
    else if (name.starts_with("mma."))
      lowerMma(*call, name);
  }
}

} // namespace kcheck::analyzer

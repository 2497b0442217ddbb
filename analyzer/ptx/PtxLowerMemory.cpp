// Memory and warp statements: ld/st, atom/red, cp.async, ldmatrix/stmatrix,
// shfl, vote, barriers. Each PTX memory instruction becomes exactly one IR
// memory instruction of the same width and space (a vector load for .v2/.v4
// and for the 16-byte rows of ldmatrix), so the models count what SASS
// executes. Data movement between lanes (ldmatrix's fragments) goes through
// NVVM shuffles, which the models do not count.
#include "analyzer/ptx/PtxLowerer.h"
#include "analyzer/ptx/PtxLowering.h"

#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <algorithm>

namespace kcheck::analyzer::ptx {

using namespace llvm;

namespace {

// The IR address space a PTX state space names; 0 (generic) when none.
unsigned addressSpaceOf(const Statement &st) {
  for (const std::string &p : st.parts) {
    if (p == "global")
      return 1;
    if (p == "shared" || p.rfind("shared::", 0) == 0)
      return 3;
    if (p == "local")
      return 5;
    if (p == "const")
      return 4;
    if (p == "param")
      return 101;
  }
  return 0;
}

unsigned vectorLength(const Statement &st) {
  for (const std::string &p : st.parts)
    if (p == "v2" || p == "v4" || p == "v8")
      return unsigned(p[1] - '0');
  return 1;
}

} // namespace

void Lowerer::tag(Instruction *i, const Statement &st) {
  i->setMetadata(core::kPtxInstructionMetadata,
                 MDNode::get(ctx_, MDString::get(ctx_, st.opcode)));
}

Value *Lowerer::address(const Operand &o, unsigned addrSpace) {
  if (o.kind != Operand::Kind::Address)
    return nullptr;
  Value *a = b_.getInt64(uint64_t(o.value));
  if (!o.elements.empty()) {
    Value *base = read(o.elements[0], 64);
    if (!base)
      return nullptr;
    a = b_.CreateAdd(base, a);
  }
  return b_.CreateIntToPtr(a, b_.getPtrTy(addrSpace));
}

void Lowerer::beginGuarded(Value *pred) {
  guardJoin_ = &call_;
  if (dryRun_)
    return;
  Instruction *then =
      SplitBlockAndInsertIfThen(pred, call_.getIterator(), false);
  b_.SetInsertPoint(then);
}

void Lowerer::endGuarded() {
  guardJoin_ = nullptr;
  if (!dryRun_)
    b_.SetInsertPoint(&call_);
}

bool Lowerer::lowerLoadStore(const Statement &st) {
  bool isLoad = st.parts[0] != "st";
  unsigned as = addressSpaceOf(st), n = vectorLength(st);
  std::string type = typeOf(st);
  unsigned w = typeBits(type);
  if (!w || w == 1 || st.operands.size() < 2)
    return fail("ld/st type");
  const Operand &data = isLoad ? st.operands[0] : st.operands[1];
  const Operand &addrOperand = isLoad ? st.operands[1] : st.operands[0];
  if (n > 1 &&
      (data.kind != Operand::Kind::Vector || data.elements.size() != n))
    return fail("vector operand");
  Type *elem = b_.getIntNTy(w);
  Type *t = n > 1 ? static_cast<Type *>(FixedVectorType::get(elem, n)) : elem;
  Value *pred = guard();
  if (st.guard && !pred)
    return fail("unknown guard predicate");
  Value *old = nullptr;
  if (isLoad && pred) {
    // What the destination keeps where the guard is off.
    old = gatherData(data, n, w);
    if (!old)
      old = Constant::getNullValue(t);
  }
  Value *stored = isLoad ? nullptr : gatherData(data, n, w);
  if (!isLoad && !stored)
    return fail("store value");
  if (pred)
    beginGuarded(pred);
  Value *ptr = address(addrOperand, as);
  if (!ptr)
    return fail("address");
  Align align(std::max(1u, w * n / 8));
  Value *loaded = nullptr;
  // A strong access (.volatile, .relaxed, .acquire, .release: PTX memory
  // model) reads or writes what other threads, other blocks included, see
  // while the kernel runs; kept as volatile so nothing folds it and blocks
  // run in order (simulator/AllBlocks).
  bool strong = hasPart(st, "volatile") || hasPart(st, "relaxed") ||
                hasPart(st, "acquire") || hasPart(st, "release");
  if (isLoad) {
    LoadInst *load = b_.CreateAlignedLoad(t, ptr, align);
    load->setVolatile(strong);
    loaded = load;
  } else {
    StoreInst *store = b_.CreateAlignedStore(stored, ptr, align);
    store->setVolatile(strong);
  }
  if (pred) {
    BasicBlock *then = b_.GetInsertBlock();
    endGuarded();
    if (isLoad && !dryRun_) {
      PHINode *phi = PHINode::Create(t, 2, "", call_.getParent()->begin());
      phi->addIncoming(loaded, then);
      phi->addIncoming(old, then->getSinglePredecessor());
      loaded = phi;
    }
  }
  if (!isLoad)
    return true;
  return scatterLoaded(data, n, loaded, type[0] == 's');
}

// The data operand as n elements of w bits (one operand each for .v2/.v4),
// a sink read as 0; null when an element cannot be read.
Value *Lowerer::gatherData(const Operand &data, unsigned n, unsigned w) {
  Type *elem = b_.getIntNTy(w);
  Type *t = n > 1 ? static_cast<Type *>(FixedVectorType::get(elem, n)) : elem;
  Value *v = n > 1 ? static_cast<Value *>(PoisonValue::get(t)) : nullptr;
  for (unsigned i = 0; i < n; ++i) {
    const Operand &e = n > 1 ? data.elements[i] : data;
    Value *x =
        e.kind == Operand::Kind::Sink ? ConstantInt::get(elem, 0) : read(e, w);
    if (!x)
      return nullptr;
    v = n > 1 ? b_.CreateInsertElement(v, x, i) : x;
  }
  return v;
}

// The loaded value's n elements into the data operand's registers.
bool Lowerer::scatterLoaded(const Operand &data, unsigned n, Value *loaded,
                            bool signExtend) {
  for (unsigned i = 0; i < n; ++i) {
    Value *x = n > 1 ? b_.CreateExtractElement(loaded, i) : loaded;
    // A narrow load into a wider register extends by the type's signedness.
    if (signExtend)
      x = b_.CreateSExt(x, b_.getInt64Ty());
    if (!write(n > 1 ? data.elements[i] : data, x))
      return false;
  }
  return true;
}

bool Lowerer::lowerAtomic(const Statement &st) {
  bool isRed = st.parts[0] == "red";
  static const std::map<std::string, AtomicRMWInst::BinOp> intOps = {
      {"add", AtomicRMWInst::Add},     {"and", AtomicRMWInst::And},
      {"or", AtomicRMWInst::Or},       {"xor", AtomicRMWInst::Xor},
      {"exch", AtomicRMWInst::Xchg},   {"inc", AtomicRMWInst::UIncWrap},
      {"dec", AtomicRMWInst::UDecWrap}};
  std::string op;
  for (const std::string &p : st.parts)
    if (intOps.count(p) || p == "min" || p == "max" || p == "cas")
      op = p;
  std::string type = typeOf(st);
  unsigned w = typeBits(type);
  unsigned as = addressSpaceOf(st);
  size_t first = isRed ? 0 : 1;
  bool half =
      type == "f16" || type == "bf16" || type == "f16x2" || type == "bf16x2";
  if (op.empty() || (w != 32 && w != 64 && !half) || vectorLength(st) != 1 ||
      st.operands.size() < first + 2 || st.guard)
    return fail("atomic form");
  Value *ptr = address(st.operands[first], as);
  Value *v = read(st.operands[first + 1], w);
  if (!ptr || !v)
    return fail("atomic operands");
  if (half)
    return lowerHalfFloatAtomic(st, op, type, w, ptr, v, isRed);
  bool isFloat = type[0] == 'f';
  Value *old = nullptr;
  if (op == "cas") {
    Value *nv = st.operands.size() > first + 2 ? read(st.operands[first + 2], w)
                                               : nullptr;
    if (!nv || isFloat)
      return fail("cas operands");
    auto *x = b_.CreateAtomicCmpXchg(ptr, v, nv, MaybeAlign(w / 8),
                                     AtomicOrdering::Monotonic,
                                     AtomicOrdering::Monotonic);
    old = b_.CreateExtractValue(x, 0);
  } else {
    AtomicRMWInst::BinOp bin;
    Value *operand = v;
    if (isFloat) {
      if (op != "add" && op != "min" && op != "max")
        return fail("float atomic " + op);
      bin = op == "add"   ? AtomicRMWInst::FAdd
            : op == "min" ? AtomicRMWInst::FMin
                          : AtomicRMWInst::FMax;
      operand = toFloat(v, type);
    } else if (op == "min" || op == "max") {
      bool s = type[0] == 's';
      bin = op == "min" ? (s ? AtomicRMWInst::Min : AtomicRMWInst::UMin)
                        : (s ? AtomicRMWInst::Max : AtomicRMWInst::UMax);
    } else {
      bin = intOps.at(op);
    }
    old = b_.CreateAtomicRMW(bin, ptr, operand, MaybeAlign(w / 8),
                             AtomicOrdering::Monotonic);
    if (isFloat)
      old = b_.CreateBitCast(old, b_.getIntNTy(w));
  }
  return isRed ? true : write(st.operands[0], old);
}

bool Lowerer::lowerHalfFloatAtomic(const Statement &st, const std::string &op,
                                   const std::string &type, unsigned w,
                                   Value *ptr, Value *v, bool isRed) {
  // 16-bit float atomics, f16x2/bf16x2 as one atomic per half (the lanes
  // are serialized either way; atomics are no load or store counter).
  if (op != "add" && op != "min" && op != "max")
    return fail("16-bit float atomic " + op);
  std::string scalar = type.substr(0, type[0] == 'b' ? 4 : 3);
  Type *ft = scalar == "bf16" ? b_.getBFloatTy() : b_.getHalfTy();
  auto bin = op == "add"   ? AtomicRMWInst::FAdd
             : op == "min" ? AtomicRMWInst::FMin
                           : AtomicRMWInst::FMax;
  Value *result = ConstantInt::get(b_.getIntNTy(w), 0);
  for (unsigned h = 0; h < w / 16; ++h) {
    Value *part = b_.CreateBitCast(
        b_.CreateTrunc(b_.CreateLShr(v, 16 * h), b_.getInt16Ty()), ft);
    Value *p = b_.CreateConstGEP1_64(b_.getInt8Ty(), ptr, 2 * h);
    Value *old =
        b_.CreateBitCast(b_.CreateAtomicRMW(bin, p, part, MaybeAlign(2),
                                            AtomicOrdering::Monotonic),
                         b_.getInt16Ty());
    result = b_.CreateOr(
        result, b_.CreateShl(b_.CreateZExt(old, result->getType()), 16 * h));
  }
  return isRed ? true : write(st.operands[0], result);
}

Value *zeroFillPastSize(IRBuilder<> &b, Value *v, Type *t, unsigned words,
                        unsigned bytes, Value *srcSize, Value *ignoreSrc) {
  // Bytes past src-size read as zero.
  Value *limit = srcSize ? srcSize : b.getInt32(bytes);
  if (ignoreSrc)
    limit = b.CreateSelect(ignoreSrc, b.getInt32(0), limit);
  Value *masked = PoisonValue::get(t);
  for (unsigned k = 0; k < words; ++k) {
    Value *word = words > 1 ? b.CreateExtractElement(v, k) : v;
    // valid = clamp(limit - 4k, 0, 4) bytes of this word
    Value *valid = b.CreateSub(limit, b.getInt32(4 * k));
    valid = b.CreateSelect(b.CreateICmpSLT(valid, b.getInt32(0)), b.getInt32(0),
                           valid);
    valid = b.CreateBinaryIntrinsic(Intrinsic::umin, valid, b.getInt32(4));
    Value *bitsValid = b.CreateShl(b.CreateZExt(valid, b.getInt64Ty()), 3);
    Value *mask = b.CreateTrunc(
        b.CreateSub(b.CreateShl(b.getInt64(1), bitsValid), b.getInt64(1)),
        b.getInt32Ty());
    word = b.CreateAnd(word, mask);
    masked = words > 1 ? b.CreateInsertElement(masked, word, k) : word;
  }
  return masked;
}

bool Lowerer::lowerCpAsync(const Statement &st) {
  // Completion is immediate in the simulator (one block's warps run to each
  // barrier in turn), so the group and wait statements have nothing to do.
  if (hasPart(st, "commit_group") || hasPart(st, "wait_group") ||
      hasPart(st, "wait_all") || hasPart(st, "mbarrier"))
    return true;
  if (hasPart(st, "bulk"))
    return fail("cp.async.bulk (TMA)");
  // cp.async.{ca,cg}.shared.global [dst], [src], cp-size{, src-size |
  // ignore-src}{, cache-policy}
  if (st.operands.size() < 3)
    return fail("cp.async form");
  auto *sizeConst = st.operands[2].kind == Operand::Kind::Immediate
                        ? &st.operands[2]
                        : nullptr;
  unsigned bytes = 0;
  if (sizeConst)
    bytes = unsigned(sizeConst->value);
  else if (Value *s = read(st.operands[2], 32))
    if (auto *c = dyn_cast<ConstantInt>(s))
      bytes = unsigned(c->getZExtValue());
  if (bytes != 4 && bytes != 8 && bytes != 16)
    return fail("cp.async size");
  Value *pred = guard();
  if (st.guard && !pred)
    return fail("unknown guard predicate");
  // The fourth operand: bytes to read (the rest is zero-filled), or a
  // predicate that skips the read. Without L2::cache_hint, a fifth is not
  // a cache policy.
  Value *srcSize = nullptr, *ignoreSrc = nullptr;
  if (st.operands.size() > 3) {
    const Operand &o = st.operands[3];
    auto reg = o.kind == Operand::Kind::Register ? registers_.find(o.name)
                                                 : registers_.end();
    if (reg != registers_.end() && reg->second.bits == 1)
      ignoreSrc = read(o, 1);
    else
      srcSize = read(o, 32);
  }
  if (pred)
    beginGuarded(pred);
  Value *dst = address(st.operands[0], 3);
  Value *src = address(st.operands[1], 1);
  if (!dst || !src)
    return fail("cp.async addresses");
  unsigned words = bytes / 4;
  Type *t =
      words > 1
          ? static_cast<Type *>(FixedVectorType::get(b_.getInt32Ty(), words))
          : b_.getInt32Ty();
  LoadInst *load = b_.CreateAlignedLoad(t, src, Align(bytes));
  tag(load, st);
  Value *v = load;
  if (srcSize || ignoreSrc)
    v = zeroFillPastSize(b_, v, t, words, bytes, srcSize, ignoreSrc);
  StoreInst *store = b_.CreateAlignedStore(v, dst, Align(bytes));
  tag(store, st);
  if (pred)
    endGuarded();
  return true;
}

bool Lowerer::lowerShfl(const Statement &st) {
  // shfl.sync.MODE.b32 d[|p], a, b, c, membermask
  bool sync = hasPart(st, "sync");
  std::string mode = st.parts[sync ? 2 : 1];
  if (mode != "up" && mode != "down" && mode != "bfly" && mode != "idx")
    return fail("shfl mode");
  if (st.operands.size() != (sync ? 5u : 4u))
    return fail("shfl operands");
  const Operand &d = st.operands[0];
  bool pair = d.kind == Operand::Kind::Pair;
  Value *a = read(st.operands[1], 32), *lane = read(st.operands[2], 32),
        *c = read(st.operands[3], 32);
  Value *mask = sync ? read(st.operands[4], 32) : nullptr;
  if (!a || !lane || !c || (sync && !mask))
    return fail("shfl operands");
  std::string name = std::string("llvm.nvvm.shfl.") + (sync ? "sync." : "") +
                     mode + (pair ? ".i32p" : ".i32");
  Type *ret = pair ? static_cast<Type *>(StructType::get(
                         ctx_, {b_.getInt32Ty(), b_.getInt1Ty()}))
                   : b_.getInt32Ty();
  std::vector<Value *> args;
  if (sync)
    args.push_back(mask);
  args.insert(args.end(), {a, lane, c});
  Value *r = intrinsicCall(name, ret, args);
  if (!pair)
    return write(d, r);
  return write(d.elements[0], b_.CreateExtractValue(r, 0)) &&
         write(d.elements[1], b_.CreateExtractValue(r, 1));
}

bool Lowerer::lowerVote(const Statement &st) {
  if (st.parts[0] == "activemask")
    return st.operands.size() == 1 &&
           write(st.operands[0],
                 intrinsicCall("llvm.nvvm.activemask", b_.getInt32Ty(), {}));
  // vote.sync.{ballot.b32,any.pred,all.pred,uni.pred} d, p, membermask
  if (!hasPart(st, "sync") || st.operands.size() != 3)
    return fail("vote without .sync");
  std::string kind = st.parts[2];
  if (kind != "ballot" && kind != "any" && kind != "all" && kind != "uni")
    return fail("vote kind");
  Value *p = read(st.operands[1], 1), *mask = read(st.operands[2], 32);
  if (!p || !mask)
    return fail("vote operands");
  bool ballot = kind == "ballot";
  Value *r =
      intrinsicCall("llvm.nvvm.vote." + kind + ".sync",
                    ballot ? b_.getInt32Ty() : b_.getInt1Ty(), {mask, p});
  return write(st.operands[0], r);
}

bool Lowerer::lowerMbarrier(const Statement &st) {
  // mbarrier.{init,inval,arrive[_drop][.expect_tx],expect_tx,complete_tx,
  // test_wait,try_wait[.parity],pending_count}: SYNCS instructions, no
  // LDS/STS. One block's warps run to each barrier in turn and copies land
  // at once, so every phase is complete when a thread waits: waits succeed,
  // arrivals return a zero state. (A producer/consumer hand-off between
  // warps through an mbarrier is not ordered: data, not addresses, may
  // differ from the GPU's.)
  std::string kind = st.parts.size() > 1 ? st.parts[1] : "";
  if (kind == "init" || kind == "inval" || kind == "expect_tx" ||
      kind == "complete_tx")
    return true;
  if (kind == "arrive" || kind == "arrive_drop") {
    if (st.operands.size() >= 2 &&
        st.operands[0].kind != Operand::Kind::Address)
      return write(st.operands[0], b_.getInt64(0));
    return true;
  }
  if (kind == "test_wait" || kind == "try_wait")
    return !st.operands.empty() && write(st.operands[0], b_.getTrue());
  if (kind == "pending_count")
    return st.operands.size() == 2 && write(st.operands[0], b_.getInt32(0));
  return fail("mbarrier." + kind);
}

bool Lowerer::lowerBarrier(const Statement &st) {
  if (hasPart(st, "warp")) { // bar.warp.sync membermask
    Value *mask = st.operands.empty() ? nullptr : read(st.operands[0], 32);
    if (!mask)
      return fail("bar.warp.sync operand");
    intrinsicCall("llvm.nvvm.bar.warp.sync", b_.getVoidTy(), {mask});
    return true;
  }
  // bar.sync id / barrier.sync[.aligned] id: the whole block. A thread
  // count (named barriers of part of the block) and bar.arrive/red are not
  // modelled.
  if (!(hasPart(st, "sync")) || st.operands.size() != 1)
    return fail("barrier form (named barrier with a thread count, arrive "
                "or red)");
  intrinsicCall("llvm.nvvm.barrier.cta.sync.aligned.all", b_.getVoidTy(),
                {b_.getInt32(0)});
  return true;
}

} // namespace kcheck::analyzer::ptx

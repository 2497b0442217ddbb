#include "simulator/engine/BlockSymmetry.h"
#include "simulator/engine/Cluster.h"

#include "simulator/engine/BlockSymmetryDomain.h"
#include "simulator/engine/RunnerImpl.h"

#include "simulator/engine/AluOps.h"

#include <algorithm>
#include <optional>
#include <unordered_map>

namespace kcheck::sim {

using bc::Inst;
using bc::Op;
using namespace symmetry;

namespace {

SymmetryCheck checkAt(SymmetryCheck::Kind kind, uint32_t pc) {
  SymmetryCheck c;
  c.kind = kind;
  c.pc = pc;
  return c;
}

bool isSignedPredicate(uint8_t p) { return alu::isSignedIcmp(p); }

class Analysis {
public:
  Analysis(const DecodedKernel &kernel, const core::LaunchConfig &launch,
           const std::vector<KernelArg> &args)
      : kernel_(kernel), launch_(launch), values_(kernel.numSlots()) {
    values_[0] = AbsValue::constant(0);
    for (const bc::ConstSlot &c : kernel.constSlots())
      values_[c.slot] =
          c.symbol >= 0 ? AbsValue::free() : AbsValue::constant(c.value);
    const auto &argSlots = kernel.argSlots();
    for (size_t a = 0; a < argSlots.size(); ++a)
      values_[argSlots[a].slot] = AbsValue::constant(
          argumentRegister(argSlots[a], a < args.size() ? &args[a] : nullptr));
    for (const Inst &in : kernel.code())
      if (in.op == Op::IntBin && bc::IntBinOp(in.sub) == bc::IntBinOp::Or)
        for (unsigned e = 0; e < in.n; ++e)
          orOperands_[in.dst + e] = {in.a + e, in.b + e};
  }

  /// `x | y` that element `e` of ICmp `in` tests against zero (eq/ne), x and
  /// y Affine or uniform: `row == 0 && col == 0` as compiled. The `or` of two
  /// Affine values is Dependent, the test is not.
  struct ZeroTestedOr {
    uint32_t orSlot, x, y;
  };
  std::optional<ZeroTestedOr> zeroTestedOr(const Inst &in, unsigned e) const {
    if (!alu::isEqualityIcmp(in.sub) || in.bits > 64)
      return std::nullopt;
    uint32_t a = in.a + e, b = in.b + e;
    auto isZero = [&](uint32_t s) {
      return get(s).kind == AbsValue::Kind::Const && get(s).value == 0;
    };
    if (!isZero(a) && !isZero(b))
      return std::nullopt;
    uint32_t orSlot = isZero(b) ? a : b;
    auto it = orOperands_.find(orSlot);
    if (it == orOperands_.end() || !get(orSlot).isDep())
      return std::nullopt; // an Affine or Free or: a Guard check, as any
    auto known = [&](uint32_t s) {
      return get(s).isAffine() || get(s).isUniform();
    };
    if (!known(it->second.first) || !known(it->second.second))
      return std::nullopt;
    return ZeroTestedOr{orSlot, it->second.first, it->second.second};
  }

  BlockSymmetry run() {
    // Optimistic fixpoint: shared/local data start Free and turn Dependent
    // when some store could put a non-Free value there.
    for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t pc = 0; pc < kernel_.code().size(); ++pc)
        changed |= transfer(kernel_.code()[pc]);
      for (const bc::PhiCopy &c : kernel_.phiCopies())
        changed |= set(c.dst, get(c.src));
    }
    BlockSymmetry out;
    for (uint32_t pc = 0; pc < kernel_.code().size(); ++pc)
      collectChecks(pc, out);
    for (const SymmetryCheck &c : out.checks)
      out.probePcs.push_back(c.pc);
    for (const SymmetryCheck &c : out.uniformStores)
      out.probePcs.push_back(c.pc);
    for (uint32_t pc = 0; pc < kernel_.code().size(); ++pc)
      if (writesBeyondTheBlock(kernel_.code()[pc]))
        out.effectPcs.push_back(pc);
    std::sort(out.probePcs.begin(), out.probePcs.end());
    out.probePcs.erase(std::unique(out.probePcs.begin(), out.probePcs.end()),
                       out.probePcs.end());
    return out;
  }

private:
  static bool writesBeyondTheBlock(const Inst &in) {
    switch (in.op) {
    case Op::Store:
    case Op::AtomicRmw:
    case Op::CmpXchg:
    case Op::MemCpy:
    case Op::MemSet:
      return in.sub != bc::kSharedAS && in.sub != bc::kLocalAS;
    default:
      return false;
    }
  }

  const AbsValue &get(uint32_t slot) const { return values_[slot]; }

  bool set(uint32_t slot, const AbsValue &v) {
    if (slot == 0)
      return false;
    AbsValue j = join(values_[slot], v);
    if (same(j, values_[slot]))
      return false;
    values_[slot] = j;
    return true;
  }

  bool setAll(uint32_t dst, unsigned n, const AbsValue &v) {
    bool changed = false;
    for (unsigned e = 0; e < n; ++e)
      changed |= set(dst + e, v);
    return changed;
  }

  /// Free if every operand slot is uniform, Dependent if one is not, Unset
  /// while one is still unknown.
  AbsValue
  uniformOf(std::initializer_list<std::pair<uint32_t, unsigned>> runs) {
    bool unset = false;
    for (auto [slot, n] : runs)
      for (unsigned e = 0; e < n; ++e) {
        const AbsValue &v = get(slot + e);
        if (v.isUnset())
          unset = true;
        else if (!v.isUniform())
          return AbsValue::dependent();
      }
    return unset ? AbsValue{} : AbsValue::free();
  }

  AbsValue intBin(const Inst &in, const AbsValue &x, const AbsValue &y) {
    using K = AbsValue::Kind;
    using O = bc::IntBinOp;
    if (x.isUnset() || y.isUnset())
      return {};
    if (x.isDep() || y.isDep())
      return AbsValue::dependent();
    O op = O(in.sub);
    if (x.kind == K::Const && y.kind == K::Const) {
      if (auto v = foldInt(op, x.value, y.value, in.bits))
        return AbsValue::constant(*v);
      return AbsValue::free();
    }
    if (!x.isAffine() && !y.isAffine())
      return AbsValue::free();
    BlockAffine fx = x.formOrZero(), fy = y.formOrZero(), r;
    switch (op) {
    case O::Add:
    case O::Sub:
      for (int d = 0; d < 3; ++d)
        r.coef[d] = int64_t(op == O::Add ? uint64_t(fx.coef[d]) + fy.coef[d]
                                         : uint64_t(fx.coef[d]) - fy.coef[d]);
      return AbsValue::affine(r, in.bits);
    case O::Mul: {
      const AbsValue &k = x.isAffine() ? y : x;
      const BlockAffine &f = x.isAffine() ? fx : fy;
      if (k.kind != K::Const || (x.isAffine() && y.isAffine()))
        return AbsValue::dependent();
      for (int d = 0; d < 3; ++d)
        r.coef[d] = int64_t(uint64_t(f.coef[d]) * k.value);
      return AbsValue::affine(r, in.bits);
    }
    case O::Or:
    case O::Xor:
      // x + L combined with Free bits below L's lowest set bit: the result
      // moves by L too (checked per block by a LowBits check).
      if (x.isAffine() && y.isAffine())
        return AbsValue::dependent();
      return x.isAffine() ? x : y;
    case O::Shl:
      if (!x.isAffine() || y.kind != K::Const || y.value >= in.bits)
        return AbsValue::dependent();
      for (int d = 0; d < 3; ++d)
        r.coef[d] = int64_t(uint64_t(fx.coef[d]) << y.value);
      return AbsValue::affine(r, in.bits);
    default:
      return AbsValue::dependent();
    }
  }

  AbsValue castOf(const Inst &in, const AbsValue &x) {
    using C = bc::CastKind;
    using K = AbsValue::Kind;
    if (x.isUnset() || x.isDep())
      return x;
    C kind = C(in.sub);
    if (x.kind == K::Const) {
      switch (kind) {
      case C::Trunc:
      case C::ZExt:
      case C::PtrToInt:
      case C::IntToPtr:
        return AbsValue::constant(maskBits(x.value, in.bits2));
      case C::SExt:
        return AbsValue::constant(
            maskBits(uint64_t(signedMod(x.value, in.bits)), in.bits2));
      default:
        return AbsValue::free();
      }
    }
    if (x.kind == K::Free)
      return x;
    switch (kind) { // Affine
    case C::Trunc:
      return AbsValue::affine(x.form, in.bits2);
    case C::ZExt:
    case C::SExt: // exact given the NoWrap check collected for it
      return x;
    case C::PtrToInt:
    case C::IntToPtr:
      return in.bits2 >= in.bits ? x : AbsValue::affine(x.form, in.bits2);
    case C::AddrSpaceCast: // global <-> generic keep the value
      return (in.bits <= 1 && in.bits2 <= 1) ? x : AbsValue::dependent();
    default:
      return AbsValue::dependent();
    }
  }

  AbsValue loadResult(const Inst &in) const {
    const AbsValue &ptr = get(in.a);
    if (ptr.isUnset())
      return {};
    switch (in.sub) {
    case bc::kSharedAS:
      return ptr.isUniform() && sharedFree_ ? AbsValue::free()
                                            : AbsValue::dependent();
    case bc::kLocalAS:
      return ptr.isUniform() && localFree_ ? AbsValue::free()
                                           : AbsValue::dependent();
    case bc::kConstAS:
    case bc::kParamAS:
      return ptr.isUniform() ? AbsValue::free() : AbsValue::dependent();
    default: // global data differs between blocks and launches
      return AbsValue::dependent();
    }
  }

  /// Records that a store of `value` through address space `as` may put
  /// non-Free data in shared or local memory.
  bool noteStoredValue(unsigned as, AbsValue value) {
    if (value.isUnset() || value.isUniform())
      return false;
    bool changed = false;
    if ((as == bc::kSharedAS || as == bc::kGeneric) && sharedFree_)
      sharedFree_ = false, changed = true;
    if ((as == bc::kLocalAS || as == bc::kGeneric) && localFree_)
      localFree_ = false, changed = true;
    return changed;
  }

  bool transfer(const Inst &in) {
    bool changed = false;
    switch (in.op) {
    case Op::IntBin:
      for (unsigned e = 0; e < in.n; ++e)
        changed |= set(in.dst + e, intBin(in, get(in.a + e), get(in.b + e)));
      return changed;
    case Op::ICmp:
      for (unsigned e = 0; e < in.n; ++e) {
        const AbsValue &x = get(in.a + e), &y = get(in.b + e);
        if (x.isUnset() || y.isUnset())
          continue;
        // Affine operands: Free under the Guard (or ZeroOr) check collected
        // for it.
        bool dep = (x.isDep() || y.isDep()) && !zeroTestedOr(in, e);
        changed |=
            set(in.dst + e, dep ? AbsValue::dependent() : AbsValue::free());
      }
      return changed;
    case Op::Cast:
      for (unsigned e = 0; e < in.n; ++e)
        changed |= set(in.dst + e, castOf(in, get(in.a + e)));
      return changed;
    case Op::Copy:
      for (unsigned e = 0; e < in.n; ++e)
        changed |= set(in.dst + e, get(in.a + e));
      return changed;
    case Op::InsertValue:
      for (unsigned e = 0; e < in.n; ++e) {
        bool inserted = e >= in.aux && e < in.aux + in.c;
        changed |=
            set(in.dst + e, inserted ? get(in.b + e - in.aux) : get(in.a + e));
      }
      return changed;
    case Op::Select: {
      for (unsigned e = 0; e < in.n; ++e) {
        const AbsValue &cond = get((in.flags & 1) ? in.a + e : in.a);
        if (cond.isUnset())
          continue;
        if (!cond.isUniform())
          changed |= set(in.dst + e, AbsValue::dependent());
        else { // both arms join into dst: each may change it
          changed |= set(in.dst + e, get(in.b + e));
          changed |= set(in.dst + e, get(in.c + e));
        }
      }
      return changed;
    }
    case Op::Gep: {
      AbsValue r = get(in.a);
      if (r.isUnset())
        return false;
      BlockAffine f = r.formOrZero();
      bool dep = r.isDep();
      const bc::GepTerm *terms = kernel_.gepTerms().data() + in.aux;
      for (uint32_t i = 0; i < in.c; ++i) {
        const AbsValue &t = get(terms[i].slot);
        if (t.isUnset())
          return false;
        dep |= t.isDep();
        if (t.isAffine())
          for (int d = 0; d < 3; ++d)
            f.coef[d] =
                int64_t(uint64_t(f.coef[d]) +
                        uint64_t(t.form.coef[d]) * uint64_t(terms[i].scale));
      }
      return set(in.dst, dep ? AbsValue::dependent()
                             : AbsValue::affine(f, in.bits ? in.bits : 64));
    }
    case Op::Load:
      return setAll(in.dst, in.n, loadResult(in));
    case Op::Store:
      for (unsigned e = 0; e < in.n; ++e)
        changed |= noteStoredValue(in.sub, get(in.b + e));
      return changed;
    case Op::AtomicRmw:
    case Op::CmpXchg:
      changed |= noteStoredValue(in.sub, AbsValue::dependent());
      return changed | setAll(in.dst, in.op == Op::CmpXchg ? 2 : 1,
                              AbsValue::dependent());
    case Op::MemCpy:
      return noteStoredValue(in.sub, AbsValue::dependent());
    case Op::MemSet:
      return noteStoredValue(in.sub, get(in.b));
    case Op::Sreg: {
      using S = bc::SregKind;
      switch (S(in.sub)) {
      case S::CtaidX:
      case S::CtaidY:
      case S::CtaidZ: {
        BlockAffine f;
        f.coef[in.sub - uint8_t(S::CtaidX)] = 1;
        return set(in.dst, AbsValue::affine(f, in.bits));
      }
      case S::NtidX:
        return set(in.dst, AbsValue::constant(launch_.block.x));
      case S::NtidY:
        return set(in.dst, AbsValue::constant(launch_.block.y));
      case S::NtidZ:
        return set(in.dst, AbsValue::constant(launch_.block.z));
      case S::NctaidX:
        return set(in.dst, AbsValue::constant(launch_.grid.x));
      case S::NctaidY:
        return set(in.dst, AbsValue::constant(launch_.grid.y));
      case S::NctaidZ:
        return set(in.dst, AbsValue::constant(launch_.grid.z));
      case S::WarpSize:
        return set(in.dst, AbsValue::constant(kWarpSize));
      case S::Clock:
      // The block's place in its cluster, and its cluster's: blockIdx
      // divided and taken modulo the cluster's shape.
      case S::ClusterCtaidX:
      case S::ClusterCtaidY:
      case S::ClusterCtaidZ:
      case S::ClusteridX:
      case S::ClusteridY:
      case S::ClusteridZ:
      case S::ClusterCtarank:
        return set(in.dst, AbsValue::dependent());
      case S::ClusterNctaidX:
      case S::ClusterNctaidY:
      case S::ClusterNctaidZ:
      case S::NclusteridX:
      case S::NclusteridY:
      case S::NclusteridZ:
      case S::ClusterNctarank:
      case S::IsExplicitCluster:
        return set(in.dst, AbsValue::constant(clusterRegister(
                               S(in.sub), launch_, core::Dim3{})));
      default:
        return set(in.dst, AbsValue::free());
      }
    }
    case Op::Shfl:
      return setAll(in.dst, (in.flags & 1) ? 2 : 1,
                    uniformOf({{in.a, 1}, {in.b, 1}, {in.c, 1}}));
    case Op::Vote:
      return set(in.dst, uniformOf({{in.a, 1}}));
    case Op::ActiveMask:
    case Op::Printf:
    case Op::DeviceHeap:
    case Op::DeviceRuntime:
      return set(in.dst, AbsValue::free());
    case Op::Cluster: // ranks and other blocks' addresses: per block
      return in.dst ? set(in.dst, AbsValue::dependent()) : false;
    case Op::Texture: // texels are data; a surface write has no result
      return in.n ? setAll(in.dst, in.n, AbsValue::dependent()) : false;
    case Op::Barrier: // a reduction over the block's predicates
      if (in.sub != uint8_t(bc::BarrierReduction::None))
        return set(in.dst, AbsValue::dependent());
      break;
    default:
      break;
    }
    unsigned n = resultSlots(in, kernel_);
    switch (in.op) {
    case Op::Br:
    case Op::CondBr:
    case Op::Switch:
    case Op::Ret:
    case Op::Unreachable:
    case Op::Trap:
    case Op::Barrier:
    case Op::WarpSync:
    case Op::Nop:
    case Op::Cluster:
      return false;
    case Op::FloatBin:
    case Op::FCmp:
    case Op::FNeg:
      return setAll(in.dst, n,
                    uniformOf({{in.a, in.n}, {in.b, in.b ? in.n : 0}}));
    case Op::IntFn:
    case Op::FloatFn:
    case Op::RoundedFloat:
      return setAll(in.dst, n,
                    uniformOf({{in.a, in.n},
                               {in.b, in.b ? in.n : 0},
                               {in.c, in.c ? in.n : 0}}));
    case Op::ExtractElt:
      return setAll(in.dst, n, uniformOf({{in.a, in.n}, {in.b, 1}}));
    case Op::InsertElt:
      return setAll(in.dst, n, uniformOf({{in.a, in.n}, {in.b, 1}, {in.c, 1}}));
    case Op::Shuffle:
      return setAll(in.dst, n, uniformOf({{in.a, in.c}, {in.b, in.c}}));
    case Op::Repack:
      return setAll(in.dst, n,
                    uniformOf({{in.a, kernel_.repacks()[in.aux].srcCount}}));
    default:
      return setAll(in.dst, n, AbsValue::dependent());
    }
  }

  /// `pc` differs between blocks: blocks may share a class only with a
  /// representative that never executed it.
  void unreached(uint32_t pc, bool onData, const std::string &what,
                 BlockSymmetry &out) {
    SymmetryCheck c = checkAt(SymmetryCheck::Kind::Unreached, pc);
    c.onData = onData;
    c.what = kernel_.insts()[pc].where() + ": " + what;
    out.checks.push_back(std::move(c));
  }

  /// Adds the checks instruction `pc` needs.
  void collectChecks(uint32_t pc, BlockSymmetry &out) {
    const Inst &in = kernel_.code()[pc];
    auto uniform = [&](uint32_t slot) {
      const AbsValue &v = get(slot);
      return v.isUniform() || v.isUnset(); // Unset: never computed
    };
    switch (in.op) {
    case Op::CondBr:
    case Op::Switch:
      if (!uniform(in.a))
        return unreached(pc, get(in.a).isDep(),
                         "branch condition depends on blockIdx or data", out);
      return;
    case Op::Printf:
      return unreached(pc, false, "device printf", out);
    case Op::DeviceHeap: // blocks share the heap: each its own addresses
      return unreached(pc, false, "device malloc or free", out);
    case Op::DeviceRuntime: // launches, streams, allocations: per block
      return unreached(pc, false, "a call of the device runtime", out);
    case Op::Cluster: // other blocks' shared memory, the cluster's barrier
      return unreached(pc, false, "thread-block cluster", out);
    case Op::Texture: // a surface write: stores the proof does not follow
      if (core::TextureInstruction::decode(in.imm).writes())
        return unreached(pc, false, "surface write", out);
      return;
    case Op::Shfl:
    case Op::Vote:
    case Op::WarpSync:
      // Whether the call faults depends on its member mask.
      if ((in.flags & bc::kMemberMaskSlot) && !uniform(in.aux))
        return unreached(pc, get(in.aux).isDep(),
                         "warp member mask depends on blockIdx or data", out);
      return;
    case Op::ICmp:
      for (unsigned e = 0; e < in.n; ++e) {
        const AbsValue &x = get(in.a + e), &y = get(in.b + e);
        if (auto ops = zeroTestedOr(in, e)) {
          SymmetryCheck c = checkAt(SymmetryCheck::Kind::ZeroOr, pc);
          c.slotA = ops->x, c.slotB = ops->y, c.slotC = ops->orSlot;
          c.formA = get(ops->x).formOrZero();
          c.formB = get(ops->y).formOrZero();
          c.bits = in.bits, c.predicate = in.sub;
          out.checks.push_back(c);
          continue;
        }
        if (!x.isAffine() && !y.isAffine())
          continue;
        if (x.isDep() || y.isDep())
          continue; // result Dependent: checked where it is used
        SymmetryCheck c = checkAt(SymmetryCheck::Kind::Guard, pc);
        c.slotA = in.a + e, c.slotB = in.b + e;
        c.formA = x.formOrZero(), c.formB = y.formOrZero();
        c.bits = in.bits, c.predicate = in.sub;
        c.isSigned = isSignedPredicate(in.sub);
        out.checks.push_back(c);
      }
      return;
    case Op::IntBin: {
      using O = bc::IntBinOp;
      if (O(in.sub) != O::Or && O(in.sub) != O::Xor)
        return;
      for (unsigned e = 0; e < in.n; ++e) {
        const AbsValue &x = get(in.a + e), &y = get(in.b + e);
        if (x.isAffine() == y.isAffine() || x.isDep() || y.isDep())
          continue;
        SymmetryCheck c = checkAt(SymmetryCheck::Kind::LowBits, pc);
        c.slotA = x.isAffine() ? in.a + e : in.b + e;
        c.slotB = x.isAffine() ? in.b + e : in.a + e;
        c.formA = x.isAffine() ? x.form : y.form;
        c.bits = in.bits;
        out.checks.push_back(c);
      }
      return;
    }
    case Op::Cast:
      if (bc::CastKind(in.sub) != bc::CastKind::ZExt &&
          bc::CastKind(in.sub) != bc::CastKind::SExt)
        return;
      for (unsigned e = 0; e < in.n; ++e)
        if (get(in.a + e).isAffine()) {
          SymmetryCheck c = checkAt(SymmetryCheck::Kind::NoWrap, pc);
          c.slotA = in.a + e, c.formA = get(in.a + e).form;
          c.bits = in.bits;
          c.isSigned = bc::CastKind(in.sub) == bc::CastKind::SExt;
          out.checks.push_back(c);
        }
      return;
    case Op::Gep: {
      const bc::GepTerm *terms = kernel_.gepTerms().data() + in.aux;
      for (uint32_t i = 0; i < in.c; ++i)
        if (get(terms[i].slot).isAffine() && terms[i].bits < 64) {
          SymmetryCheck c = checkAt(SymmetryCheck::Kind::NoWrap, pc);
          c.slotA = terms[i].slot, c.formA = get(terms[i].slot).form;
          c.bits = terms[i].bits, c.isSigned = true;
          out.checks.push_back(c);
        }
      return;
    }
    case Op::Load:
    case Op::Store:
    case Op::AtomicRmw:
    case Op::CmpXchg: {
      const AbsValue &ptr = get(in.a);
      bool write = in.op != Op::Load;
      bool globalLike = in.sub == bc::kGlobalAS || in.sub == bc::kGeneric ||
                        in.sub == bc::kConstAS;
      if (ptr.isUnset())
        return;
      if (ptr.isDep())
        return unreached(pc, true, "address depends on data", out);
      SymmetryCheck c = checkAt(SymmetryCheck::Kind::Address, pc);
      c.slotA = in.a, c.accessBytes = uint32_t(in.imm), c.isWrite = write;
      if (ptr.isAffine()) {
        if (!globalLike)
          return unreached(pc, false,
                           "shared/local address depends on blockIdx", out);
        c.formA = ptr.form;
        out.checks.push_back(c);
      } else if (write && in.sub != bc::kSharedAS && in.sub != bc::kLocalAS) {
        out.uniformStores.push_back(c);
      }
      return;
    }
    case Op::MemCpy:
    case Op::MemSet:
      if (!uniform(in.a) || !uniform(in.c) ||
          (in.op == Op::MemCpy && !uniform(in.b)))
        return unreached(pc,
                         get(in.a).isDep() || get(in.c).isDep() ||
                             (in.op == Op::MemCpy && get(in.b).isDep()),
                         "memory intrinsic on a blockIdx-dependent range", out);
      if (in.sub != bc::kSharedAS && in.sub != bc::kLocalAS)
        return unreached(pc, false, "memory intrinsic writing global memory",
                         out);
      return;
    default:
      return;
    }
  }

  const DecodedKernel &kernel_;
  const core::LaunchConfig &launch_;
  std::vector<AbsValue> values_;
  std::unordered_map<uint32_t, std::pair<uint32_t, uint32_t>> orOperands_;
  bool sharedFree_ = true, localFree_ = true;
};

} // namespace

BlockSymmetry analyzeBlockSymmetry(const DecodedKernel &kernel,
                                   const core::LaunchConfig &launch,
                                   const std::vector<KernelArg> &args) {
  return Analysis(kernel, launch, args).run();
}

} // namespace kcheck::sim

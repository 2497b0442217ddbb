// The engine's internal instruction format: what the decoder produces and the
// block runner executes. Assumes every SSA value has been given a run of
// consecutive register slots (one per vector/struct element, each a uint64_t
// per lane), constants live in slots filled once per runner, and phis have
// been turned into per-edge parallel copies. Not part of the public API.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kcheck::sim::bc {

enum class Op : uint8_t {
  Nop,
  IntBin,      // sub = IntBinOp, bits = width
  FloatBin,    // sub = FloatBinOp, bits = 16/32/64 (16: sub2 = 1: bfloat16)
  FNeg,        // bits = 16/32/64; flags = kNegCanonicalNaN
  ICmp,        // sub = alu::IcmpPred, bits = operand width
  FCmp,        // sub = alu::FcmpPred, bits = 16/32/64 (sub2 as FloatBin)
  Select,      // a = cond, b = true, c = false; flags&1: vector condition
  Cast,        // sub = CastKind, bits = source width, bits2 = result width
  Copy,        // dst[e] = a[e] (freeze, same-layout bitcast, extractvalue)
  InsertValue, // dst = a, then dst[aux..aux+c) = b
  Repack,      // bitcast changing the element layout; aux = RepackInfo
  ExtractElt,  // a = vector, b = index slot, n = vector length
  InsertElt,   // a = vector, b = element, c = index slot, n = length
  Shuffle,     // a, b = vectors; aux = first mask entry in shuffleMasks
  Gep,         // a = base; aux = first GepTerm, c = term count, imm = offset
  Load,        // a = pointer; sub = IR addrspace; bits = element bytes
  Store,       // a = pointer, b = value
  AtomicRmw,   // a = pointer, b = operand; sub = RmwOp
  CmpXchg,     // a = pointer, b = expected, c = new; dst = {old, success}
  MemCpy,      // a = dst, b = src, c = length (slot)
  MemSet,      // a = dst, b = byte, c = length
  Br,          // aux = edge
  CondBr,      // a = cond; aux = edge of successor 0, aux+1 successor 1
  Switch,      // a = value; aux = first SwitchCase, c = count, b = default edge
  Ret,
  Unreachable,
  Trap,    // aux = DecodedKernel::trapMessages() index
  Sreg,    // sub = SregKind
  Barrier, // sub = BarrierReduction; with one, a = predicate, dst = result
  // Thread-block clusters (sm_90): sub = ClusterOp; a = pointer, b = rank
  // (mapa), dst = the result (mapa, getctarank)
  Cluster,
  WarpSync, // flags & kMemberMaskSlot: aux = member mask
  Shfl,     // sub = ShflMode; a = value, b = lane/delta, c = clamp slot;
            // flags & kMemberMaskSlot: aux = member mask
  Vote, // sub = VoteKind; a = predicate; flags & kMemberMaskSlot: aux = mask
  ActiveMask,
  IntFn, // sub = IntFnKind, bits = width; a, b, c
  // sub = FloatFnKind, bits = 16/32/64 (16: sub2 = 1 for bfloat16), flags =
  // kFn*; a, b, c
  FloatFn,
  // PTX arithmetic with an explicit rounding mode, .ftz or .sat (add.rp.f64,
  // fma.rz.ftz.f32, cvt.rm.f32.s64): sub = RoundedOp, sub2 = Rounding,
  // flags = kRoundFtz | kRoundSat, bits = result width (32/64); a, b, c
  RoundedFloat,
  Printf, // a = format pointer, b = argument buffer pointer
  // In-kernel malloc and free (MallocHeap.h): sub = DeviceHeapOp; malloc:
  // a = bytes, dst = pointer (0 when the heap has no room); free: a = pointer
  DeviceHeap,
  // A texture or surface instruction (TextureUnit.h): imm =
  // core::TextureInstruction::encode(); a = the object's handle, b = 4
  // coordinate words, c = 8 extra words (level, gradients, stored data);
  // dst = 4 result words (none for a surface write: dst = 0, n = 0)
  Texture,
  // A call of the CUDA device runtime (DeviceRuntime.h): sub =
  // DeviceRuntimeOp; its operands' slots in DecodedKernel::callOperands()
  // from imm on (one per letter of the function's row that is not `k`),
  // aux = DecodedKernel::deviceKernels() index of its `k` operand; dst =
  // the result
  DeviceRuntime,
};

enum class DeviceHeapOp : uint8_t { Malloc, Free };

enum class IntBinOp : uint8_t {
  Add,
  Sub,
  Mul,
  UDiv,
  SDiv,
  URem,
  SRem,
  Shl,
  LShr,
  AShr,
  And,
  Or,
  Xor
};
enum class FloatBinOp : uint8_t { Add, Sub, Mul, Div, Rem };
enum class RoundedOp : uint8_t {
  Add,
  Mul,
  Fma,
  Div,
  Sqrt,
  Rcp,
  // conversions to the result's float type from the operand's bits
  FromS32,
  FromU32,
  FromS64,
  FromU64,
  FromF64,
  // f32 to a 16-bit float (cvt.rn.f16.f32, cvt.rz.relu.satfinite.bf16.f32;
  // a pair, cvt.rn.f16x2.f32, when n = 2: element 0 from b, 1 from a)
  ToHalf,
  ToBfloat,
  // f32 to tf32 (an i32); f32 pairs (a, b: b in the low byte) or f16x2 (n
  // = 2: element 0 in the low byte) to an 8-bit float pair (an i16); such a
  // pair to f16x2 (element 0 from the low byte)
  ToTf32,
  ToE4m3,
  ToE5m2,
  FromE4m3,
  FromE5m2
};
/// __syncthreads_count/_and/_or (barrier.cta.red.{popc,and,or}): the barrier
/// also reduces each thread's predicate over the block.
enum class BarrierReduction : uint8_t { None, Popc, And, Or };
/// IEEE 754's four rounding directions, as PTX names them (.rn .rz .rm .rp).
/// NearestAway: cvt.rna (tf32 only).
enum class Rounding : uint8_t { Nearest, Zero, Down, Up, NearestAway };
/// FNeg of neg.bf16 (an arithmetic instruction, not a sign flip): a NaN is
/// the canonical one.
inline constexpr uint16_t kNegCanonicalNaN = 1;
inline constexpr uint16_t kRoundFtz = 1, kRoundSat = 2, kRoundRelu = 4,
                          kRoundSatFinite = 8;
/// FloatFn's flags: PTX's modifiers of min/max (.ftz, .NaN, .xorsign.abs)
/// and of 16-bit fma (.ftz, .sat, .relu).
inline constexpr uint16_t kFnFtz = 1, kFnNaN = 2, kFnXorSignAbs = 4, kFnSat = 8,
                          kFnRelu = 16;
enum class CastKind : uint8_t {
  Trunc,
  ZExt,
  SExt,
  FPTrunc,
  FPExt,
  FPToUI,
  FPToSI,
  UIToFP,
  SIToFP,
  PtrToInt,
  IntToPtr,
  AddrSpaceCast
};
enum class RmwOp : uint8_t {
  Xchg,
  Add,
  Sub,
  And,
  Or,
  Xor,
  Max,
  Min,
  UMax,
  UMin,
  FAdd,
  FSub,
  FMax,
  FMin,
  UIncWrap,
  UDecWrap
};
enum class SregKind : uint8_t {
  TidX,
  TidY,
  TidZ,
  NtidX,
  NtidY,
  NtidZ,
  CtaidX,
  CtaidY,
  CtaidZ,
  NctaidX,
  NctaidY,
  NctaidZ,
  LaneId,
  WarpId,
  NWarpId,
  WarpSize,
  LaneMaskEq,
  LaneMaskLt,
  LaneMaskLe,
  LaneMaskGt,
  LaneMaskGe,
  Clock,
  // %envreg1 / %envreg2: the high and low halves of the driver's grid
  // workspace address (cooperative groups' grid.sync() barrier), 0 outside
  // a cooperative launch.
  GridWorkspaceHi,
  GridWorkspaceLo,
  // Thread-block clusters: the block's place in its cluster, the cluster's
  // in the grid (a block is a cluster of one where the launch has none)
  ClusterCtaidX,
  ClusterCtaidY,
  ClusterCtaidZ,
  ClusterNctaidX,
  ClusterNctaidY,
  ClusterNctaidZ,
  ClusteridX,
  ClusteridY,
  ClusteridZ,
  NclusteridX,
  NclusteridY,
  NclusteridZ,
  ClusterCtarank,
  ClusterNctarank,
  IsExplicitCluster
};
/// Bytecode of the cluster intrinsics: barrier.cluster.arrive(.relaxed)
/// (.aligned), barrier.cluster.wait(.aligned), mapa (generic and
/// shared::cluster), getctarank (the same two).
enum class ClusterOp : uint8_t {
  Arrive,
  Wait,
  MapGeneric,
  MapShared,
  RankGeneric,
  RankShared
};
enum class ShflMode : uint8_t { Up, Down, Bfly, Idx };
/// Inst::flags bit of WarpSync, Shfl and Vote: the member mask is a runtime
/// value, in slot `aux`. A constant mask leaves the bit clear (see
/// BlockRunner::Impl::checkMemberMask for why only runtime masks are checked).
constexpr uint16_t kMemberMaskSlot = 2;
enum class VoteKind : uint8_t { Ballot, Any, All, Uni };
enum class IntFnKind : uint8_t {
  UMin,
  UMax,
  SMin,
  SMax,
  Abs,
  Ctpop,
  Ctlz,
  Cttz,
  Fshl,
  Fshr,
  Bswap,
  Bitreverse,
  MulHiS,
  MulHiU,
  Mul24S,
  Mul24U,
  // isspacep.*: whether a generic address lies in that state space's window
  // (constant memory is part of the global window here).
  IsSpaceShared,
  IsSpaceLocal,
  IsSpaceGlobal
};
enum class FloatFnKind : uint8_t {
  // unary
  Sqrt,
  Fabs,
  Exp,
  Exp2,
  Exp10,
  Log,
  Log2,
  Log10,
  Sin,
  Cos,
  Tan,
  Tanh,
  Floor,
  Ceil,
  Trunc,
  Round,
  Rint,
  Rsqrt,
  Rcp,
  Saturate,
  Erf,
  // binary
  MinNum,
  MaxNum,
  Minimum,
  Maximum,
  CopySign,
  Pow,
  Div,
  Fmod,
  Atan2,
  // ternary
  Fma
};

/// Address spaces as NVPTX numbers them.
enum IRAddrSpace : uint8_t {
  kGeneric = 0,
  kGlobalAS = 1,
  kSharedAS = 3,
  kConstAS = 4,
  kLocalAS = 5,
  // shared::cluster (sm_90): the shared memory of any block of the cluster;
  // a shared::cta address is one of its own block's
  kSharedClusterAS = 7,
  kParamAS = 101
};

struct Inst {
  Op op = Op::Nop;
  uint8_t sub = 0;
  uint8_t sub2 = 0; // second sub-opcode (atomic operation)
  uint8_t bits = 0;
  uint8_t bits2 = 0;
  uint16_t n = 1; // elements (vector length) for element-wise ops
  uint16_t flags = 0;
  uint32_t dst = 0, a = 0, b = 0, c = 0;
  uint32_t aux = 0;
  uint64_t imm = 0;
};

struct GepTerm {
  uint32_t slot; // index value
  uint8_t bits;  // its width (sign-extended from it)
  int64_t scale; // bytes per unit
};

struct Edge {
  uint32_t targetPc;           // first instruction of the target block
  uint32_t copyBegin, copyEnd; // into PhiCopy array
};

struct PhiCopy {
  uint32_t dst, src;
};

struct SwitchCase {
  uint64_t value;
  uint32_t edge;
};

struct RepackInfo {
  uint8_t srcElemBits, dstElemBits;
  uint16_t srcCount, dstCount;
};

/// A value known before any lane runs: `value` plus, when `symbol` >= 0, the
/// runtime base address of DeviceSymbol `symbol`.
struct ConstSlot {
  uint32_t slot;
  int32_t symbol;
  uint64_t value;
};

/// A module-scope variable that must live in DeviceMemory.
struct DeviceSymbol {
  std::string name;
  uint64_t bytes;
  std::vector<uint8_t> init;
};

/// Arguments land in slots: argument i occupies argSlots[i]..+argWidths[i].
struct ArgSlot {
  uint32_t slot;
  uint8_t bits; // 1..64; pointers use the pointer width
  // A struct passed by value (`byval`): the parameter is a pointer to each
  // thread's copy of the bytes, a region of the local frame. nvcc keeps such
  // a struct in the parameter bank (LDC/c[0x0]) or copies it to local memory:
  // neither counts in the shared or global metrics, and local accesses do not
  // either, so the copy lives in local memory here.
  uint64_t byvalBytes = 0; // 0: a scalar argument
  uint64_t localOffset = 0;
};

struct PrintfFormat {
  std::string text;
};

} // namespace kcheck::sim::bc

// Special registers, shuffles and votes; and the kernel arguments as a block
// starts with them (argumentRegister, fresh by-value copies per block).
// Shuffles follow the PTX ISA's shfl.sync pseudo-code: c = ((32 - width) <<
// 8) | clamp; a source lane that is out of the segment reads the lane's own
// value. Inactive source lanes give whatever their register holds (undefined
// on hardware).
//
// A member mask that leaves out the calling lane is undefined in PTX
// (shfl.sync, vote.sync, bar.warp.sync, and match/redux, lowered to shuffles
// with the same mask). Measured on the H100 (sm_90, CUDA 13.0): when the mask
// is a runtime value, ptxas emits WARPSYNC Rmask before the instruction and
// the kernel stops with cudaErrorIllegalInstruction (compute-sanitizer:
// "Illegal instruction"; synccheck: "Barrier error detected. Invalid
// arguments." for every such thread); a constant mask (0xfffffffe from all
// 32 lanes) needs no WARPSYNC and runs; lanes that exited before the call
// count as in the mask. kernels/sanitize/synccheck_member_mask.cu.
#include "simulator/engine/Cluster.h"
#include "simulator/engine/RunnerImpl.h"

#include "simulator/engine/AddressWindows.h"

#include <bit>
#include <cstdio>

#include <cstring>

namespace kcheck::sim {

using bc::Inst;

// Special register `kind` as lane `lane` of `w` reads it.
uint64_t BlockRunner::Impl::sregValue(bc::SregKind kind, const WarpState &w,
                                      unsigned lane) const {
  using S = bc::SregKind;
  const core::Dim3 &block = launch.block, &grid = launch.grid;
  uint64_t below = (1ull << lane) - 1, self = 1ull << lane;
  switch (kind) {
  case S::TidX:
    return w.tid[0][lane];
  case S::TidY:
    return w.tid[1][lane];
  case S::TidZ:
    return w.tid[2][lane];
  case S::NtidX:
    return block.x;
  case S::NtidY:
    return block.y;
  case S::NtidZ:
    return block.z;
  case S::CtaidX:
    return blockIdx.x;
  case S::CtaidY:
    return blockIdx.y;
  case S::CtaidZ:
    return blockIdx.z;
  case S::NctaidX:
    return grid.x;
  case S::NctaidY:
    return grid.y;
  case S::NctaidZ:
    return grid.z;
  case S::LaneId:
    return lane;
  case S::WarpId:
    return w.index;
  case S::NWarpId:
    return warps.size();
  case S::WarpSize:
    return kWarpSize;
  case S::LaneMaskEq:
    return self;
  case S::LaneMaskLt:
    return below;
  case S::LaneMaskLe:
    return below | self;
  case S::LaneMaskGt:
    return ~(below | self) & kFullMask;
  case S::LaneMaskGe:
    return ~below & kFullMask;
  case S::Clock:
    return steps; // deterministic stand-in
  case S::GridWorkspaceHi:
    return options.gridWorkspace >> 32;
  case S::GridWorkspaceLo:
    return options.gridWorkspace & 0xffffffffu;
  case S::ClusterCtaidX:
  case S::ClusterCtaidY:
  case S::ClusterCtaidZ:
  case S::ClusterNctaidX:
  case S::ClusterNctaidY:
  case S::ClusterNctaidZ:
  case S::ClusteridX:
  case S::ClusteridY:
  case S::ClusteridZ:
  case S::NclusteridX:
  case S::NclusteridY:
  case S::NclusteridZ:
  case S::ClusterCtarank:
  case S::ClusterNctarank:
  case S::IsExplicitCluster:
    return clusterRegister(kind, launch, blockIdx);
  }
  return 0;
}

void BlockRunner::Impl::execSreg(const Inst &in, WarpState &w, uint32_t mask) {
  uint64_t *d = w.slot(in.dst);
  for (uint32_t m = mask; m; m &= m - 1) {
    unsigned lane = std::countr_zero(m);
    uint64_t v = sregValue(bc::SregKind(in.sub), w, lane);
    d[lane] = in.bits >= 64 ? v : v & ((1ull << in.bits) - 1);
  }
  w.taint[in.dst] = 0;
}

void BlockRunner::Impl::execShfl(const Inst &in, WarpState &w, uint32_t mask) {
  const uint64_t *src = w.slot(in.a), *b = w.slot(in.b), *c = w.slot(in.c);
  uint64_t *d = w.slot(in.dst);
  uint64_t *inRange = (in.flags & 1) ? w.slot(in.dst + 1) : nullptr;
  for (uint32_t m = mask; m; m &= m - 1) {
    int lane = std::countr_zero(m);
    int bval = int(b[lane] & 0x1f), cval = int(c[lane] & 0x1f);
    int segmask = int((c[lane] >> 8) & 0x1f);
    int maxLane = (lane & segmask) | (cval & ~segmask);
    int minLane = lane & segmask;
    int j = lane;
    bool pval = false;
    switch (bc::ShflMode(in.sub)) {
    case bc::ShflMode::Up:
      j = lane - bval, pval = j >= maxLane;
      break;
    case bc::ShflMode::Down:
      j = lane + bval, pval = j <= maxLane;
      break;
    case bc::ShflMode::Bfly:
      j = lane ^ bval, pval = j <= maxLane;
      break;
    case bc::ShflMode::Idx:
      j = minLane | (bval & ~segmask), pval = j <= maxLane;
      break;
    }
    if (!pval || j < 0 || j >= int(kWarpSize))
      j = lane;
    d[lane] = src[j];
    if (inRange)
      inRange[lane] = pval;
  }
  w.taint[in.dst] = w.taint[in.a] | w.taint[in.b];
  if (inRange)
    w.taint[in.dst + 1] = w.taint[in.b];
}

bool BlockRunner::Impl::checkMemberMask(const Inst &in, uint32_t pc,
                                        const WarpState &w, uint32_t mask) {
  if (!(in.flags & bc::kMemberMaskSlot) || w.taint[in.aux])
    return true; // a mask from data kcheck did not see proves nothing
  const uint64_t *members = w.slot(in.aux);
  for (uint32_t m = mask; m; m &= m - 1) {
    unsigned lane = std::countr_zero(m);
    uint32_t member = uint32_t(members[lane]);
    if (member >> lane & 1)
      continue;
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%08x", member);
    recordFault(FaultCause::WarpMemberMask, "illegal instruction",
                std::string("Illegal instruction: the member mask ") + hex +
                    " of a warp-synchronous call leaves out the calling "
                    "thread (lane " +
                    std::to_string(lane) +
                    "); the GPU stops the kernel (an illegal instruction was "
                    "encountered)",
                pc, w, lane, member);
    return false;
  }
  return true;
}

void BlockRunner::Impl::execVote(const Inst &in, WarpState &w, uint32_t mask) {
  const uint64_t *pred = w.slot(in.a);
  uint32_t ballot = 0;
  for (uint32_t m = mask; m; m &= m - 1) {
    unsigned lane = std::countr_zero(m);
    ballot |= uint32_t(pred[lane] & 1) << lane;
  }
  uint64_t v = 0;
  switch (bc::VoteKind(in.sub)) {
  case bc::VoteKind::Ballot:
    v = ballot;
    break;
  case bc::VoteKind::Any:
    v = ballot != 0;
    break;
  case bc::VoteKind::All:
    v = ballot == mask;
    break;
  case bc::VoteKind::Uni:
    v = ballot == 0 || ballot == mask;
    break;
  }
  uint64_t *d = w.slot(in.dst);
  for (uint32_t m = mask; m; m &= m - 1)
    d[std::countr_zero(m)] = v;
  w.taint[in.dst] = w.taint[in.a];
}

uint64_t argumentRegister(const bc::ArgSlot &slot, const KernelArg *arg) {
  if (slot.byvalBytes)
    return kLocalWindowBase + slot.localOffset;
  uint64_t v = arg ? arg->bits : 0;
  return slot.bits < 64 ? v & ((1ull << slot.bits) - 1) : v;
}

// Every block starts with fresh copies: a kernel may write to its by-value
// parameters (each thread to its own copy).
void BlockRunner::Impl::copyByvalArguments(WarpState &w) {
  const auto &argSlots = kernel.argSlots();
  uint64_t frame = kernel.localFrameBytes();
  for (size_t a = 0; a < argSlots.size(); ++a) {
    const bc::ArgSlot &s = argSlots[a];
    if (!s.byvalBytes)
      continue;
    const std::vector<uint8_t> *bytes =
        a < args.size() ? &args[a].bytes : nullptr;
    size_t n = bytes ? std::min<size_t>(bytes->size(), s.byvalBytes) : 0;
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      uint8_t *dst = w.local.data() + lane * frame + s.localOffset;
      if (n)
        std::memcpy(dst, bytes->data(), n);
      std::fill(dst + n, dst + s.byvalBytes, 0);
    }
  }
}

} // namespace kcheck::sim

// Loads, stores, atomics and memory intrinsics: address resolution, fault
// checks (compute-sanitizer style), WarpAccess events and the data movement.
// Assumes shared offsets are relative to the block's shared window and local
// offsets to the lane's own frame; generic pointers are resolved by window.
#include "simulator/engine/RunnerImpl.h"

#include "simulator/engine/MallocHeap.h"

#include "core/Float16.h"

#include "simulator/engine/AddressWindows.h"
#include "simulator/engine/AluOps.h"
#include "simulator/engine/Cluster.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ostream>
#include <utility>

namespace kcheck::sim {

using alu::maskTo;
using alu::sext;
using bc::Inst;
using bc::Op;

namespace {

// One element of a load's or store's bytes, by its width: a fixed-size copy
// (a variable-length memcpy into a zeroed word stalls store forwarding).
uint64_t loadElement(const uint8_t *p, unsigned bytes) {
  switch (bytes) {
  case 1:
    return *p;
  case 2: {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return v;
  }
  case 4: {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case 8: {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  }
  default: {
    uint64_t v = 0;
    std::memcpy(&v, p, std::min(bytes, 8u));
    return v;
  }
  }
}

void storeElement(uint8_t *p, uint64_t v, unsigned bytes) {
  switch (bytes) {
  case 1:
    *p = uint8_t(v);
    return;
  case 2: {
    uint16_t x = uint16_t(v);
    std::memcpy(p, &x, 2);
    return;
  }
  case 4: {
    uint32_t x = uint32_t(v);
    std::memcpy(p, &x, 4);
    return;
  }
  default:
    std::memcpy(p, &v, std::min(bytes, 8u));
  }
}

uint64_t rmw(bc::RmwOp op, uint64_t old, uint64_t v, unsigned bits,
             bool bfloat) {
  using O = bc::RmwOp;
  auto f32 = [](uint64_t x) { return std::bit_cast<float>(uint32_t(x)); };
  auto f64 = [](uint64_t x) { return std::bit_cast<double>(x); };
  auto fl = [&](auto fn) -> uint64_t {
    if (bits == 16) { // f16 or bf16: computed in double, rounded once
      auto wide = [&](uint64_t x) {
        return double(bfloat ? floatFromBfloat16(uint16_t(x))
                             : floatFromHalf(uint16_t(x)));
      };
      double r = fn(wide(old), wide(v));
      return bfloat ? bfloat16FromDouble(r) : halfFromDouble(r);
    }
    if (bits == 32)
      return std::bit_cast<uint32_t>(float(fn(f32(old), f32(v))));
    return std::bit_cast<uint64_t>(double(fn(f64(old), f64(v))));
  };
  switch (op) {
  case O::Xchg:
    return v;
  case O::Add:
    return maskTo(old + v, bits);
  case O::Sub:
    return maskTo(old - v, bits);
  case O::And:
    return old & v;
  case O::Or:
    return old | v;
  case O::Xor:
    return old ^ v;
  case O::Max:
    return sext(old, bits) > sext(v, bits) ? old : v;
  case O::Min:
    return sext(old, bits) < sext(v, bits) ? old : v;
  case O::UMax:
    return old > v ? old : v;
  case O::UMin:
    return old < v ? old : v;
  case O::FAdd:
    return fl([](auto a, auto b) { return a + b; });
  case O::FSub:
    return fl([](auto a, auto b) { return a - b; });
  case O::FMax:
    return fl([](auto a, auto b) { return std::fmax(a, b); });
  case O::FMin:
    return fl([](auto a, auto b) { return std::fmin(a, b); });
  case O::UIncWrap:
    return old >= v ? 0 : old + 1;
  case O::UDecWrap:
    return (old == 0 || old > v) ? v : old - 1;
  }
  return v;
}

} // namespace

bool BlockRunner::Impl::resolve(unsigned as, uint64_t raw, uint32_t bytes,
                                bool isWrite, bool atomic, uint32_t pc,
                                const WarpState &w, unsigned lane,
                                MemSpace &space, uint64_t &addr,
                                bool checkAlignment) {
  switch (as) {
  case bc::kSharedAS:
  case bc::kSharedClusterAS:
    // A shared-space address is 32 bits wide: nvcc computes it in 32-bit
    // registers (`mov.u32 %r, smem; add.s32`), so `p[~i]` with an unsigned
    // `i` wraps to `p[-i - 1]` on the GPU, where 64-bit IR arithmetic would
    // land 16 GB past the window.
    space = MemSpace::Shared, addr = raw & 0xffffffffu;
    break;
  case bc::kLocalAS:
    space = MemSpace::Local, addr = raw;
    break;
  case bc::kConstAS:
    space = MemSpace::Constant, addr = raw;
    break;
  case bc::kGlobalAS:
    space = MemSpace::Global, addr = raw;
    break;
  default:
    resolveGeneric(raw, space, addr);
  }
  const char *op = atomic ? "atomic" : isWrite ? "write" : "read";
  if (checkAlignment && bytes > 1 && (bytes & (bytes - 1)) == 0 &&
      (addr & (bytes - 1)))
    return memoryFault(true, space, op, bytes, addr, pc, w, lane);
  switch (space) {
  case MemSpace::Shared: {
    // Another block's of the cluster, or this one's (Cluster.h).
    uint64_t offset = addr & kClusterOffsetMask;
    if (!sharedRankValid(addr) || bytes > sharedBytes ||
        offset > sharedBytes - bytes)
      return memoryFault(false, space, op, bytes, addr, pc, w, lane);
    return true;
  }
  case MemSpace::Local:
    if (bytes > kernel.localFrameBytes() ||
        addr > kernel.localFrameBytes() - bytes)
      return memoryFault(false, space, op, bytes, addr, pc, w, lane);
    return true;
  default:
    // Lanes mostly hit the allocation the last lane hit (allocations do not
    // change while a launch runs: host code waits for it).
    if (addr - lastAllocation.base < lastAllocation.size &&
        bytes <= lastAllocation.size - (addr - lastAllocation.base))
      return true;
    if (const auto *a = memory.find(addr, bytes)) {
      lastAllocation = {a->base, a->size};
      return true;
    }
    if (options.overruns == GlobalOverrun::CountAndGoOn && !quietFaults &&
        memory.withinHeap(addr, bytes)) {
      recordOverrun(op, bytes, addr, pc, w, lane);
      laneOverran = true;
      return true;
    }
    return memoryFault(false, space, op, bytes, addr, pc, w, lane);
  }
}

// The access must also stay inside its underlying object when the IR names
// one (an alloca, a __shared__ variable): past it is undefined behaviour even
// where the window has bytes (a neighbouring array).
uint32_t BlockRunner::Impl::objectBoundsOutside(const Inst &in, uint32_t pc,
                                                uint32_t mask,
                                                const MemSpace *spaces,
                                                const uint64_t *addrs) const {
  const ObjectRange &range = objectRanges[pc];
  if (!range.bounded)
    return 0;
  const uint32_t bytes = uint32_t(in.imm);
  // An access is inside when addr - lo <= span (one unsigned compare: an
  // address below lo wraps past span).
  const bool fits = range.hi >= range.lo && range.hi - range.lo >= bytes;
  const uint64_t span = fits ? range.hi - range.lo - bytes : 0;
  uint32_t outside = 0;
  for (uint32_t m = mask; m; m &= m - 1) {
    unsigned lane = std::countr_zero(m);
    outside |= uint32_t(!fits || addrs[lane] - range.lo > span) << lane;
  }
  if (range.generic) // a generic pointer into another space: not this object
    for (uint32_t m = outside; m; m &= m - 1)
      if (spaces[std::countr_zero(m)] != range.space)
        outside &= ~(1u << std::countr_zero(m));
  return outside;
}

bool BlockRunner::Impl::checkObjectBounds(const Inst &in, uint32_t pc,
                                          const WarpState &w, uint32_t mask,
                                          const MemSpace *spaces,
                                          const uint64_t *addrs) {
  uint32_t outside = objectBoundsOutside(in, pc, mask, spaces, addrs);
  if (!outside)
    return true;
  unsigned lane = std::countr_zero(outside);
  const char *op = in.op == Op::Store  ? "write"
                   : in.op == Op::Load ? "read"
                                       : "atomic";
  return memoryFault(false, objectRanges[pc].space, op, uint32_t(in.imm),
                     addrs[lane], pc, w, lane);
}

uint32_t BlockRunner::Impl::lanesOutsideMemory(const Inst &in, uint32_t pc,
                                               const WarpState &w,
                                               uint32_t mask) {
  const uint32_t bytes = uint32_t(in.imm);
  const bool isWrite = in.op == Op::Store;
  const bool atomic = in.op == Op::AtomicRmw || in.op == Op::CmpXchg;
  uint32_t outside = 0;
  uint64_t addrs[kWarpSize] = {};
  MemSpace spaces[kWarpSize] = {};
  quietFaults = true;
  for (uint32_t m = mask; m; m &= m - 1) {
    unsigned lane = std::countr_zero(m);
    if (!resolve(in.sub, w.slot(in.a)[lane], bytes, isWrite, atomic, pc, w,
                 lane, spaces[lane], addrs[lane]))
      outside |= 1u << lane;
  }
  quietFaults = false;
  // One pass over the warp for the object's bounds (once per lane was
  // a third of the time of kernels that branch on data kcheck did not see).
  return outside | objectBoundsOutside(in, pc, mask & ~outside, spaces, addrs);
}

bool BlockRunner::Impl::readBytes(MemSpace space, uint64_t addr, void *dst,
                                  uint64_t n, WarpState &w, unsigned lane) {
  switch (space) {
  case MemSpace::Shared:
    std::memcpy(dst, sharedAt(addr), n);
    return sharedTaintAt(addr);
  case MemSpace::Local:
    std::memcpy(dst, w.local.data() + lane * kernel.localFrameBytes() + addr,
                n);
    return w.localTainted;
  default:
    return storeBuffer ? storeBuffer->load(memory, addr, dst, n, readCursor)
                       : memory.load(addr, dst, n, readCursor);
  }
}

void BlockRunner::Impl::writeBytes(MemSpace space, uint64_t addr,
                                   const void *src, uint64_t n, bool tainted,
                                   WarpState &w, unsigned lane) {
  switch (space) {
  case MemSpace::Shared:
    std::memcpy(sharedAt(addr), src, n);
    sharedTaintAt(addr) |= tainted; // coarse: one flag for the whole block
    return;
  case MemSpace::Local:
    std::memcpy(w.local.data() + lane * kernel.localFrameBytes() + addr, src,
                n);
    w.localTainted |= tainted;
    return;
  default:
    if (storeBuffer)
      storeBuffer->store(addr, src, n, tainted);
    else
      memory.store(addr, src, n, tainted);
  }
}

bool BlockRunner::Impl::execMemory(const Inst &in, uint32_t pc, WarpState &w,
                                   uint32_t mask, EventSink &sink) {
  const uint64_t *ptr = w.slot(in.a);
  const uint32_t bytes = uint32_t(in.imm);
  const bool isWrite = in.op == Op::Store;
  const bool atomic = in.op == Op::AtomicRmw || in.op == Op::CmpXchg;
  const AccessKind kind = atomic    ? AccessKind::Atomic
                          : isWrite ? AccessKind::Store
                                    : AccessKind::Load;
  uint64_t addrs[kWarpSize] = {};
  MemSpace spaces[kWarpSize];
  uint32_t spaceMask[5] = {};
  uint32_t dropped = 0;
  if (w.taint[in.a] || w.controlTainted)
    dropped = dropLanesLeavingMemory(in, pc, w, mask);
  mask &= ~dropped;
  uint32_t overran = 0; // counted, not performed (GlobalOverrun)
  for (uint32_t m = mask; m; m &= m - 1) {
    unsigned lane = std::countr_zero(m);
    if (!resolve(in.sub, ptr[lane], bytes, isWrite, atomic, pc, w, lane,
                 spaces[lane], addrs[lane]))
      return false;
    spaceMask[unsigned(spaces[lane])] |= 1u << lane;
    if (laneOverran)
      overran |= 1u << lane, laneOverran = false;
  }
  if (!checkObjectBounds(in, pc, w, mask, spaces, addrs))
    return false;
  reportAccesses(in, pc, w, kind, mask, spaceMask, addrs, sink);

  if (in.op == Op::Load)
    loadLanes(in, w, mask, dropped | overran, overran, spaces, addrs);
  else if (in.op == Op::Store)
    storeLanes(in, w, mask & ~overran, spaces, addrs);
  else
    atomicLanes(in, w, mask, overran, spaces, addrs);
  return true;
}

// Lanes whose address, computed from (or reached through a branch on) input
// data kcheck did not see, leaves memory: noted, and left out by the caller.
uint32_t BlockRunner::Impl::dropLanesLeavingMemory(const Inst &in, uint32_t pc,
                                                   const WarpState &w,
                                                   uint32_t mask) {
  // An address computed from input data kcheck never saw (zero-filled), or
  // reached through a branch on such data, may leave memory where the
  // program's own data would not: such lanes are not performed (loads
  // give 0) and said so, instead of a fault the program may never have.
  uint32_t dropped = lanesOutsideMemory(in, pc, w, mask);
  if (dropped) {
    noteOnce(pc, kUnseenInputLanes,
             "address of the memory access at " + where(pc) +
                 (w.taint[in.a] ? " depends on" : " follows a branch on") +
                 " input data that kcheck did not see and leaves "
                 "valid memory with the zero fill: those lanes were not "
                 "performed (--run-host runs the program's own data)");
  }
  return dropped;
}

void BlockRunner::Impl::reportAccesses(const Inst &in, uint32_t pc,
                                       const WarpState &w, AccessKind kind,
                                       uint32_t mask, const uint32_t *spaceMask,
                                       const uint64_t *addrs, EventSink &sink) {
  const uint32_t bytes = uint32_t(in.imm);
  // Lanes that access a block's shared memory through a shared::cluster
  // address (mapa's: Cluster.h) are distributed shared memory traffic: the
  // GPU executes them as generic LD/ST/ATOM, which none of the shared or
  // global counters includes (measured on the H200: clusters.cu's ring,
  // 16 such LD.E, 0 shared loads). No event: not counted, not checked.
  // (Without a cluster resolve() faulted such an address already.)
  uint32_t distributed = 0;
  if (options.cluster)
    for (uint32_t m = spaceMask[unsigned(MemSpace::Shared)]; m; m &= m - 1)
      if (clusterRankField(addrs[std::countr_zero(m)]))
        distributed |= 1u << std::countr_zero(m);
  if (distributed)
    noteOnce(pc, kDistributedShared,
             "distributed shared memory (another block's of the cluster, "
             "through mapa) at " +
                 where(pc) +
                 ": executed, not counted (the GPU's generic LD/ST/ATOM to "
                 "it is in none of the shared or global counters; its "
                 "traffic is not modelled yet)");
  // One event per resolved space (generic pointers rarely mix spaces).
  for (unsigned s = 0; s < 5; ++s) {
    uint32_t lanes = spaceMask[s];
    if (s == unsigned(MemSpace::Shared))
      lanes &= ~distributed;
    if (!lanes)
      continue;
    if (lanes == mask) {
      sink.onAccess({pc, MemSpace(s), kind, bytes, mask, addrs, w.index});
    } else {
      uint64_t part[kWarpSize] = {};
      for (uint32_t m = lanes; m; m &= m - 1)
        part[std::countr_zero(m)] = addrs[std::countr_zero(m)];
      sink.onAccess({pc, MemSpace(s), kind, bytes, lanes, part, w.index});
    }
  }
}

// Lanes of `zeroed` read 0; those of `overran` are counted, not read.
void BlockRunner::Impl::loadLanes(const Inst &in, WarpState &w, uint32_t mask,
                                  uint32_t zeroed, uint32_t overran,
                                  const MemSpace *spaces,
                                  const uint64_t *addrs) {
  const uint32_t bytes = uint32_t(in.imm), elemBytes = in.bits;
  uint8_t buffer[256];
  for (uint32_t m = zeroed; m; m &= m - 1)
    for (unsigned e = 0; e < in.n; ++e)
      w.slot(in.dst + e)[std::countr_zero(m)] = 0;
  bool tainted = w.taint[in.a] || overran;
  for (uint32_t m = mask & ~overran; m; m &= m - 1) {
    unsigned lane = std::countr_zero(m);
    // Shared bytes are read in place; other spaces through the buffer.
    const uint8_t *src = buffer;
    if (spaces[lane] == MemSpace::Shared) {
      src = sharedAt(addrs[lane]);
      tainted |= sharedTaintAt(addrs[lane]);
    } else {
      tainted |= readBytes(spaces[lane], addrs[lane], buffer, bytes, w, lane);
    }
    for (unsigned e = 0; e < in.n; ++e)
      w.slot(in.dst + e)[lane] =
          maskTo(loadElement(src + e * elemBytes, elemBytes), in.bits2);
  }
  for (unsigned e = 0; e < in.n; ++e)
    w.taint[in.dst + e] = tainted;
}

void BlockRunner::Impl::storeLanes(const Inst &in, WarpState &w,
                                   uint32_t performed, const MemSpace *spaces,
                                   const uint64_t *addrs) {
  const uint32_t bytes = uint32_t(in.imm), elemBytes = in.bits;
  uint8_t buffer[256];
  bool tainted = false;
  for (unsigned e = 0; e < in.n; ++e)
    tainted |= w.taint[in.b + e];
  for (uint32_t m = performed; m; m &= m - 1) {
    unsigned lane = std::countr_zero(m);
    for (unsigned e = 0; e < in.n; ++e)
      storeElement(buffer + e * elemBytes, w.slot(in.b + e)[lane], elemBytes);
    writeBytes(spaces[lane], addrs[lane], buffer, bytes, tainted, w, lane);
  }
}

void BlockRunner::Impl::atomicLanes(const Inst &in, WarpState &w, uint32_t mask,
                                    uint32_t overran, const MemSpace *spaces,
                                    const uint64_t *addrs) {
  const uint32_t bytes = uint32_t(in.imm);
  // Atomics: lanes serialized in lane order.
  bool tainted = w.taint[in.b] || w.taint[in.c];
  bool resultTainted = tainted || overran;
  for (uint32_t m = overran; m; m &= m - 1) {
    w.slot(in.dst)[std::countr_zero(m)] = 0;
    if (in.op == Op::CmpXchg)
      w.slot(in.dst + 1)[std::countr_zero(m)] = 0;
  }
  for (uint32_t m = mask & ~overran; m; m &= m - 1) {
    unsigned lane = std::countr_zero(m);
    uint64_t old = 0;
    bool oldTainted =
        readBytes(spaces[lane], addrs[lane], &old, bytes, w, lane);
    resultTainted |= oldTainted;
    uint64_t updated;
    bool write = true;
    if (in.op == Op::AtomicRmw) {
      updated = rmw(bc::RmwOp(in.sub2), old, w.slot(in.b)[lane], in.bits2,
                    (in.flags & 2) != 0);
      w.slot(in.dst)[lane] = old;
    } else {
      bool success = old == w.slot(in.b)[lane];
      updated = w.slot(in.c)[lane];
      write = success;
      w.slot(in.dst)[lane] = old;
      w.slot(in.dst + 1)[lane] = success;
    }
    if (write)
      writeBytes(spaces[lane], addrs[lane], &updated, bytes,
                 tainted || oldTainted, w, lane);
  }
  w.taint[in.dst] = resultTainted;
  if (in.op == Op::CmpXchg)
    w.taint[in.dst + 1] = resultTainted;
}

// memcpy/memmove/memset: executed per lane, no events (the front end expands
// the small ones into loads and stores that do produce events).
bool BlockRunner::Impl::execMemIntrinsic(const Inst &in, uint32_t pc,
                                         WarpState &w, uint32_t mask) {
  std::vector<uint8_t> scratch;
  for (uint32_t m = mask; m; m &= m - 1) {
    unsigned lane = std::countr_zero(m);
    uint64_t length = w.slot(in.c)[lane];
    if (length == 0)
      continue;
    MemSpace dstSpace, srcSpace;
    uint64_t dst, src;
    // A block copy needs no alignment of its length (a 512-byte memcpy is
    // not a 512-byte access).
    if (!resolve(in.sub, w.slot(in.a)[lane], uint32_t(length), true, false, pc,
                 w, lane, dstSpace, dst, false))
      return false;
    bool dstOverran = std::exchange(laneOverran, false);
    scratch.resize(length);
    bool tainted;
    if (in.op == Op::MemSet) {
      std::memset(scratch.data(), int(w.slot(in.b)[lane] & 0xff), length);
      tainted = w.taint[in.b];
    } else {
      if (!resolve(in.sub2, w.slot(in.b)[lane], uint32_t(length), false, false,
                   pc, w, lane, srcSpace, src, false))
        return false;
      if (std::exchange(laneOverran, false)) { // bytes kcheck cannot know
        std::memset(scratch.data(), 0, length);
        tainted = true;
      } else {
        tainted = readBytes(srcSpace, src, scratch.data(), length, w, lane);
      }
    }
    if (!dstOverran)
      writeBytes(dstSpace, dst, scratch.data(), length, tainted, w, lane);
  }
  return true;
}

bool BlockRunner::Impl::execPrintf(const Inst &in, uint32_t, WarpState &w,
                                   uint32_t mask) {
  const std::string &format = kernel.printfFormats()[in.aux].text;
  for (uint32_t m = mask; m; m &= m - 1) {
    unsigned lane = std::countr_zero(m);
    w.slot(in.dst)[lane] = 0;
    if (!options.printfOut)
      continue;
    uint64_t buffer = w.slot(in.b)[lane];
    auto readGeneric = [&](uint64_t generic, void *dst, unsigned n) {
      std::memset(dst, 0, n);
      MemSpace space;
      uint64_t addr;
      bool valid = genericPlace(generic, n, space, addr);
      if (valid)
        readBytes(space, addr, dst, n, w, lane);
      return valid;
    };
    std::string text = formatDevicePrintf(
        format,
        [&](uint64_t offset, void *dst, unsigned n) {
          readGeneric(buffer + offset, dst, n);
        },
        [&](uint64_t address) {
          std::string s;
          char c;
          while (s.size() < 4096 && readGeneric(address + s.size(), &c, 1) && c)
            s += c;
          return s;
        });
    *options.printfOut << text;
  }
  w.taint[in.dst] = 0;
  return true;
}

// malloc and free, lane by lane in lane order (which block, warp and lane
// gets which address is the GPU allocator's choice).
bool BlockRunner::Impl::execDeviceHeap(const Inst &in, uint32_t, WarpState &w,
                                       uint32_t mask) {
  MallocHeap *heap = memory.existingMallocHeap();
  bool isMalloc = in.sub == uint8_t(bc::DeviceHeapOp::Malloc);
  for (uint32_t m = mask; m; m &= m - 1) {
    unsigned lane = std::countr_zero(m);
    uint64_t operand = w.slot(in.a)[lane];
    if (isMalloc) {
      std::optional<uint64_t> addr =
          heap ? heap->allocate(operand) : std::nullopt;
      w.slot(in.dst)[lane] = addr ? *addr : 0;
    } else if (operand && heap) {
      heap->release(operand);
    }
  }
  if (isMalloc)
    w.taint[in.dst] = 0;
  return true;
}

} // namespace kcheck::sim

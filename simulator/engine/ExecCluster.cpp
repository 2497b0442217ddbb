// Thread-block clusters (Cluster.h): special registers, the cluster
// barrier, mapa and getctarank, and other blocks' shared memory.
#include "simulator/engine/Cluster.h"

#include "simulator/engine/AddressWindows.h"
#include "simulator/engine/RunnerImpl.h"

#include <bit>

namespace kcheck::sim {

uint64_t clusterRegister(bc::SregKind kind, const core::LaunchConfig &launch,
                         const core::Dim3 &b) {
  using S = bc::SregKind;
  const core::Dim3 &c = launch.cluster, &g = launch.grid;
  switch (kind) {
  case S::ClusterCtaidX:
    return b.x % c.x;
  case S::ClusterCtaidY:
    return b.y % c.y;
  case S::ClusterCtaidZ:
    return b.z % c.z;
  case S::ClusterNctaidX:
    return c.x;
  case S::ClusterNctaidY:
    return c.y;
  case S::ClusterNctaidZ:
    return c.z;
  case S::ClusteridX:
    return b.x / c.x;
  case S::ClusteridY:
    return b.y / c.y;
  case S::ClusteridZ:
    return b.z / c.z;
  case S::NclusteridX:
    return g.x / c.x;
  case S::NclusteridY:
    return g.y / c.y;
  case S::NclusteridZ:
    return g.z / c.z;
  case S::ClusterCtarank:
    return clusterRank(launch, b);
  case S::ClusterNctarank:
    return c.count();
  case S::IsExplicitCluster:
    return launch.explicitCluster;
  default:
    return 0;
  }
}

unsigned clusterRank(const core::LaunchConfig &launch, const core::Dim3 &b) {
  const core::Dim3 &c = launch.cluster;
  return unsigned(b.x % c.x + c.x * (b.y % c.y + uint64_t(c.y) * (b.z % c.z)));
}

uint8_t *BlockRunner::Impl::sharedAt(uint64_t addr) {
  unsigned rank = unsigned(addr >> kClusterRankShift);
  if (!rank)
    return shared.data() + addr;
  Impl &owner = *options.cluster->byRank[rank - 1]->impl_;
  return owner.shared.data() + (addr & kClusterOffsetMask);
}

bool &BlockRunner::Impl::sharedTaintAt(uint64_t addr) {
  unsigned rank = unsigned(addr >> kClusterRankShift);
  if (!rank)
    return sharedTainted;
  return options.cluster->byRank[rank - 1]->impl_->sharedTainted;
}

bool BlockRunner::Impl::sharedRankValid(uint64_t addr) const {
  unsigned rank = unsigned(addr >> kClusterRankShift);
  return !rank || (options.cluster && rank <= options.cluster->byRank.size());
}

bool BlockRunner::Impl::clusterArrived(const WarpState &w,
                                       uint32_t mask) const {
  uint32_t phase = 0; // the latest arrival of the waiting lanes
  for (uint32_t m = mask; m; m &= m - 1)
    phase = std::max(phase, w.clusterArrivals[std::countr_zero(m)]);
  auto arrived = [&](const Impl &block) {
    if (!block.blockStarted)
      return false;
    for (const auto &other : block.warps)
      for (uint32_t m = other->live; m; m &= m - 1)
        if (other->clusterArrivals[std::countr_zero(m)] < phase)
          return false;
    return true;
  };
  if (!options.cluster)
    return arrived(*this);
  for (const BlockRunner *member : options.cluster->byRank)
    if (!arrived(*member->impl_))
      return false;
  return true;
}

void BlockRunner::Impl::execCluster(const bc::Inst &in, WarpState &w,
                                    uint32_t mask) {
  using C = bc::ClusterOp;
  const unsigned own = clusterRank(launch, blockIdx);
  const unsigned size = unsigned(launch.cluster.count());
  uint64_t *d = in.dst ? w.slot(in.dst) : nullptr;
  const uint64_t *p = w.slot(in.a), *r = w.slot(in.b);
  switch (C(in.sub)) {
  case C::Arrive:
    for (uint32_t m = mask; m; m &= m - 1)
      ++w.clusterArrivals[std::countr_zero(m)];
    // Other blocks waiting at the barrier may go on: a change they see, as
    // a store is (the drivers' progress).
    ++memoryWrites;
    return;
  case C::Wait: // runStraightLine waits until clusterArrived()
    return;
  case C::MapGeneric:
  case C::MapShared:
    for (uint32_t m = mask; m; m &= m - 1) {
      unsigned lane = std::countr_zero(m);
      bool generic = C(in.sub) == C::MapGeneric;
      // Outside shared memory the PTX ISA leaves mapa undefined and the GPU
      // does not fault: the address is given back unchanged.
      if (generic && !inSharedWindow(p[lane])) {
        d[lane] = p[lane];
        continue;
      }
      uint64_t offset = (generic ? p[lane] - kSharedWindowBase : p[lane]) &
                        kClusterOffsetMask;
      uint64_t rank = r[lane] & 0xffffffffu;
      // A rank past the cluster gives an address that faults when used.
      uint64_t mapped = clusterSharedAddress(
          unsigned(rank < size ? rank : kNoClusterRank), offset);
      d[lane] = generic ? kSharedWindowBase + mapped : mapped;
    }
    w.taint[in.dst] = w.taint[in.a] | w.taint[in.b];
    return;
  case C::RankGeneric:
  case C::RankShared:
    for (uint32_t m = mask; m; m &= m - 1) {
      unsigned lane = std::countr_zero(m);
      bool generic = C(in.sub) == C::RankGeneric;
      // Outside shared memory (undefined in the PTX ISA): this block's rank.
      if (generic && !inSharedWindow(p[lane])) {
        d[lane] = own;
        continue;
      }
      uint64_t a = generic ? p[lane] - kSharedWindowBase : p[lane];
      unsigned encoded = unsigned((a & 0xffffffffu) >> kClusterRankShift);
      d[lane] = encoded ? encoded - 1 : own;
    }
    w.taint[in.dst] = w.taint[in.a];
    return;
  }
}

} // namespace kcheck::sim

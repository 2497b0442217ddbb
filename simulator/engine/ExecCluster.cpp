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
  unsigned rank = clusterRankField(addr);
  if (!rank)
    return shared.data() + addr;
  Impl &owner = *options.cluster->byRank[rank - 1]->impl_;
  return owner.shared.data() + (addr & kClusterOffsetMask);
}

bool &BlockRunner::Impl::sharedTaintAt(uint64_t addr) {
  unsigned rank = clusterRankField(addr);
  if (!rank)
    return sharedTainted;
  return options.cluster->byRank[rank - 1]->impl_->sharedTainted;
}

bool BlockRunner::Impl::sharedRankValid(uint64_t addr) const {
  unsigned rank = clusterRankField(addr);
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
  case C::RankGeneric:
  case C::RankShared:
    break;
  }
  const bool map = C(in.sub) == C::MapGeneric || C(in.sub) == C::MapShared;
  const bool generic =
      C(in.sub) == C::MapGeneric || C(in.sub) == C::RankGeneric;
  for (uint32_t m = mask; m; m &= m - 1) {
    unsigned lane = std::countr_zero(m);
    uint64_t shared = p[lane];
    if (generic) {
      // Outside shared memory the PTX ISA leaves both undefined and the GPU
      // does not fault: mapa gives the address back, getctarank this
      // block's rank.
      if (!inSharedWindow(shared)) {
        d[lane] = map ? shared : own;
        continue;
      }
      shared -= kSharedWindowBase;
    }
    if (!map) {
      unsigned field = clusterRankField(shared);
      d[lane] = field ? field - 1 : own;
      continue;
    }
    // A rank past the cluster gives an address that faults when used.
    uint64_t rank = r[lane] & 0xffffffffu;
    uint64_t mapped = clusterSharedAddress(
        unsigned(rank < size ? rank : kNoClusterRank), shared);
    d[lane] = generic ? kSharedWindowBase + mapped : mapped;
  }
  w.taint[in.dst] = w.taint[in.a] | (map ? w.taint[in.b] : 0);
}

} // namespace kcheck::sim

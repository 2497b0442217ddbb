// accumulate (BlockClasses.h): one block's or one class's counts added to a
// launch's, as often as the blocks they stand for.
#include "simulator/BlockClasses.h"

#include <algorithm>

namespace kcheck::sim {

namespace {

/// Launch order (x fastest): the first among equal worst warps is kept.
bool before(const core::Dim3 &a, const core::Dim3 &b) {
  if (a.z != b.z)
    return a.z < b.z;
  if (a.y != b.y)
    return a.y < b.y;
  return a.x < b.x;
}

} // namespace

void accumulate(LaunchResult &into, const LaunchResult &part, uint64_t times) {
  for (unsigned m = 0; m < core::kMetricCount; ++m)
    into.total.v[m] += part.total.v[m] * times;
  if (into.perInst.size() < part.perInst.size())
    into.perInst.resize(part.perInst.size());
  for (size_t i = 0; i < part.perInst.size(); ++i) {
    const SharedAccessStats &ps = part.perInst[i].shared;
    SharedAccessStats &s = into.perInst[i].shared;
    s.executions += ps.executions * times;
    s.wavefronts += ps.wavefronts * times;
    s.ideal += ps.ideal * times;
    s.activeLanes += ps.activeLanes * times;
    s.conflictedExecutions += ps.conflictedExecutions * times;
    if (ps.minConflictDegree &&
        (!s.minConflictDegree || ps.minConflictDegree < s.minConflictDegree))
      s.minConflictDegree = ps.minConflictDegree;
    s.maxDegree = std::max(s.maxDegree, ps.maxDegree);
    const WorstWarp &pw = ps.worst;
    if (pw.wavefronts > s.worst.wavefronts ||
        (pw.wavefronts > 0 && pw.wavefronts == s.worst.wavefronts &&
         (pw.ideal < s.worst.ideal ||
          (pw.ideal == s.worst.ideal && before(pw.block, s.worst.block)))))
      s.worst = pw;
    if (!ps.degreeByExecution.empty() && s.degreeByExecution.empty())
      s.degreeByExecution = ps.degreeByExecution;

    // Branch and barrier statistics (checks/DivergentBranch): counts scale with
    // the class; per-execution detail and the first divergent barrier come from
    // the first block that has them, as a block-by-block run would keep.
    const BranchStats &pb = part.perInst[i].branch;
    BranchStats &b = into.perInst[i].branch;
    b.executions += pb.executions * times;
    b.divergentExecutions += pb.divergentExecutions * times;
    b.activeLanes += pb.activeLanes * times;
    b.takenLanes += pb.takenLanes * times;
    if (!pb.divergentWarpsByExecution.empty() &&
        b.divergentWarpsByExecution.empty())
      b.divergentWarpsByExecution = pb.divergentWarpsByExecution;
    const BarrierStats &pa = part.perInst[i].barrier;
    BarrierStats &a = into.perInst[i].barrier;
    a.arrivals += pa.arrivals * times;
    a.divergentArrivals += pa.divergentArrivals * times;
    if (pa.firstDivergent.missingMask && !a.firstDivergent.missingMask)
      a.firstDivergent = pa.firstDivergent;

    const GlobalAccessStats &pg = part.perInst[i].global;
    GlobalAccessStats &g = into.perInst[i].global;
    g.executions += pg.executions * times;
    g.requests += pg.requests * times;
    g.sectors += pg.sectors * times;
    g.activeLanes += pg.activeLanes * times;
    g.ideal += pg.ideal * times;
    g.usedBytes += pg.usedBytes * times;
    g.excessExecutions += pg.excessExecutions * times;
    g.broadcastExecutions += pg.broadcastExecutions * times;
    const GlobalWarp &gw = pg.worst;
    if (gw.recorded) {
      uint32_t excess = gw.sectors - gw.ideal;
      uint32_t current = g.worst.sectors - g.worst.ideal;
      if (!g.worst.recorded || excess > current ||
          (excess == current && before(gw.block, g.worst.block)))
        g.worst = gw;
    }
  }
}

} // namespace kcheck::sim

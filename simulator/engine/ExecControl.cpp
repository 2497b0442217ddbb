// Control flow of the SIMT executor: branches, switches and returns move a
// warp's lanes along its reconvergence stack, with the target blocks' phis
// copied per edge.
#include "simulator/engine/RunnerImpl.h"

#include <algorithm>
#include <cstring>

namespace kcheck::sim {

using bc::Inst;
using bc::Op;

void BlockRunner::Impl::settle(WarpState &w) {
  while (!w.stack.empty()) {
    const WarpState::Entry &top = w.stack.back();
    if ((top.mask & w.live) != 0 && top.pc != top.reconvPc)
      return;
    w.stack.pop_back();
  }
}

// A path of other lanes is an entry whose lanes are disjoint from the top's
// (an entry holding them is the top's ancestor, waiting for it): a sibling
// not yet run, or the rest of an outer branch. Such an entry has no entries
// above it of its own, so it can run from the top of the stack. An
// ancestor's lanes that wait to reconverge at a return (an early `return`,
// whose block is the kernel's exit) have nothing left to run: on the GPU
// they have exited, and they leave the warp here.
bool BlockRunner::Impl::runOtherPathFirst(WarpState &w) {
  const std::vector<Inst> &code = kernel.code();
  const uint32_t topMask = w.stack.back().mask;
  uint32_t above = topMask; // the lanes of the entries above entry i
  for (size_t i = w.stack.size() - 1; i-- > 0;) {
    const WarpState::Entry e = w.stack[i];
    const bool inCode = e.pc < code.size();
    if ((e.mask & topMask) == 0) {
      if ((e.mask & w.live) != 0 && inCode && e.pc != e.reconvPc &&
          code[e.pc].op != Op::Barrier) {
        w.stack.erase(w.stack.begin() + std::ptrdiff_t(i));
        w.stack.push_back(e);
        return true;
      }
    } else if (inCode && code[e.pc].op == Op::Ret) {
      w.live &= ~(e.mask & ~above);
    }
    above |= e.mask;
  }
  return false;
}

uint32_t BlockRunner::Impl::arriveWithPathsAt(WarpState &w, uint32_t pc) {
  const uint32_t topMask = w.stack.back().mask;
  uint32_t lanes = 0;
  for (size_t i = 0; i + 1 < w.stack.size(); ++i) {
    WarpState::Entry &e = w.stack[i];
    if (e.pc == pc && (e.mask & topMask) == 0) {
      lanes |= e.mask & w.live;
      e.pc = pc + 1;
    }
  }
  return lanes;
}

// Phis of the edge's target, as a parallel copy for the transferring lanes.
void BlockRunner::Impl::copyPhis(WarpState &w, uint32_t edgeIndex,
                                 uint32_t mask) {
  const bc::Edge &edge = kernel.edges()[edgeIndex];
  const bc::PhiCopy *copies = kernel.phiCopies().data();
  unsigned count = edge.copyEnd - edge.copyBegin;
  if (count == 0)
    return;
  for (unsigned i = 0; i < count; ++i) {
    const bc::PhiCopy &c = copies[edge.copyBegin + i];
    std::memcpy(&phiTemp[size_t(i) * kWarpSize], w.slot(c.src),
                kWarpSize * sizeof(uint64_t));
    phiTaintTemp[i] = w.taint[c.src];
  }
  for (unsigned i = 0; i < count; ++i) {
    const bc::PhiCopy &c = copies[edge.copyBegin + i];
    uint64_t *dst = w.slot(c.dst);
    const uint64_t *src = &phiTemp[size_t(i) * kWarpSize];
    if (mask == kFullMask) {
      std::memcpy(dst, src, kWarpSize * sizeof(uint64_t));
      w.taint[c.dst] = phiTaintTemp[i];
    } else {
      for (uint32_t m = mask; m; m &= m - 1) {
        unsigned lane = __builtin_ctz(m);
        dst[lane] = src[lane];
      }
      w.taint[c.dst] |= phiTaintTemp[i];
    }
  }
}

// groups: (edge, lanes) in successor order; at least two are non-empty.
void BlockRunner::Impl::diverge(WarpState &w, uint32_t pc,
                                const std::pair<uint32_t, uint32_t> *groups,
                                unsigned count) {
  uint32_t reconv = kernel.reconvergencePc(pc);
  for (unsigned g = 0; g < count; ++g)
    if (groups[g].second)
      copyPhis(w, groups[g].first, groups[g].second);
  w.stack.back().pc = reconv; // the whole group waits at the ipdom
  // Later successors first, so successor 0's lanes run first.
  for (unsigned g = count; g-- > 0;) {
    uint32_t target = kernel.edges()[groups[g].first].targetPc;
    if (groups[g].second && target != reconv)
      w.stack.push_back({target, reconv, groups[g].second});
  }
}

// Ret, Br, CondBr, Switch: sets the lanes' next pc on the stack.
void BlockRunner::Impl::transferControl(const Inst &in, uint32_t pc,
                                        WarpState &w, WarpState::Entry &top,
                                        uint32_t mask, EventSink &sink) {
  if (in.op == Op::Ret) {
    w.live &= ~mask;
    top.pc = DecodedKernel::kExitPc;
  } else if (in.op == Op::Br) {
    copyPhis(w, in.aux, mask);
    top.pc = kernel.edges()[in.aux].targetPc;
  } else if (in.op == Op::CondBr) {
    branchOnCondition(in, pc, w, top, mask, sink);
  } else { // Op::Switch
    branchOnSwitch(in, pc, w, top, mask, sink);
  }
}

void BlockRunner::Impl::branchOnCondition(const Inst &in, uint32_t pc,
                                          WarpState &w, WarpState::Entry &top,
                                          uint32_t mask, EventSink &sink) {
  const uint64_t *cond = w.slot(in.a);
  uint32_t taken = 0;
  for (unsigned lane = 0; lane < kWarpSize; ++lane)
    taken |= uint32_t(cond[lane] & 1) << lane;
  taken &= mask;
  sink.onBranch({pc, mask, taken, w.index});
  noteUnseenInputBranch(in, pc, w);
  if (taken == mask || taken == 0) {
    uint32_t edge = in.aux + (taken ? 0 : 1);
    copyPhis(w, edge, mask);
    top.pc = kernel.edges()[edge].targetPc;
  } else {
    std::pair<uint32_t, uint32_t> groups[2] = {{in.aux, taken},
                                               {in.aux + 1, mask & ~taken}};
    diverge(w, pc, groups, 2);
  }
}

void BlockRunner::Impl::branchOnSwitch(const Inst &in, uint32_t pc,
                                       WarpState &w, WarpState::Entry &top,
                                       uint32_t mask, EventSink &sink) {
  // Groups by edge; edges are numbered in successor order (default
  // first), so sorting by edge keeps successor 0 first.
  std::pair<uint32_t, uint32_t> groups[kWarpSize];
  unsigned count = 0;
  const uint64_t *value = w.slot(in.a);
  const bc::SwitchCase *cases = kernel.switchCases().data() + in.aux;
  for (uint32_t m = mask; m; m &= m - 1) {
    unsigned lane = __builtin_ctz(m);
    uint32_t edge = in.b;
    for (uint32_t i = 0; i < in.c; ++i)
      if (cases[i].value == value[lane]) {
        edge = cases[i].edge;
        break;
      }
    unsigned g = 0;
    while (g < count && groups[g].first != edge)
      ++g;
    if (g == count)
      groups[count++] = {edge, 0};
    groups[g].second |= 1u << lane;
  }
  std::sort(groups, groups + count);
  uint32_t toDefault = groups[0].first == in.b ? groups[0].second : 0;
  sink.onBranch({pc, mask, toDefault, w.index});
  noteUnseenInputBranch(in, pc, w);
  if (count == 1) {
    copyPhis(w, groups[0].first, mask);
    top.pc = kernel.edges()[groups[0].first].targetPc;
  } else {
    diverge(w, pc, groups, count);
  }
}

void BlockRunner::Impl::noteUnseenInputBranch(const Inst &in, uint32_t pc,
                                              WarpState &w) {
  w.controlTainted |= w.taint[in.a] != 0;
  if (w.taint[in.a])
    noteOnce(pc, kUnseenInputBranch,
             "branch at " + where(pc) +
                 " depends on input data that kcheck did not see "
                 "(deterministic zero fill assumed)");
}

} // namespace kcheck::sim

#include "analyzer/pipeline/IrPipelineSwitch.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

#include <algorithm>
#include <vector>

namespace kcheck::analyzer {

using namespace llvm;

namespace {

// Consecutive case values going to one block.
struct Cluster {
  APInt low, high;
  BasicBlock *dest;
};

bool isUnreachableBlock(const BasicBlock *block) {
  return isa<UnreachableInst>(block->getFirstNonPHIOrDbg());
}

class SwitchLowering {
public:
  SwitchLowering(SwitchInst &switchInst, BasicBlock *defaultDest)
      : switch_(switchInst), condition_(switchInst.getCondition()),
        function_(*switchInst.getFunction()), default_(defaultDest) {}

  // Replaces the switch with the compare tree over `clusters`.
  void lower(const std::vector<Cluster> &clusters) {
    BasicBlock *head = switch_.getParent();
    // The switch's destinations, each once.
    SmallSetVector<BasicBlock *, 16> dests(succ_begin(head), succ_end(head));
    IRBuilder<> builder(&switch_);
    if (clusters.empty()) {
      builder.CreateBr(default_)->setDebugLoc(switch_.getDebugLoc());
      edges_.push_back({head, default_});
    } else {
      // The default's lanes leave first: ptxas's BREAK takes them out of the
      // regions where the cases' lanes reconverge (the compares' BSSY/BSYNC),
      // so that they wait for the others only where the switch ends.
      BasicBlock *entry = build(clusters, 0, clusters.size());
      Value *isCase = nullptr;
      for (const Cluster &cluster : clusters) {
        Value *in = inCluster(builder, cluster);
        isCase = isCase ? builder.CreateOr(isCase, in) : in;
      }
      branch(builder, isCase, entry, default_);
    }
    switch_.eraseFromParent();
    // Phis: the switch's block no longer branches to them; the tree's blocks
    // do, with the value the switch's edges carried.
    for (BasicBlock *dest : dests)
      for (PHINode &phi : dest->phis()) {
        Value *value = phi.getIncomingValueForBlock(head);
        while (phi.getBasicBlockIndex(head) >= 0)
          phi.removeIncomingValue(head, /*DeletePHIIfEmpty=*/false);
        for (auto &[block, target] : edges_)
          if (target == dest)
            phi.addIncoming(value, block);
      }
  }

private:
  BasicBlock *newBlock() {
    return BasicBlock::Create(function_.getContext(), "switch.cmp", &function_,
                              switch_.getParent()->getNextNode());
  }

  Value *inCluster(IRBuilder<> &builder, const Cluster &cluster) {
    if (cluster.low == cluster.high)
      return builder.CreateICmpEQ(condition_, builder.getInt(cluster.low));
    Value *offset = builder.CreateSub(condition_, builder.getInt(cluster.low));
    return builder.CreateICmpULE(offset,
                                 builder.getInt(cluster.high - cluster.low));
  }

  void branch(IRBuilder<> &builder, Value *condition, BasicBlock *ifTrue,
              BasicBlock *ifFalse) {
    builder.CreateCondBr(condition, ifTrue, ifFalse)
        ->setDebugLoc(switch_.getDebugLoc());
    edges_.push_back({builder.GetInsertBlock(), ifTrue});
    edges_.push_back({builder.GetInsertBlock(), ifFalse});
  }

  // The block that tests clusters[begin, end), whose lanes all have one of
  // their values: the last cluster of a group of compares takes what is left.
  BasicBlock *build(const std::vector<Cluster> &clusters, size_t begin,
                    size_t end) {
    size_t n = end - begin;
    if (n == 1)
      return clusters[begin].dest;
    if (n <= 3) {
      // One compare after the other, in case-value order.
      std::vector<BasicBlock *> tests;
      for (size_t k = begin; k + 1 < end; ++k)
        tests.push_back(newBlock());
      for (size_t k = 0; k + 1 < n; ++k) {
        IRBuilder<> builder(tests[k]);
        const Cluster &cluster = clusters[begin + k];
        branch(builder, inCluster(builder, cluster), cluster.dest,
               k + 2 < n ? tests[k + 1] : clusters[end - 1].dest);
      }
      return tests.front();
    }
    // Binary search: the first half of the clusters on the left.
    size_t middle = begin + n / 2;
    BasicBlock *test = newBlock();
    BasicBlock *left = build(clusters, begin, middle);
    BasicBlock *right = build(clusters, middle, end);
    IRBuilder<> builder(test);
    branch(
        builder,
        builder.CreateICmpSLT(condition_, builder.getInt(clusters[middle].low)),
        left, right);
    return test;
  }

  SwitchInst &switch_;
  Value *condition_;
  Function &function_;
  BasicBlock *default_;
  std::vector<std::pair<BasicBlock *, BasicBlock *>> edges_;
};

// The clusters of `switchInst` without the cases that go to `defaultDest`,
// sorted by signed value.
std::vector<Cluster> clustersOf(SwitchInst &switchInst,
                                const BasicBlock *defaultDest) {
  std::vector<std::pair<APInt, BasicBlock *>> cases;
  for (const auto &c : switchInst.cases())
    if (c.getCaseSuccessor() != defaultDest)
      cases.push_back({c.getCaseValue()->getValue(), c.getCaseSuccessor()});
  std::sort(cases.begin(), cases.end(),
            [](const auto &a, const auto &b) { return a.first.slt(b.first); });
  std::vector<Cluster> clusters;
  for (auto &[value, dest] : cases) {
    if (!clusters.empty() && clusters.back().dest == dest &&
        clusters.back().high + 1 == value) {
      clusters.back().high = value;
      continue;
    }
    clusters.push_back({value, value, dest});
  }
  return clusters;
}

// The case destination that every other destination of `switchInst` reaches:
// where the switch's paths meet (the statement after it, for a switch that
// Clang gave an unreachable default); null when there is none.
BasicBlock *joinOf(SwitchInst &switchInst) {
  SmallPtrSet<BasicBlock *, 16> dests;
  for (const auto &c : switchInst.cases())
    dests.insert(c.getCaseSuccessor());
  auto reaches = [](BasicBlock *from, BasicBlock *to) {
    SmallPtrSet<BasicBlock *, 32> seen{from};
    SmallVector<BasicBlock *, 32> work{from};
    while (!work.empty()) {
      BasicBlock *block = work.pop_back_val();
      if (block == to)
        return true;
      for (BasicBlock *next : successors(block))
        if (seen.insert(next).second)
          work.push_back(next);
    }
    return false;
  };
  for (BasicBlock *candidate : dests)
    if (all_of(dests, [&](BasicBlock *other) {
          return other == candidate || reaches(other, candidate);
        }))
      return candidate;
  return nullptr;
}

} // namespace

PreservedAnalyses LowerSwitchesLikeNvptx::run(Function &function,
                                              FunctionAnalysisManager &) {
  std::vector<SwitchInst *> switches;
  for (BasicBlock &block : function)
    if (auto *s = dyn_cast<SwitchInst>(block.getTerminator()))
      switches.push_back(s);
  if (switches.empty())
    return PreservedAnalyses::all();
  // Where each switch's paths meet, before any switch is rewritten.
  std::vector<BasicBlock *> joins;
  for (SwitchInst *s : switches)
    joins.push_back(joinOf(*s));
  for (size_t k = 0; k < switches.size(); ++k) {
    SwitchInst &s = *switches[k];
    BasicBlock *defaultDest = s.getDefaultDest();
    if (isUnreachableBlock(defaultDest) && joins[k])
      defaultDest = joins[k];
    SwitchLowering(s, defaultDest).lower(clustersOf(s, defaultDest));
  }
  return PreservedAnalyses::none();
}

} // namespace kcheck::analyzer

#include "analyzer/facts/BranchUniformity.h"

#include "analyzer/pipeline/IrPipeline.h"

#include "core/SourcePath.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/UniformityAnalysis.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <algorithm>
#include <map>

namespace kcheck::analyzer {

using namespace llvm;

const char *toString(BranchUniformity u) {
  switch (u) {
  case BranchUniformity::Uniform:
    return "uniform";
  case BranchUniformity::WarpUniform:
    return "warp-uniform";
  case BranchUniformity::ThreadDependent:
    return "thread-dependent";
  }
  return "?";
}

namespace {

StringRef sregName(const Value *v) {
  const auto *call = dyn_cast<CallInst>(v);
  const Function *callee = call ? call->getCalledFunction() : nullptr;
  if (!callee || !callee->getName().starts_with("llvm.nvvm.read.ptx.sreg."))
    return {};
  return callee->getName().drop_front(strlen("llvm.nvvm.read.ptx.sreg."));
}

bool isBlockUniformSreg(StringRef name) {
  return name.starts_with("ctaid.") || name.starts_with("ntid.") ||
         name.starts_with("nctaid.") || name == "warpsize";
}

/// Replaces every blockIdx/blockDim/gridDim read with a load of an
/// addrspace(4) global, which UniformityInfo treats as uniform.
void makeBlockSregsUniform(Module &module) {
  std::vector<CallInst *> calls;
  for (Function &f : module)
    for (Instruction &i : instructions(f))
      if (isBlockUniformSreg(sregName(&i)))
        calls.push_back(cast<CallInst>(&i));
  std::map<std::string, GlobalVariable *> globals;
  for (CallInst *call : calls) {
    std::string name = ("kcheck.sreg." + sregName(call)).str();
    GlobalVariable *&g = globals[name];
    if (!g)
      g = new GlobalVariable(module, call->getType(), /*isConstant=*/true,
                             GlobalValue::ExternalLinkage, nullptr, name,
                             nullptr, GlobalValue::NotThreadLocal, 4);
    auto *load = new LoadInst(call->getType(), g, name, call->getIterator());
    load->setDebugLoc(call->getDebugLoc());
    call->replaceAllUsesWith(load);
    call->eraseFromParent();
  }
}

std::unique_ptr<TargetMachine> nvptxTargetMachine(const Function &f) {
  initializeNvptxTarget();
  Triple triple = f.getParent()->getTargetTriple();
  if (triple.getArch() != Triple::nvptx && triple.getArch() != Triple::nvptx64)
    triple = Triple("nvptx64-nvidia-cuda");
  std::string error;
  const Target *target = TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  std::string cpu = f.getFnAttribute("target-cpu").getValueAsString().str();
  return std::unique_ptr<TargetMachine>(target->createTargetMachine(
      triple, cpu.empty() ? "sm_90" : cpu, "+ptx88", TargetOptions(),
      std::nullopt, std::nullopt, CodeGenOptLevel::Aggressive));
}

/// Names in order of first insertion, each once.
struct Names {
  std::vector<std::string> names;
  void insert(const std::string &n) {
    if (std::find(names.begin(), names.end(), n) == names.end())
      names.push_back(n);
  }
  size_t size() const { return names.size(); }
};

/// What makes values thread-dependent, traced back through the data flow.
class SourceTracer {
public:
  explicit SourceTracer(UniformityInfo &ui) : ui_(ui) {}

  std::vector<std::string> sourcesOf(const Value *v) {
    Names out;
    SmallPtrSet<const Value *, 32> seen;
    collect(v, out, seen);
    return out.names;
  }

  /// Divergent only through threadIdx.x at warp granularity (see header).
  bool isWarpUniform(const Value *v) {
    SmallPtrSet<const Value *, 32> visiting;
    return warpUniform(v, visiting);
  }

private:
  static bool isThreadIdxX(const Value *v) {
    while (isa<ZExtInst, SExtInst, TruncInst>(v))
      v = cast<Instruction>(v)->getOperand(0);
    return sregName(v) == "tid.x";
  }

  /// `tid.x / 32k`, `tid.x >> (5+k)`, `tid.x & ~31`-style: equal across the
  /// 32 consecutive threads of a warp.
  static bool isWarpGranular(const BinaryOperator &op) {
    const auto *c = dyn_cast<ConstantInt>(op.getOperand(1));
    if (!c || !isThreadIdxX(op.getOperand(0)))
      return false;
    uint64_t k = c->getZExtValue();
    switch (op.getOpcode()) {
    case Instruction::LShr:
    case Instruction::AShr:
      return k >= 5;
    case Instruction::UDiv:
    case Instruction::SDiv:
      return k != 0 && k % 32 == 0;
    case Instruction::And:
      return (k & 31) == 0;
    default:
      return false;
    }
  }

  /// `tid.x > 95` (what -O3 makes of `tid.x / 32 > 2`) and the like: the
  /// bound falls on a warp boundary, so all 32 threads of a warp agree.
  static bool isWarpGranularCompare(const ICmpInst &cmp) {
    const Value *lhs = cmp.getOperand(0), *rhs = cmp.getOperand(1);
    CmpInst::Predicate pred = cmp.getPredicate();
    if (isa<ConstantInt>(lhs)) {
      std::swap(lhs, rhs);
      pred = CmpInst::getSwappedPredicate(pred);
    }
    const auto *c = dyn_cast<ConstantInt>(rhs);
    if (!c || !isThreadIdxX(lhs))
      return false;
    uint64_t k = c->getZExtValue();
    switch (pred) {
    case CmpInst::ICMP_ULT:
    case CmpInst::ICMP_UGE:
    case CmpInst::ICMP_SLT:
    case CmpInst::ICMP_SGE:
      return k % 32 == 0;
    case CmpInst::ICMP_UGT:
    case CmpInst::ICMP_ULE:
    case CmpInst::ICMP_SGT:
    case CmpInst::ICMP_SLE:
      return (k + 1) % 32 == 0;
    default:
      return false;
    }
  }

  bool warpUniform(const Value *v, SmallPtrSet<const Value *, 32> &visiting) {
    if (!ui_.isDivergent(v))
      return true;
    const auto *inst = dyn_cast<Instruction>(v);
    if (!inst || isa<PHINode, LoadInst, CallBase, AtomicRMWInst,
                     AtomicCmpXchgInst, AllocaInst>(inst))
      return false; // phis may be divergent through control flow
    if (const auto *op = dyn_cast<BinaryOperator>(inst);
        op && isWarpGranular(*op))
      return true;
    if (const auto *cmp = dyn_cast<ICmpInst>(inst);
        cmp && isWarpGranularCompare(*cmp))
      return true;
    if (!visiting.insert(v).second)
      return false;
    for (const Use &u : inst->operands())
      if (!warpUniform(u.get(), visiting))
        return false;
    return true;
  }

  void collect(const Value *v, Names &out,
               SmallPtrSet<const Value *, 32> &seen) {
    if (!seen.insert(v).second || !ui_.isDivergent(v))
      return;
    StringRef sreg = sregName(v);
    if (!sreg.empty()) {
      if (sreg.starts_with("tid."))
        out.insert(("threadIdx." + sreg.drop_front(4)).str());
      else if (sreg == "laneid")
        out.insert("the lane id");
      else
        out.insert(("%" + sreg).str());
      return;
    }
    const auto *inst = dyn_cast<Instruction>(v);
    if (!inst)
      return;
    if (const auto *load = dyn_cast<LoadInst>(inst)) {
      const Value *object = getUnderlyingObject(load->getPointerOperand());
      std::string name = object->hasName() ? object->getName().str() : "";
      out.insert("data loaded per thread" +
                 (name.empty() || name.find('.') != std::string::npos
                      ? std::string()
                      : " from '" + name + "'"));
      return;
    }
    if (isa<AtomicRMWInst, AtomicCmpXchgInst>(inst)) {
      out.insert("the result of an atomic");
      return;
    }
    if (const auto *call = dyn_cast<CallBase>(inst)) {
      const Function *callee = call->getCalledFunction();
      if (callee && callee->getName().contains("shfl")) {
        out.insert("a warp shuffle");
        return;
      }
    }
    if (const auto *phi = dyn_cast<PHINode>(inst)) {
      size_t before = out.size();
      for (const Value *in : phi->incoming_values())
        collect(in, out, seen);
      if (out.size() == before)
        out.insert("values merged after a thread-dependent branch");
      return;
    }
    for (const Use &u : inst->operands())
      collect(u.get(), out, seen);
  }

  UniformityInfo &ui_;
};

constexpr unsigned kNvptxSharedAddressSpace = 3;

bool isBarrier(const Instruction &i) {
  const auto *call = dyn_cast<CallBase>(&i);
  const Function *callee = call ? call->getCalledFunction() : nullptr;
  if (!callee)
    return false;
  StringRef n = callee->getName();
  return n.starts_with("llvm.nvvm.barrier") || n == "llvm.nvvm.bar.sync";
}

/// Whether `v` is computed inside `region` from a load of a space other than
/// shared (an address merged by GVN's PRE is not: it loads nothing).
bool fromGlobalLoad(const Value *v,
                    const SmallPtrSetImpl<const BasicBlock *> &region,
                    SmallPtrSetImpl<const Value *> &visited) {
  const auto *inst = dyn_cast<Instruction>(v);
  if (!inst || !region.contains(inst->getParent()) ||
      !visited.insert(inst).second)
    return false;
  if (const auto *load = dyn_cast<LoadInst>(inst))
    return load->getPointerAddressSpace() != kNvptxSharedAddressSpace;
  return std::any_of(inst->op_begin(), inst->op_end(), [&](const Use &u) {
    return fromGlobalLoad(u.get(), region, visited);
  });
}

/// The blocks from the branch's successors up to (not including) its
/// immediate post-dominator.
void measureRegion(const BasicBlock &from, const PostDominatorTree &pdt,
                   const LoopInfo &loops, StaticBranch &out) {
  const DomTreeNode *node = pdt.getNode(&from);
  const BasicBlock *reconv =
      node && node->getIDom() ? node->getIDom()->getBlock() : nullptr;
  SmallPtrSet<const BasicBlock *, 16> seen;
  std::vector<const BasicBlock *> work(succ_begin(&from), succ_end(&from));
  const Loop *home = loops.getLoopFor(&from);
  while (!work.empty()) {
    const BasicBlock *b = work.back();
    work.pop_back();
    if (b == reconv || b == &from || !seen.insert(b).second)
      continue;
    const Loop *l = loops.getLoopFor(b);
    // Leaving the branch's own loop ends the region (a loop exit's region
    // is the rest of the kernel otherwise).
    if (home && !home->contains(b))
      continue;
    if (l && l != home && l->getHeader() == b)
      out.regionHasLoop = true;
    for (const Instruction &i : *b) {
      out.regionInstructions++;
      out.regionHasBarrier |= isBarrier(i);
    }
    for (const BasicBlock *s : successors(b))
      work.push_back(s);
  }
  if (reconv)
    for (const PHINode &phi : reconv->phis())
      for (const Value *in : phi.incoming_values()) {
        SmallPtrSet<const Value *, 16> visited;
        out.regionMergesGlobalLoad |= fromGlobalLoad(in, seen, visited);
      }
}

} // namespace

std::vector<StaticBranch> analyzeBranches(const Function &kernel) {
  std::vector<StaticBranch> out;
  // The kernel's definition only (the analyses are of one function; its
  // callees, inlined by the pipeline, stay declarations): a module of a
  // thousand kernels was cloned whole once per kernel launched.
  ValueToValueMapTy vmap;
  std::unique_ptr<Module> clone =
      CloneModule(*kernel.getParent(), vmap, [&](const GlobalValue *gv) {
        return !isa<Function>(gv) || gv == &kernel;
      });
  Function *f = clone->getFunction(kernel.getName());
  if (!f || f->isDeclaration())
    return out;
  makeBlockSregsUniform(*clone);

  std::unique_ptr<TargetMachine> tm = nvptxTargetMachine(*f);
  PassBuilder pb(tm.get());
  LoopAnalysisManager lam;
  FunctionAnalysisManager fam;
  CGSCCAnalysisManager cgam;
  ModuleAnalysisManager mam;
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  UniformityInfo &ui = fam.getResult<UniformityInfoAnalysis>(*f);
  const PostDominatorTree &pdt = fam.getResult<PostDominatorTreeAnalysis>(*f);
  const LoopInfo &loops = fam.getResult<LoopAnalysis>(*f);
  SourceTracer tracer(ui);

  for (const BasicBlock &bb : *f) {
    const Instruction *term = bb.getTerminator();
    const Value *condition = nullptr;
    StaticBranch b;
    if (const auto *br = dyn_cast<BranchInst>(term); br && br->isConditional())
      condition = br->getCondition();
    else if (const auto *sw = dyn_cast<SwitchInst>(term)) {
      condition = sw->getCondition();
      b.isSwitch = true;
    }
    if (!condition)
      continue;
    for (const DILocation *loc = term->getDebugLoc().get(); loc;
         loc = loc->getInlinedAt())
      b.inlineChain.push_back({core::debugInfoPath(loc->getDirectory().str(),
                                                   loc->getFilename().str()),
                               loc->getLine(), loc->getColumn()});
    if (ui.hasDivergentTerminator(bb)) {
      b.uniformity = tracer.isWarpUniform(condition)
                         ? BranchUniformity::WarpUniform
                         : BranchUniformity::ThreadDependent;
      b.sources = tracer.sourcesOf(condition);
    }
    if (const Loop *l = loops.getLoopFor(&bb))
      for (const BasicBlock *s : successors(&bb))
        b.leavesLoop |= !l->contains(s);
    measureRegion(bb, pdt, loops, b);
    out.push_back(std::move(b));
  }
  return out;
}

} // namespace kcheck::analyzer

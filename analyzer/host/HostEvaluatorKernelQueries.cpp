// The runtime calls that ask about a kernel rather than the device: the
// occupancy API (cudaOccupancyMaxActiveBlocksPerMultiprocessor, ...
// MaxPotentialBlockSize) and cudaFuncGetAttributes. Programs size grids with
// them; the answer needs what the compiler gave the kernel
// (ExtractorOptions::kernelResources: registers, static shared memory) and
// the calculator of core/Occupancy.h.
#include "analyzer/host/HostEvaluator.h"

#include "core/Occupancy.h"

#include "clang/AST/Attr.h"

namespace kcheck::analyzer {

using namespace clang;

namespace {

// The kernel a function-pointer argument names: `k`, `(void *)k`, `&k<T>`.
const FunctionDecl *kernelOf(const AbstractValue &v) {
  const FunctionDecl *fd = v.function;
  return fd && fd->hasAttr<CUDAGlobalAttr>() ? fd : nullptr;
}

// What a query writes where kcheck cannot answer it: why, and where.
AbstractValue unknownResult(const std::string &query, const std::string &here,
                            const std::string &reason) {
  return AbstractValue::unknown("result of " + query + " at " + here + ": " +
                                reason);
}

} // namespace

std::optional<core::KernelResources>
HostEvaluator::kernelResources(const FunctionDecl *kernel, std::string &why) {
  if (!options_.kernelResources || !options_.arch) {
    why = "kcheck was not told how to ask the toolkit's compiler";
    return std::nullopt;
  }
  std::optional<core::KernelResources> r =
      options_.kernelResources(kernelMangledName(*mangler_, kernel), why);
  if (!r)
    return std::nullopt;
  // What the source says and ptxas does not report: __launch_bounds__, and
  // the dynamic shared limit cudaFuncSetAttribute raised.
  if (auto *lb = kernel->getAttr<CUDALaunchBoundsAttr>())
    if (lb->getMaxThreads() && !lb->getMaxThreads()->isValueDependent())
      if (std::optional<llvm::APSInt> n =
              lb->getMaxThreads()->getIntegerConstantExpr(ctx_))
        r->maxThreadsPerBlock = int(n->getExtValue());
  if (auto it = maxDynamicShared_.find(kernel); it != maxDynamicShared_.end())
    r->maxDynamicSharedBytes = it->second;
  return r;
}

// Argument i's value, when it is a known integer.
static std::optional<int64_t> intArg(const std::vector<AbstractValue> &args,
                                     unsigned i) {
  if (i >= args.size() || args[i].scalar.kind != HostValue::Kind::Int)
    return std::nullopt;
  return args[i].scalar.i;
}

std::optional<AbstractValue>
HostEvaluator::evalKernelQuery(const CallExpr *e, const std::string &name) {
  llvm::StringRef n(name);
  bool activeBlocks =
      n == "cudaOccupancyMaxActiveBlocksPerMultiprocessor" ||
      n == "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags";
  bool potential = n == "cudaOccupancyMaxPotentialBlockSize" ||
                   n == "cudaOccupancyMaxPotentialBlockSizeWithFlags";
  bool attributes = n == "cudaFuncGetAttributes";
  bool setAttribute = n == "cudaFuncSetAttribute";
  if (!activeBlocks && !potential && !attributes && !setAttribute)
    return std::nullopt;
  std::string here = where(e->getExprLoc());
  std::vector<AbstractValue> args;
  for (const Expr *a : e->arguments())
    args.push_back(eval(a));
  AbstractValue success = AbstractValue::of(HostValue::integer(0));
  // The kernel is argument 0 of cudaFuncSetAttribute, 2 of the potential
  // block size (after &minGrid, &block), 1 of the others.
  unsigned kernelArg = setAttribute ? 0 : potential ? 2 : 1;
  const FunctionDecl *kernel =
      kernelArg < args.size() ? kernelOf(args[kernelArg]) : nullptr;

  if (setAttribute) {
    // cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, v)
    std::string attr = e->getNumArgs() > 1 ? text(e->getArg(1)) : "";
    if (kernel && llvm::StringRef(attr).ends_with(
                      "cudaFuncAttributeMaxDynamicSharedMemorySize")) {
      if (std::optional<int64_t> v = intArg(args, 2))
        maxDynamicShared_[kernel] = uint64_t(*v);
      else
        maxDynamicShared_.erase(kernel);
    }
    // cudaFuncAttributeNonPortableClusterSizeAllowed: unknown stays off (a
    // launch past 8 blocks is then refused, and the note says why).
    if (kernel && llvm::StringRef(attr).ends_with(
                      "cudaFuncAttributeNonPortableClusterSizeAllowed")) {
      std::optional<int64_t> v = intArg(args, 2);
      if (v && *v)
        nonPortableClusters_.insert(kernel);
      else
        nonPortableClusters_.erase(kernel);
    }
    return success;
  }

  std::string why;
  std::optional<core::KernelResources> r;
  if (!kernel)
    why = "the kernel it asks about is not known";
  else
    r = kernelResources(kernel, why);

  if (attributes) {
    AbstractValue v = r ? AbstractValue::unknown("")
                        : unknownResult(name, here, why); // fields read later
    v.funcAttributes = r ? kernel : nullptr;
    setArgTarget(args, 0, std::move(v));
    return success;
  }
  if (activeBlocks)
    return answerActiveBlocks(e, name, args, kernel, r, why);
  return answerPotentialBlockSize(e, name, args, kernel, r, why);
}

// cudaOccupancyMaxActiveBlocksPerMultiprocessor[WithFlags](&n, k, block,
// dynamic): `why` says why `r` is not known, if it is not.
AbstractValue HostEvaluator::answerActiveBlocks(
    const CallExpr *e, const std::string &name,
    const std::vector<AbstractValue> &args, const FunctionDecl *kernel,
    const std::optional<core::KernelResources> &r, std::string why) {
  std::string here = where(e->getExprLoc());
  std::optional<int64_t> threads = intArg(args, 2), dynamic = intArg(args, 3);
  if (r && (!threads || !dynamic))
    why = "its block size or dynamic shared size is not known";
  if (!r || !threads || !dynamic) {
    setArgTarget(args, 0, unknownResult(name, here, why));
    return AbstractValue::of(HostValue::integer(0));
  }
  core::Occupancy o =
      core::occupancy(*options_.arch, *r, int(*threads), uint64_t(*dynamic));
  noteKernelQuery(
      e->getExprLoc(),
      name + " at " + here + ": " + std::to_string(o.blocksPerSM) +
          " blocks of " + std::to_string(*threads) + " threads per SM for " +
          kernel->getNameAsString() + " (" + std::to_string(r->registers) +
          " registers per thread from nvcc; limited by " + o.limitedBy() + ")");
  setArgTarget(args, 0,
               AbstractValue::of(normalizeInt(
                   o.blocksPerSM, e->getArg(0)->getType()->getPointeeType())));
  return AbstractValue::of(HostValue::integer(0));
}

AbstractValue HostEvaluator::answerPotentialBlockSize(
    const CallExpr *e, const std::string &name,
    const std::vector<AbstractValue> &args, const FunctionDecl *kernel,
    const std::optional<core::KernelResources> &r, std::string why) {
  std::string here = where(e->getExprLoc());
  // cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, k, dynamic, limit)
  std::optional<int64_t> dynamic = args.size() > 3 ? intArg(args, 3) : 0;
  std::optional<int64_t> limit = args.size() > 4 ? intArg(args, 4) : 0;
  if (r && (!dynamic || !limit))
    why = "its dynamic shared size or block size limit is not known";
  if (!r || !dynamic || !limit) {
    setArgTarget(args, 0, unknownResult(name, here, why));
    setArgTarget(args, 1, unknownResult(name, here, why));
    return AbstractValue::of(HostValue::integer(0));
  }
  core::PotentialBlockSize p = core::maxPotentialBlockSize(
      *options_.arch, *r, uint64_t(*dynamic), int(*limit));
  noteKernelQuery(
      e->getExprLoc(),
      name + " at " + here + ": blocks of " + std::to_string(p.blockThreads) +
          " threads, grid " + std::to_string(p.minGridSize) + " for " +
          kernel->getNameAsString() + " (" + std::to_string(r->registers) +
          " registers per thread from nvcc)");
  setArgTarget(args, 0, AbstractValue::of(HostValue::integer(p.minGridSize)));
  setArgTarget(args, 1, AbstractValue::of(HostValue::integer(p.blockThreads)));
  return AbstractValue::of(HostValue::integer(0));
}

// Stores `v` where argument i points, if that is a tracked slot.
void HostEvaluator::setArgTarget(const std::vector<AbstractValue> &args,
                                 unsigned i, AbstractValue v) {
  if (i < args.size() && validSlot(args[i].slotRef))
    at(args[i].slotRef) = std::move(v);
}

AbstractValue HostEvaluator::funcAttribute(const FunctionDecl *kernel,
                                           const std::string &field,
                                           QualType type) {
  std::string why;
  std::optional<core::KernelResources> r = kernelResources(kernel, why);
  if (!r)
    return AbstractValue::unknown("cudaFuncGetAttributes of " +
                                  kernel->getNameAsString() + ": " + why);
  for (const core::FuncAttribute &a : core::funcAttributes(*options_.arch, *r))
    if (a.field == field)
      return AbstractValue::of(normalizeInt(a.value, type));
  return AbstractValue::unknown("cudaFuncAttributes field `" + field +
                                "` is not modelled");
}

void HostEvaluator::noteKernelQuery(SourceLocation l, std::string note) {
  std::string key = where(l);
  if (!kernelQueryNotes_.count(key))
    kernelQueryNotes_[key] = std::move(note);
}

} // namespace kcheck::analyzer

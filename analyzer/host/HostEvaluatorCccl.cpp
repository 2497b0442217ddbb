// The toolkit's C++ libraries in host code: which system headers the
// evaluation enters (the CCCL ones, CUB, Thrust and libcu++, when asked to
// follow them: their kernel launches are host code like the program's), and
// CUB's queries of the device, answered for --arch.
#include "analyzer/host/HostEvaluator.h"

#include "clang/Basic/SourceManager.h"

namespace kcheck::analyzer {

using namespace clang;

bool HostEvaluator::inCccl(SourceLocation l) const {
  const SourceManager &sm = ctx_.getSourceManager();
  llvm::StringRef file = sm.getFilename(sm.getExpansionLoc(l));
  // CUDA 13 keeps CCCL under include/cccl; earlier toolkits (and CCCL
  // itself) put cub/, thrust/ and cuda/ (libcu++) straight in include/.
  for (const char *dir : {"/include/cccl/", "/include/cub/", "/include/thrust/",
                          "/include/cuda/"})
    if (file.contains(dir))
      return true;
  return false;
}

bool HostEvaluator::inUnfollowedSystemHeader(SourceLocation l) const {
  if (!ctx_.getSourceManager().isInSystemHeader(l))
    return false;
  return !(options_.followLibraries && inCccl(l));
}

// cub::PtxVersion(int &) and cub::SmVersion(int &, int device): the PTX
// version of the kernels' image and the device's compute capability, each
// as 100 * major + 10 * minor, which CUB's dispatch compares with its tuning
// policies. kcheck compiles the kernels for --arch, the device it predicts
// for: both are that architecture's. (Their bodies keep a per-device cache
// behind atomics, which the evaluator does not model.)
std::optional<AbstractValue>
HostEvaluator::evalCubDeviceQuery(const CallExpr *e, const FunctionDecl *fd) {
  // Most calls are neither: their short name rules them out cheaply.
  if (!options_.arch || e->getNumArgs() < 1 || !fd->getIdentifier() ||
      (fd->getName() != "PtxVersion" && fd->getName() != "SmVersion"))
    return std::nullopt;
  std::string name = fd->getQualifiedNameAsString();
  if (name != "cub::PtxVersion" && name != "cub::SmVersion")
    return std::nullopt;
  const core::ArchSpec &arch = *options_.arch;
  storeTo(lvalueOf(e->getArg(0)),
          AbstractValue::of(
              HostValue::integer(100 * int64_t(arch.major) + 10 * arch.minor)));
  for (unsigned i = 1; i < e->getNumArgs(); ++i)
    eval(e->getArg(i));
  return AbstractValue::of(normalizeInt(0, e->getType())); // cudaSuccess
}

} // namespace kcheck::analyzer

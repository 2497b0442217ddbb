// Launch extraction: runs HostEvaluator over `main` and turns each launch it
// reaches into a HostLaunch (names, geometry, arguments, notes).
#include "analyzer/host/LaunchExtractor.h"
#include "analyzer/host/HostEvaluator.h"

#include "analyzer/facts/KernelNames.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/GlobalDecl.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/PrettyPrinter.h"
#include "clang/Basic/Diagnostic.h"

#include <set>

namespace kcheck::analyzer {

using namespace clang;

namespace {

class Extractor {
public:
  Extractor(ASTContext &ctx, HostProgram &out, const ExtractorOptions &options)
      : ctx_(ctx), out_(out), options_(options), naming_(ctx) {}

  void run() {
    std::vector<const FunctionDecl *> kernels;
    collectKernels(ctx_.getTranslationUnitDecl(), kernels);
    const FunctionDecl *main = findMain();
    if (ctx_.getDiagnostics().hasErrorOccurred())
      out_.notes.push_back("the program has compile errors: launches may be "
                           "missing or incomplete");
    if (!main) {
      out_.notes.push_back("no `main` with a body: no launches were extracted");
    } else {
      HostEvaluator ev(ctx_, out_, options_, [&](const CallExpr *e) {
        if (auto *k = dyn_cast<CUDAKernelCallExpr>(e))
          recordLaunch(*ev_, k);
        else
          recordApiLaunch(*ev_, e);
      });
      ev.setNodeLaunchHandler(
          [&](const CallExpr *e, const HostEvaluator::NodeLaunch &n) {
            recordNodeLaunch(*ev_, e, n);
          });
      ev_ = &ev;
      ev.runMain(main);
      ev_ = nullptr;
    }
    std::set<std::string> launched;
    for (const HostLaunch &l : out_.launches)
      launched.insert(l.mangledName);
    std::set<std::string> listed;
    for (const FunctionDecl *k : kernels) {
      std::string m = mangle(k);
      if (!launched.count(m) && listed.insert(m).second)
        out_.kernelsWithoutLaunch.push_back(m);
    }
  }

private:
  const FunctionDecl *findMain() const {
    for (const Decl *d : ctx_.getTranslationUnitDecl()->decls())
      if (auto *fd = dyn_cast<FunctionDecl>(d))
        if (fd->isMain() && fd->hasBody())
          return fd;
    return nullptr;
  }

  std::string mangle(const FunctionDecl *fd) const {
    return naming_.mangled(fd);
  }

  HostLaunch start(HostEvaluator &ev, const CallExpr *e, const FunctionDecl *fd,
                   const Expr *callee) {
    HostLaunch l;
    l.loc = ev.sourceLoc(e->getBeginLoc());
    if (fd) {
      KernelName names = naming_.of(fd);
      l.kernelName = names.name;
      l.mangledName = mangle(fd);
      l.signature = names.signature;
      l.dynamicSharedOptIn = ev.dynamicSharedOptIn(fd);
      l.nonPortableCluster = ev.nonPortableCluster(fd);
    } else {
      l.kernelName = ev.text(callee);
      l.notes.push_back("the kernel `" + l.kernelName + "` launched at " +
                        ev.where(e->getBeginLoc()) +
                        " is not a known function");
    }
    return l;
  }

  // A launch dimension `v`, written `text` at `where`; nullopt (noted) if
  // it is not one.
  std::optional<core::Dim3> dimension(HostEvaluator &ev, HostLaunch &l,
                                      const AbstractValue &v,
                                      const std::string &text,
                                      const std::string &where,
                                      const char *what) {
    std::optional<core::Dim3> d = ev.toDim3(v);
    if (!d) {
      l.unevaluated = true;
      std::string why = v.why();
      l.notes.push_back(std::string(what) + " `" + text + "` at " + where +
                        " could not be evaluated: " +
                        (why.empty() ? "not a valid launch dimension" : why));
    }
    return d;
  }

  void sharedBytes(HostLaunch &l, const HostValue &v, const std::string &text,
                   const std::string &where) {
    if (v.kind == HostValue::Kind::Int) {
      l.dynamicSharedBytes = uint64_t(v.i);
      return;
    }
    l.dynamicSharedBytes.reset();
    l.unevaluated = true;
    l.notes.push_back("dynamic shared memory `" + text + "` at " + where +
                      " could not be evaluated: " + v.why);
  }

  void geometry(HostEvaluator &ev, HostLaunch &l, const Expr *grid,
                const Expr *block, const Expr *shmem) {
    l.grid = dimension(ev, l, ev.eval(grid), ev.text(grid),
                       ev.where(grid->getExprLoc()), "grid");
    l.block = dimension(ev, l, ev.eval(block), ev.text(block),
                        ev.where(block->getExprLoc()), "block");
    l.dynamicSharedBytes = 0;
    if (shmem)
      sharedBytes(l, ev.eval(shmem).scalar, ev.text(shmem),
                  ev.where(shmem->getExprLoc()));
  }

  // The arguments of a launch whose `void *args[]` is `args` (written
  // `text`): one per parameter of `fd`.
  void argumentsFromArray(HostEvaluator &ev, HostLaunch &l,
                          const FunctionDecl *fd, const AbstractValue &args,
                          const std::string &text) {
    unsigned n = fd ? fd->getNumParams() : 0;
    for (unsigned i = 0; i < n; ++i) {
      QualType param = fd->getParamDecl(i)->getType();
      AbstractValue v =
          ev.argumentSlot(args, i, int(ev.objectLeaves(param).value_or(0)));
      addArg(ev, l, text + "[" + std::to_string(i) + "]", v, param);
    }
  }

  void addArg(HostEvaluator &ev, HostLaunch &l, std::string text,
              const AbstractValue &v, QualType param) {
    LaunchArg a;
    a.text = std::move(text);
    a.value = v.scalar;
    if (!param.isNull() && ev.objectLeaves(param)) {
      // A struct by value: each scalar with its place in the bytes.
      std::vector<ArgField> fields;
      ev.leafLayout(param, 0, a.text, fields);
      std::vector<HostValue> scalars;
      if (v.leaves)
        for (const AbstractValue &leaf : *v.leaves) {
          if (leaf.dim)
            scalars.insert(scalars.end(), leaf.dim->begin(), leaf.dim->end());
          else
            scalars.push_back(leaf.slotRef >= 0 ? HostValue::hostPtr()
                                                : leaf.scalar);
        }
      std::string why = v.why();
      for (size_t k = 0; k < fields.size(); ++k)
        fields[k].value =
            k < scalars.size() && scalars.size() == fields.size()
                ? scalars[k]
                : HostValue::unknown(why.empty() ? "object not tracked" : why);
      for (const ArgField &f : fields)
        l.unevaluated |= !f.value.known() && f.type != ArgField::Type::Pointer;
      a.value = HostValue::unknown("a struct");
      a.fields = std::move(fields);
      l.args.push_back(std::move(a));
      return;
    }
    if (v.slotRef >= 0)
      a.value = HostValue::hostPtr(); // address of a host variable
    else if (v.dim || v.deviceProps)
      a.value = HostValue::unknown("structure arguments are not tracked");
    // An unknown value is named where the launch's arguments are built
    // (driver/StaticLaunches.cpp), with the option that gives it.
    l.unevaluated |= !a.value.known();
    l.args.push_back(std::move(a));
  }

  void finish(HostEvaluator &ev, HostLaunch &&l) {
    l.unevaluated |= ev.underUnevaluatedCondition();
    for (const std::string &c : ev.context())
      l.notes.push_back(c);
    if (ev.capturing()) // made at each launch of the captured graph
      ev.captureLaunch(std::move(l));
    else
      out_.launches.push_back(std::move(l));
  }

  void recordLaunch(HostEvaluator &ev, const CUDAKernelCallExpr *e) {
    const FunctionDecl *fd = e->getDirectCallee();
    if (!fd) // a kernel passed as a (template) parameter
      fd = ev.eval(e->getCallee()).function;
    HostLaunch l = start(ev, e, fd, e->getCallee());
    const CallExpr *config = e->getConfig();
    if (config && config->getNumArgs() >= 2)
      geometry(ev, l, config->getArg(0), config->getArg(1),
               config->getNumArgs() > 2 ? config->getArg(2) : nullptr);
    for (unsigned i = 0; i < e->getNumArgs(); ++i)
      addArg(ev, l, ev.text(e->getArg(i)), ev.eval(e->getArg(i)),
             fd && i < fd->getNumParams() ? fd->getParamDecl(i)->getType()
                                          : QualType());
    finish(ev, std::move(l));
  }

  // cudaLaunchKernel(func, grid, block, args, shmem, stream), with `args` a
  // local array of addresses of the argument variables.
  void recordApiLaunch(HostEvaluator &ev, const CallExpr *e) {
    if (e->getNumArgs() < 4)
      return;
    const Expr *callee = e->getArg(0);
    const FunctionDecl *fd = ev.eval(callee).function;
    HostLaunch l = start(ev, e, fd, callee);
    if (const FunctionDecl *api = e->getDirectCallee())
      l.cooperative = api->getNameAsString() == "cudaLaunchCooperativeKernel";
    geometry(ev, l, e->getArg(1), e->getArg(2),
             e->getNumArgs() > 4 ? e->getArg(4) : nullptr);
    argumentsFromArray(ev, l, fd, ev.eval(e->getArg(3)), ev.text(e->getArg(3)));
    finish(ev, std::move(l));
  }

  // A kernel node of a graph (cudaGraphAddKernelNode and the calls that set
  // a node's parameters): its cudaKernelNodeParams, as cudaLaunchKernel's.
  void recordNodeLaunch(HostEvaluator &ev, const CallExpr *e,
                        const HostEvaluator::NodeLaunch &n) {
    HostLaunch l = start(ev, e, n.kernel, e->getArg(e->getNumArgs() - 1));
    std::string where = ev.where(e->getExprLoc());
    l.grid = dimension(ev, l, n.grid, n.text + ".gridDim", where, "grid");
    l.block = dimension(ev, l, n.block, n.text + ".blockDim", where, "block");
    sharedBytes(l, n.sharedBytes.scalar, n.text + ".sharedMemBytes", where);
    l.cooperative = n.cooperative;
    l.cluster = n.cluster;
    if (n.argExprs.empty())
      argumentsFromArray(ev, l, n.kernel, n.args, n.text + ".kernelParams");
    for (size_t i = 0; i < n.argExprs.size(); ++i) {
      const FunctionDecl *fd = n.kernel;
      addArg(ev, l, ev.text(n.argExprs[i]), ev.eval(n.argExprs[i]),
             fd && i < fd->getNumParams()
                 ? fd->getParamDecl(unsigned(i))->getType()
                 : QualType());
    }
    finish(ev, std::move(l));
  }

  ASTContext &ctx_;
  HostProgram &out_;
  const ExtractorOptions &options_;
  KernelNaming naming_;
  HostEvaluator *ev_ = nullptr;
};

class LaunchExtractorConsumer : public ASTConsumer {
public:
  LaunchExtractorConsumer(HostProgram &out, ExtractorOptions options)
      : out_(out), options_(std::move(options)) {}
  void HandleTranslationUnit(ASTContext &ctx) override {
    extractLaunches(ctx, out_, options_);
  }

private:
  HostProgram &out_;
  ExtractorOptions options_;
};

} // namespace

void extractLaunches(ASTContext &ctx, HostProgram &out,
                     const ExtractorOptions &options) {
  Extractor(ctx, out, options).run();
}

std::unique_ptr<ASTConsumer> makeLaunchExtractor(HostProgram &out,
                                                 ExtractorOptions options) {
  return std::make_unique<LaunchExtractorConsumer>(out, std::move(options));
}

} // namespace kcheck::analyzer

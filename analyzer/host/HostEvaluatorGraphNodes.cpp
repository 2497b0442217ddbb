// HostEvaluator: CUDA graphs built node by node (cudaGraphCreate,
// cudaGraphAdd*Node), alongside those stream capture makes
// (HostEvaluatorGraphs.cpp), in the same recordings: a graph is the launches
// its kernel nodes make, in the order the nodes were added (an order the
// dependencies allow: a node depends only on nodes added before it), and
// each cudaGraphLaunch makes them again.
// - A kernel node's launch is made from its cudaKernelNodeParams as
//   cudaLaunchKernel's is (the extractor's node handler). One the GPU
//   refuses (core::launchRefusal: dimensions, the kernel's launch bound,
//   dynamic shared memory) is refused when added, as the H200 refuses it
//   (docs/validation/probes/graph_kernel_node_dimensions.cu): the call
//   returns the error and the graph has no such node.
// - A child graph node adds the child's launches; copies and sets take
//   effect when their node is added (on the GPU at each launch), as during
//   a capture; empty, event and memory nodes make no launch.
// - cudaGraphKernelNodeSetParams, cudaGraphExecKernelNodeSetParams,
//   cudaGraphExecUpdate and cudaGraphClone change or copy the recordings.
// Not followed, each named in a note: host nodes (a host function each
// launch of the graph runs), nodes added by cudaGraphAddNode (parameters of
// any kind), memory allocation nodes, kernel nodes whose parameters are not
// known.
#include "analyzer/host/HostEvaluatorDescriptors.h"

#include "core/RuntimeRules.h"

#include "clang/AST/Attr.h"

namespace kcheck::analyzer {

using namespace clang;
using descriptors::pointeeOfParam;

namespace {

// cudaGraphNodeTypeConditional (driver_types.h).
constexpr int64_t kConditionalNodeType = 0x0d;

// The kernel's __launch_bounds__ maximum of threads per block (0: none).
int launchBoundOf(const FunctionDecl *fd, const ASTContext &ctx) {
  const auto *a = fd ? fd->getAttr<CUDALaunchBoundsAttr>() : nullptr;
  if (!a || !a->getMaxThreads())
    return 0;
  std::optional<llvm::APSInt> v =
      a->getMaxThreads()->getIntegerConstantExpr(ctx);
  return v ? int(v->getExtValue()) : 0;
}

} // namespace

std::optional<HostLaunch>
HostEvaluator::kernelNodeLaunch(const CallExpr *e, const AbstractValue &params,
                                std::optional<core::LaunchRefusal> &refusal,
                                std::string &why) {
  unsigned at = e->getNumArgs() - 1; // the parameters are the last argument
  DescriptorReader p(*this, params.slotRef, pointeeOfParam(e, at),
                     text(e->getArg(at)));
  const AbstractValue *func = p.leaf({"func"}, -1),
                      *grid = p.leaf({"gridDim"}, -1),
                      *block = p.leaf({"blockDim"}, -1),
                      *shared = p.leaf({"sharedMemBytes"}, -1),
                      *args = p.leaf({"kernelParams"}, -1);
  if (!func || !grid || !block || !shared || !args) {
    why = "its parameters `" + p.name + "` are not followed";
    return std::nullopt;
  }
  if (!func->function) {
    why = "its kernel `" + p.name + ".func` is not known";
    return std::nullopt;
  }
  std::optional<core::Dim3> g = toDim3(*grid), b = toDim3(*block);
  if (g && b && shared->scalar.kind == HostValue::Kind::Int && options_.arch) {
    core::LaunchConfig config{*g, *b, uint64_t(shared->scalar.i)};
    refusal = core::launchRefusal(*options_.arch, config,
                                  launchBoundOf(func->function, ctx_),
                                  dynamicSharedOptIn(func->function));
    if (refusal)
      return std::nullopt;
  }
  if (!onNodeLaunch_) {
    why = "kernel nodes are not followed here";
    return std::nullopt;
  }
  std::vector<HostLaunch> made;
  std::vector<HostLaunch> *outer = std::exchange(nodeTarget_, &made);
  onNodeLaunch_(
      e,
      {func->function, *grid, *block, *shared, *args, p.name, {}, false, {}});
  nodeTarget_ = outer;
  if (made.size() != 1) {
    why = "its launch could not be made";
    return std::nullopt;
  }
  return std::move(made[0]);
}

std::optional<AbstractValue>
HostEvaluator::evalGraphNodeCall(const CallExpr *e, const std::string &name) {
  llvm::StringRef n(name);
  if (!n.starts_with("cudaGraph"))
    return std::nullopt;
  std::string here = where(e->getExprLoc());
  auto arg = [&](unsigned i) -> AbstractValue {
    return i < e->getNumArgs() ? eval(e->getArg(i)) : AbstractValue{};
  };
  auto nodeOf = [&](const AbstractValue &v) -> GraphNode * {
    if (v.scalar.kind != HostValue::Kind::Int || v.scalar.i < kNodeHandleBase)
      return nullptr;
    size_t id = size_t(v.scalar.i - kNodeHandleBase);
    return id < nodes_.size() ? &nodes_[id] : nullptr;
  };
  auto fails = [&](const core::LaunchRefusal &r) {
    std::string what = "`" + name + "` at " + here + " fails (" +
                       core::cudaErrorName(r.error) + "): " + r.why;
    program_.notes.push_back(what);
    program_.refusedLaunches.push_back(what);
    return cudaResult(e, r.error);
  };
  auto notMade = [&](const std::string &why) {
    program_.notes.push_back("the kernel node of `" + name + "` at " + here +
                             " makes no launch in the static analysis: " + why +
                             "; --run-host runs it as the program does");
  };
  if (n == "cudaGraphCreate") {
    AbstractValue out = arg(0);
    arg(1);
    graphs_.emplace_back();
    setThrough(out, graphHandle(graphs_.size() - 1));
    return cudaSuccess(e);
  }
  if (n == "cudaGraphClone" && e->getNumArgs() == 2) {
    AbstractValue out = arg(0);
    std::optional<size_t> g = graphOf(arg(1));
    if (!g)
      return std::nullopt;
    graphs_.push_back(graphs_[*g]);
    setThrough(out, graphHandle(graphs_.size() - 1));
    return cudaSuccess(e);
  }
  if (n == "cudaGraphExecUpdate" && e->getNumArgs() >= 2) {
    std::optional<size_t> exec = graphOf(arg(0)), g = graphOf(arg(1));
    for (unsigned i = 2; i < e->getNumArgs(); ++i)
      arg(i);
    if (!exec || !g)
      return std::nullopt;
    graphs_[*exec] = graphs_[*g];
    return cudaSuccess(e);
  }
  if (n.starts_with("cudaGraphAdd") && n.contains("Node") &&
      e->getNumArgs() >= 4) {
    AbstractValue out = arg(0);
    std::optional<size_t> g = graphOf(arg(1));
    arg(2);
    arg(3);
    if (!g)
      return std::nullopt; // a graph not followed: the generic note
    GraphNode node{*g, -1};
    if (n == "cudaGraphAddKernelNode") {
      std::optional<core::LaunchRefusal> refusal;
      std::string why;
      std::optional<HostLaunch> l = kernelNodeLaunch(e, arg(4), refusal, why);
      if (refusal)
        return fails(*refusal);
      if (l) {
        node.index = int64_t(graphs_[*g].size());
        graphs_[*g].push_back(std::move(*l));
      } else {
        notMade(why);
      }
    } else if (n == "cudaGraphAddChildGraphNode") {
      std::optional<size_t> child = graphOf(arg(4));
      if (child) {
        std::vector<HostLaunch> launches = graphs_[*child];
        for (HostLaunch &l : launches)
          graphs_[*g].push_back(std::move(l));
      } else {
        notMade("its child graph is not known");
      }
    } else if (n == "cudaGraphAddMemcpyNode1D") {
      HostValue dst = arg(4).scalar, src = arg(5).scalar;
      for (unsigned i = 6; i < e->getNumArgs(); ++i)
        arg(i);
      noteCopy(dst, src);
    } else if (n == "cudaGraphAddMemcpyNode") {
      noteCopy3D(e, 4, arg(4));
    } else if (n == "cudaGraphAddMemsetNode") {
      DescriptorReader p(*this, arg(4).slotRef, pointeeOfParam(e, 4), "p");
      HostValue dst = p.value({"dst"}), v = p.value({"value"});
      if (dst.kind == HostValue::Kind::DevicePtr && dst.allocation >= 0 &&
          v.kind == HostValue::Kind::Int && v.i == 0)
        program_.allocations[size_t(dst.allocation)].zeroed = true;
    } else {
      for (unsigned i = 4; i < e->getNumArgs(); ++i)
        arg(i);
      // A host node runs a host function; cudaGraphAddNode's parameters
      // name any kind of node; a memory node's allocation is the graph's.
      // A conditional node's body runs as its kernels set its value.
      bool conditional = false;
      if (n.starts_with("cudaGraphAddNode") && e->getNumArgs() == 6) {
        DescriptorReader p(*this, arg(5).slotRef, pointeeOfParam(e, 5), "p");
        HostValue type = p.value({"type"});
        conditional =
            type.kind == HostValue::Kind::Int && type.i == kConditionalNodeType;
      }
      if (conditional)
        program_.notes.push_back(
            "`" + name + "` at " + here +
            ": a conditional node: which of its bodies run is what the "
            "graph's kernels set (cudaGraphSetConditional) as they run, "
            "which the static analysis does not follow; --run-host runs it");
      else if (n == "cudaGraphAddHostNode" ||
               n.starts_with("cudaGraphAddNode") ||
               n == "cudaGraphAddMemAllocNode")
        program_.notes.push_back(
            "`" + name + "` at " + here +
            ": what the node does is not followed by the static analysis "
            "(a host node's function is not run); --run-host runs it");
    }
    nodes_.push_back(node);
    setThrough(out, AbstractValue::of(HostValue::integer(
                        kNodeHandleBase + int64_t(nodes_.size() - 1))));
    return cudaSuccess(e);
  }
  bool exec = n == "cudaGraphExecKernelNodeSetParams";
  if ((n == "cudaGraphKernelNodeSetParams" && e->getNumArgs() == 2) ||
      (exec && e->getNumArgs() == 3)) {
    std::optional<size_t> execGraph = exec ? graphOf(arg(0)) : std::nullopt;
    GraphNode *node = nodeOf(arg(exec ? 1 : 0));
    AbstractValue params = arg(exec ? 2 : 1);
    size_t g = execGraph ? *execGraph : node ? node->graph : 0;
    if (!node || (exec && !execGraph) || node->index < 0 ||
        size_t(node->index) >= graphs_[g].size())
      return std::nullopt; // a node not followed: the generic note
    std::optional<core::LaunchRefusal> refusal;
    std::string why;
    std::optional<HostLaunch> l = kernelNodeLaunch(e, params, refusal, why);
    if (refusal)
      return fails(*refusal);
    if (!l) {
      notMade(why);
      return cudaSuccess(e);
    }
    graphs_[g][size_t(node->index)] = std::move(*l);
    return cudaSuccess(e);
  }
  return std::nullopt;
}

// cudaLaunchKernelEx(config, kernel, args...) (cuda_runtime.h's template,
// whose lambda packs the arguments: taken here by name) and
// cudaLaunchKernelExC(config, kernel, void **args): the launch the
// cudaLaunchConfig_t describes, with its attributes' cooperative flag
// (cudaLaunchAttributeCooperative, 2) and cluster dimension
// (cudaLaunchAttributeClusterDimension, 4); made as a kernel node's is.
std::optional<AbstractValue>
HostEvaluator::evalLaunchKernelEx(const CallExpr *e, const std::string &name) {
  if ((name != "cudaLaunchKernelEx" && name != "cudaLaunchKernelExC") ||
      e->getNumArgs() < 2)
    return std::nullopt;
  const bool templated = name == "cudaLaunchKernelEx";
  std::string here = where(e->getExprLoc());
  AbstractValue config = eval(e->getArg(0)), kernel = eval(e->getArg(1));
  DescriptorReader p(*this, config.slotRef, pointeeOfParam(e, 0),
                     text(e->getArg(0)));
  const AbstractValue *grid = p.leaf({"gridDim"}, -1),
                      *block = p.leaf({"blockDim"}, -1),
                      *shared = p.leaf({"dynamicSmemBytes"}, -1);
  auto notFollowed = [&](const std::string &why) {
    for (unsigned i = 2; i < e->getNumArgs(); ++i)
      eval(e->getArg(i));
    program_.notes.push_back("`" + name + "` at " + here +
                             ": its launch is not made: " + why +
                             "; --run-host runs it as the program does");
    return cudaSuccess(e);
  };
  if (!grid || !block || !shared)
    return notFollowed("its configuration `" + p.name + "` is not followed");
  if (!kernel.function)
    return notFollowed("its kernel `" + text(e->getArg(1)) + "` is not known");
  NodeLaunch n{kernel.function, *grid, *block, *shared, {},
               p.name,          {},    false,  {}};
  if (templated)
    for (unsigned i = 2; i < e->getNumArgs(); ++i)
      n.argExprs.push_back(e->getArg(i));
  else if (e->getNumArgs() > 2)
    n.args = eval(e->getArg(2));
  // The attributes: an array of cudaLaunchAttribute the config points to.
  int64_t count = p.integer({"numAttrs"});
  const AbstractValue *attrs = p.leaf({"attrs"}, -1);
  clang::QualType attrType;
  if (const clang::RecordDecl *rd =
          p.type.getCanonicalType()->getAsRecordDecl())
    for (const clang::FieldDecl *f : rd->fields())
      if (f->getName() == "attrs" && f->getType()->isPointerType())
        attrType = f->getType()->getPointeeType();
  if (!p.missing.empty())
    return notFollowed(p.missing);
  if (count > 0 && (!attrs || attrs->slotRef < 0 || attrType.isNull()))
    return notFollowed("its attributes `" + p.name +
                       ".attrs` are not followed");
  int leaves = int(leafCount(attrType).value_or(1));
  for (int64_t i = 0; i < count; ++i) {
    DescriptorReader a(*this, attrs->slotRef + int(i) * leaves, attrType,
                       p.name + ".attrs[" + std::to_string(i) + "]");
    int64_t id = a.integer({"id"});
    if (id == 2)
      n.cooperative = a.integer({"val", "cooperative"}) != 0;
    if (id == 4)
      n.cluster = core::Dim3{uint32_t(a.integer({"val", "clusterDim", "x"})),
                             uint32_t(a.integer({"val", "clusterDim", "y"})),
                             uint32_t(a.integer({"val", "clusterDim", "z"}))};
    if (!a.missing.empty())
      return notFollowed(a.missing);
  }
  if (!onNodeLaunch_)
    return notFollowed("launches are not followed here");
  onNodeLaunch_(e, n);
  return cudaSuccess(e);
}

} // namespace kcheck::analyzer

// HostEvaluator: an abstract interpreter of host code, just enough to know what
// a CUDA program passes to its kernel launches without running it.
//
// It walks a function body in program order, keeps every local in a slot of a
// flat store (so a snapshot is a copy and `&x` is a slot number), enters called
// functions, methods and lambdas that have a body outside system headers, and
// models the CUDA runtime and a few C/C++ library calls by name. Values it
// cannot know are HostValue::Unknown with a reason. Assumptions and limits:
// - integers are at most 64 bits; arithmetic follows the expression's Clang
//   type (width, signedness, wraparound); floats are double, rounded for float;
// - a user's plain struct or class and arrays (of any rank) are objects of
//   flattened slots, one per scalar leaf, at most 4096 (HostEvaluatorObjects.
//   cpp); records from system headers, unions, polymorphic classes, bit-fields
//   and lambdas are opaque, but for the runtime's descriptors host code fills
//   field by field (cudaResourceDesc, cudaKernelNodeParams, ...: a union's
//   members each their own slots); dim3/uint3 are one slot; host heap memory
//   has unknown contents;
// - a condition that cannot be evaluated runs both branches and merges: a
//   variable that differs becomes Unknown; a branch that returns/exits is
//   dropped in favour of the one that continues;
// - loops run concretely up to an iteration and step limit, else every
//   variable they assign becomes Unknown and the body is walked once so the
//   launches and allocations inside are still seen;
// - a global step budget, a call depth limit and a stack-use limit bound
//   everything: once the budget is spent, loops are not run and calls are not
//   entered, so straight-line code still finishes;
// - lambdas read their captures from the caller's frame (by reference, even
//   for by-value captures).
#pragma once

#include "analyzer/host/AbstractValue.h"
#include "analyzer/host/LaunchExtractor.h"

#include "core/RuntimeRules.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtOpenMP.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kcheck::analyzer {

// Argument i of `e`, or null.
inline const clang::Expr *argAt(const clang::CallExpr *e, unsigned i) {
  return i < e->getNumArgs() ? e->getArg(i) : nullptr;
}

// A constant Clang evaluated (an integer or a float) as a HostValue.
HostValue fromAPValue(const clang::APValue &v);

// std::forward, std::move, std::as_const: the argument itself.
bool isStdReferenceCast(const clang::FunctionDecl *fd);

// `t` (or what it refers to) is the standard library's record `name`
// (std::optional, std::nullopt_t, std::basic_string).
bool isStdRecord(clang::QualType t, llvm::StringRef name);

// The device-side name of kernel `fd` (the llvm::Function CodeGen emits, and
// ptxas reports), as `mangler` mangles it.
std::string kernelMangledName(clang::MangleContext &mangler,
                              const clang::FunctionDecl *fd);

class HostEvaluator {
public:
  // Called for each kernel launch (`<<<>>>`, cudaLaunchKernel) reached.
  using LaunchHandler = std::function<void(const clang::CallExpr *)>;

  HostEvaluator(clang::ASTContext &ctx, HostProgram &program,
                const ExtractorOptions &options, LaunchHandler onLaunch);

  // A kernel node of a graph built node by node (cudaGraphAddKernelNode):
  // its cudaKernelNodeParams as evaluated. The handler makes the launch as
  // for cudaLaunchKernel; it is recorded into the graph (captureLaunch).
  // cudaLaunchKernelEx's launch is made the same way: its argument
  // expressions (the template's) or its `void **` array, its attributes'
  // cooperative flag and cluster.
  struct NodeLaunch {
    const clang::FunctionDecl *kernel = nullptr;
    AbstractValue grid, block, sharedBytes, args;
    std::string text; // the parameters as written, for notes
    std::vector<const clang::Expr *> argExprs; // non-empty: instead of args
    bool cooperative = false;
    std::optional<core::Dim3> cluster;
  };
  using NodeLaunchHandler =
      std::function<void(const clang::CallExpr *, const NodeLaunch &)>;
  void setNodeLaunchHandler(NodeLaunchHandler h) {
    onNodeLaunch_ = std::move(h);
  }

  // Runs `main` (argc/argv Unknown unless ExtractorOptions::argc or
  // ExtractorOptions::programArgs gives them).
  void runMain(const clang::FunctionDecl *main);

  AbstractValue eval(const clang::Expr *e);
  // A launch dimension: a dim3, or an integer n as (n,1,1); nullopt if unknown.
  std::optional<core::Dim3> toDim3(const AbstractValue &v) const;

  // cudaLaunchKernel's `void *args[]`: the value that element i points to.
  // (`leaves` > 0: the argument is an object of that many slots.)
  AbstractValue argumentSlot(const AbstractValue &array, unsigned i,
                             int leaves = 0) const;

  // Between cudaStreamBeginCapture and cudaStreamEndCapture: a launch is
  // recorded into the graph being captured (captureLaunch), not made.
  bool capturing() const;
  void captureLaunch(HostLaunch l);

  // Conditions the current code runs under (unknown `if`, runtime loop).
  const std::vector<std::string> &context() const { return context_; }
  /// Whether the code being evaluated is under a condition that could not
  /// be evaluated (one of context()).
  bool underUnevaluatedCondition() const { return unevaluatedConditions_ > 0; }
  /// The dynamic shared limit cudaFuncSetAttribute gave `kernel` so far.
  std::optional<uint64_t>
  dynamicSharedOptIn(const clang::FunctionDecl *kernel) const {
    auto it = maxDynamicShared_.find(kernel);
    return it == maxDynamicShared_.end() ? std::nullopt
                                         : std::optional<uint64_t>(it->second);
  }

  /// Whether cudaFuncSetAttribute allowed `kernel` non-portable cluster
  /// sizes so far.
  bool nonPortableCluster(const clang::FunctionDecl *kernel) const {
    return nonPortableClusters_.count(kernel) != 0;
  }

  std::string text(const clang::Stmt *s) const;     // source text, short
  std::string where(clang::SourceLocation l) const; // "file.cu:12"
  // A system header the evaluation does not enter: every one, except the
  // CCCL libraries when ExtractorOptions::followLibraries is on.
  bool inUnfollowedSystemHeader(clang::SourceLocation l) const;
  // Whether `l` is in the toolkit's CCCL headers (CUB, Thrust, libcu++).
  bool inCccl(clang::SourceLocation l) const;
  // "`text` at file.cu:12"
  std::string describe(const clang::Stmt *s, clang::SourceLocation l) const;
  core::SourceLoc sourceLoc(clang::SourceLocation l) const;
  clang::ASTContext &astContext() const { return ctx_; }

private:
  struct State;
  struct Frame {
    llvm::DenseMap<const clang::VarDecl *, int> vars;
    int parent = -1; // lambdas see their caller's variables (captures)
    AbstractValue ret;
    bool retUncertain = false; // a `return` under an unknown condition
    // The first `return` dropped under an unknown condition, as it was then:
    // when the path kept instead ends in exit(), the function returned there.
    std::shared_ptr<const State> droppedReturn;
    int thisSlot = -1; // a method's object: its first slot, and how many
    int thisLeaves = 0;
    uint64_t serial = 0;     // which call this is (lambdas made here name it)
    bool returnsRef = false; // `T &f()`: what `return` refers to, in retRef
    LValue retRef;
  };
  // What an unknown `if` forks and joins: locals, the current frame, globals.
  struct State {
    std::vector<AbstractValue> store;
    Frame top;
    std::vector<AbstractValue> globalStore;
    llvm::DenseMap<const clang::VarDecl *, int> globals;
  };
  // What a loop that turns out not to be followable rolls back.
  struct Snapshot {
    State state;
    size_t launches, notes;
    std::string stoppedBy;
    std::vector<HostAllocation> allocations;
    std::vector<unsigned> allocDepth;
  };
  static constexpr int kGlobalBase = 1 << 30; // slot ids of globals
  static constexpr uint64_t kMaxArray = 4096; // larger arrays are not tracked
  // Slots all std::vectors' elements may take (HostEvaluatorVector.cpp).
  static constexpr uint64_t kMaxVectorSlots = 1 << 15;
  uint64_t vectorSlots_ = 0;
  static constexpr uintptr_t kMaxStackBytes = 2 << 20;

  // Statements (HostEvaluatorStmt.cpp), loops (HostEvaluatorLoops.cpp).
  Flow exec(const clang::Stmt *s);
  Flow execIf(const clang::IfStmt *s);
  Flow execSwitch(const clang::SwitchStmt *s);
  Flow execLoop(const clang::Stmt *loop, const clang::Expr *cond,
                const clang::Expr *inc, const clang::Stmt *body, bool doWhile);
  std::optional<std::string> loopNotFollowed(const clang::Stmt *loop,
                                             bool launches, uint64_t limit);
  Flow runLoop(const clang::Stmt *loop, const clang::Expr *cond,
               const clang::Expr *inc, const clang::Stmt *body, bool doWhile,
               bool launches, uint64_t limit);
  void keepLaunchesOfCutLoop(const clang::Stmt *loop, uint64_t iter);
  Flow execRangeFor(const clang::CXXForRangeStmt *s);
  Flow execReturn(const clang::ReturnStmt *rs);
  void declare(const clang::VarDecl *vd);
  void loopFailed(const clang::Stmt *loop, const clang::Stmt *body,
                  const std::string &reason, bool notUnrolled);
  std::optional<uint64_t> staticTripCount(const clang::ForStmt *fs);
  Flow mergeBranches(const State &base, State &&a, Flow fa, State &&b, Flow fb,
                     const std::string &why);
  void havocAssigned(const clang::Stmt *s, const std::string &why);
  bool containsLaunch(const clang::Stmt *s);
  State state() const;
  void install(State &&s);
  Snapshot snapshot() const;
  void restore(Snapshot &&s);

  // Expressions (HostEvaluator.cpp).
  AbstractValue evalUncached(const clang::Expr *e);
  std::optional<AbstractValue> literalValue(const clang::Expr *e) const;
  AbstractValue evalConditional(const clang::ConditionalOperator *co);
  AbstractValue evalCast(const clang::CastExpr *e);
  AbstractValue evalArrayDecay(const clang::Expr *sub);
  AbstractValue evalBaseToDerived(const clang::CastExpr *e);
  AbstractValue evalConstruct(const clang::CXXConstructExpr *e);
  AbstractValue evalInitList(const clang::InitListExpr *e);
  AbstractValue evalMember(const clang::MemberExpr *e);

  // Operators and arithmetic (HostEvaluatorArith.cpp).
  AbstractValue evalUnary(const clang::UnaryOperator *e);
  AbstractValue evalBinary(const clang::BinaryOperator *e);
  AbstractValue evalAddressOf(const clang::UnaryOperator *e);
  AbstractValue evalIncDec(const clang::UnaryOperator *e);
  AbstractValue evalLogical(const clang::BinaryOperator *e);
  AbstractValue evalCompoundAssign(const clang::CompoundAssignOperator *ca);
  AbstractValue evalPointerBinary(const clang::BinaryOperator *e);
  HostValue arith(clang::BinaryOperatorKind op, const HostValue &l,
                  const HostValue &r, clang::QualType operandType,
                  clang::QualType resultType, clang::SourceLocation loc);
  HostValue floatArith(clang::BinaryOperatorKind op, const HostValue &l,
                       const HostValue &r, clang::QualType resultType,
                       clang::SourceLocation loc);
  HostValue intArith(clang::BinaryOperatorKind op, bool uns, uint64_t ua,
                     uint64_t ub, int64_t a, int64_t b,
                     clang::QualType resultType, clang::SourceLocation loc);
  HostValue convert(const HostValue &v, clang::QualType from,
                    clang::QualType to) const;
  HostValue normalizeInt(int64_t v, clang::QualType t) const;
  std::optional<HostValue> deviceAddressArith(clang::BinaryOperatorKind op,
                                              const HostValue &l,
                                              const HostValue &r) const;
  std::optional<bool> truth(const HostValue &v) const;
  uint64_t pointeeSize(clang::QualType ptr) const;
  AbstractValue addToPointer(const AbstractValue &p, int64_t k,
                             clang::QualType ptrType) const;
  bool isDim3(clang::QualType t) const;
  bool trackedElement(clang::QualType t) const;

  // Calls (HostEvaluatorCalls.cpp).
  AbstractValue evalCall(const clang::CallExpr *e);
  AbstractValue evalMethodCall(const clang::CallExpr *e,
                               const clang::CXXMethodDecl *md, bool hasBody,
                               bool system);
  LValue methodObject(const clang::CallExpr *e, const clang::CXXMethodDecl *md);
  std::optional<AbstractValue>
  callOnTemporary(const clang::CallExpr *e, const clang::CXXMethodDecl *md,
                  const clang::CXXOperatorCallExpr *op, LValue object);
  AbstractValue callUndefined(const clang::CallExpr *e,
                              const clang::FunctionDecl *fd);
  std::optional<AbstractValue> evalCudaCall(const clang::CallExpr *e,
                                            const clang::FunctionDecl *fd,
                                            const std::string &name);
  AbstractValue cudaSuccess(const clang::CallExpr *e) const;
  // `error` (a cudaError_t), as the call's result type.
  AbstractValue cudaResult(const clang::CallExpr *e,
                           core::CudaError error) const;
  void setThrough(const AbstractValue &ptr, AbstractValue v);
  std::optional<AbstractValue> evalCudaMalloc(const clang::CallExpr *e);
  std::optional<AbstractValue> evalCudaMemoryCall(const clang::CallExpr *e,
                                                  const std::string &name);
  std::optional<AbstractValue> evalCudaDeviceQuery(const clang::CallExpr *e,
                                                   const std::string &name);
  std::optional<AbstractValue> evalKnownFunction(const clang::CallExpr *e,
                                                 const std::string &name);
  // Families of evalKnownFunction (HostEvaluatorLibrary.cpp); nullopt for
  // other names.
  std::optional<AbstractValue> evalExitOrAllocation(const clang::CallExpr *e,
                                                    const std::string &name);
  std::optional<AbstractValue> evalMathFunction(const clang::CallExpr *e,
                                                const std::string &name);
  std::optional<AbstractValue> evalMakeVector(const clang::CallExpr *e,
                                              const std::string &name);
  std::optional<AbstractValue> evalStringFunction(const clang::CallExpr *e,
                                                  const std::string &name);
  std::optional<AbstractValue> evalIteratorFunction(const clang::CallExpr *e,
                                                    const std::string &name);
  std::optional<AbstractValue> evalPow(const clang::CallExpr *e,
                                       const std::string &name);
  std::optional<AbstractValue> evalHalfConversion(const clang::CallExpr *e,
                                                  llvm::StringRef name);
  std::optional<AbstractValue> evalStdOptional(const clang::CallExpr *e);
  // CUB's queries of the device it runs on (HostEvaluatorCccl.cpp).
  std::optional<AbstractValue>
  evalCubDeviceQuery(const clang::CallExpr *e, const clang::FunctionDecl *fd);
  AbstractValue optionalFrom(const clang::Expr *from, clang::QualType value);
  std::optional<AbstractValue>
  constructStdOptional(const clang::CXXConstructExpr *e);
  // <random>'s engines and uniform distributions (HostEvaluatorRandom.cpp).
  std::optional<AbstractValue>
  constructStdRandom(const clang::CXXConstructExpr *e);
  std::optional<AbstractValue> evalStdRandom(const clang::CallExpr *e);
  struct RandomCall;
  std::optional<AbstractValue> evalEngineCall(RandomCall &rc,
                                              const clang::Expr *object);
  std::optional<AbstractValue> evalDistributionCall(RandomCall &rc,
                                                    const clang::Expr *object);
  AbstractValue callFunction(const clang::FunctionDecl *fd,
                             const clang::CallExpr *e, unsigned firstArg,
                             int lambdaFrame, LValue object = {});
  int closureFrame(const clang::CallExpr *e, bool op);
  bool returnsTrackedReference(const clang::CallExpr *e) const;
  LValue callReturningReference(const clang::CallExpr *e, AbstractValue &value);
  AbstractValue opaqueCall(const clang::CallExpr *e,
                           const clang::FunctionDecl *fd,
                           const std::string &reason);

  // Storage (HostEvaluatorStorage.cpp).
  LValue lvalueOf(const clang::Expr *e);
  // lvalueOf, by the kind of expression.
  std::optional<LValue> lvalueOfCast(const clang::CastExpr *ic);
  LValue lvalueOfBitCast(const clang::ExplicitCastExpr *ce);
  LValue lvalueOfVariable(const clang::DeclRefExpr *dr);
  LValue lvalueOfMember(const clang::MemberExpr *me);
  LValue lvalueOfElement(const clang::ArraySubscriptExpr *as);
  LValue lvalueOfCall(const clang::CallExpr *ce);
  LValue lvalueOfDeref(const clang::UnaryOperator *uo);
  AbstractValue evalDeclRef(const clang::DeclRefExpr *e);
  AbstractValue evalThis(const clang::Expr *e);
  AbstractValue evalSubscript(const clang::ArraySubscriptExpr *as);
  std::optional<uint64_t> baseLeafOffset(clang::QualType derived,
                                         const clang::CastExpr *cast);
  LValue derivedObject(int baseSlot, const clang::CastExpr *cast);
  int lookup(const clang::VarDecl *vd);
  // The slot a variable is bound to (frames, then globals), without
  // initialising a global reached the first time; -1 if none.
  int boundSlot(const clang::VarDecl *vd) const;
  int newSlot(AbstractValue v);
  AbstractValue &at(int slot);
  const AbstractValue &at(int slot) const;
  bool validSlot(int slot) const;
  AbstractValue load(const LValue &lv) const;
  void storeTo(const LValue &lv, AbstractValue v);
  // Element values of an array variable (one Unknown if it is not tracked).
  std::vector<AbstractValue> arrayElements(const clang::VarDecl *vd,
                                           const clang::ConstantArrayType *at,
                                           const clang::Expr *init);

  // Objects: structs and arrays as flattened slots (HostEvaluatorObjects.cpp).
public:
  // Slots an object of type `t` flattens to; nullopt: not an object kcheck
  // flattens (a scalar, dim3, or an opaque record).
  std::optional<uint64_t> objectLeaves(clang::QualType t) const;
  std::optional<clang::QualType> singleLeafType(clang::QualType t) const;
  bool snapshotReference(clang::QualType t) const;
  // A reference member that aliases its referent (not a snapshot): its leaf
  // holds the referent's address (addressOf).
  bool aliasingReference(clang::QualType t) const;
  AbstractValue addressOf(const clang::Expr *e);
  LValue referentOf(const AbstractValue &ref, clang::QualType refType);
  // The byte layout of those leaves, for a struct passed to a kernel by
  // value: one entry per leaf (dim3: three), in leaf order.
  void leafLayout(clang::QualType t, uint64_t offset, const std::string &path,
                  std::vector<ArgField> &out) const;

private:
  std::optional<uint64_t> leafCount(clang::QualType t) const;
  bool opaqueRecord(const clang::RecordDecl *rd) const;
  // Leaf index of field `fd` in its record.
  uint64_t fieldLeaf(const clang::FieldDecl *fd) const;
  // The leaves of a new object of type `t` initialised by `init` (null:
  // default-initialised; `zero`: static storage).
  std::vector<AbstractValue> initObject(clang::QualType t,
                                        const clang::Expr *init, bool zero,
                                        const std::string &name);
  // Runs a constructor with a body on an object of `t` whose leaves are
  // `leaves`.
  // Runs `e`'s constructor (or `inherited`, a base's constructor that a
  // `using Base::Base` forwards the same arguments to) over `leaves`.
  void construct(const clang::CXXConstructExpr *e, clang::QualType t,
                 std::vector<AbstractValue> &leaves,
                 const clang::CXXConstructorDecl *inherited = nullptr);
  void constructInherited(const clang::CXXConstructExpr *e,
                          const clang::CXXConstructorDecl *ctor,
                          std::vector<AbstractValue> &leaves);
  void runConstructor(const clang::CXXConstructExpr *e,
                      const clang::CXXConstructorDecl *cd, clang::QualType t,
                      std::vector<AbstractValue> &leaves);
  void initMembers(const clang::CXXConstructorDecl *cd,
                   const clang::RecordDecl *rd, int self);
  std::vector<AbstractValue> initObjectByDefault(clang::QualType t,
                                                 bool valueInitialised,
                                                 bool zero,
                                                 const std::string &name);
  std::vector<AbstractValue> initObjectFromList(clang::QualType t,
                                                const clang::InitListExpr *il,
                                                const std::string &name);
  // A new object's slots, filled from `v` (its leaves, else Unknown).
  int newObject(clang::QualType t, const AbstractValue &v);
  AbstractValue loadObject(int slot, int leaves) const;
  // `new T`, `new T[n]`: small heap objects and arrays are tracked slots
  // (they outlive frames: kept with the globals); others a host pointer.
  AbstractValue evalNew(const clang::CXXNewExpr *e);
  // OpenMP (HostEvaluatorOpenMP.cpp): the parallel regions being run,
  // innermost last, and omp_set_num_threads's value (-1: not known).
  struct OmpTeam {
    int64_t threads = 1, thread = 0;
  };
  std::vector<OmpTeam> ompTeams_;
  std::optional<int64_t> ompNumThreads_;
  std::set<int> notedOmp_;
  int64_t ompDefaultThreads() const;
  Flow execOmp(const clang::OMPExecutableDirective *d);
  Flow execOmpParallel(const clang::OMPExecutableDirective *d,
                       const clang::Stmt *body, bool once);
  std::optional<AbstractValue> evalOmpFunction(const clang::CallExpr *e,
                                               const std::string &name);
  // Stream capture and graphs (HostEvaluatorGraphs.cpp): the launches
  // recorded since cudaStreamBeginCapture, and the recorded graphs, by
  // handle.
  std::optional<std::vector<HostLaunch>> capture_;
  // Where a kernel node's launch goes while it is made (a graph's nodes).
  std::vector<HostLaunch> *nodeTarget_ = nullptr;
  // Nodes by handle: their graph and position in its launches (-1: a node
  // that makes no launch).
  struct GraphNode {
    size_t graph = 0;
    int64_t index = -1;
  };
  std::vector<GraphNode> nodes_;
  // Graph and node handles: an index past a base no pointer the evaluator
  // makes has (host pointers are HostValue::hostPtr(), not integers).
  static constexpr int64_t kGraphHandleBase = int64_t(1) << 40,
                           kNodeHandleBase = int64_t(1) << 41;
  std::optional<size_t> graphOf(const AbstractValue &v) const;
  AbstractValue graphHandle(size_t id) const;
  std::optional<AbstractValue> evalGraphNodeCall(const clang::CallExpr *e,
                                                 const std::string &name);
  // cudaLaunchKernelEx and cudaLaunchKernelExC (HostEvaluatorGraphNodes.cpp).
  std::optional<AbstractValue> evalLaunchKernelEx(const clang::CallExpr *e,
                                                  const std::string &name);
  // The launch a kernel node of `params` makes; nullopt with `refusal` when
  // the GPU refuses it, else with `why` when it is not known.
  std::optional<HostLaunch>
  kernelNodeLaunch(const clang::CallExpr *e, const AbstractValue &params,
                   std::optional<core::LaunchRefusal> &refusal,
                   std::string &why);
  std::vector<std::vector<HostLaunch>> graphs_;
  std::set<size_t> graphsLaunched_;
  std::optional<AbstractValue> evalCudaGraphCall(const clang::CallExpr *e,
                                                 const std::string &name);
  // CUDA arrays and texture and surface objects (HostEvaluatorTextures.cpp),
  // by core/TextureRules.h's rules.
  std::optional<AbstractValue> evalTextureCall(const clang::CallExpr *e,
                                               const std::string &name);
  struct DescriptorReader;
  AbstractValue createTextureObject(const clang::CallExpr *e, bool surface);
  bool followedToolkitFunction(const clang::FunctionDecl *fd) const;
  void noteCopy(const HostValue &dst, const HostValue &src);
  // The copy the cudaMemcpy3DParms `params` (argument `arg` of `e`,
  // evaluated) describes.
  void noteCopy3D(const clang::CallExpr *e, unsigned arg,
                  const AbstractValue &params);
  int addAllocation(const clang::CallExpr *e, const AbstractValue *target,
                    HostAllocation a);
  std::optional<AbstractValue> evalArrayAllocation(const clang::CallExpr *e,
                                                   const std::string &name);
  core::textures::ArrayLookup arrayLookup() const;
  std::optional<AbstractValue> evalMemset(const clang::CallExpr *e,
                                          const std::string &name);
  // std::vector (HostEvaluatorVector.cpp).
  std::optional<unsigned> vectorLeaves(clang::QualType vector) const;
  AbstractValue makeVector(int64_t size, std::vector<AbstractValue> leaves);
  std::vector<AbstractValue> vectorElementFrom(clang::QualType vector,
                                               const clang::Expr *init);
  bool vectorTracked(const AbstractValue &v, unsigned per) const;
  std::vector<AbstractValue> vectorContents(const AbstractValue &v,
                                            unsigned per) const;
  std::optional<AbstractValue>
  constructStdVector(const clang::CXXConstructExpr *e);
  struct VectorCall;
  std::optional<VectorCall> vectorCall(const clang::CallExpr *e) const;
  std::optional<AbstractValue> evalStdVector(const clang::CallExpr *e);
  std::optional<LValue> lvalueOfVectorElement(const clang::CallExpr *e);
  /// The first slot of each element of a tracked std::vector, for a
  /// range-for; `per`: the slots an element takes.
  std::optional<std::vector<int>> vectorSlots(const clang::Expr *range,
                                              int &per);
  void nameAllocation(const AbstractValue &v, const clang::VarDecl *vd,
                      clang::SourceLocation loc);

  void tick() { ++steps_; }
  // True when this evaluator has used kMaxStackBytes of the thread's stack:
  // deep recursion in host code (or in an ASan build) must not overflow it.
  bool stackLow() const {
    auto here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
    return stackBase_ > here && stackBase_ - here > kMaxStackBytes;
  }
  bool exhausted() const { return steps_ > options_.maxSteps; }
  // argv[k] of main when `e` reads it (through casts and std::string's
  // constructor) and the program's arguments are known.
  std::optional<std::string> programArgument(const clang::Expr *e);
  // atoi, strtol, std::stoi, atof... of a program argument.
  std::optional<AbstractValue> evalArgumentConversion(const clang::CallExpr *e,
                                                      const std::string &name);
  // sscanf(argv[k], "%d", &n) & co.: numbers and chars scanned from a program
  // argument into the variables the pointers name; nullopt for a format it
  // does not read (strings, sets, a format that is not a literal).
  std::optional<AbstractValue> evalArgumentScan(const clang::CallExpr *e,
                                                const std::string &name);
  // The occupancy API and cudaFuncGetAttributes/SetAttribute
  // (HostEvaluatorKernelQueries.cpp); nullopt for other calls.
  std::optional<AbstractValue> evalKernelQuery(const clang::CallExpr *e,
                                               const std::string &name);
  AbstractValue answerActiveBlocks(
      const clang::CallExpr *e, const std::string &name,
      const std::vector<AbstractValue> &args, const clang::FunctionDecl *kernel,
      const std::optional<core::KernelResources> &r, std::string why);
  AbstractValue answerPotentialBlockSize(
      const clang::CallExpr *e, const std::string &name,
      const std::vector<AbstractValue> &args, const clang::FunctionDecl *kernel,
      const std::optional<core::KernelResources> &r, std::string why);
  void setArgTarget(const std::vector<AbstractValue> &args, unsigned i,
                    AbstractValue v);
  // What the compiler gave `kernel` (ExtractorOptions::kernelResources),
  // with its launch bounds and the dynamic shared limit the program set.
  std::optional<core::KernelResources>
  kernelResources(const clang::FunctionDecl *kernel, std::string &why);
  // Field `field` of the cudaFuncAttributes of `kernel`, as type `type`.
  AbstractValue funcAttribute(const clang::FunctionDecl *kernel,
                              const std::string &field, clang::QualType type);
  void noteKernelQuery(clang::SourceLocation l, std::string note);
  // HostProgram::stoppedBy, if no unknown value could have kept host code
  // from reaching the call `e` that ends the program.
  void recordStop(const clang::Expr *e, const std::string &what);
  // ExtractorOptions::deviceQuery's answer (the first one noted, at `l`).
  std::optional<int64_t> deviceQuery(const std::string &key,
                                     clang::SourceLocation l);
  // False once the budget is spent (noted once, at `l`).
  bool budgetLeft(clang::SourceLocation l);

  clang::ASTContext &ctx_;
  HostProgram &program_;
  const ExtractorOptions &options_;
  LaunchHandler onLaunch_;
  NodeLaunchHandler onNodeLaunch_;

  std::vector<AbstractValue> store_;       // locals and parameters
  std::vector<AbstractValue> globalStore_; // globals and static locals
  std::vector<Frame> frames_;
  uint64_t nextFrameSerial_ = 1;
  // What the last call entered (returnedRefCall_) returned a reference to.
  LValue returnedRef_;
  const clang::CallExpr *returnedRefCall_ = nullptr;
  // A call lvalueOf evaluated without learning what it refers to: its value,
  // for the eval() of the same call that follows (evaluated once).
  std::pair<const clang::CallExpr *, AbstractValue> unusedCall_;
  llvm::DenseMap<const clang::VarDecl *, int> globals_;
  // Allocation id -> frame depth of its name (renamed when returned outward).
  std::vector<unsigned> allocDepth_;
  std::vector<std::string> context_;
  unsigned unevaluatedConditions_ = 0; // of context_
  llvm::DenseMap<const clang::Expr *, std::optional<HostValue>> constCache_;
  llvm::DenseMap<const clang::Stmt *, bool> launchCache_;
  mutable llvm::DenseMap<const clang::Type *, std::optional<uint64_t>>
      leafCache_;
  uint64_t steps_ = 0;
  uintptr_t stackBase_ = 0;     // frame address at runMain
  std::string budgetNote_;      // once the budget is spent
  std::string deviceQueryNote_; // once a device query is answered
  // Per call site, what an occupancy query answered (added at the end).
  std::map<std::string, std::string> kernelQueryNotes_;
  // cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, v)
  llvm::DenseMap<const clang::FunctionDecl *, uint64_t> maxDynamicShared_;
  llvm::DenseSet<const clang::FunctionDecl *> nonPortableClusters_;
  std::unique_ptr<clang::MangleContext> mangler_; // kernels' device names
  bool exitRequested_ = false;
  bool graphNoted_ = false; // the note that graphs are not followed
  // Both arms of an unknown `?:`/`&&`/`||` being evaluated; and whether a
  // branch that left was ever dropped (the path followed is then one of
  // several): a stop seen then is not certain.
  int speculative_ = 0;
  bool pathDropped_ = false;
  unsigned walkingOnce_ = 0; // inside the single walk of an unfollowed loop
  // The innermost statement a `break` leaves is a `do { ... } while (0)`:
  // there `if (error) break;` is an error exit, like an early return (CUB's
  // and many CUDA_CHECK macros' idiom).
  bool breakLeavesOnceLoop_ = false;
  // The innermost statement a `break` leaves is a loop with launches.
  bool breakLeavesLaunchLoop_ = false;
  struct BreakTarget { // sets breakLeavesOnceLoop_ for a statement's body
    bool &flag;
    bool saved;
    BreakTarget(bool &f, bool onceLoop) : flag(f), saved(f) { f = onceLoop; }
    ~BreakTarget() { flag = saved; }
  };
};

} // namespace kcheck::analyzer

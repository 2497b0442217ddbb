#include "simulator/Predictor.h"

#include "core/DeviceFacts.h"
#include "core/Occupancy.h"
#include "core/RuntimeRules.h"
#include "core/SourcePath.h"
#include "simulator/BlockClasses.h"
#include "simulator/RepeatedLaunches.h"
#include "simulator/models/GlobalSectorModel.h"
#include "simulator/models/SassMemoryClass.h"
#include "simulator/models/SharedBankModel.h"

#include <algorithm>
#include <map>

namespace kcheck::sim {

namespace {

using core::Metric;

/// Accumulates the models' costs per instruction. One per launch.
class CountingSink : public EventSink {
public:
  CountingSink(const core::ArchSpec &arch, LaunchResult &out,
               const std::vector<InstInfo> &insts)
      : banks_(arch), sectors_(arch), sectorBytes_(arch.sectorBytes),
        out_(out) {
    out_.perInst.resize(insts.size());
    for (const InstInfo &info : insts)
      countedInLoadStore_.push_back(
          countedInLoadStoreMetrics(sassMemoryClassOf(info.ptxInstruction)));
  }

  void beginBlock(const core::Dim3 &block, bool recordIterations) {
    block_ = block;
    recordIterations_ = recordIterations;
    ordinals_.clear();
  }

  void onAccess(const WarpAccess &a) override {
    WarpAddresses w{a.bytesPerLane, a.activeMask, a.addrs,
                    a.kind == AccessKind::Store};
    InstStats &s = out_.perInst[a.instId];
    unsigned lanes = unsigned(__builtin_popcount(a.activeMask));
    // LDGSTS and LDSM feed other counters than the ld/st ones
    // (models/SassMemoryClass.h).
    if (!countedInLoadStore_[a.instId])
      return;
    if (a.space == MemSpace::Shared && a.kind != AccessKind::Atomic) {
      SharedCost c = banks_.cost(w);
      bool load = a.kind == AccessKind::Load;
      out_.total[load ? Metric::SharedLdInst : Metric::SharedStInst] += 1;
      out_.total[load ? Metric::SharedLdWavefronts
                      : Metric::SharedStWavefronts] += c.wavefronts;
      out_.total[load ? Metric::SharedLdPredOn : Metric::SharedStPredOn] +=
          lanes;
      SharedAccessStats &st = s.shared;
      st.executions++;
      st.wavefronts += c.wavefronts;
      st.ideal += c.ideal;
      st.activeLanes += lanes;
      uint32_t degree = c.degree();
      st.maxDegree = std::max(st.maxDegree, degree);
      if (degree > 1) {
        st.conflictedExecutions++;
        if (st.minConflictDegree == 0 || degree < st.minConflictDegree)
          st.minConflictDegree = degree;
      }
      if (c.wavefronts > st.worst.wavefronts ||
          (c.wavefronts == st.worst.wavefronts && c.ideal < st.worst.ideal)) {
        std::copy(a.addrs, a.addrs + 32, st.worst.addrs.begin());
        st.worst.activeMask = a.activeMask;
        st.worst.wavefronts = c.wavefronts;
        st.worst.ideal = c.ideal;
        st.worst.block = block_;
        st.worst.warp = currentWarp(a);
      }
      if (recordIterations_) {
        unsigned k = ordinals_[{a.instId, currentWarp(a)}]++;
        if (st.degreeByExecution.size() <= k)
          st.degreeByExecution.resize(k + 1, 0);
        st.degreeByExecution[k] = std::max(st.degreeByExecution[k], degree);
      }
    } else if (a.space == MemSpace::Global && a.kind != AccessKind::Atomic) {
      GlobalCost c = sectors_.cost(w);
      bool load = a.kind == AccessKind::Load;
      out_.total[load ? Metric::GlobalLdInst : Metric::GlobalStInst] += 1;
      out_.total[load ? Metric::GlobalLdSectors : Metric::GlobalStSectors] +=
          c.sectors;
      out_.total[load ? Metric::GlobalLdPredOn : Metric::GlobalStPredOn] +=
          lanes;
      recordGlobal(s.global, a, c, lanes);
    }
  }

  void onBranch(const BranchEvent &b) override {
    BranchStats &st = out_.perInst[b.instId].branch;
    uint32_t taken = b.takenMask & b.activeMask;
    bool divergent = taken != 0 && taken != b.activeMask;
    st.executions++;
    st.divergentExecutions += divergent;
    st.activeLanes += unsigned(__builtin_popcount(b.activeMask));
    st.takenLanes += unsigned(__builtin_popcount(taken));
    if (recordIterations_) {
      unsigned k = ordinals_[{b.instId, b.warp}]++;
      if (st.divergentWarpsByExecution.size() <= k)
        st.divergentWarpsByExecution.resize(k + 1, 0);
      st.divergentWarpsByExecution[k] += divergent;
    }
  }

  void onBarrier(const BarrierEvent &b) override {
    if (b.warpLevel) // __syncwarp: racecheck's, not a block barrier
      return;
    BarrierStats &st = out_.perInst[b.instId].barrier;
    uint32_t missing = b.liveMask & ~b.activeMask;
    st.arrivals++;
    if (!missing)
      return;
    st.divergentArrivals++;
    if (!st.firstDivergent.missingMask)
      st.firstDivergent = {block_, b.warp, missing};
  }

private:
  static unsigned currentWarp(const WarpAccess &a) { return a.warp; }

  void recordGlobal(GlobalAccessStats &st, const WarpAccess &a,
                    const GlobalCost &c, unsigned lanes) {
    uint64_t laneBytes = uint64_t(lanes) * a.bytesPerLane;
    uint32_t unit = c.transactionBytes ? c.transactionBytes : sectorBytes_;
    uint32_t ideal =
        std::min<uint32_t>(c.sectors, uint32_t((laneBytes + unit - 1) / unit));
    st.executions++;
    st.requests += c.requests;
    st.sectors += c.sectors;
    st.ideal += ideal;
    st.activeLanes += lanes;
    st.usedBytes += c.usedBytes;
    st.excessExecutions += c.sectors > ideal;
    st.broadcastExecutions += lanes > 1 && c.usedBytes == a.bytesPerLane;
    GlobalWarp &w = st.worst;
    if (!w.recorded || c.sectors - ideal > w.sectors - w.ideal) {
      std::copy(a.addrs, a.addrs + 32, w.addrs.begin());
      w.activeMask = a.activeMask;
      w.bytesPerLane = a.bytesPerLane;
      w.sectors = c.sectors;
      w.ideal = ideal;
      w.block = block_;
      w.warp = currentWarp(a);
      w.recorded = true;
    }
  }

  std::vector<bool> countedInLoadStore_; // per instruction
  SharedBankModel banks_;
  GlobalSectorModel sectors_;
  unsigned sectorBytes_;
  LaunchResult &out_;
  core::Dim3 block_;
  bool recordIterations_ = false;
  std::map<std::pair<uint32_t, unsigned>, unsigned> ordinals_;
};

/// Why a launch cannot be simulated within the hardware's and the limits'
/// bounds, found before any block runs; empty when it can.
std::string launchTooLarge(const core::ArchSpec &arch,
                           const DecodedKernel &kernel,
                           const core::LaunchConfig &config,
                           const Limits &limits) {
  // The limits the simulated runtime answers device queries with
  // (core/DeviceFacts.h): a kernel declares at most sharedPerBlock
  // statically, a launch uses at most the opt-in maximum.
  const core::DeviceFacts facts = core::deviceFacts(arch);
  uint64_t staticShared = kernel.staticSharedBytes();
  uint64_t shared = staticShared + config.dynamicSharedBytes;
  uint64_t staticMax = facts.sharedPerBlock;
  if (staticShared > staticMax)
    return kernel.name() + " declares " + std::to_string(staticShared) +
           " bytes of __shared__ memory: a kernel may declare at most " +
           std::to_string(staticMax) + " statically (ptxas rejects it)";
  if (shared > facts.sharedPerBlockOptin)
    return "launch needs " + std::to_string(shared) +
           " bytes of shared memory per block: " + arch.name +
           " allows at most " + std::to_string(facts.sharedPerBlockOptin) +
           " (the launch fails on the GPU)";
  if (shared > limits.maxMemoryBytes)
    return "launch needs more shared memory than --max-memory allows";
  // A cooperative launch keeps every block resident (one runner each): past
  // what the SMs' threads can hold the runtime refuses it.
  if (uint64_t resident = core::maxCoResidentBlocks(
          arch, nullptr, int(config.block.count()), 0);
      config.cooperative && resident && config.grid.count() > resident)
    return "cooperative launch of " + std::to_string(config.grid.count()) +
           " blocks of " + std::to_string(config.block.count()) +
           " threads: " + arch.name + " holds at most " +
           std::to_string(resident) +
           " at once (the launch fails with "
           "cudaErrorCooperativeLaunchTooLarge)";
  if (std::optional<core::LaunchRefusal> refused = core::clusterRefusal(config))
    return refused->why + " (the launch fails on the GPU with "
                          "cudaErrorInvalidClusterSize)";
  if (config.grid.count() > limits.maxLaunchSteps)
    return "launch of " + std::to_string(config.grid.count()) +
           " blocks not simulated: each block costs at least one step and "
           "--max-launch-steps is " +
           std::to_string(limits.maxLaunchSteps) + "; raise it to simulate it";
  return "";
}

// Which blocks run is the driver's choice (simulator/BlockClasses.h); each
// simulated block counts into the result it is given.
class Counter : public BlockCounter {
public:
  Counter(const core::ArchSpec &arch, const std::vector<InstInfo> &insts)
      : arch_(arch), insts_(insts) {}
  EventSink &begin(LaunchResult &into, core::Dim3 block,
                   bool firstBlock) override {
    // A new result may live where an old one did: check its size too.
    if (!sink_ || target_ != &into || into.perInst.size() != insts_.size()) {
      sink_.emplace(arch_, into, insts_);
      target_ = &into;
    }
    sink_->beginBlock(block, firstBlock);
    return *sink_;
  }

  std::unique_ptr<BlockCounter> fork() const override {
    return std::make_unique<Counter>(arch_, insts_);
  }

private:
  const core::ArchSpec &arch_;
  const std::vector<InstInfo> &insts_;
  std::optional<CountingSink> sink_;
  LaunchResult *target_ = nullptr;
};

// With sanitizer checks, every block's events also go through the
// sanitizer's shadow state (one thread: no fork).
class Sanitizing : public BlockCounter {
public:
  Sanitizing(BlockCounter &inner, Sanitizer &sanitizer)
      : inner_(inner), sanitizer_(sanitizer) {}
  EventSink &begin(LaunchResult &into, core::Dim3 block,
                   bool firstBlock) override {
    return sanitizer_.begin(block, inner_.begin(into, block, firstBlock));
  }

private:
  BlockCounter &inner_;
  Sanitizer &sanitizer_;
};

} // namespace

LaunchResult Predictor::run(const DecodedKernel &kernel,
                            const core::LaunchConfig &asLaunched,
                            const std::vector<KernelArg> &args,
                            DeviceMemory &memory, const Limits &limits) {
  // A kernel's __cluster_dims__ are its launches' clusters where the launch
  // names none.
  core::LaunchConfig config = asLaunched;
  config.applyKernelCluster(kernel.clusterDims());
  // A kernel that prints must print again; the sanitizer's shadow state is
  // per launch.
  // A kernel that allocates from the device heap changes it each time.
  bool reusable = reuseRepeats_ && !sanitizer_.any() &&
                  !(printfOut_ && !kernel.printfFormats().empty()) &&
                  !kernel.usesDeviceHeap() && !kernel.usesDeviceRuntime();
  if (!repeats_)
    repeats_ = std::make_shared<RepeatedLaunches>();
  if (reusable) {
    RepeatedLaunches::Replay earlier =
        repeats_->replay(kernel, config, args, limits, memory);
    if (earlier.result) {
      LaunchResult again = *earlier.result;
      again.repeated = true;
      again.blocksSimulated = 0;
      again.blocksIdle = 0;
      again.notes.push_back(
          earlier.restored
              ? "not simulated again: an earlier launch had the same kernel, "
                "configuration and arguments, and the memory it reads and "
                "writes held the same bytes when it began; its counts and "
                "the bytes it left are that launch's"
              : "not simulated again: an earlier launch had the same kernel, "
                "configuration and arguments, and the memory it reads has "
                "not changed since; its counts are that launch's");
      return again;
    }
    repeats_->prepare(kernel, config, args, limits, memory);
  }
  memory.beginAccessLog();
  LaunchResult result = simulate(kernel, config, args, memory, limits);
  // Always ended: it moves the change clock for what the launch wrote.
  DeviceMemory::AccessLog log = memory.endAccessLog();
  if (reusable)
    repeats_->remember(kernel, config, args, limits, log, memory, result);
  return result;
}

LaunchResult Predictor::simulate(const DecodedKernel &kernel,
                                 const core::LaunchConfig &config,
                                 const std::vector<KernelArg> &args,
                                 DeviceMemory &memory,
                                 const Limits &limits) const {
  if (std::string error = launchTooLarge(arch_, kernel, config, limits);
      !error.empty()) {
    LaunchResult refused;
    refused.error = error;
    refused.perInst.resize(kernel.insts().size());
    return refused;
  }
  memory.setLimit(limits.maxMemoryBytes);
  if (kernel.usesDeviceHeap())
    memory.mallocHeap(); // made before blocks run on several threads
  Counter counter(arch_, kernel.insts());
  std::optional<Sanitizer> sanitizer;
  std::optional<Sanitizing> sanitizing;
  if (sanitizer_.any()) {
    sanitizer.emplace(kernel, config, sanitizer_);
    sanitizing.emplace(counter, *sanitizer);
  }
  std::optional<GridDeviceRuntime> deviceRuntime;
  if (kernel.usesDeviceRuntime())
    deviceRuntime.emplace(arch_, memory, config.deviceDepth, deviceContext_);
  if (deviceRuntime)
    deviceRuntime->setLaunch(config);
  BlockClassOptions options;
  options.exhaustive = exhaustive_;
  options.skipIdleBlocks = skipIdleBlocks_ && !sanitizer_.any();
  options.granuleBytes = blockShiftGranule(arch_);
  // The device runtime's calls come in launch order from one thread.
  options.jobs = deviceRuntime ? 1 : jobs_;
  options.deviceRuntime = deviceRuntime ? &*deviceRuntime : nullptr;
  options.progress = progress_;
  options.printfOut = printfOut_;
  options.overruns = overruns_;
  LaunchResult result = runBlockClasses(
      kernel, config, args, memory, limits, options,
      sanitizing ? static_cast<BlockCounter &>(*sanitizing) : counter);
  result.perInst.resize(kernel.insts().size());
  for (const Fault &f : result.overruns)
    result.notes.push_back(
        f.message.substr(0, f.message.find('\n')) + " at " +
        kernel.insts()[f.instId].where() +
        ": counted as the GPU makes it, then the launch went on without "
        "reading or writing there (the first such access of the "
        "instruction)");
  if (sanitizer)
    result.sanitizer =
        std::make_shared<const SanitizerReport>(sanitizer->report());
  if (deviceRuntime) {
    const core::Counters &library = deviceRuntime->libraryCounters();
    result.total += library;
    if (uint64_t n =
            library[Metric::GlobalLdInst] + library[Metric::GlobalStInst])
      result.notes.push_back(
          "counts " + std::to_string(n) +
          " global loads and stores the device runtime's library executes "
          "for the kernel's calls (simulator/DeviceLaunches.h), on no line");
    for (const std::string &what : deviceRuntime->uncounted())
      result.notes.push_back(
          "the device runtime's accesses for " + what +
          " are not counted: that path of the library is not measured "
          "(simulator/DeviceLaunches.h)");
    if (!result.fault)
      result.deviceWork = deviceRuntime->takeWork();
  }
  return result;
}

core::SourceLoc userLocation(const InstInfo &inst,
                             const std::string &mainFile) {
  // The main file as the user named it: Clang's spelling of it may differ
  // (core/SourcePath.h).
  for (const core::SourceLoc &loc : inst.inlineChain)
    if (core::sameSourceFile(loc.file, mainFile))
      return {mainFile, loc.line, loc.col};
  return inst.inlineChain.empty() ? core::SourceLoc{}
                                  : inst.inlineChain.front();
}

namespace {

// The main file's frames of an instruction's inline chain, innermost first.
std::vector<core::SourceLoc> mainFileChain(const InstInfo &inst,
                                           const std::string &mainFile) {
  std::vector<core::SourceLoc> chain;
  for (const core::SourceLoc &loc : inst.inlineChain)
    if (core::sameSourceFile(loc.file, mainFile))
      chain.push_back({mainFile, loc.line, loc.col});
  return chain;
}

} // namespace

std::vector<core::LineReport> rollUpLines(const DecodedKernel &kernel,
                                          const LaunchResult &result,
                                          const std::string &mainFile,
                                          LineView view) {
  // Nsight Compute's source view also credits an inlined call's first line
  // (the callee line of the instance's first instruction) to the call line:
  // reduce_v4's call of warpReduce shows line 64's 3 wavefronts, not 18;
  // reduce_v8's `sum_pack += g_idata_load` the LDG.128 of operator+='s first
  // line. An inline instance is the chain outside its innermost frame.
  using Chain = std::vector<core::SourceLoc>;
  std::map<Chain, unsigned> firstLine;
  if (view == LineView::NsightCompute)
    for (const InstInfo &info : kernel.insts()) {
      Chain chain = mainFileChain(info, mainFile);
      for (size_t k = 0; k + 1 < chain.size(); ++k)
        firstLine.try_emplace(Chain(chain.begin() + k + 1, chain.end()),
                              chain[k].line);
    }

  std::map<std::pair<std::string, unsigned>, core::LineReport> lines;
  for (size_t i = 0; i < result.perInst.size(); ++i) {
    const InstStats &s = result.perInst[i];
    const InstInfo &info = kernel.insts()[i];
    core::SimtCounts simt = simtCounts(s);
    if (simt.warpInst == 0)
      continue;
    std::vector<core::SourceLoc> credited = {userLocation(info, mainFile)};
    if (view == LineView::NsightCompute) {
      Chain chain = mainFileChain(info, mainFile);
      for (size_t k = 0; k + 1 < chain.size(); ++k) {
        auto it = firstLine.find(Chain(chain.begin() + k + 1, chain.end()));
        if (it == firstLine.end() || it->second != chain[k].line)
          break;
        credited.push_back(chain[k + 1]);
      }
    }
    bool load = info.kind == AccessKind::Load;
    for (const core::SourceLoc &loc : credited) {
      core::LineReport &line = lines[{loc.file, loc.line}];
      line.simt += simt;
      core::Counters &c = line.metrics;
      // The same op as the per-launch totals (CountingSink), so a line's
      // pred_on and inst of one op describe the same instructions.
      if (s.shared.executions) {
        c[load ? Metric::SharedLdInst : Metric::SharedStInst] +=
            s.shared.executions;
        c[load ? Metric::SharedLdWavefronts : Metric::SharedStWavefronts] +=
            s.shared.wavefronts;
        c[load ? Metric::SharedLdPredOn : Metric::SharedStPredOn] +=
            s.shared.activeLanes;
      }
      if (s.global.executions) {
        c[load ? Metric::GlobalLdInst : Metric::GlobalStInst] +=
            s.global.executions;
        c[load ? Metric::GlobalLdSectors : Metric::GlobalStSectors] +=
            s.global.sectors;
        c[load ? Metric::GlobalLdPredOn : Metric::GlobalStPredOn] +=
            s.global.activeLanes;
      }
    }
  }
  std::vector<core::LineReport> out;
  for (auto &[key, line] : lines) {
    line.file = key.first;
    line.line = key.second;
    out.push_back(std::move(line));
  }
  return out;
}

core::SimtCounts simtCounts(const InstStats &s) {
  return {s.shared.executions + s.global.executions + s.branch.executions,
          s.shared.activeLanes + s.global.activeLanes + s.branch.activeLanes};
}

core::SimtCounts simtCounts(const LaunchResult &result) {
  core::SimtCounts total;
  for (const InstStats &s : result.perInst)
    total += simtCounts(s);
  return total;
}

} // namespace kcheck::sim

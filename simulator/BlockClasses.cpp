#include "simulator/BlockClasses.h"

#include "simulator/AllBlocks.h"
#include "simulator/ClassMatching.h"
#include "simulator/CoResidentBlocks.h"
#include "simulator/IdleBlocks.h"
#include "simulator/engine/StoreBuffer.h"

#include <algorithm>
#include <deque>
#include <limits>

namespace kcheck::sim {

BlockCounter::~BlockCounter() = default;

namespace {

using namespace classes;
using Check = SymmetryCheck;

/// Blocks simulated before the driver may decide that classes do not pay.
constexpr uint64_t kTrialBlocks = 8;

/// Why the launch's Unreached checks are not sound ("" if they are): a
/// data-dependent pc in a kernel whose blocks talk through global memory,
/// where skipped members' atomics would change what a representative loads.
std::string unsoundUnreached(bool blocksMayRunBuffered,
                             const BlockSymmetry &symmetry) {
  if (blocksMayRunBuffered)
    return "";
  for (const Check &c : symmetry.checks)
    if (c.kind == Check::Kind::Unreached && c.onData)
      return c.what + " (and blocks talk through global atomics or volatile "
                      "loads)";
  return "";
}

/// Appends the notes not already there (two accesses of one line say the
/// same), as an every-block run merges its threads' notes.
void appendNotes(LaunchResult &into, const std::vector<std::string> &notes) {
  for (const std::string &n : notes)
    addNoteOnce(into.notes, n);
}

/// Appends the result of the blocks after the classes' to `into`: counts,
/// notes and overruns (the earlier block's first), and the error.
void appendLaterBlocks(LaunchResult &into, const LaunchResult &later) {
  accumulate(into, later, 1);
  into.blocksSimulated += later.blocksSimulated;
  into.error = later.error;
  into.fault = later.fault;
  appendNotes(into, later.notes);
  into.usedUnseenInput |= later.usedUnseenInput;
  for (const Fault &f : later.overruns)
    if (std::none_of(into.overruns.begin(), into.overruns.end(),
                     [&](const Fault &g) { return g.instId == f.instId; }))
      into.overruns.push_back(f);
}

/// Runs the launch's blocks in order from the first: each joins an open
/// class it matches, or opens one as its representative. `steps` counts a
/// joined block as one, a simulated one as its own; `restFrom` is set where
/// the rest of the blocks are to run as every block does.
LaunchResult runClasses(ClassMatcher &driver, BlockRunner &runner,
                        StoreBuffer *buffer, DeviceMemory &memory,
                        const core::Dim3 &grid, const Limits &limits,
                        const BlockClassOptions &options, BlockCounter &counter,
                        BlockClassReport &rep, uint64_t &steps,
                        uint64_t &restFrom) {
  LaunchResult result;
  std::deque<OpenClass> open;
  auto close = [&](OpenClass &cls) {
    accumulate(result, cls.part, cls.members);
    driver.taintSkippedStores(cls);
  };
  uint64_t total = grid.count();
  uint64_t joinedBlocks = 0;
  for (uint64_t i = 0; i < total; ++i) {
    if (options.progress && i % 256 == 0)
      options.progress(i, total);
    if (++steps > limits.maxLaunchSteps) {
      result.error = launchLimitError(limits, steps, memory);
      break;
    }
    core::Dim3 b = blockAt(i, grid);
    bool joined = false;
    for (OpenClass &cls : open)
      if (driver.matches(cls, b)) {
        driver.join(cls, b);
        joined = true;
        break;
      }
    if (joined) {
      ++joinedBlocks;
      continue;
    }
    if (open.size() >= std::max(1u, options.maxOpenClasses)) {
      close(open.front());
      open.pop_front();
    }
    OpenClass &cls = open.emplace_back();
    cls.rep = b;
    cls.observed.resize(driver.checks().size());
    ProbeSink probes(counter.begin(cls.part, b, i == 0), driver.checks(),
                     driver.checksAt(), cls.observed);
    BlockResult r = runner.runBlock(b, probes);
    if (buffer)
      buffer->commit(memory);
    result.blocksSimulated++;
    rep.classes++;
    if (!r.ok()) {
      result.error = r.fault ? r.fault->message : r.message;
      result.fault = r.fault;
      break;
    }
    steps += r.warpSteps;
    result.error = launchLimitError(limits, steps, memory);
    if (!result.error.empty())
      break;
    if (const Check *c = driver.reachedUnreached(cls)) {
      // It can take no member: free its place for classes that can.
      close(cls);
      open.pop_back();
      if (result.blocksSimulated >= kTrialBlocks &&
          joinedBlocks < result.blocksSimulated) {
        // Most blocks reach what differs between blocks: classes do not pay
        // for their serial run and probes. The rest run as every block does.
        rep.reason = c->what + " (reached by most blocks)";
        rep.classes += total - (i + 1);
        restFrom = i + 1;
        break;
      }
    }
  }
  for (OpenClass &cls : open)
    close(cls);
  return result;
}

} // namespace

unsigned blockShiftGranule(const core::ArchSpec &arch) {
  unsigned granule = std::max({arch.sectorBytes, arch.global.segmentBytes,
                               arch.global.l1LineBytes, 32u});
  if (arch.global.rules != core::GlobalRules::CachedTransactions)
    granule = std::max(granule, 256u);
  return granule;
}

LaunchResult runBlockClasses(const DecodedKernel &kernel,
                             const core::LaunchConfig &config,
                             const std::vector<KernelArg> &args,
                             DeviceMemory &memory, const Limits &limits,
                             const BlockClassOptions &options,
                             BlockCounter &counter, BlockClassReport *report) {
  BlockClassReport localReport;
  BlockClassReport &rep = report ? *report : localReport;
  rep = BlockClassReport();
  if (config.cluster.count() > 1 || kernel.usesClusters()) {
    rep.reason = "thread-block clusters: a cluster's blocks share memory "
                 "and a barrier";
    rep.classes = config.grid.count();
    return runClusters(kernel, config, args, memory, limits, options, counter);
  }
  if (config.cooperative) {
    rep.reason = "a cooperative launch: its blocks wait for each other";
    rep.classes = config.grid.count();
    return runCoResidentBlocks(kernel, config, args, memory, limits, options,
                               counter);
  }
  if (options.exhaustive) {
    rep.reason = "--exhaustive";
    rep.classes = config.grid.count();
    if (options.skipIdleBlocks && blocksMayRunBuffered(kernel)) {
      // Buffered: the Unreached checks are sound (unsoundUnreached).
      IdleBlocks idle(kernel, config, args, memory, limits, options,
                      analyzeBlockSymmetry(kernel, config, args));
      return runAllBlocks(kernel, config, args, memory, limits, options,
                          counter, 0, 0, &idle);
    }
    return runAllBlocks(kernel, config, args, memory, limits, options, counter);
  }
  BlockSymmetry symmetry = analyzeBlockSymmetry(kernel, config, args);
  const bool buffered = blocksMayRunBuffered(kernel);
  if (std::string why = unsoundUnreached(buffered, symmetry); !why.empty()) {
    rep.reason = why;
    rep.classes = config.grid.count();
    return runAllBlocks(kernel, config, args, memory, limits, options, counter);
  }
  rep.provable = true;
  ClassMatcher driver(kernel, memory, options, std::move(symmetry));
  RunnerOptions runnerOptions;
  runnerOptions.probePcs = driver.probePcs();
  runnerOptions.printfOut = options.printfOut;
  runnerOptions.overruns = options.overruns;
  runnerOptions.deviceRuntime = options.deviceRuntime;
  BlockRunner runner(kernel, config, args, memory, limits, runnerOptions);
  // Each block's stores go through a buffer committed when it ends (where
  // blocks do not talk through global memory), as every-block runs do, so a
  // block's reads of what it wrote itself are not reads of its input: the
  // launch stays one that RepeatedLaunches may take again.
  StoreBuffer buffer;
  if (buffered)
    runner.setStoreBuffer(&buffer);

  uint64_t total = config.grid.count();
  uint64_t steps = 0; // a joined block costs one, a simulated one its own
  uint64_t restFrom = total; // blocks from here on run as every block does
  LaunchResult result =
      runClasses(driver, runner, buffered ? &buffer : nullptr, memory,
                 config.grid, limits, options, counter, rep, steps, restFrom);
  appendNotes(result, runner.notes());
  result.usedUnseenInput |= runner.usedUnseenInput();
  result.overruns = runner.overruns();
  if (restFrom < total)
    appendLaterBlocks(result, runAllBlocks(kernel, config, args, memory, limits,
                                           options, counter, restFrom, steps));
  return result;
}

} // namespace kcheck::sim

#include "simulator/AllBlocks.h"

#include "simulator/IdleBlocks.h"
#include "simulator/engine/StoreBuffer.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <memory>
#include <sstream>
#include <thread>

namespace kcheck::sim {

namespace {

std::string failureText(const BlockResult &r) {
  return r.fault ? r.fault->message : r.message;
}

/// Block after block with direct stores: the reference semantics. Blocks
/// that talk through global memory may wait for one another (HeCBench bh's
/// SortKernel spins until a later block has set a cell's start): a block
/// whose every warp spins with nothing changing is parked, with its own
/// runner, and resumed, in launch order, after each later block that
/// completes, as blocks resident alongside it on the GPU would let it go on.
/// A launch whose blocks never wait runs exactly as block after block.
class InOrderRun {
public:
  InOrderRun(const DecodedKernel &kernel, const core::LaunchConfig &config,
             const std::vector<KernelArg> &args, DeviceMemory &memory,
             const Limits &limits, const BlockClassOptions &options,
             BlockCounter &counter, uint64_t steps)
      : kernel(kernel), config(config), args(args), memory(memory),
        limits(limits), options(options), counter(counter), steps(steps) {
    runnerOptions.printfOut = options.printfOut;
    runnerOptions.overruns = options.overruns;
    runnerOptions.deviceRuntime = options.deviceRuntime;
    runnerOptions.coResident = true;
    // Most such launches never wait (CUB's look-back finds its predecessor
    // done): a rare check keeps them as fast as block after block, and a
    // waiting block is still parked within some 64 K warp instructions; once
    // parked, it checks as often as a cooperative launch's blocks.
    runnerOptions.waitCheckSteps = 1u << 16;
    runnerOptions.waitCheckAfterPolls = false;
  }

  LaunchResult run(uint64_t firstBlock) {
    std::unique_ptr<BlockRunner> runner = newRunner();
    uint64_t total = config.grid.count();
    for (uint64_t i = firstBlock; i < total && result.error.empty(); ++i) {
      if (options.progress && i % 256 == 0)
        options.progress(i, total);
      core::Dim3 b = blockAt(i, config.grid);
      if (!runner)
        runner = newRunner();
      BlockResult r = runner->runBlock(b, counter.begin(result, b, i == 0));
      steps += std::max<uint64_t>(r.warpSteps, 1);
      if (r.status == BlockResult::Status::Waiting) {
        runner->checkWaitsOften();
        parked.push_back({i, std::move(runner), r.warpSteps, r.message});
        continue;
      }
      if (!finish(r))
        break;
      // Only a block that stored something can let a waiting one go on.
      if (!parked.empty() && r.wroteMemory)
        resumeParked();
    }
    resumeParked();
    if (result.error.empty() && !parked.empty())
      result.error = "the launch never ends: every block left spins with "
                     "nothing changing, and no block is left to change it (on "
                     "a GPU it would hang); " +
                     parked.front().where;
    for (const Parked &w : parked)
      reports.add(*w.runner);
    if (runner)
      reports.add(*runner);
    reports.mergeInto(result, config.grid);
    return std::move(result);
  }

private:
  struct Parked {
    uint64_t index;
    std::unique_ptr<BlockRunner> runner;
    uint64_t steps; // the block's warp instructions so far
    std::string where;
  };

  std::unique_ptr<BlockRunner> newRunner() {
    return std::make_unique<BlockRunner>(kernel, config, args, memory, limits,
                                         runnerOptions);
  }

  // Ends a block: false when the launch stops there.
  bool finish(const BlockResult &r) {
    result.blocksSimulated++;
    if (!r.ok()) {
      result.error = failureText(r);
      result.fault = r.fault;
      return false;
    }
    result.error = launchLimitError(limits, steps, memory);
    return result.error.empty();
  }

  // Resumes the parked blocks in launch order until none goes on.
  void resumeParked() {
    for (bool again = true; again && result.error.empty();) {
      again = false;
      for (size_t p = 0; p < parked.size() && result.error.empty();) {
        Parked &w = parked[p];
        core::Dim3 b = blockAt(w.index, config.grid);
        BlockResult r = w.runner->resumeBlock(counter.begin(result, b, false));
        steps += std::max<uint64_t>(r.warpSteps - w.steps, 1);
        w.steps = r.warpSteps;
        if (r.status == BlockResult::Status::Waiting) {
          again |= r.wroteMemory;
          w.where = r.message;
          ++p;
          continue;
        }
        finish(r);
        reports.add(*w.runner);
        parked.erase(parked.begin() + std::ptrdiff_t(p));
        again = true;
      }
    }
  }

  const DecodedKernel &kernel;
  const core::LaunchConfig &config;
  const std::vector<KernelArg> &args;
  DeviceMemory &memory;
  const Limits &limits;
  const BlockClassOptions &options;
  BlockCounter &counter;
  uint64_t steps;
  RunnerOptions runnerOptions;
  LaunchResult result;
  RunnerReports reports;
  std::vector<Parked> parked;
};

LaunchResult runInOrder(const DecodedKernel &kernel,
                        const core::LaunchConfig &config,
                        const std::vector<KernelArg> &args,
                        DeviceMemory &memory, const Limits &limits,
                        const BlockClassOptions &options, BlockCounter &counter,
                        uint64_t firstBlock, uint64_t steps) {
  return InOrderRun(kernel, config, args, memory, limits, options, counter,
                    steps)
      .run(firstBlock);
}

/// One thread's share of a window.
struct Slice {
  uint64_t begin = 0, end = 0;
  LaunchResult part;
  std::string error; // the slice stopped at its last block
  std::optional<Fault> fault;
  IdleBlocks::Skipped skipped; // blocks not run, by idle representative
};

void runSlice(Slice &slice, BlockRunner &runner, BlockCounter &counter,
              const core::Dim3 &grid, std::atomic<uint64_t> &launchSteps,
              std::atomic<uint64_t> &firstFailure, const Limits &limits,
              const IdleBlocks *idle, IdleBlocks::Learner *learner) {
  for (uint64_t i = slice.begin; i < slice.end; ++i) {
    // A block that failed earlier in launch order ends the launch there:
    // what later blocks would count is dropped, so do not run them.
    if (i > firstFailure.load(std::memory_order_relaxed))
      return;
    core::Dim3 b = blockAt(i, grid);
    if (auto *r = idle ? idle->representative(b, *learner) : nullptr) {
      IdleBlocks::note(slice.skipped, r);
      if (launchSteps.fetch_add(1) >= limits.maxLaunchSteps)
        return;
      continue;
    }
    EventSink &sink = counter.begin(slice.part, b, i == 0);
    std::optional<IdleBlocks::Watch> watch;
    if (idle)
      watch.emplace(sink);
    BlockResult r = runner.runBlock(b, watch ? *watch : sink);
    slice.part.blocksSimulated++;
    if (watch && watch->idle() && r.ok())
      idle->learn(i, *learner, counter);
    if (!r.ok()) {
      slice.error = failureText(r);
      slice.fault = r.fault;
      uint64_t seen = firstFailure.load();
      while (i < seen && !firstFailure.compare_exchange_weak(seen, i)) {
      }
      return;
    }
    // Every slice stops soon after the launch's budget is spent; which
    // block noticed first does not matter, the launch's counts are dropped.
    if (launchSteps.fetch_add(std::max<uint64_t>(r.warpSteps, 1)) >=
        limits.maxLaunchSteps)
      return;
  }
}

} // namespace

std::string launchLimitError(const Limits &limits, uint64_t steps,
                             const DeviceMemory &memory) {
  if (steps > limits.maxLaunchSteps)
    return "launch stopped after " + std::to_string(limits.maxLaunchSteps) +
           " warp instructions (each block costs at least one): raise "
           "--max-launch-steps to simulate it whole";
  if (memory.overLimit() || memory.backedBytes() > limits.maxMemoryBytes)
    return "launch stopped: the simulated memory it touched passed " +
           std::to_string(limits.maxMemoryBytes >> 20) +
           " MB: raise --max-memory to simulate it whole";
  return "";
}

void addNoteOnce(std::vector<std::string> &notes, std::string text) {
  if (std::find(notes.begin(), notes.end(), text) == notes.end())
    notes.push_back(std::move(text));
}

bool blocksMayRunBuffered(const DecodedKernel &kernel) {
  const std::vector<bc::Inst> &code = kernel.code();
  for (size_t pc = 0; pc < code.size(); ++pc) {
    const bc::Inst &in = code[pc];
    if ((in.op == bc::Op::AtomicRmw || in.op == bc::Op::CmpXchg) &&
        in.sub != bc::kSharedAS)
      return false;
    // A volatile or atomic load of global memory waits on, or reads, what
    // other blocks store (a flag, CUB's decoupled look-back): it must see
    // the earlier blocks' stores, as it would on the GPU.
    if (in.op == bc::Op::Load && in.sub != bc::kSharedAS &&
        in.sub != bc::kLocalAS && kernel.insts()[pc].isVolatile)
      return false;
  }
  return true;
}

namespace {

// One runner per thread, each storing into its buffer and printing into
// its stream.
std::vector<std::unique_ptr<BlockRunner>>
makeRunners(const DecodedKernel &kernel, const core::LaunchConfig &config,
            const std::vector<KernelArg> &args, DeviceMemory &memory,
            const Limits &limits, const BlockClassOptions &options,
            std::vector<StoreBuffer> &buffers,
            std::vector<std::ostringstream> &printed, const IdleBlocks *idle) {
  std::vector<std::unique_ptr<BlockRunner>> runners;
  for (unsigned t = 0; t < buffers.size(); ++t) {
    RunnerOptions runnerOptions;
    if (idle)
      runnerOptions.probePcs = idle->watchPcs();
    if (options.printfOut)
      runnerOptions.printfOut = &printed[t];
    runnerOptions.overruns = options.overruns;
    // One thread only (the Predictor's jobs): the runtime is not shared.
    runnerOptions.deviceRuntime = options.deviceRuntime;
    runners.push_back(std::make_unique<BlockRunner>(
        kernel, config, args, memory, limits, runnerOptions));
    runners.back()->setStoreBuffer(&buffers[t]);
  }
  return runners;
}

void mergeSlices(LaunchResult &result, std::vector<Slice> &slices,
                 std::vector<StoreBuffer> &buffers,
                 std::vector<std::ostringstream> &printed, DeviceMemory &memory,
                 const BlockClassOptions &options) {
  // Merge in launch order; a failing block ends the launch there, as it
  // would block after block: later slices are dropped.
  for (unsigned t = 0; t < slices.size(); ++t) {
    if (!result.error.empty()) {
      buffers[t].discard();
      printed[t].str("");
      continue;
    }
    accumulate(result, slices[t].part, 1);
    IdleBlocks::count(result, slices[t].skipped);
    result.blocksSimulated += slices[t].part.blocksSimulated;
    buffers[t].commit(memory);
    if (options.printfOut) {
      *options.printfOut << printed[t].str();
      printed[t].str("");
    }
    result.error = slices[t].error;
    result.fault = slices[t].fault;
  }
}

} // namespace

LaunchResult runAllBlocks(const DecodedKernel &kernel,
                          const core::LaunchConfig &config,
                          const std::vector<KernelArg> &args,
                          DeviceMemory &memory, const Limits &limits,
                          const BlockClassOptions &options,
                          BlockCounter &counter, uint64_t firstBlock,
                          uint64_t stepsSoFar, IdleBlocks *idle) {
  if (!blocksMayRunBuffered(kernel))
    return runInOrder(kernel, config, args, memory, limits, options, counter,
                      firstBlock, stepsSoFar);
  uint64_t total = config.grid.count();
  // Buffered stores even on one thread: the result must not depend on --jobs.
  unsigned jobs = unsigned(std::clamp<uint64_t>(
      options.jobs, 1,
      std::max<uint64_t>(total - std::min(firstBlock, total), 1)));
  std::vector<std::unique_ptr<BlockCounter>> forks;
  std::vector<BlockCounter *> counters{&counter};
  for (unsigned t = 1; t < jobs; ++t) {
    forks.push_back(counter.fork());
    if (!forks.back())
      break;
    counters.push_back(forks.back().get());
  }
  jobs = unsigned(counters.size());
  // Runners are built here, on one thread: their construction allocates the
  // module's symbols in memory.
  std::vector<StoreBuffer> buffers(jobs);
  // Each thread's device printf output, appended in launch order with its
  // slice's stores.
  std::vector<std::ostringstream> printed(jobs);
  std::vector<std::unique_ptr<BlockRunner>> runners = makeRunners(
      kernel, config, args, memory, limits, options, buffers, printed, idle);
  std::vector<std::unique_ptr<IdleBlocks::Learner>> learners;
  for (unsigned t = 0; idle && t < jobs; ++t)
    learners.push_back(idle->learner());

  LaunchResult result;
  std::atomic<uint64_t> steps = stepsSoFar;
  std::atomic<uint64_t> firstFailure = std::numeric_limits<uint64_t>::max();
  for (uint64_t w0 = firstBlock; w0 < total && result.error.empty();
       w0 += kWindowBlocks) {
    if (options.progress)
      options.progress(w0, total);
    uint64_t w1 = std::min(total, w0 + kWindowBlocks);
    std::vector<Slice> slices(jobs);
    for (unsigned t = 0; t < jobs; ++t) {
      slices[t].begin = w0 + (w1 - w0) * t / jobs;
      slices[t].end = w0 + (w1 - w0) * (t + 1) / jobs;
    }
    {
      std::vector<std::jthread> helpers;
      for (unsigned t = 1; t < jobs; ++t)
        helpers.emplace_back([&, t] {
          runSlice(slices[t], *runners[t], *counters[t], config.grid, steps,
                   firstFailure, limits, idle,
                   idle ? learners[t].get() : nullptr);
        });
      runSlice(slices[0], *runners[0], *counters[0], config.grid, steps,
               firstFailure, limits, idle, idle ? learners[0].get() : nullptr);
    } // joins the helpers
    mergeSlices(result, slices, buffers, printed, memory, options);
    if (result.error.empty())
      result.error = launchLimitError(limits, steps, memory);
    if (idle)
      idle->share(learners);
  }
  RunnerReports reports;
  for (const auto &runner : runners)
    reports.add(*runner);
  reports.mergeInto(result, config.grid);
  return result;
}

void RunnerReports::add(const BlockRunner &runner) {
  auto mine = runner.notesByBlock();
  notes.insert(notes.end(), mine.begin(), mine.end());
  auto faults = runner.overruns();
  overruns.insert(overruns.end(), faults.begin(), faults.end());
  usedUnseenInput |= runner.usedUnseenInput();
}

void RunnerReports::mergeInto(LaunchResult &result, const core::Dim3 &grid) {
  result.usedUnseenInput |= usedUnseenInput;
  std::stable_sort(
      notes.begin(), notes.end(),
      [](const auto &a, const auto &b) { return a.first < b.first; });
  for (auto &[block, text] : notes)
    addNoteOnce(result.notes, std::move(text));
  auto linear = [&](const core::Dim3 &b) {
    return b.x + uint64_t(grid.x) * (b.y + uint64_t(grid.y) * b.z);
  };
  for (const Fault &f : overruns) {
    auto same =
        std::find_if(result.overruns.begin(), result.overruns.end(),
                     [&](const Fault &g) { return g.instId == f.instId; });
    if (same == result.overruns.end())
      result.overruns.push_back(f);
    else if (linear(f.block) < linear(same->block))
      *same = f;
  }
  std::stable_sort(result.overruns.begin(), result.overruns.end(),
                   [&](const Fault &a, const Fault &b) {
                     return linear(a.block) < linear(b.block);
                   });
}

} // namespace kcheck::sim

#include "driver/Session.h"

#include "analyzer/host/LaunchExtractor.h"
#include "analyzer/toolchain/DeviceCompiler.h"
#include "analyzer/toolchain/KernelResourceUsage.h"
#include "core/ArchSpec.h"
#include "core/DeviceFacts.h"
#include "driver/LaunchBranches.h"
#include "driver/LaunchFaults.h"
#include "driver/LibraryLaunches.h"
#include "driver/Progress.h"
#include "driver/StaticLaunches.h"
#include "host/HostDevice.h"

#include "simulator/engine/DecodedKernel.h"
#include <fmt/format.h>

#include "simulator/engine/Decode.h"
#include "clang/AST/ASTConsumer.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <map>
#include <set>
#include <thread>

namespace kcheck::driver {

namespace {

using analyzer::HostLaunch;
using analyzer::HostProgram;
using analyzer::HostValue;

std::string launchText(const core::LaunchReport &l) {
  auto dim = [](const core::Dim3 &d) {
    if (d.y == 1 && d.z == 1)
      return std::to_string(d.x);
    return "(" + core::toString(d) + ")";
  };
  std::string s =
      l.kernel + "<<<" + dim(l.config.grid) + ", " + dim(l.config.block);
  if (l.config.dynamicSharedBytes)
    s += ", " + std::to_string(l.config.dynamicSharedBytes);
  return s + ">>>";
}

} // namespace

namespace {

/// One static analysis, step by step: compile, choose the launches,
/// simulate each, say what static extraction could not see.
class StaticAnalysis {
public:
  StaticAnalysis(const Options &options, Session &s)
      : options_(options), s_(s), builder_(options, host_, memory_),
        predictor_(s.arch, options.exhaustive), progress_(!options.quiet) {}

  bool compile(const std::optional<std::string> &mainFileText);
  /// The program's launches --kernel selects, or the command line's one;
  /// false when there is nothing to simulate.
  bool chooseLaunches();
  /// False when a kernel could not be decoded (s_.errors says why).
  bool simulateLaunches();
  void noteWhatWasNotSeen();

private:
  bool simulate(const HostLaunch &hl, core::LaunchReport &lr,
                SimulatedLaunch &sl);
  /// Simulates a launch of `fn` whose configuration lr.config holds.
  bool run(const llvm::Function &fn, const std::vector<sim::KernelArg> &args,
           core::LaunchReport &lr, SimulatedLaunch &sl);
  /// The launches the grid of s_.launches[parent] made from the device,
  /// after it (simulator/DeviceLaunches.h), each reported after its parent.
  bool simulateDeviceWork(size_t parent);
  std::shared_ptr<const sim::DecodedKernel> decoded(const llvm::Function &fn,
                                                    const std::string &name);

  const Options &options_;
  Session &s_;
  HostProgram host_;
  analyzer::CompiledModule cm_;
  sim::DeviceMemory memory_;
  LaunchBuilder builder_;
  sim::Predictor predictor_;
  Progress progress_;
  std::vector<const HostLaunch *> chosen_;
  HostLaunch commandLineLaunch_;
  std::vector<bool> unevaluated_;   // per launch: HostLaunch::unevaluated
  std::optional<int> contextFault_; // the launch the GPU faulted in
  int nextDeviceLaunch_ = 0;        // index of the next launch made by a kernel
  std::set<std::string> launchedByKernels_; // mangled
  std::map<std::string, std::shared_ptr<const sim::DecodedKernel>> decoded_;
  // Per kernel, for the divergence check and the SASS branch prediction.
  std::map<std::string,
           std::shared_ptr<const std::vector<analyzer::StaticBranch>>>
      staticBranches_;
};

bool StaticAnalysis::compile(const std::optional<std::string> &mainFileText) {
  const core::ArchSpec &arch = s_.arch;
  analyzer::CompileOptions copts;
  // Clang compiles nothing older than sm_20; cc1.x kernels are compiled as
  // sm_20 (same IR memory operations) and the cc1.x models count them.
  copts.arch = arch.major < 2 ? "sm_20" : options_.arch;
  copts.extraClangArgs = options_.clangArgs;
  copts.mainFileText = mainFileText;
  if (!chooseCudaHeaders(options_, arch, copts.toolkit, s_.report.cudaHeaders,
                         s_.errors))
    return false;
  copts.keepLibdeviceDeclaration = sim::executesNatively;
  // Registers and the like come from the toolkit's compiler, asked only if
  // the program queries occupancy or a kernel's attributes.
  analyzer::KernelResourceUsage resources(copts.toolkit, options_.file,
                                          copts.arch, options_.clangArgs);
  // As if run with the program's arguments: none (argc 1) unless
  // --program-args gives them, on the GPU --arch names.
  const Options &options = options_;
  auto extractLaunches = [&options, &arch, &resources](HostProgram &into,
                                                       bool followLibraries) {
    return [&into, &options, &arch, &resources,
            followLibraries](clang::CompilerInstance &) {
      analyzer::ExtractorOptions extractor;
      extractor.programArgs = options.programArgs;
      extractor.deviceQuery = [arch](const std::string &name) {
        return core::deviceFact(arch, name);
      };
      extractor.arch = arch;
      extractor.kernelResources = [&resources](const std::string &kernel,
                                               std::string &why) {
        return resources.of(kernel, why);
      };
      extractor.followLibraries = followLibraries;
      return analyzer::makeLaunchExtractor(into, extractor);
    };
  };
  Session &s = s_;
  cm_ = analyzer::compileDevice(
      options_.file, copts,
      {extractLaunches(host_, false), [&s](clang::CompilerInstance &) {
         return analyzer::makeFixCandidatesConsumer(s.fixCandidates);
       }});
  s_.clangDiagnostics = cm_.diagnostics;
  if (!cm_.ok || !cm_.module)
    return false;
  copts.relocatableDeviceCode = cm_.relocatable;
  if (cm_.relocatableAdded)
    host_.notes.push_back(analyzer::kRelocatableAddedNote);
  // Only where the program's own code launches nothing (yet): following the
  // libraries is new and covers CUB's dispatch, not all of Thrust.
  if (!host_.libraryCall.empty() && host_.launches.empty())
    followLibraryLaunches(options_.file, copts, extractLaunches, host_);
  s_.compiled = true;
  s_.subscripts = std::move(cm_.subscripts);
  s_.report.notes = host_.notes;
  return true;
}

bool StaticAnalysis::chooseLaunches() {
  for (const HostLaunch &l : host_.launches)
    if (kernelMatches(options_.kernel, l))
      chosen_.push_back(&l);
  if (!host_.stoppedBy.empty())
    s_.report.notes.push_back("host code stops: " + host_.stoppedBy +
                              "; no launch after it is made");
  if (chosen_.empty() && host_.launches.empty() && !host_.stoppedBy.empty() &&
      options_.kernel.empty() && !options_.grid) {
    // What the GPU would run: nothing. Not an input kcheck cannot analyse.
    s_.report.notes.push_back("the program makes no kernel launch");
    s_.makesNoLaunch = true;
    return false;
  }
  if (chosen_.empty()) {
    std::optional<HostLaunch> l =
        launchFromCommandLine(options_, *cm_.module, s_.errors);
    if (!l)
      return false;
    commandLineLaunch_ = std::move(*l);
    chosen_.push_back(&commandLineLaunch_);
  }
  if (chosen_.size() > options_.maxLaunches) {
    s_.errors.push_back(std::to_string(chosen_.size() - options_.maxLaunches) +
                        " launches past --max-launches " +
                        std::to_string(options_.maxLaunches) +
                        " were not simulated");
    chosen_.resize(options_.maxLaunches);
  }
  return true;
}

bool StaticAnalysis::simulateLaunches() {
  predictor_.setSanitizer(options_.sanitizers); // none unless a check asks
  // A small overrun of a global allocation is counted and the launch goes
  // on, as on the GPU (reported as [memcheck] by every command), unless
  // compute-sanitizer's memcheck is asked for.
  predictor_.setGlobalOverruns(options_.stopAtGlobalOverrun
                                   ? sim::GlobalOverrun::Fault
                                   : sim::GlobalOverrun::CountAndGoOn);
  predictor_.setJobs(simulationThreads(options_)); // every-block launches
  predictor_.setProgress(
      [this](uint64_t done, uint64_t total) { progress_.update(done, total); });
  for (const HostLaunch *hl : chosen_) {
    core::LaunchReport lr;
    lr.index = int(hl == &commandLineLaunch_ ? 0 : hl - &host_.launches[0]);
    lr.kernel = hl->kernelName;
    lr.signature = hl->signature;
    lr.notes = hl->notes;
    SimulatedLaunch sl;
    sl.launchLoc = hl->loc;
    for (const analyzer::LaunchArg &arg : hl->args)
      sl.argumentTexts.push_back(arg.text);
    if (!simulate(*hl, lr, sl))
      return false;
    s_.report.launches.push_back(std::move(lr));
    s_.launches.push_back(std::move(sl));
    unevaluated_.push_back(hl->unevaluated);
    if (!simulateDeviceWork(s_.launches.size() - 1))
      return false;
  }
  return true;
}

bool StaticAnalysis::simulateDeviceWork(size_t parent) {
  std::vector<sim::DeviceWork> work =
      std::move(s_.launches[parent].result.deviceWork);
  if (work.empty())
    return true;
  // After the host's launches, in the order kernels made them.
  if (!nextDeviceLaunch_)
    nextDeviceLaunch_ = int(host_.launches.size());
  const int parentIndex = s_.report.launches[parent].index;
  const bool parentUnevaluated = unevaluated_[parent];
  std::shared_ptr<const sim::DecodedKernel> parentKernel =
      s_.launches[parent].kernel;
  bool ok = true;
  sim::runDeviceWork(work, memory_, [&](const sim::DeviceWork &w) {
    if (!ok || contextFault_)
      return;
    const llvm::Function *fn = cm_.module->getFunction(w.kernel);
    if (!fn || fn->isDeclaration()) {
      s_.errors.push_back("kernel '" + w.kernel +
                          "' not found in the device code");
      ok = false;
      return;
    }
    if (s_.report.launches.size() >= options_.maxLaunches) {
      s_.errors.push_back("launches made by kernels past --max-launches " +
                          std::to_string(options_.maxLaunches) +
                          " were not simulated");
      ok = false;
      return;
    }
    launchedByKernels_.insert(w.kernel);
    core::LaunchReport lr;
    lr.index = nextDeviceLaunch_++;
    std::tie(lr.kernel, lr.signature) = host::kernelNames(w.kernel);
    lr.config = w.config;
    lr.launchedFrom = core::DeviceLaunchOrigin{
        parentIndex,
        sim::userLocation(parentKernel->insts()[w.instId], options_.file),
        w.config.deviceDepth};
    SimulatedLaunch sl;
    sl.launchLoc = lr.launchedFrom->where;
    std::shared_ptr<const sim::DecodedKernel> kernel = decoded(*fn, w.kernel);
    if (!kernel) {
      ok = false;
      return;
    }
    std::vector<sim::KernelArg> args =
        sim::parameterBufferArguments(*kernel, memory_, w.parameterBuffer);
    if (!run(*fn, args, lr, sl)) {
      ok = false;
      return;
    }
    s_.report.launches.push_back(std::move(lr));
    s_.launches.push_back(std::move(sl));
    unevaluated_.push_back(parentUnevaluated);
    ok = simulateDeviceWork(s_.launches.size() - 1);
  });
  return ok;
}

std::shared_ptr<const sim::DecodedKernel>
StaticAnalysis::decoded(const llvm::Function &fn, const std::string &name) {
  auto &dk = decoded_[name];
  if (!dk) {
    auto d = sim::decodeKernel(fn);
    if (!d) {
      s_.errors.push_back(llvm::toString(d.takeError()));
      return nullptr;
    }
    dk = std::move(*d);
  }
  return dk;
}

bool StaticAnalysis::simulate(const HostLaunch &hl, core::LaunchReport &lr,
                              SimulatedLaunch &sl) {
  bool configKnown =
      resolveConfig(options_, hl, &hl == &commandLineLaunch_, lr);
  if (contextFault_) {
    // After a fault the GPU's context is unusable: no later launch runs.
    lr.notes.push_back(fmt::format(
        "not run: the GPU runs nothing after the fault of launch #{}",
        *contextFault_));
    return true;
  }
  const llvm::Function *fn = cm_.module->getFunction(hl.mangledName);
  if (!fn || fn->isDeclaration()) {
    lr.notes.push_back("kernel '" + hl.mangledName +
                       "' not found in the device code");
    return true;
  }
  std::vector<sim::KernelArg> args;
  bool argsOk = builder_.arguments(*fn, &hl, args, lr.notes);
  if (!configKnown || !argsOk)
    return true;
  return run(*fn, args, lr, sl);
}

bool StaticAnalysis::run(const llvm::Function &fn,
                         const std::vector<sim::KernelArg> &args,
                         core::LaunchReport &lr, SimulatedLaunch &sl) {
  const std::string mangled = fn.getName().str();
  sl.kernel = decoded(fn, mangled);
  if (!sl.kernel)
    return false;
  // Every command: the divergence check's explanations, and the
  // prediction's SASS branch divergence (driver/LaunchBranches.h).
  auto &branches = staticBranches_[mangled];
  if (!branches)
    branches = std::make_shared<std::vector<analyzer::StaticBranch>>(
        analyzer::analyzeBranches(fn));
  sl.branches = branches;
  sim::Limits limits;
  limits.maxWarpSteps = options_.stepBudget;
  limits.maxZeroFillWarpSteps = options_.zeroFillStepBudget;
  limits.maxLaunchSteps = options_.maxLaunchSteps;
  limits.maxMemoryBytes = options_.maxMemoryBytes;
  progress_.beginLaunch("launch #" + std::to_string(lr.index) + " " +
                        lr.kernel);
  sl.result = predictor_.run(*sl.kernel, lr.config, args, memory_, limits);
  progress_.endLaunch();
  lr.simulated = sl.result.error.empty();
  for (const std::string &n : sl.result.notes)
    lr.notes.push_back(n);
  if (faultReportedBy(sl.result)) {
    // A finding of `kcheck memcheck`/`synccheck`, not an analysis error.
    lr.notes.push_back(faultedLaunchNote(sl.result));
  } else if (gpuFault(sl.result)) {
    reportFaultedLaunch(sl, options_.file, lr);
    contextFault_ = lr.index;
  } else if (!sl.result.error.empty()) {
    lr.notes.push_back(sl.result.error);
    s_.errors.push_back(sl.result.error);
  } else {
    reportSimulatedLaunch(sl, options_.file, lr);
  }
  return true;
}

void StaticAnalysis::noteWhatWasNotSeen() {
  for (const std::string &k : host_.kernelsWithoutLaunch)
    if (options_.kernel.empty() && k != commandLineLaunch_.mangledName &&
        !launchedByKernels_.count(k))
      s_.report.notes.push_back("kernel " + llvm::demangle(k) +
                                " is never launched by host code; analyse it "
                                "with --kernel NAME --grid X --block Y");
  // Where static extraction fell short of the program's own sizes or data,
  // running its host code would make the answer exact: say so once.
  bool inexact = false;
  for (size_t i = 0; i < s_.launches.size(); ++i)
    inexact |= s_.launches[i].result.usedUnseenInput || unevaluated_[i];
  if (inexact)
    s_.report.notes.push_back(
        "--run-host would give kcheck what it could not see here: it runs "
        "the program's host code (executing the program), so that launch "
        "sizes and input data are the program's own");
}

} // namespace

Session analyzeFile(const Options &options,
                    const std::optional<std::string> &mainFileText) {
  Session s;
  s.mainFile = options.file;
  s.report.arch = options.arch;
  s.report.file = options.file;
  s.arch = *core::findArch(options.arch);
  s.arch.options = modelOptionsFor(options, s.arch); // validated by the CLI
  StaticAnalysis analysis(options, s);
  if (!analysis.compile(mainFileText) || !analysis.chooseLaunches())
    return s;
  if (analysis.simulateLaunches())
    analysis.noteWhatWasNotSeen();
  core::countDeviceLaunchesInTheirRoots(s.report.launches);
  return s;
}

void reportSimulatedLaunch(const SimulatedLaunch &sl,
                           const std::string &mainFile,
                           core::LaunchReport &lr) {
  lr.metrics = sl.result.total;
  lr.lines = sim::rollUpLines(*sl.kernel, sl.result, mainFile,
                              sim::LineView::NsightCompute);
  lr.innermostLines = sim::rollUpLines(*sl.kernel, sl.result, mainFile,
                                       sim::LineView::Innermost);
  lr.simt = sim::simtCounts(sl.result);
  if (std::optional<uint64_t> sass =
          predictSassDivergentTargets(sl, mainFile)) {
    lr.metrics[core::Metric::BranchTargetsDivergent] = *sass;
    lr.alsoPredicted.push_back(core::Metric::BranchTargetsDivergent);
  }
}

void reportFaultedLaunch(const SimulatedLaunch &sl, const std::string &mainFile,
                         core::LaunchReport &lr) {
  // The GPU faults too ([kernel-fault]): the launch up to the fault.
  lr.simulated = true;
  reportSimulatedLaunch(sl, mainFile, lr);
  lr.notes.push_back(gpuFaultNote(sl.result));
}

std::string indexExpressionsText(const std::vector<std::string> &expressions) {
  std::string list;
  for (const std::string &e : expressions)
    list += (list.empty() ? "'" : ", '") + e + "'";
  return (expressions.size() == 1 ? "index expression "
                                  : "index expressions ") +
         list;
}

namespace {
// " (by #0 at dp.cu:4)" for a launch a kernel made.
std::string launchedFromText(const core::LaunchReport &l) {
  if (!l.launchedFrom)
    return "";
  const core::DeviceLaunchOrigin &o = *l.launchedFrom;
  return fmt::format(" (by #{} at {}:{})", o.launch, o.where.file,
                     o.where.line);
}
} // namespace

std::string describeLaunch(const core::LaunchReport &l) {
  return launchText(l) + launchedFromText(l);
}

std::string describeLaunchCall(const Session &s, size_t launch) {
  const core::LaunchReport &l = s.report.launches[launch];
  std::string text = "#" + std::to_string(l.index) + " " + launchText(l);
  const std::vector<std::string> &args = s.launches[launch].argumentTexts;
  if (!args.empty()) {
    text += "(";
    for (size_t i = 0; i < args.size(); ++i)
      text += (i ? ", " : "") + args[i];
    text += ")";
  }
  return text + launchedFromText(l);
}

} // namespace kcheck::driver

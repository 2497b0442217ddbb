#include "driver/Session.h"

#include "analyzer/host/LaunchExtractor.h"
#include "analyzer/toolchain/DeviceCompiler.h"
#include "analyzer/toolchain/KernelResourceUsage.h"
#include "core/ArchSpec.h"
#include "core/DeviceFacts.h"
#include "core/RuntimeRules.h"
#include "driver/LaunchBranches.h"
#include "driver/LaunchFaults.h"
#include "driver/LaunchReports.h"
#include "driver/LibraryLaunches.h"
#include "driver/Progress.h"
#include "driver/StaticLaunches.h"

#include "simulator/engine/Decode.h"
#include "simulator/engine/DecodedKernel.h"

#include <fmt/format.h>

#include "clang/AST/ASTConsumer.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>
#include <set>

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

/// The device runtime's kernel queries (cudaFuncGetAttributes, the
/// occupancy calculator called by a kernel) in a static analysis: the
/// toolkit compiler's resources and the kernel's __launch_bounds__, as
/// HostDevice gives them to `kcheck run`, with the default shared-memory
/// preference (a cudaFuncSetAttribute the host code makes is not followed
/// here).
class StaticKernelQueries : public sim::KernelQueries {
public:
  StaticKernelQueries(std::optional<analyzer::KernelResourceUsage> &usage,
                      const analyzer::CompiledModule &module)
      : usage_(usage), module_(module) {}
  std::optional<core::KernelResources> resources(const std::string &mangled,
                                                 std::string &why) override {
    if (!usage_ || !module_.module)
      return std::nullopt;
    std::optional<core::KernelResources> r = usage_->of(mangled, why);
    if (const llvm::Function *f = module_.module->getFunction(mangled); r && f)
      if (int bound = sim::kernelLaunchBound(*f))
        r->maxThreadsPerBlock = bound;
    return r;
  }
  core::SharedPreference sharedPreference(const std::string &) override {
    return {};
  }

private:
  std::optional<analyzer::KernelResourceUsage> &usage_;
  const analyzer::CompiledModule &module_;
};

/// One static analysis, step by step: compile, choose the launches,
/// simulate each, say what static extraction could not see.
class StaticAnalysis {
public:
  StaticAnalysis(const Options &options, Session &s)
      : options_(options), s_(s), builder_(options, host_, memory_),
        predictor_(s.arch, options.exhaustive), progress_(!options.quiet),
        reports_(options.file), kernelQueries_(resources_, cm_) {}

  bool compile(const std::optional<std::string> &mainFileText);
  /// The program's launches --kernel selects, or the command line's one;
  /// false when there is nothing to simulate.
  bool chooseLaunches();
  /// False when a kernel could not be decoded (s_.errors says why).
  bool simulateLaunches();
  void noteWhatWasNotSeen();

private:
  /// The function to run for `hl` and its arguments, or null when the
  /// launch is not run (its notes in `lr` say why).
  const llvm::Function *runnable(const HostLaunch &hl, core::LaunchReport &lr,
                                 std::vector<sim::KernelArg> &args);
  /// Why the GPU refuses `hl` (core::launchRefusal); nullopt when it does
  /// not.
  std::optional<core::LaunchRefusal> refusal(const HostLaunch &hl);
  /// What the launch runner does around each launch of a walk.
  sim::LaunchRunner::Hooks hooks();
  void keep(core::LaunchReport &&lr, SimulatedLaunch &&sl);

  const Options &options_;
  Session &s_;
  HostProgram host_;
  analyzer::CompiledModule cm_;
  // What the toolkit's compiler gives each kernel (registers, static shared
  // memory), asked for only where occupancy matters.
  std::optional<analyzer::KernelResourceUsage> resources_;
  sim::DeviceMemory memory_;
  LaunchBuilder builder_;
  sim::Predictor predictor_;
  Progress progress_;
  LaunchReportBuilder reports_;
  std::optional<sim::LaunchRunner> runner_;
  std::vector<const HostLaunch *> chosen_;
  HostLaunch commandLineLaunch_;
  // The host launch being simulated, until the runner hands it back.
  std::optional<std::pair<core::LaunchReport, SimulatedLaunch>> root_;
  bool rootUnevaluated_ = false;    // its HostLaunch::unevaluated
  std::vector<bool> unevaluated_;   // per launch: its root's
  std::optional<int> contextFault_; // the launch the GPU faulted in
  int nextDeviceLaunch_ = 0;        // index of the next launch made by a kernel
  std::set<std::string> launchedByKernels_; // mangled
  StaticKernelQueries kernelQueries_;
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
  resources_.emplace(copts.toolkit, options_.file, copts.arch,
                     options_.clangArgs);
  analyzer::KernelResourceUsage &resources = *resources_;
  // As if run with the program's arguments: none (argc 1) unless
  // --program-args gives them, on the GPU --arch names.
  const Options &options = options_;
  auto extractLaunches = [&options, &arch, &resources](HostProgram &into,
                                                       bool followLibraries) {
    return [&into, &options, &arch, &resources,
            followLibraries](clang::CompilerInstance &) {
      // Each compile starts afresh: compileDevice may compile the file
      // again (as relocatable device code) after a first parse ran this.
      into = HostProgram{};
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
         s.fixCandidates.clear(); // as the launches: each compile afresh
         return analyzer::makeFixCandidatesConsumer(s.fixCandidates);
       }});
  s_.clangDiagnostics = cm_.diagnostics;
  if (!cm_.ok || !cm_.module)
    return false;
  copts.relocatableDeviceCode = cm_.relocatable;
  if (cm_.relocatableAdded)
    host_.notes.push_back(analyzer::kRelocatableAddedNote);
  // OpenMP host code (-fopenmp): Clang parses its directives for the host
  // only, so the device side's parse runs a parallel region's body once, as
  // plain code; its launches are those of the host side's parse.
  if (std::find(copts.extraClangArgs.begin(), copts.extraClangArgs.end(),
                "-fopenmp") != copts.extraClangArgs.end()) {
    HostProgram onHost;
    std::string diagnostics;
    if (analyzer::parseHostSide(options_.file, copts,
                                extractLaunches(onHost, false), diagnostics))
      host_ = std::move(onHost);
    else
      host_.notes.push_back(
          "the host side of the file does not compile with Clang and "
          "-fopenmp: OpenMP directives are not followed (--run-host runs "
          "them)");
  }
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
  // A program that stops before any launch, or whose only launches the GPU
  // refuses before making them (graph nodes refused when added).
  if (chosen_.empty() && host_.launches.empty() &&
      (!host_.stoppedBy.empty() || !host_.refusedLaunches.empty()) &&
      options_.kernel.empty() && !options_.grid) {
    // What the GPU would run: nothing. Not an input kcheck cannot analyse.
    s_.report.notes.push_back("the program makes no kernel launch");
    s_.makesNoLaunch = true;
    return false;
  }
  if (chosen_.empty()) {
    std::optional<HostLaunch> l = launchFromCommandLine(
        options_, *cm_.module, cm_.kernelNames, s_.errors);
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
  predictor_.setDeviceRuntimeContext({nullptr, &kernelQueries_});
  predictor_.setProgress(
      [this](uint64_t done, uint64_t total) { progress_.update(done, total); });
  runner_.emplace(*cm_.module, predictor_, memory_, launchLimits(options_),
                  options_.file, hooks());
  // Launches are numbered as the GPU (and Nsight Compute) numbers them:
  // one the GPU refuses runs nothing and takes no number; launches kernels
  // make come after the host's.
  std::vector<std::optional<core::LaunchRefusal>> refusals;
  std::vector<int> number(host_.launches.size(), -1);
  int made = 0;
  for (size_t i = 0; i < host_.launches.size(); ++i) {
    refusals.push_back(refusal(host_.launches[i]));
    if (!refusals.back())
      number[i] = made++;
  }
  nextDeviceLaunch_ = made;
  bool refused = false;
  for (const HostLaunch *hl : chosen_) {
    const bool fromCommandLine = hl == &commandLineLaunch_;
    std::optional<core::LaunchRefusal> r =
        fromCommandLine ? refusal(*hl) : refusals[hl - &host_.launches[0]];
    if (r) {
      refused = true;
      s_.report.notes.push_back(fmt::format(
          "the launch of {} at {}:{} is refused by the GPU ({}: {}): it runs "
          "nothing",
          hl->kernelName, hl->loc.file, hl->loc.line,
          core::cudaErrorName(r->error), r->why));
      continue;
    }
    core::LaunchReport lr;
    lr.index = fromCommandLine ? 0 : number[hl - &host_.launches[0]];
    lr.kernel = hl->kernelName;
    lr.signature = hl->signature;
    lr.notes = hl->notes;
    SimulatedLaunch sl;
    sl.launchLoc = hl->loc;
    for (const analyzer::LaunchArg &arg : hl->args)
      sl.argumentTexts.push_back(arg.text);
    rootUnevaluated_ = hl->unevaluated;
    std::vector<sim::KernelArg> args;
    const llvm::Function *fn = runnable(*hl, lr, args);
    if (!fn) {
      keep(std::move(lr), std::move(sl));
      continue;
    }
    const core::LaunchConfig config = lr.config;
    root_.emplace(std::move(lr), std::move(sl));
    if (std::string error = runner_->run(*fn, config, args); !error.empty()) {
      s_.errors.push_back(error);
      return false;
    }
  }
  if (refused && s_.report.launches.empty()) {
    // As running it finds: the GPU runs none of its launches.
    s_.report.notes.push_back("the program makes no kernel launch the GPU "
                              "runs");
    s_.makesNoLaunch = true;
  }
  return true;
}

sim::LaunchRunner::Hooks StaticAnalysis::hooks() {
  sim::LaunchRunner::Hooks h;
  h.admit = [this](const llvm::Function &fn,
                   const std::optional<core::DeviceLaunchOrigin> &origin,
                   std::string &refusal) -> std::optional<int> {
    if (!origin)
      return root_->first.index;
    if (s_.report.launches.size() >= options_.maxLaunches) {
      refusal = "launches made by kernels past --max-launches " +
                std::to_string(options_.maxLaunches) + " were not simulated";
      return std::nullopt;
    }
    launchedByKernels_.insert(fn.getName().str());
    return nextDeviceLaunch_++;
  };
  h.names = [this](const std::string &mangled) {
    return analyzer::namesOf(cm_.kernelNames, mangled);
  };
  h.begin = [this](const std::string &label) { progress_.beginLaunch(label); };
  h.end = [this] { progress_.endLaunch(); };
  h.record = [this](sim::RunnerLaunch &&l) {
    core::LaunchReport lr;
    SimulatedLaunch sl;
    if (!l.launchedFrom) {
      std::tie(lr, sl) = std::move(*root_);
      root_.reset();
    } else {
      lr.index = l.index;
    }
    bool goOn = true;
    switch (reports_.report(std::move(l), lr, sl)) {
    case LaunchEnd::Ran:
      break;
    case LaunchEnd::SanitizerFault: // a finding of memcheck or synccheck
      goOn = false;
      break;
    case LaunchEnd::GpuFault: // no later launch runs
      contextFault_ = lr.index;
      goOn = false;
      break;
    case LaunchEnd::NotSimulated:
      s_.errors.push_back(sl.result.error);
      goOn = false;
      break;
    }
    keep(std::move(lr), std::move(sl));
    return goOn;
  };
  return h;
}

void StaticAnalysis::keep(core::LaunchReport &&lr, SimulatedLaunch &&sl) {
  s_.report.launches.push_back(std::move(lr));
  s_.launches.push_back(std::move(sl));
  unevaluated_.push_back(rootUnevaluated_);
}

const llvm::Function *
StaticAnalysis::runnable(const HostLaunch &hl, core::LaunchReport &lr,
                         std::vector<sim::KernelArg> &args) {
  bool configKnown =
      resolveConfig(options_, hl, &hl == &commandLineLaunch_, lr);
  if (contextFault_) {
    // After a fault the GPU's context is unusable: no later launch runs.
    lr.notes.push_back(fmt::format(
        "not run: the GPU runs nothing after the fault of launch #{}",
        *contextFault_));
    return nullptr;
  }
  const llvm::Function *fn = cm_.module->getFunction(hl.mangledName);
  if (!fn || fn->isDeclaration()) {
    lr.notes.push_back("kernel '" + hl.mangledName +
                       "' not found in the device code");
    return nullptr;
  }
  bool argsOk = builder_.arguments(*fn, &hl, args, lr.notes);
  if (!configKnown || !argsOk)
    return nullptr;
  return fn;
}

std::optional<core::LaunchRefusal>
StaticAnalysis::refusal(const HostLaunch &hl) {
  // What the GPU refuses runs nothing (the program's CUDA call returns the
  // error), as running the host code finds; a launch whose configuration is
  // not known is not refused.
  core::LaunchReport scratch;
  const llvm::Function *fn = cm_.module->getFunction(hl.mangledName);
  if (!fn || fn->isDeclaration() ||
      !resolveConfig(options_, hl, &hl == &commandLineLaunch_, scratch))
    return std::nullopt;
  // The kernel's __cluster_dims__ where the launch names no cluster.
  scratch.config.applyKernelCluster(sim::kernelClusterDims(*fn));
  // A cooperative launch's limit needs the compiler's registers.
  std::optional<core::KernelResources> resources;
  if (scratch.config.cooperative) {
    std::string why;
    resources = resources_->of(hl.mangledName, why);
  }
  return core::launchRefusal(s_.arch, scratch.config,
                             sim::kernelLaunchBound(*fn), hl.dynamicSharedOptIn,
                             resources ? &*resources : nullptr);
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
  return fmt::format(" ({}by #{} at {}:{})", o.graph ? "a graph launched " : "",
                     o.launch, o.where.file, o.where.line);
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

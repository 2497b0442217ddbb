#include "driver/Session.h"

#include "analyzer/DeviceCompiler.h"
#include "analyzer/KernelResourceUsage.h"
#include "analyzer/LaunchExtractor.h"
#include "core/ArchSpec.h"
#include "core/DeviceFacts.h"
#include "driver/LaunchBranches.h"
#include "driver/LaunchFaults.h"
#include "driver/LibraryLaunches.h"
#include "driver/Progress.h"
#include "simulator/engine/DecodedKernel.h"

#include "clang/AST/ASTConsumer.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <map>
#include <thread>

namespace kcheck::driver {

namespace {

using analyzer::HostLaunch;
using analyzer::HostProgram;
using analyzer::HostValue;

/// Allocations that host code made without a size kcheck could evaluate get
/// this much address space: pages are only backed when touched.
constexpr uint64_t kUnknownAllocationBytes = 1ull << 32;

std::string baseKernelName(const std::string &name) {
  std::string n = name;
  size_t lt = n.find('<');
  if (lt != std::string::npos)
    n = n.substr(0, lt);
  size_t colon = n.rfind("::");
  if (colon != std::string::npos)
    n = n.substr(colon + 2);
  return n;
}

bool kernelMatches(const std::string &wanted, const HostLaunch &l) {
  return wanted.empty() || wanted == l.kernelName ||
         wanted == baseKernelName(l.kernelName) || wanted == l.mangledName;
}

bool isKernel(const llvm::Function &f) {
  return !f.isDeclaration() &&
         f.getCallingConv() == llvm::CallingConv::PTX_Kernel;
}

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

/// Parses an --arg value as the bits of an integer or a float.
std::optional<uint64_t> parseArgValue(const std::string &v, bool isFloat,
                                      bool isDouble) {
  if (isFloat || isDouble || v.find('.') != std::string::npos) {
    char *end = nullptr;
    double d = std::strtod(v.c_str(), &end);
    if (!end || *end)
      return std::nullopt;
    if (isDouble) {
      uint64_t bits;
      std::memcpy(&bits, &d, 8);
      return bits;
    }
    float f = float(d);
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return bits;
  }
  int64_t i;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), i);
  if (ec != std::errc() || p != v.data() + v.size())
    return std::nullopt;
  return uint64_t(i);
}

class LaunchBuilder {
public:
  LaunchBuilder(const Options &o, const HostProgram &host,
                sim::DeviceMemory &memory)
      : options_(o), host_(host), memory_(memory) {}

  /// The device address of each host allocation, made on first use.
  uint64_t allocationBase(int id, std::vector<std::string> &notes) {
    auto it = bases_.find(id);
    if (it != bases_.end())
      return it->second;
    const analyzer::HostAllocation *a = nullptr;
    for (const auto &alloc : host_.allocations)
      if (alloc.id == id)
        a = &alloc;
    uint64_t bytes = a && a->bytes ? *a->bytes : kUnknownAllocationBytes;
    if (!a || !a->bytes)
      notes.push_back("size of allocation '" + (a ? a->name : "?") +
                      "' unknown: bounds checks on it are off");
    uint64_t base = memory_.allocate(bytes, a ? a->name : "allocation");
    bases_[id] = base;
    return base;
  }

  /// Kernel arguments as the engine wants them; false when one is unknown.
  bool arguments(const llvm::Function &f, const HostLaunch *launch,
                 std::vector<sim::KernelArg> &out,
                 std::vector<std::string> &notes) {
    bool ok = true;
    for (unsigned i = 0; i < f.arg_size(); ++i) {
      const llvm::Argument &param = *f.getArg(i);
      std::string label = "#" + std::to_string(i);
      std::string paramName = param.getName().str();
      const analyzer::LaunchArg *given =
          launch && i < launch->args.size() ? &launch->args[i] : nullptr;
      // --arg NAME=V, NAME being the parameter's name, the argument as
      // written at the launch, or "#i".
      std::optional<std::string> override;
      for (const auto &[name, value] : options_.args)
        if (name == label || (!paramName.empty() && name == paramName) ||
            (given && name == given->text))
          override = value;
      if (override) {
        auto bits = parseArgValue(*override, param.getType()->isFloatTy(),
                                  param.getType()->isDoubleTy());
        if (!bits) {
          notes.push_back("bad --arg value '" + *override + "'");
          ok = false;
          continue;
        }
        out.push_back({*bits});
        continue;
      }
      if (param.hasByValAttr()) {
        if (!structArgument(param, given, label, out, notes))
          ok = false;
        continue;
      }
      if (param.getType()->isPointerTy()) {
        if (given && given->value.kind == HostValue::Kind::DevicePtr) {
          out.push_back({allocationBase(given->value.allocation, notes) +
                         uint64_t(given->value.offset)});
        } else {
          out.push_back({freshBuffer(
              "argument " + label,
              "pointer argument " +
                  (paramName.empty() ? label : "'" + paramName + "'") +
                  (given ? " '" + given->text + "'" : "") +
                  " not traced to a cudaMalloc",
              notes)});
        }
        continue;
      }
      llvm::Type *pt = param.getType();
      bool real = pt->isFloatTy() || pt->isDoubleTy() || pt->isHalfTy() ||
                  pt->isBFloatTy();
      if (real && given && given->value.kind == HostValue::Kind::Unknown) {
        // A float that host code computes from its data (a scale, a
        // threshold) rarely decides an address: run it as unseen data.
        notes.push_back(
            "argument " + (paramName.empty() ? label : "'" + paramName + "'") +
            " ('" + given->text + "') could not be evaluated" +
            (given->value.why.empty() ? "" : ": " + given->value.why) +
            "; simulated as 0, an input kcheck did not see (exact unless a "
            "note says a branch or address depends on it; give it with --arg " +
            (paramName.empty() ? label : paramName) + "=VALUE)");
        sim::KernelArg unseen(0);
        unseen.unseen = true;
        out.push_back(unseen);
        continue;
      }
      if (!given || given->value.kind == HostValue::Kind::Unknown) {
        notes.push_back(
            "argument " + (paramName.empty() ? label : "'" + paramName + "'") +
            (given ? " ('" + given->text + "')" : "") +
            " could not be evaluated" +
            (given && !given->value.why.empty() ? ": " + given->value.why
                                                : "") +
            "; give it with --arg " + (paramName.empty() ? label : paramName) +
            "=VALUE");
        ok = false;
        continue;
      }
      const HostValue &v = given->value;
      uint64_t bits = 0;
      if (param.getType()->isFloatTy()) {
        float fv = v.kind == HostValue::Kind::Float ? float(v.f) : float(v.i);
        uint32_t b;
        std::memcpy(&b, &fv, 4);
        bits = b;
      } else if (param.getType()->isDoubleTy()) {
        double dv = v.kind == HostValue::Kind::Float ? v.f : double(v.i);
        std::memcpy(&bits, &dv, 8);
      } else {
        bits = v.kind == HostValue::Kind::Float ? uint64_t(int64_t(v.f))
                                                : uint64_t(v.i);
      }
      out.push_back({bits});
    }
    return ok;
  }

private:
  // An unknown pointer (argument or struct field): a fresh allocation keeps
  // the kernel runnable, with a note saying so.
  uint64_t freshBuffer(const std::string &name, const std::string &what,
                       std::vector<std::string> &notes) {
    notes.push_back(what + ": a fresh buffer was assumed");
    return memory_.allocate(kUnknownAllocationBytes, name);
  }

  // A struct passed by value: its bytes, from the scalars host code gave.
  bool structArgument(const llvm::Argument &param,
                      const analyzer::LaunchArg *given,
                      const std::string &label,
                      std::vector<sim::KernelArg> &out,
                      std::vector<std::string> &notes) {
    std::string name =
        param.getName().empty() ? label : "'" + param.getName().str() + "'";
    const llvm::DataLayout &dl = param.getParent()->getDataLayout();
    sim::KernelArg arg;
    arg.bytes.assign(dl.getTypeAllocSize(param.getParamByValType()), 0);
    out.push_back(arg);
    if (!given || !given->fields) {
      notes.push_back(
          "argument " + name + " (a struct passed by value)" +
          (given ? " ('" + given->text + "')" : "") +
          " could not be evaluated" +
          (given && !given->value.why.empty() ? ": " + given->value.why : ""));
      return false;
    }
    std::vector<uint8_t> &bytes = out.back().bytes;
    for (const analyzer::ArgField &f : *given->fields) {
      const HostValue &v = f.value;
      uint64_t bits = 0;
      switch (v.kind) {
      case HostValue::Kind::Unknown:
        if (f.type == analyzer::ArgField::Type::Pointer) {
          bits = freshBuffer("argument " + label + " " + f.path,
                             "pointer `" + f.path + "` in argument " + name +
                                 " not traced to a cudaMalloc (" + v.why + ")",
                             notes);
          break;
        }
        // As for a scalar argument: zero, and the whole struct marked as
        // input kcheck did not see, so what depends on it is noted.
        notes.push_back("argument " + name + ": `" + f.path +
                        "` could not be evaluated: " + v.why +
                        "; simulated as 0, an input kcheck did not see "
                        "(exact unless a note says a branch or address "
                        "depends on it)");
        out.back().unseen = true;
        continue;
      case HostValue::Kind::DevicePtr:
        bits = allocationBase(v.allocation, notes) + uint64_t(v.offset);
        break;
      case HostValue::Kind::HostPtr: // the kernel must not dereference it
        bits = 0;
        break;
      case HostValue::Kind::Int:
      case HostValue::Kind::Float:
        if (f.type == analyzer::ArgField::Type::Float) {
          float x = v.kind == HostValue::Kind::Float ? float(v.f) : float(v.i);
          uint32_t b;
          std::memcpy(&b, &x, 4);
          bits = b;
        } else if (f.type == analyzer::ArgField::Type::Double) {
          double x = v.kind == HostValue::Kind::Float ? v.f : double(v.i);
          std::memcpy(&bits, &x, 8);
        } else {
          bits = v.kind == HostValue::Kind::Float ? uint64_t(int64_t(v.f))
                                                  : uint64_t(v.i);
        }
        break;
      }
      if (f.offset + f.bytes <= bytes.size() && f.bytes <= 8)
        std::memcpy(bytes.data() + f.offset, &bits, f.bytes); // little-endian
    }
    return true;
  }

  const Options &options_;
  const HostProgram &host_;
  sim::DeviceMemory &memory_;
  std::map<int, uint64_t> bases_;
};

/// For a file without launches of the wanted kernel: the launch the command
/// line describes (--kernel, or the file's only kernel). nullopt, with the
/// reason in `errors`, when no single kernel is named.
std::optional<HostLaunch>
launchFromCommandLine(const Options &options, const llvm::Module &module,
                      std::vector<std::string> &errors) {
  std::vector<const llvm::Function *> kernels;
  for (const llvm::Function &f : module)
    if (isKernel(f)) {
      std::string demangled = llvm::demangle(f.getName().str());
      std::string base =
          baseKernelName(demangled.substr(0, demangled.find('(')));
      if (options.kernel.empty() || options.kernel == base ||
          options.kernel == f.getName())
        kernels.push_back(&f);
    }
  if (kernels.empty()) {
    errors.push_back(options.kernel.empty()
                         ? "no kernel found in " + options.file
                         : "no kernel named '" + options.kernel + "'");
    return std::nullopt;
  }
  if (kernels.size() > 1) {
    std::string names;
    for (const llvm::Function *f : kernels)
      names += " " + llvm::demangle(f->getName().str());
    errors.push_back("no launch found; choose a kernel with --kernel "
                     "(and give --grid and --block):" +
                     names);
    return std::nullopt;
  }
  HostLaunch l;
  std::string demangled = llvm::demangle(kernels[0]->getName().str());
  l.kernelName = demangled.substr(0, demangled.find('('));
  l.mangledName = kernels[0]->getName().str();
  l.signature = demangled;
  l.notes.push_back("no launch of this kernel in host code: the launch is the "
                    "command line's");
  return l;
}

/// Grid, block and dynamic shared size of a launch: the command line's
/// overrides, else what host code evaluated to. Fills `lr.config`; names
/// what is missing in `lr.notes` and returns false then.
bool resolveConfig(const Options &options, const HostLaunch &hl,
                   bool fromCommandLine, core::LaunchReport &lr) {
  std::optional<core::Dim3> grid = options.grid ? options.grid : hl.grid;
  std::optional<core::Dim3> block = options.block ? options.block : hl.block;
  std::optional<uint64_t> shmem =
      options.sharedBytes ? options.sharedBytes : hl.dynamicSharedBytes;
  if (!shmem && fromCommandLine)
    shmem = 0;
  if (grid)
    lr.config.grid = *grid;
  if (block)
    lr.config.block = *block;
  if (shmem)
    lr.config.dynamicSharedBytes = *shmem;
  lr.config.cooperative = hl.cooperative;
  auto missing = [&](const char *what, const char *flag) {
    lr.notes.push_back(std::string(what) + " of launch #" +
                       std::to_string(lr.index) + " (" + hl.kernelName +
                       ") could not be evaluated; give it with " + flag);
  };
  if (!grid)
    missing("grid", "--grid");
  if (!block)
    missing("block", "--block");
  if (!shmem)
    missing("dynamic shared size", "--shmem");
  return grid && block && shmem;
}

} // namespace

Session analyzeFile(const Options &options,
                    const std::optional<std::string> &mainFileText) {
  Session s;
  s.mainFile = options.file;
  s.report.arch = options.arch;
  s.report.file = options.file;
  core::ArchSpec arch = *core::findArch(options.arch);
  arch.options = modelOptionsFor(options, arch); // validated by parseOptions
  s.arch = arch;

  HostProgram host;
  analyzer::CompileOptions copts;
  // Clang compiles nothing older than sm_20; cc1.x kernels are compiled as
  // sm_20 (same IR memory operations) and the cc1.x models count them.
  copts.arch = arch.major < 2 ? "sm_20" : options.arch;
  copts.extraClangArgs = options.clangArgs;
  copts.mainFileText = mainFileText;
  if (!chooseCudaHeaders(options, arch, copts.toolkit, s.report.cudaHeaders,
                         s.errors))
    return s;
  copts.keepLibdeviceDeclaration = sim::executesNatively;
  // Registers and the like come from the toolkit's compiler, asked only if
  // the program queries occupancy or a kernel's attributes.
  analyzer::KernelResourceUsage resources(copts.toolkit, options.file,
                                          copts.arch, options.clangArgs);
  // As if run with the program's arguments: none (argc 1) unless
  // --program-args gives them, on the GPU --arch names.
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
  analyzer::CompiledModule cm = analyzer::compileDevice(
      options.file, copts,
      {extractLaunches(host, false), [&s](clang::CompilerInstance &) {
         return analyzer::makeFixCandidatesConsumer(s.fixCandidates);
       }});
  s.clangDiagnostics = cm.diagnostics;
  if (!cm.ok || !cm.module)
    return s;
  // Only where the program's own code launches nothing (yet): following the
  // libraries is new and covers CUB's dispatch, not all of Thrust.
  if (!host.libraryCall.empty() && host.launches.empty())
    followLibraryLaunches(options.file, copts, extractLaunches, host);
  s.compiled = true;
  s.subscripts = std::move(cm.subscripts);
  s.report.notes = host.notes;

  // Which launches: the program's, filtered by --kernel; or, for a file
  // without launches, the one the command line describes.
  std::vector<const HostLaunch *> chosen;
  for (const HostLaunch &l : host.launches)
    if (kernelMatches(options.kernel, l))
      chosen.push_back(&l);
  HostLaunch commandLineLaunch;
  if (!host.stoppedBy.empty())
    s.report.notes.push_back("host code stops: " + host.stoppedBy +
                             "; no launch after it is made");
  if (chosen.empty() && host.launches.empty() && !host.stoppedBy.empty() &&
      options.kernel.empty() && !options.grid) {
    // What the GPU would run: nothing. Not an input kcheck cannot analyse.
    s.report.notes.push_back("the program makes no kernel launch");
    s.makesNoLaunch = true;
    return s;
  }
  if (chosen.empty()) {
    std::optional<HostLaunch> l =
        launchFromCommandLine(options, *cm.module, s.errors);
    if (!l)
      return s;
    commandLineLaunch = std::move(*l);
    chosen.push_back(&commandLineLaunch);
  }

  sim::DeviceMemory memory;
  LaunchBuilder builder(options, host, memory);
  std::map<std::string, std::shared_ptr<const sim::DecodedKernel>> decoded;
  std::map<std::string,
           std::shared_ptr<const std::vector<analyzer::StaticBranch>>>
      staticBranches; // per kernel, for the divergence check
  sim::Predictor predictor(arch, options.exhaustive);
  predictor.setSanitizer(options.sanitizers); // none unless a check asks
  // A small overrun of a global allocation is counted and the launch goes
  // on, as on the GPU (reported as [memcheck] by every command), unless
  // compute-sanitizer's memcheck is asked for.
  predictor.setGlobalOverruns(options.stopAtGlobalOverrun
                                  ? sim::GlobalOverrun::Fault
                                  : sim::GlobalOverrun::CountAndGoOn);
  // Threads for launches whose every block runs; the result never depends
  // on it. Capped: the engine's blocks scale little past a few cores.
  unsigned jobs = options.jobs
                      ? options.jobs
                      : std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  predictor.setJobs(jobs);
  Progress progress(!options.quiet);
  predictor.setProgress([&progress](uint64_t done, uint64_t total) {
    progress.update(done, total);
  });
  if (chosen.size() > options.maxLaunches) {
    s.errors.push_back(std::to_string(chosen.size() - options.maxLaunches) +
                       " launches past --max-launches " +
                       std::to_string(options.maxLaunches) +
                       " were not simulated");
    chosen.resize(options.maxLaunches);
  }
  std::vector<bool> unevaluated; // per launch: HostLaunch::unevaluated
  for (const HostLaunch *chosenLaunch : chosen) {
    const HostLaunch &hl = *chosenLaunch;
    core::LaunchReport lr;
    lr.index = int(&hl == &commandLineLaunch ? 0 : &hl - &host.launches[0]);
    lr.kernel = hl.kernelName;
    lr.signature = hl.signature;
    lr.notes = hl.notes;
    SimulatedLaunch sl;
    sl.launchLoc = hl.loc;
    for (const analyzer::LaunchArg &arg : hl.args)
      sl.argumentTexts.push_back(arg.text);

    bool configKnown =
        resolveConfig(options, hl, &hl == &commandLineLaunch, lr);

    const llvm::Function *fn = cm.module->getFunction(hl.mangledName);
    if (!fn || fn->isDeclaration()) {
      lr.notes.push_back("kernel '" + hl.mangledName +
                         "' not found in the device code");
      fn = nullptr;
    }
    std::vector<sim::KernelArg> args;
    bool argsOk = fn && builder.arguments(*fn, &hl, args, lr.notes);
    if (fn && configKnown && argsOk) {
      auto &dk = decoded[hl.mangledName];
      if (!dk) {
        auto d = sim::DecodedKernel::decode(*fn);
        if (!d) {
          s.errors.push_back(llvm::toString(d.takeError()));
          return s;
        }
        dk = std::move(*d);
      }
      sl.kernel = dk;
      // Every command: the divergence check's explanations, and the
      // prediction's SASS branch divergence (driver/LaunchBranches.h).
      auto &branches = staticBranches[hl.mangledName];
      if (!branches)
        branches = std::make_shared<std::vector<analyzer::StaticBranch>>(
            analyzer::analyzeBranches(*fn));
      sl.branches = branches;
      sim::Limits limits;
      limits.maxWarpSteps = options.stepBudget;
      limits.maxZeroFillWarpSteps = options.zeroFillStepBudget;
      limits.maxLaunchSteps = options.maxLaunchSteps;
      limits.maxMemoryBytes = options.maxMemoryBytes;
      progress.beginLaunch("launch #" + std::to_string(lr.index) + " " +
                           hl.kernelName);
      sl.result = predictor.run(*dk, lr.config, args, memory, limits);
      progress.endLaunch();
      lr.simulated = sl.result.error.empty();
      for (const std::string &n : sl.result.notes)
        lr.notes.push_back(n);
      if (faultReportedBy(sl.result)) {
        // A finding of `kcheck memcheck`/`synccheck`, not an analysis error.
        lr.notes.push_back(faultedLaunchNote(sl.result));
      } else if (!sl.result.error.empty()) {
        lr.notes.push_back(sl.result.error);
        s.errors.push_back(sl.result.error);
      } else {
        reportSimulatedLaunch(sl, options.file, lr);
      }
    }
    s.report.launches.push_back(std::move(lr));
    s.launches.push_back(std::move(sl));
    unevaluated.push_back(hl.unevaluated);
  }
  for (const std::string &k : host.kernelsWithoutLaunch)
    if (options.kernel.empty() && k != commandLineLaunch.mangledName)
      s.report.notes.push_back("kernel " + llvm::demangle(k) +
                               " is never launched by host code; analyse it "
                               "with --kernel NAME --grid X --block Y");
  // Where static extraction fell short of the program's own sizes or data,
  // running its host code would make the answer exact: say so once.
  bool inexact = false;
  for (size_t i = 0; i < s.launches.size(); ++i)
    inexact |= s.launches[i].result.usedUnseenInput || unevaluated[i];
  if (inexact)
    s.report.notes.push_back(
        "--run-host would give kcheck what it could not see here: it runs "
        "the program's host code (executing the program), so that launch "
        "sizes and input data are the program's own");
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

std::string indexExpressionsText(const std::vector<std::string> &expressions) {
  std::string list;
  for (const std::string &e : expressions)
    list += (list.empty() ? "'" : ", '") + e + "'";
  return (expressions.size() == 1 ? "index expression "
                                  : "index expressions ") +
         list;
}

std::string describeLaunch(const core::LaunchReport &l) {
  return launchText(l);
}

std::string describeLaunchCall(const Session &s, size_t launch) {
  const core::LaunchReport &l = s.report.launches[launch];
  std::string text = "#" + std::to_string(l.index) + " " + launchText(l);
  const std::vector<std::string> &args = s.launches[launch].argumentTexts;
  if (args.empty())
    return text;
  text += "(";
  for (size_t i = 0; i < args.size(); ++i)
    text += (i ? ", " : "") + args[i];
  return text + ")";
}

} // namespace kcheck::driver

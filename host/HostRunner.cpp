#include "host/HostRunner.h"

#include "host/HostGlue.h"

#include "host/HostCompiler.h"
#include "host/HostDevice.h"
#include "host/HostGuards.h"

#include "simulator/engine/Decode.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/DynamicLibrary.h"

#include <chrono>
#include <csetjmp>
#include <cstdio>

namespace kcheck::host {

namespace {

using namespace llvm;
using namespace llvm::orc;

constexpr const char *kUnsupportedCall = "__kcheck_unsupported_call";

/// Defines each function host code calls that neither kcheck's CUDA runtime
/// nor this process provides (cuInit, cublasCreate_v2, ...) as a stub that
/// stops the run naming it, so a program fails where it makes the call, not
/// at link time, and only if it makes it.
class UnsupportedCallGenerator : public DefinitionGenerator {
public:
  explicit UnsupportedCallGenerator(LLJIT &jit) : jit_(jit) {}

  Error tryToGenerate(LookupState &, LookupKind, JITDylib &dylib,
                      JITDylibLookupFlags,
                      const SymbolLookupSet &symbols) override {
    auto context = std::make_unique<LLVMContext>();
    auto module = std::make_unique<Module>("kcheck-unsupported", *context);
    module->setDataLayout(jit_.getDataLayout());
    module->setTargetTriple(jit_.getTargetTriple());
    IRBuilder<> b(*context);
    FunctionCallee report = module->getOrInsertFunction(
        kUnsupportedCall, b.getVoidTy(), b.getPtrTy());
    bool any = false;
    for (const auto &[name, flags] : symbols) {
      // A weak reference (libstdc++'s __gthread_active_p probes) stays null.
      if (flags == SymbolLookupFlags::WeaklyReferencedSymbol)
        continue;
      StringRef n = *name;
      // LLJIT's own platform symbols are looked up before it defines them.
      if (n == kUnsupportedCall || n.starts_with("__lljit"))
        continue;
      if (n.starts_with("__cudaRegisterLinkedBinary")) {
        // Relocatable device code (-fgpu-rdc) registers its kernels through
        // a function nvlink writes: register(callback, fatbin, id, dummy)
        // calls callback(handle), which calls __cudaRegisterFunction for
        // each kernel. Here it calls the callback at once.
        Type *ptr = b.getPtrTy();
        Function *link = Function::Create(
            FunctionType::get(b.getVoidTy(), {ptr, ptr, ptr, ptr}, false),
            GlobalValue::ExternalLinkage, n, *module);
        b.SetInsertPoint(BasicBlock::Create(*context, "", link));
        b.CreateCall(FunctionType::get(b.getVoidTy(), {ptr}, false),
                     link->getArg(0), {ConstantPointerNull::get(b.getPtrTy())});
        b.CreateRetVoid();
        any = true;
        continue;
      }
      Function *stub =
          Function::Create(FunctionType::get(b.getVoidTy(), false),
                           GlobalValue::ExternalLinkage, n, *module);
      b.SetInsertPoint(BasicBlock::Create(*context, "", stub));
      b.CreateCall(report, {b.CreateGlobalString(llvm::demangle(n))});
      b.CreateUnreachable();
      any = true;
    }
    if (!any)
      return Error::success();
    return jit_.addIRModule(
        dylib, ThreadSafeModule(std::move(module), std::move(context)));
  }

private:
  LLJIT &jit_;
};

/// Calls into host code so that CudaRuntime::stop() returns here: false
/// when it did (the reason is runtime.stopped()).
bool guarded(CudaRuntime &runtime, function_ref<void()> body) {
  std::jmp_buf target;
  runtime.setStopTarget(&target);
  if (setjmp(target)) {
    runtime.setStopTarget(nullptr);
    return false;
  }
  body();
  runtime.setStopTarget(nullptr);
  return true;
}

Error defineEntryPoints(LLJIT &jit, JITDylib &dylib) {
  SymbolMap symbols;
  for (const auto &[entry, address] : CudaRuntime::entryPoints()) {
    const std::string name = entry;
    ExecutorSymbolDef def = {ExecutorAddr::fromPtr(address),
                             JITSymbolFlags::Exported |
                                 JITSymbolFlags::Callable};
    symbols[jit.mangleAndIntern(name)] = def;
    // With per-thread default streams (nvcc --default-stream per-thread,
    // CUDA_API_PER_THREAD_DEFAULT_STREAM) the headers rename the calls
    // cudaMemset_ptds, cudaLaunchKernel_ptsz: the same calls here, where
    // one host thread's work runs in order on the simulated device.
    if (name.rfind("cuda", 0) == 0) {
      symbols[jit.mangleAndIntern(name + "_ptds")] = def;
      symbols[jit.mangleAndIntern(name + "_ptsz")] = def;
    }
  }
  return dylib.define(absoluteSymbols(std::move(symbols)));
}

Expected<std::unique_ptr<LLJIT>> makeJit() {
  // OpenMP's runtime, for host code compiled with -fopenmp or calling
  // omp_* functions: libomp (Clang's, setup.sh installs it) loaded into the
  // process, whose symbols LLJIT's process dylib resolves. Its worker
  // threads run host code only: a CUDA call from one ends the run with a
  // message (CudaRuntimeApi.cpp, entry::rt).
#ifdef KCHECK_LIBOMP
  static const bool libompLoaded =
      !llvm::sys::DynamicLibrary::LoadLibraryPermanently(KCHECK_LIBOMP);
  (void)libompLoaded;
#endif
  auto jit = LLJITBuilder().create();
  if (!jit)
    return jit.takeError();
  // Host code's calls resolve to: kcheck's CUDA runtime (main dylib), the
  // process's C and C++ libraries (LLJIT's process-symbols dylib), and last
  // the stubs of UnsupportedCallGenerator.
  JITDylib &main = (*jit)->getMainJITDylib();
  if (Error e = defineEntryPoints(**jit, main))
    return e;
  auto unsupported = (*jit)->createJITDylib("kcheck-unsupported");
  if (!unsupported)
    return unsupported.takeError();
  if (Error e = defineEntryPoints(**jit, *unsupported))
    return e;
  unsupported->addGenerator(std::make_unique<UnsupportedCallGenerator>(**jit));
  main.addToLinkOrder(*unsupported);
  return jit;
}

// The program's device code (into result.device) and host code; nullopt
// when either does not compile (result.diagnostics says why).
std::optional<HostModule> compileProgram(const RunOptions &options,
                                         RunResult &result) {
  analyzer::CompileOptions deviceOptions;
  // As analyzeFile: cc1.x kernels compile as sm_20 (same memory operations).
  deviceOptions.arch = options.arch.major < 2 ? "sm_20" : options.arch.name;
  deviceOptions.extraClangArgs = options.clangArgs;
  deviceOptions.toolkit = options.toolkit;
  deviceOptions.keepLibdeviceDeclaration = sim::executesNatively;
  result.device = analyzer::compileDevice(options.file, deviceOptions);
  result.diagnostics = result.device.diagnostics;
  if (!result.device.ok || !result.device.module)
    return std::nullopt;
  HostCompileOptions hostOptions;
  hostOptions.arch = deviceOptions.arch;
  hostOptions.extraClangArgs = options.clangArgs;
  hostOptions.toolkit = options.toolkit;
  hostOptions.glueSource = hostGlueSource(options.arch);
  hostOptions.relocatableDeviceCode = result.device.relocatable;
  if (result.device.relocatableAdded)
    result.notes.push_back(analyzer::kRelocatableAddedNote);
  HostModule host = compileHost(options.file, hostOptions);
  result.diagnostics += host.diagnostics;
  if (!host.ok)
    return std::nullopt;
  return host;
}

std::vector<std::string> programArguments(const RunOptions &options) {
  // argv as the program would get it from a shell that runs it where it was
  // built: "./main" for main.cu (what `nvcc main.cu -o main; ./main` gives
  // it), then the arguments.
  std::string base = options.file.substr(options.file.rfind('/') + 1);
  std::string programName = "./" + base.substr(0, base.rfind('.'));
  std::vector<std::string> argStrings = {programName};
  argStrings.insert(argStrings.end(), options.programArgs.begin(),
                    options.programArgs.end());
  return argStrings;
}

// Constructors, main, then atexit handlers and destructors, under kcheck's
// CUDA runtime; `jitError`: what the JIT said, if it failed.
void runUnderRuntime(LLJIT &jit, int (*mainFn)(int, char **),
                     std::vector<char *> &argv, const RunOptions &options,
                     CudaRuntime &runtime, SimulationClock &clock,
                     RunResult &result, std::string &jitError) {
  CudaRuntime::Scope scope(runtime);
  StdoutToStderr redirect(options.programStdoutToStderr);
  ZeroedHeap zeroed(true);
  CrashGuard crashes;
  HostWatchdog watchdog(options.hostBudgetSeconds, clock);
  JITDylib &main = jit.getMainJITDylib();
  // Constructors (the CUDA registrations among them), main, then atexit
  // handlers and destructors, as a process runs them; exit() in any of
  // them ends that part.
  bool finished = guarded(runtime, [&] {
    if (Error e = jit.initialize(main))
      jitError = toString(std::move(e));
  });
  if (finished && jitError.empty()) {
    int status = 0;
    if (guarded(runtime,
                [&] { status = mainFn(int(argv.size() - 1), argv.data()); }))
      result.exitStatus = status;
  }
  guarded(runtime, [&] {
    if (Error e = jit.deinitialize(main))
      consumeError(std::move(e));
  });
  std::fflush(nullptr);
  result.hostSeconds = watchdog.hostSeconds();
}

// What the run's faults, its JIT and the way the program stopped say.
void reportRunEnd(RunResult &result, CudaRuntime &runtime,
                  const std::string &jitError) {
  // A kernel's fault is the run's error; the program went on past it, as on
  // the GPU, its later CUDA calls failing.
  for (std::string &fault : runtime.launchFaults)
    result.errors.push_back(std::move(fault));
  if (!runtime.launchFaults.empty())
    result.notes.push_back(
        "after the fault the program went on, as on the GPU: every later "
        "CUDA call that reaches the device returned the fault's error, and "
        "no later launch ran");
  for (std::string &note : runtime.notes)
    result.notes.push_back(std::move(note));
  if (!jitError.empty())
    result.errors.push_back("JIT: " + jitError);
  if (const std::optional<Stop> &s = runtime.stopped()) {
    switch (s->kind) {
    case Stop::Kind::Exit:
      result.exitStatus = s->status;
      break;
    case Stop::Kind::Abort:
      result.exitStatus = s->status;
      result.notes.push_back("the program aborted");
      break;
    case Stop::Kind::Unsupported:
    case Stop::Kind::Failed:
      result.errors.push_back(s->message);
      break;
    }
  }
}

} // namespace

RunResult runProgram(const RunOptions &options) {
  RunResult result;
  auto start = std::chrono::steady_clock::now();
  std::optional<HostModule> host = compileProgram(options, result);
  if (!host)
    return result;
  result.compiled = true;

  auto jit = makeJit();
  if (!jit) {
    result.errors.push_back("JIT: " + toString(jit.takeError()));
    return result;
  }
  if (Error e = (*jit)->addIRModule(ThreadSafeModule(
          std::move(host->module), std::move(host->context)))) {
    result.errors.push_back("JIT: " + toString(std::move(e)));
    return result;
  }
  auto mainAddress = (*jit)->lookup("main");
  if (!mainAddress) {
    result.errors.push_back("cannot run the program: " +
                            toString(mainAddress.takeError()));
    return result;
  }
  auto *mainFn = mainAddress->toPtr<int (*)(int, char **)>();
  result.compileSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();

  std::vector<std::string> argStrings = programArguments(options);
  std::vector<char *> argv;
  for (std::string &a : argStrings)
    argv.push_back(a.data());
  argv.push_back(nullptr);

  SimulationClock clock;
  HostDevice device(result.device, options, result.launches, clock);
  CudaRuntime runtime(options.arch, device);
  std::string jitError;
  runUnderRuntime(**jit, mainFn, argv, options, runtime, clock, result,
                  jitError);
  result.simulationSeconds = double(clock.nanos.load()) * 1e-9;
  reportRunEnd(result, runtime, jitError);
  return result;
}

std::string launchesSummary(const RunResult &run) {
  size_t repeats = 0;
  uint64_t idle = 0;
  for (const RunLaunch &l : run.launches) {
    repeats += l.result.repeated;
    idle += l.result.blocksIdle;
  }
  std::vector<std::string> asides;
  if (repeats)
    asides.push_back(std::to_string(repeats) +
                     " of them repeats of an earlier launch on the same "
                     "input, not simulated again");
  if (idle)
    asides.push_back(std::to_string(idle) +
                     " blocks that provably store nothing counted as one "
                     "that ran, not run: --exhaustive runs each");
  std::string summary = std::to_string(run.launches.size()) + " launch" +
                        (run.launches.size() == 1 ? "" : "es") + " simulated";
  for (size_t i = 0; i < asides.size(); ++i)
    summary += (i ? "; " : " (") + asides[i];
  if (!asides.empty())
    summary += ")";
  char times[96];
  std::snprintf(times, sizeof times, " in %.2f s, host code %.2f s",
                run.simulationSeconds, run.hostSeconds);
  return summary + times;
}

} // namespace kcheck::host

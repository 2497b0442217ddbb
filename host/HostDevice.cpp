#include "host/HostDevice.h"

#include "host/HostGuards.h"

#include "simulator/engine/DecodedKernel.h"

#include "simulator/engine/Decode.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <ostream>
#include <regex>

namespace kcheck::host {

namespace {

using namespace llvm;

/// Writes a module variable's initializer (DataLayout layout, little
/// endian); false for what has no bytes of its own (a pointer to another
/// variable), which then reads as zero.
bool serialize(const Constant *c, const DataLayout &dl, uint8_t *out) {
  Type *type = c->getType();
  if (isa<ConstantAggregateZero>(c) || isa<UndefValue>(c) ||
      isa<ConstantPointerNull>(c))
    return true;
  if (auto *cds = dyn_cast<ConstantDataSequential>(c)) {
    StringRef raw = cds->getRawDataValues();
    std::memcpy(out, raw.data(), raw.size());
    return true;
  }
  if (auto *ci = dyn_cast<ConstantInt>(c)) {
    if (ci->getBitWidth() > 64)
      return false;
    uint64_t v = ci->getZExtValue();
    std::memcpy(out, &v, dl.getTypeStoreSize(type));
    return true;
  }
  if (auto *cf = dyn_cast<ConstantFP>(c)) {
    APInt bits = cf->getValueAPF().bitcastToAPInt();
    if (bits.getBitWidth() > 64)
      return false;
    uint64_t v = bits.getZExtValue();
    std::memcpy(out, &v, dl.getTypeStoreSize(type));
    return true;
  }
  if (auto *st = dyn_cast<StructType>(type)) {
    const StructLayout *layout = dl.getStructLayout(st);
    bool ok = true;
    for (unsigned i = 0; i < st->getNumElements(); ++i)
      ok &= serialize(c->getAggregateElement(i), dl,
                      out + layout->getElementOffset(i));
    return ok;
  }
  uint64_t count = 0;
  Type *element = nullptr;
  if (auto *at = dyn_cast<ArrayType>(type)) {
    count = at->getNumElements();
    element = at->getElementType();
  } else if (auto *vt = dyn_cast<FixedVectorType>(type)) {
    count = vt->getNumElements();
    element = vt->getElementType();
  } else {
    return false;
  }
  uint64_t stride = dl.getTypeAllocSize(element);
  bool ok = true;
  for (uint64_t i = 0; i < count; ++i)
    ok &= serialize(c->getAggregateElement(unsigned(i)), dl, out + i * stride);
  return ok;
}

} // namespace

HostDevice::HostDevice(const analyzer::CompiledModule &device,
                       const RunOptions &options,
                       std::vector<RunLaunch> &launches, SimulationClock &clock)
    : module_(*device.module), kernelNames_(device.kernelNames),
      options_(options), launches_(launches), clock_(clock),
      // Every block: skipped blocks' stores would not be computed.
      predictor_(options.arch, /*exhaustive=*/true),
      resourceUsage_(options.toolkit, options.file,
                     options.arch.major < 2 ? "sm_20" : options.arch.name,
                     options.clangArgs),
      runner_(module_, predictor_, memory_, options.limits, options.file,
              hooks()) {
  predictor_.setJobs(options.jobs);
  predictor_.setSkipIdleBlocks(options.skipIdleBlocks);
  predictor_.setPrintf(options.printfOut);
  predictor_.setDeviceRuntimeContext({&conditionals_, nullptr});
  predictor_.setSanitizer(options.sanitizer);
  // The program goes on past a small overrun, as on the GPU, unless asked to
  // stop as compute-sanitizer's memcheck does.
  predictor_.setGlobalOverruns(options.stopAtGlobalOverrun
                                   ? sim::GlobalOverrun::Fault
                                   : sim::GlobalOverrun::CountAndGoOn);
  if (options.progress)
    predictor_.setProgress(options.progress);
}

uint64_t HostDevice::symbolAddress(const std::string &name, uint64_t bytes) {
  if (std::optional<uint64_t> known = memory_.symbolAddress(name))
    return *known;
  // A variable no kernel uses may be gone from the optimized device module;
  // host code may still copy to and from it.
  std::vector<uint8_t> init;
  if (const GlobalVariable *gv = module_.getGlobalVariable(name, true)) {
    const DataLayout &dl = module_.getDataLayout();
    bytes = dl.getTypeAllocSize(gv->getValueType());
    if (gv->hasInitializer()) {
      init.assign(bytes, 0);
      serialize(gv->getInitializer(), dl, init.data());
    }
  }
  return memory_.allocateSymbol(name, bytes, init);
}

// The argument bytes cudaLaunchKernel points at, one scalar per parameter
// (a by-value struct as its bytes); an error for a parameter the engine
// cannot hold.
static std::string kernelArguments(const Function &fn, const DataLayout &dl,
                                   void **args, const std::string &kernelName,
                                   std::vector<sim::KernelArg> &out) {
  for (const Argument &param : fn.args()) {
    Type *type = param.getType();
    const auto *src = static_cast<const uint8_t *>(args[param.getArgNo()]);
    sim::KernelArg arg;
    if (param.hasByValAttr()) { // a struct: host and device share its layout
      uint64_t bytes = dl.getTypeAllocSize(param.getParamByValType());
      arg.bytes.assign(src, src + bytes);
      out.push_back(std::move(arg));
      continue;
    }
    uint64_t bytes = type->isPointerTy()
                         ? dl.getPointerSize(type->getPointerAddressSpace())
                         : dl.getTypeStoreSize(type).getFixedValue();
    if (bytes > 8)
      return "kernel " + kernelName + " takes parameter #" +
             std::to_string(param.getArgNo()) + " of " + std::to_string(bytes) +
             " bytes in registers, which kcheck's engine does not support";
    std::memcpy(&arg.bits, src, bytes);
    out.push_back(std::move(arg));
  }
  return "";
}

// A kernel's name as reports give it (the compile's, else demangled).
std::string HostDevice::nameOf(const std::string &mangled) const {
  if (auto names = analyzer::namesOf(kernelNames_, mangled))
    return names->first;
  return sim::kernelNames(mangled).first;
}

LaunchOutcome
HostDevice::launch(const std::string &deviceName,
                   const core::LaunchConfig &config, void **args,
                   const std::optional<core::DeviceLaunchOrigin> &origin) {
  const Function *fn = module_.getFunction(deviceName);
  if (!fn || fn->isDeclaration())
    return {"kernel '" + deviceName + "' not found in the device code", {}};
  // The argument bytes cudaLaunchKernel points at, one scalar per parameter.
  std::vector<sim::KernelArg> kernelArgs;
  if (std::string error = kernelArguments(*fn, module_.getDataLayout(), args,
                                          nameOf(deviceName), kernelArgs);
      !error.empty())
    return {error, {}};
  return simulate(*fn, config, std::move(kernelArgs), origin);
}

LaunchOutcome
HostDevice::simulate(const Function &fn, const core::LaunchConfig &config,
                     std::vector<sim::KernelArg> kernelArgs,
                     std::optional<core::DeviceLaunchOrigin> origin) {
  outcome_ = {};
  ZeroedHeap ownAllocations(false);
  // The first launch of the walk (the host's, or one of its grid's
  // children) that fails or faults is the outcome, as the GPU reports it.
  if (std::string error = runner_.run(fn, config, kernelArgs, origin);
      !error.empty() && outcome_.error.empty())
    outcome_.error = error;
  return std::move(outcome_);
}

sim::LaunchRunner::Hooks HostDevice::hooks() {
  sim::LaunchRunner::Hooks h;
  h.admit = [this](const Function &fn,
                   const std::optional<core::DeviceLaunchOrigin> &,
                   std::string &refusal) -> std::optional<int> {
    if (launches_.size() >= options_.maxLaunches) {
      refusal = "launch #" + std::to_string(launches_.size()) + " (" +
                nameOf(fn.getName().str()) +
                ") not simulated: the program made more than --max-launches " +
                std::to_string(options_.maxLaunches) + " launches";
      return std::nullopt;
    }
    return int(launches_.size());
  };
  h.names = [this](const std::string &mangled) {
    return analyzer::namesOf(kernelNames_, mangled);
  };
  h.begin = [this](const std::string &label) {
    if (options_.beginLaunch)
      options_.beginLaunch(label);
    started_ = std::chrono::steady_clock::now();
    clock_.running = true;
  };
  h.end = [this] {
    clock_.nanos +=
        std::chrono::nanoseconds(std::chrono::steady_clock::now() - started_)
            .count();
    clock_.running = false;
    if (options_.endLaunch)
      options_.endLaunch();
  };
  h.record = [this](RunLaunch &&l) {
    const bool failed = !l.result.error.empty();
    if (failed && outcome_.error.empty()) {
      outcome_.error = "launch #" + std::to_string(l.index) + " " +
                       l.kernelName + ": " + l.result.error;
      outcome_.fault = l.result.fault;
      // What the GPU prints as the kernel faults (a failed assert's line)
      // goes to standard error, after the kernel's printf output (measured
      // on the H100: tests/host/programs/device_fault.cu).
      if (outcome_.fault && !outcome_.fault->gpuOutput.empty()) {
        if (options_.printfOut)
          options_.printfOut->flush();
        std::fflush(stdout);
        std::fputs(outcome_.fault->gpuOutput.c_str(), stderr);
      }
    }
    launches_.push_back(std::move(l));
    return !failed;
  };
  return h;
}

std::optional<core::KernelResources>
HostDevice::resources(const std::string &deviceName, std::string &why) {
  std::optional<core::KernelResources> r = resourceUsage_.of(deviceName, why);
  if (!r)
    return std::nullopt;
  // __launch_bounds__, which ptxas does not report, from the device module.
  if (int bound = launchBound(deviceName))
    r->maxThreadsPerBlock = bound;
  return r;
}

std::optional<std::pair<uint64_t, uint64_t>>
HostDevice::parameter(const std::string &deviceName, size_t index) {
  // As a device-side launch reads them (sim::parameterPlaces).
  const llvm::Function *f = module_.getFunction(deviceName);
  if (!f || index >= f->arg_size())
    return std::nullopt;
  sim::DecodedKernel::ParameterPlace p = sim::parameterPlaces(*f)[index];
  return std::pair{p.offset, p.bytes};
}

bool HostDevice::bindManaged(const std::string &deviceName, void *host,
                             uint64_t bytes) {
  // llvm.global.annotations: { ptr @var, ptr @"kcheck.managed", ... }.
  const GlobalVariable *annotations =
      module_.getGlobalVariable("llvm.global.annotations");
  const auto *list =
      annotations && annotations->hasInitializer()
          ? dyn_cast<ConstantArray>(annotations->getInitializer())
          : nullptr;
  bool managed = false;
  for (unsigned i = 0; list && i < list->getNumOperands() && !managed; ++i) {
    const auto *entry = dyn_cast<ConstantStruct>(list->getOperand(i));
    if (!entry || entry->getNumOperands() < 2)
      continue;
    const auto *var =
        dyn_cast<GlobalVariable>(entry->getOperand(0)->stripPointerCasts());
    const auto *text =
        dyn_cast<GlobalVariable>(entry->getOperand(1)->stripPointerCasts());
    const auto *data =
        text && text->hasInitializer()
            ? dyn_cast<ConstantDataSequential>(text->getInitializer())
            : nullptr;
    managed = var && var->getName() == deviceName && data &&
              data->isCString() && data->getAsCString() == "kcheck.managed";
  }
  if (!managed || memory_.symbolAddress(deviceName))
    return false;
  memory_.allocateHostBacked(host, bytes ? bytes : 1, "cudaMallocManaged");
  memory_.bindSymbol(deviceName, reinterpret_cast<uint64_t>(host));
  return true;
}

std::optional<core::Dim3>
HostDevice::clusterDims(const std::string &deviceName) {
  const llvm::Function *f = module_.getFunction(deviceName);
  return f ? sim::kernelClusterDims(*f) : std::nullopt;
}

int HostDevice::launchBound(const std::string &deviceName) {
  const llvm::Function *f = module_.getFunction(deviceName);
  return f ? sim::kernelLaunchBound(*f) : 0;
}

} // namespace kcheck::host

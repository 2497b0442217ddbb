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

std::pair<std::string, std::string> kernelNames(const std::string &mangled) {
  std::string signature = llvm::demangle(mangled);
  llvm::ItaniumPartialDemangler demangler;
  std::string name = signature.substr(0, signature.find('('));
  if (!demangler.partialDemangle(mangled.c_str()))
    if (char *n = demangler.getFunctionName(nullptr, nullptr)) {
      name = n;
      std::free(n);
    }
  // Template arguments as the source writes them (and `predict` names
  // them): reduce_v5<256>, not the demangler's reduce_v5<256u>.
  const std::regex suffix(R"(\b([0-9]+)(u|l|ul|lu|ll|ull)\b)");
  return {std::regex_replace(name, suffix, "$1"), signature};
}

HostDevice::HostDevice(const llvm::Module &module, const RunOptions &options,
                       std::vector<RunLaunch> &launches, SimulationClock &clock)
    : module_(module), options_(options), launches_(launches), clock_(clock),
      // Every block: skipped blocks' stores would not be computed.
      predictor_(options.arch, /*exhaustive=*/true),
      resourceUsage_(options.toolkit, options.file,
                     options.arch.major < 2 ? "sm_20" : options.arch.name,
                     options.clangArgs) {
  predictor_.setJobs(options.jobs);
  predictor_.setPrintf(options.printfOut);
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

LaunchOutcome HostDevice::launch(const std::string &deviceName,
                                 const core::LaunchConfig &config,
                                 void **args) {
  const Function *fn = module_.getFunction(deviceName);
  if (!fn || fn->isDeclaration())
    return {"kernel '" + deviceName + "' not found in the device code", {}};
  // The argument bytes cudaLaunchKernel points at, one scalar per parameter.
  std::vector<sim::KernelArg> kernelArgs;
  if (std::string error =
          kernelArguments(*fn, module_.getDataLayout(), args,
                          kernelNames(deviceName).first, kernelArgs);
      !error.empty())
    return {error, {}};
  return simulate(*fn, config, std::move(kernelArgs), std::nullopt);
}

std::shared_ptr<const sim::DecodedKernel>
HostDevice::decodedKernel(const Function &fn, std::string &error) {
  auto &decoded = decoded_[fn.getName().str()];
  if (!decoded) {
    auto d = sim::decodeKernel(fn);
    if (!d) {
      error = llvm::toString(d.takeError());
      return nullptr;
    }
    decoded = std::move(*d);
  }
  return decoded;
}

LaunchOutcome
HostDevice::simulate(const Function &fn, const core::LaunchConfig &config,
                     std::vector<sim::KernelArg> kernelArgs,
                     std::optional<core::DeviceLaunchOrigin> origin) {
  const std::string deviceName = fn.getName().str();
  auto [kernelName, signature] = kernelNames(deviceName);
  if (launches_.size() >= options_.maxLaunches)
    return {"launch #" + std::to_string(launches_.size()) + " (" + kernelName +
                ") not simulated: the program made more than --max-launches " +
                std::to_string(options_.maxLaunches) + " launches",
            {}};
  std::string decodeError;
  std::shared_ptr<const sim::DecodedKernel> decoded =
      decodedKernel(fn, decodeError);
  if (!decoded)
    return {decodeError, {}};

  RunLaunch l;
  l.index = int(launches_.size());
  l.deviceName = deviceName;
  l.kernelName = kernelName;
  l.signature = signature;
  l.config = config;
  l.function = &fn;
  l.kernel = decoded;
  l.launchedFrom = origin;
  sim::Limits limits;
  limits.maxWarpSteps = options_.stepBudget;
  limits.maxZeroFillWarpSteps = options_.zeroFillStepBudget;
  limits.maxLaunchSteps = options_.maxLaunchSteps;
  limits.maxMemoryBytes = options_.maxMemoryBytes;
  if (options_.beginLaunch)
    options_.beginLaunch("launch #" + std::to_string(l.index) + " " +
                         kernelName);
  auto start = std::chrono::steady_clock::now();
  ZeroedHeap ownAllocations(false);
  clock_.running = true;
  l.result = predictor_.run(*decoded, config, kernelArgs, memory_, limits);
  auto elapsed = std::chrono::steady_clock::now() - start;
  clock_.nanos += std::chrono::nanoseconds(elapsed).count();
  clock_.running = false;
  l.seconds = std::chrono::duration<double>(elapsed).count();
  if (options_.endLaunch)
    options_.endLaunch();
  LaunchOutcome outcome;
  if (!l.result.error.empty())
    outcome.error = "launch #" + std::to_string(l.index) + " " + kernelName +
                    ": " + l.result.error;
  outcome.fault = l.result.fault;
  // What the GPU prints as the kernel faults (a failed assert's line) goes
  // to standard error, after the kernel's printf output (measured on the
  // H100: tests/host/programs/device_fault.cu).
  if (outcome.fault && !outcome.fault->gpuOutput.empty()) {
    if (options_.printfOut)
      options_.printfOut->flush();
    std::fflush(stdout);
    std::fputs(outcome.fault->gpuOutput.c_str(), stderr);
  }
  std::vector<sim::DeviceWork> work = std::move(l.result.deviceWork);
  const int parent = l.index;
  std::shared_ptr<const sim::DecodedKernel> parentKernel = decoded;
  launches_.push_back(std::move(l));
  // The grid's children, after it (simulator/DeviceLaunches.h); the first
  // that fails or faults is the launch's outcome, as the GPU reports it.
  sim::runDeviceWork(work, memory_, [&](const sim::DeviceWork &w) {
    if (!outcome.error.empty())
      return;
    const Function *child = module_.getFunction(w.kernel);
    if (!child || child->isDeclaration()) {
      outcome.error = "kernel '" + w.kernel + "' not found in the device code";
      return;
    }
    std::shared_ptr<const sim::DecodedKernel> childDecoded =
        decodedKernel(*child, outcome.error);
    if (!childDecoded)
      return;
    core::DeviceLaunchOrigin from;
    from.launch = parent;
    from.where =
        sim::userLocation(parentKernel->insts()[w.instId], options_.file);
    from.depth = w.config.deviceDepth;
    LaunchOutcome o = simulate(*child, w.config,
                               sim::parameterBufferArguments(
                                   *childDecoded, memory_, w.parameterBuffer),
                               from);
    if (!o.error.empty() || o.fault)
      outcome = std::move(o);
  });
  return outcome;
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

int HostDevice::launchBound(const std::string &deviceName) {
  const llvm::Function *f = module_.getFunction(deviceName);
  unsigned bound = 0;
  if (!f || f->getFnAttribute("nvvm.maxntid")
                .getValueAsString()
                .split(',')
                .first.getAsInteger(10, bound))
    return 0;
  return int(bound);
}

} // namespace kcheck::host

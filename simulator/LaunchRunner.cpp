#include "simulator/LaunchRunner.h"

#include "simulator/DeviceLaunches.h"
#include "simulator/engine/Decode.h"
#include "simulator/engine/DecodedKernel.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <cstdlib>
#include <regex>

namespace kcheck::sim {

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
  static const std::regex suffix(R"(\b([0-9]+)(u|l|ul|lu|ll|ull)\b)");
  return {std::regex_replace(name, suffix, "$1"), signature};
}

int kernelLaunchBound(const llvm::Function &kernel) {
  unsigned bound = 0;
  if (kernel.getFnAttribute("nvvm.maxntid")
          .getValueAsString()
          .split(',')
          .first.getAsInteger(10, bound))
    return 0;
  return int(bound);
}

LaunchRunner::LaunchRunner(const llvm::Module &module, Predictor &predictor,
                           DeviceMemory &memory, const Limits &limits,
                           std::string mainFile, Hooks hooks)
    : module_(module), predictor_(predictor), memory_(memory), limits_(limits),
      mainFile_(std::move(mainFile)), hooks_(std::move(hooks)) {}

std::shared_ptr<const DecodedKernel>
LaunchRunner::decoded(const llvm::Function &fn, std::string &error) {
  std::shared_ptr<const DecodedKernel> &d = decoded_[&fn];
  if (!d) {
    auto k = decodeKernel(fn);
    if (!k) {
      error = llvm::toString(k.takeError());
      return nullptr;
    }
    d = std::move(*k);
  }
  return d;
}

std::string
LaunchRunner::run(const llvm::Function &fn, const core::LaunchConfig &config,
                  const std::vector<KernelArg> &args,
                  const std::optional<core::DeviceLaunchOrigin> &origin) {
  if (!origin)
    stopped_ = false; // a host launch: the program goes on after a fault
  if (stopped_)
    return "";
  std::string error;
  std::optional<int> index = hooks_.admit(fn, origin, error);
  if (!index)
    return error;
  RunnerLaunch l;
  l.index = *index;
  l.function = &fn;
  std::optional<std::pair<std::string, std::string>> names;
  if (hooks_.names)
    names = hooks_.names(fn.getName().str());
  std::tie(l.kernelName, l.signature) =
      names ? *names : kernelNames(fn.getName().str());
  // Between launches: the analysis's time budget (the launches before this
  // one are reported; this and later ones are not simulated).
  if (limits_.pastDeadline())
    return timeBudgetText(limits_) + " before launch #" +
           std::to_string(l.index) + " " + l.kernelName;
  l.kernel = decoded(fn, error);
  if (!l.kernel)
    return error;
  l.config = config;
  l.launchedFrom = origin;
  if (hooks_.begin)
    hooks_.begin("launch #" + std::to_string(l.index) + " " + l.kernelName);
  auto start = std::chrono::steady_clock::now();
  runningIndex_ = l.index, runningKernel_ = l.kernel.get();
  l.result = predictor_.run(*l.kernel, config, args, memory_, limits_);
  runningIndex_ = -1, runningKernel_ = nullptr;
  l.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (hooks_.end)
    hooks_.end();
  std::vector<DeviceWork> work = std::move(l.result.deviceWork);
  const int parent = l.index;
  std::shared_ptr<const DecodedKernel> parentKernel = l.kernel;
  if (!hooks_.record(std::move(l))) {
    stopped_ = true;
    return "";
  }
  // The grid's children, after it (simulator/DeviceLaunches.h).
  runDeviceWork(work, memory_, [&](const DeviceWork &w) {
    if (!error.empty() || stopped_)
      return;
    const llvm::Function *child = module_.getFunction(w.kernel);
    if (!child || child->isDeclaration()) {
      error = "kernel '" + w.kernel + "' not found in the device code";
      return;
    }
    std::shared_ptr<const DecodedKernel> childKernel = decoded(*child, error);
    if (!childKernel)
      return;
    core::DeviceLaunchOrigin from;
    from.launch = parent;
    from.where = userLocation(parentKernel->insts()[w.instId], mainFile_);
    from.depth = w.config.deviceDepth;
    error =
        run(*child, w.config,
            parameterBufferArguments(*childKernel, memory_, w.parameterBuffer),
            from);
  });
  return error;
}

std::optional<core::DeviceLaunchOrigin>
LaunchRunner::originOf(uint32_t instId) const {
  if (!runningKernel_ || instId >= runningKernel_->insts().size())
    return std::nullopt;
  core::DeviceLaunchOrigin from;
  from.launch = runningIndex_;
  from.where = userLocation(runningKernel_->insts()[instId], mainFile_);
  return from;
}

} // namespace kcheck::sim

#include "analyzer/toolchain/KernelResourceUsage.h"

#include "analyzer/toolchain/RunProgram.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Regex.h"

#include <algorithm>
#include <set>

namespace kcheck::analyzer {

std::map<std::string, core::KernelResources>
parsePtxasResourceUsage(llvm::StringRef report) {
  std::map<std::string, core::KernelResources> kernels;
  std::set<std::string> entries;
  llvm::Regex entry("Compiling entry function '([^']+)'");
  llvm::Regex properties("Function properties for ([^ ]+)$");
  llvm::Regex stack("([0-9]+) bytes stack frame");
  llvm::Regex used("Used ([0-9]+) registers");
  llvm::Regex barriers("used ([0-9]+) barriers");
  llvm::Regex smem("([0-9]+) bytes smem");
  llvm::Regex cmem("([0-9]+) bytes cmem\\[0\\]");
  core::KernelResources *current = nullptr;
  llvm::SmallVector<llvm::StringRef, 64> lines;
  report.split(lines, '\n');
  auto number = [](llvm::StringRef s) {
    uint64_t v = 0;
    s.getAsInteger(10, v);
    return v;
  };
  for (llvm::StringRef line : lines) {
    line = line.rtrim();
    llvm::SmallVector<llvm::StringRef, 2> m;
    if (entry.match(line, &m)) {
      entries.insert(m[1].str());
      current = &kernels[m[1].str()];
      continue;
    }
    if (properties.match(line, &m)) {
      // A device function's properties follow too: only entries count.
      current = entries.count(m[1].str()) ? &kernels[m[1].str()] : nullptr;
      continue;
    }
    if (!current)
      continue;
    if (stack.match(line, &m))
      current->localBytes = number(m[1]);
    if (used.match(line, &m))
      current->registers = int(number(m[1]));
    if (barriers.match(line, &m))
      current->barriers = int(number(m[1]));
    if (smem.match(line, &m))
      current->staticSharedBytes = number(m[1]);
    if (cmem.match(line, &m))
      current->constBytes = number(m[1]);
  }
  return kernels;
}

std::map<std::string, core::KernelResources>
parseNvlinkResourceUsage(llvm::StringRef report) {
  std::map<std::string, core::KernelResources> kernels;
  llvm::Regex properties("nvlink info +: Function properties for '([^']+)':");
  llvm::Regex usage("used ([0-9]+) registers, used ([0-9]+) barriers, "
                    "([0-9]+) stack, ([0-9]+) bytes smem");
  llvm::Regex constant("([0-9]+) bytes cmem\\[3\\]");
  constexpr uint64_t kReservedShared = 1024;
  uint64_t constBytes = 0;
  std::string current;
  auto number = [](llvm::StringRef s) {
    uint64_t v = 0;
    s.getAsInteger(10, v);
    return v;
  };
  llvm::SmallVector<llvm::StringRef, 64> lines;
  report.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    llvm::SmallVector<llvm::StringRef, 5> m;
    if (properties.match(line, &m)) {
      current = m[1].str();
      continue;
    }
    if (!current.empty() && usage.match(line, &m)) {
      core::KernelResources &k = kernels[current];
      k.registers = int(number(m[1]));
      k.barriers = int(number(m[2]));
      k.localBytes = number(m[3]);
      uint64_t shared = number(m[4]);
      k.staticSharedBytes =
          shared >= kReservedShared ? shared - kReservedShared : shared;
      current.clear();
      continue;
    }
    if (constant.match(line, &m))
      constBytes = number(m[1]);
  }
  for (auto &[name, k] : kernels)
    k.constBytes = constBytes;
  return kernels;
}

KernelResourceUsage::KernelResourceUsage(std::optional<CudaToolkit> toolkit,
                                         std::string file, std::string arch,
                                         std::vector<std::string> clangArgs)
    : toolkit_(std::move(toolkit)), file_(std::move(file)),
      arch_(std::move(arch)), clangArgs_(std::move(clangArgs)) {}

std::vector<std::string>
KernelResourceUsage::command(const std::string &cubinPath) const {
  std::vector<std::string> argv = {
      toolkit_ ? toolkit_->root + "/bin/nvcc" : "nvcc", "-arch=" + arch_,
      "-cubin", "--resource-usage", "-w",
      // What nvcc refuses by default and Clang accepts: without them a
      // program kcheck compiles could still fail here.
      "--expt-relaxed-constexpr", "--extended-lambda", "-o", cubinPath};
  // The flags that choose what the source means, in both compilers.
  for (size_t i = 0; i < clangArgs_.size(); ++i) {
    llvm::StringRef a = clangArgs_[i];
    bool joined = a.size() > 2 && (a.starts_with("-I") || a.starts_with("-D") ||
                                   a.starts_with("-U"));
    if (joined || a.starts_with("-std=")) {
      argv.push_back(a.str());
    } else if ((a == "-I" || a == "-D" || a == "-U" || a == "-isystem" ||
                a == "-include") &&
               i + 1 < clangArgs_.size()) {
      argv.push_back(a.str());
      argv.push_back(clangArgs_[++i]);
    }
  }
  argv.push_back(file_);
  return argv;
}

void KernelResourceUsage::compile() {
  compiled_ = true;
  if (!toolkit_) {
    failure_ = "no CUDA toolkit was found, so its compiler cannot tell "
               "(give --cuda-path)";
    return;
  }
  llvm::SmallString<128> cubin;
  if (llvm::sys::fs::createTemporaryFile("kcheck-resources", "cubin", cubin)) {
    failure_ = "no temporary file for nvcc's output";
    return;
  }
  std::vector<std::string> argv = command(cubin.str().str());
  // Bounded like everything else kcheck runs: a template-heavy file compiles
  // in tens of seconds.
  constexpr unsigned kSeconds = 600;
  std::string error;
  std::optional<ProgramOutput> out =
      runProgram(argv[0], {argv.begin() + 1, argv.end()}, kSeconds, &error);
  // Device code that calls libcudadevrt (the device runtime's functions)
  // links only as relocatable device code, as nvcc builds such programs
  // (-rdc=true): ptxas reports the callee unresolved otherwise.
  // Its final allocation is the device link's: nvlink's report.
  bool linked = false;
  if (out && out->exitCode != 0 &&
      llvm::StringRef(out->text).contains("Unresolved extern function")) {
    linked = true;
    argv = command(cubin.str().str());
    auto cubinFlag = std::find(argv.begin(), argv.end(), "-cubin");
    *cubinFlag = "-dlink";
    argv.insert(cubinFlag, {"-rdc=true", "-Xnvlink", "--verbose"});
    argv.push_back("-lcudadevrt");
    out = runProgram(argv[0], {argv.begin() + 1, argv.end()}, kSeconds, &error);
  }
  llvm::sys::fs::remove(cubin);
  std::string report = out ? out->text : "";
  if (!out || out->exitCode != 0) {
    std::string first;
    for (llvm::StringRef line : llvm::split(report, '\n'))
      if (line.contains("error")) {
        first = line.trim().str();
        break;
      }
    failure_ = "`" + argv[0] + " " + argv[1] + " ... " + file_ + "` failed" +
               (!out ? " (" + error + ")"
                     : " (exit " + std::to_string(out->exitCode) + ")") +
               (first.empty() ? "" : ": " + first);
    return;
  }
  kernels_ = linked ? parseNvlinkResourceUsage(report)
                    : parsePtxasResourceUsage(report);
}

std::optional<core::KernelResources>
KernelResourceUsage::of(const std::string &mangledName, std::string &why) {
  if (!compiled_)
    compile();
  if (!failure_.empty()) {
    why = failure_;
    return std::nullopt;
  }
  auto it = kernels_.find(mangledName);
  if (it == kernels_.end()) {
    why = "nvcc's resource usage names no kernel `" + mangledName + "`";
    return std::nullopt;
  }
  return it->second;
}

} // namespace kcheck::analyzer

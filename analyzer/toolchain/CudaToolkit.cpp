#include "analyzer/toolchain/CudaToolkit.h"

#include "analyzer/toolchain/RunProgram.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <cstdlib>
#include <regex>

namespace kcheck::analyzer {

int cudaVersionFromHeader(const std::string &cudaHText) {
  static const std::regex define(R"(#\s*define\s+CUDA_VERSION\s+(\d+))");
  std::smatch m;
  if (!std::regex_search(cudaHText, m, define))
    return 0;
  return std::atoi(m[1].str().c_str());
}

int nvccBuildFromVersionText(const std::string &text) {
  static const std::regex release(R"(\bV\d+\.\d+\.(\d+))");
  std::smatch m;
  if (!std::regex_search(text, m, release))
    return 0;
  return std::atoi(m[1].str().c_str());
}

unsigned oldestArchitecture(const CudaToolkit &toolkit) {
  if (toolkit.major >= 13)
    return 75;
  if (toolkit.major == 12)
    return 50;
  if (toolkit.major == 11)
    return 35;
  return 30;
}

namespace {

// What the toolkit's nvcc says of its build (0 when it has none or it does
// not run): the headers carry only the major and minor version.
int nvccBuild(const std::string &root) {
  llvm::SmallString<256> nvcc(root);
  llvm::sys::path::append(nvcc, "bin", "nvcc");
  if (!llvm::sys::fs::can_execute(nvcc))
    return 0;
  std::optional<ProgramOutput> out =
      runProgram(nvcc.str().str(), {"--version"}, /*seconds=*/10);
  return out && out->exitCode == 0 ? nvccBuildFromVersionText(out->text) : 0;
}

// `dir` as a toolkit, or nullopt with `why` saying what is missing.
std::optional<CudaToolkit> probe(const std::string &dir,
                                 const std::string &foundBy, std::string &why) {
  llvm::SmallString<256> root;
  if (llvm::sys::fs::real_path(dir, root)) {
    why = dir + " (" + foundBy + ") does not exist";
    return std::nullopt;
  }
  llvm::SmallString<256> cudaH(root), runtimeH(root);
  llvm::sys::path::append(cudaH, "include", "cuda.h");
  llvm::sys::path::append(runtimeH, "include", "cuda_runtime.h");
  auto text = llvm::MemoryBuffer::getFile(cudaH);
  int version = text ? cudaVersionFromHeader((*text)->getBuffer().str()) : 0;
  if (version == 0 || !llvm::sys::fs::exists(runtimeH)) {
    why = dir + " (" + foundBy +
          ") is not a CUDA toolkit: no include/cuda.h with CUDA_VERSION and "
          "include/cuda_runtime.h";
    return std::nullopt;
  }
  CudaToolkit t;
  t.root = root.str().str();
  t.foundBy = foundBy;
  t.major = version / 1000;
  t.minor = version % 1000 / 10;
  t.build = nvccBuild(t.root);
  return t;
}

} // namespace

std::optional<CudaToolkit> findCudaToolkit(const std::string &explicitPath,
                                           std::string &why) {
  if (!explicitPath.empty())
    return probe(explicitPath, "--cuda-path", why);
  std::string ignored;
  for (const char *variable : {"CUDA_PATH", "CUDA_HOME"})
    if (const char *value = std::getenv(variable); value && *value)
      if (auto t = probe(value, variable, ignored))
        return t;
  if (auto nvcc = llvm::sys::findProgramByName("nvcc")) {
    // <root>/bin/nvcc, through any symbolic links (/usr/bin/nvcc -> ...).
    llvm::SmallString<256> real;
    if (!llvm::sys::fs::real_path(*nvcc, real)) {
      llvm::StringRef root =
          llvm::sys::path::parent_path(llvm::sys::path::parent_path(real));
      if (auto t = probe(root.str(), "nvcc on PATH", ignored))
        return t;
    }
  }
  if (auto t = probe("/usr/local/cuda", "/usr/local/cuda", ignored))
    return t;
  why = "no CUDA toolkit found (--cuda-path, CUDA_PATH, CUDA_HOME, nvcc on "
        "PATH, /usr/local/cuda)";
  return std::nullopt;
}

} // namespace kcheck::analyzer

// Finding the CUDA toolkit the device side is compiled against, the way nvcc
// and Clang look for it: an explicit path, then CUDA_PATH / CUDA_HOME, then
// the nvcc on PATH, then /usr/local/cuda. When none is found (or the user
// asks for it) kcheck falls back to its bundled headers
// (analyzer/toolchain/cuda_stubs).
#pragma once

#include <optional>
#include <string>

namespace kcheck::analyzer {

struct CudaToolkit {
  std::string root;    // absolute, symbolic links resolved
  std::string foundBy; // "--cuda-path", "CUDA_PATH", "nvcc on PATH", ...
  int major = 0;       // from include/cuda.h's CUDA_VERSION
  int minor = 0;
  /// nvcc's build number (release 13.0, V13.0.88: 88), which nvcc passes as
  /// __CUDACC_VER_BUILD__; from `bin/nvcc --version`, 0 without an nvcc.
  int build = 0;
};

// The toolkit to use: `explicitPath` when not empty (nullopt, with `why`
// set, if it is not a toolkit), else the first that the environment names.
// A directory is a toolkit when it has include/cuda.h with a CUDA_VERSION
// and include/cuda_runtime.h.
std::optional<CudaToolkit> findCudaToolkit(const std::string &explicitPath,
                                           std::string &why);

// The oldest sm_XX the toolkit compiles for (CUDA 13: 75, 12: 50, 11: 35),
// as nvcc's `--list-gpu-arch` of each major version says.
unsigned oldestArchitecture(const CudaToolkit &toolkit);

// The build number in `nvcc --version`'s text ("V13.0.88": 88); 0 if none.
int nvccBuildFromVersionText(const std::string &text);

// CUDA_VERSION's value (e.g. 13000) in the text of a cuda.h; 0 if absent.
int cudaVersionFromHeader(const std::string &cudaHText);

} // namespace kcheck::analyzer

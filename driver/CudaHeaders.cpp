// Which CUDA headers a compile uses: the toolkit named or found, or the
// bundled ones (the static path and --run-host choose alike).
#include "driver/Session.h"

#include "analyzer/toolchain/CudaToolkit.h"

namespace kcheck::driver {

bool chooseCudaHeaders(const Options &options, const core::ArchSpec &arch,
                       std::optional<analyzer::CudaToolkit> &toolkit,
                       core::CudaHeaders &headers,
                       std::vector<std::string> &errors) {
  if (options.bundledHeaders) {
    headers.whyBundled = "--bundled-headers";
    headers.bundledAsked = true;
    return true;
  }
  std::string why;
  toolkit = analyzer::findCudaToolkit(options.cudaPath, why);
  if (toolkit) {
    const analyzer::CudaToolkit &t = *toolkit;
    if (arch.major * 10 + arch.minor < analyzer::oldestArchitecture(t)) {
      // nvcc of this toolkit would refuse the architecture too.
      headers.whyBundled = "the CUDA " + std::to_string(t.major) + "." +
                           std::to_string(t.minor) + " toolkit in " + t.root +
                           " does not support " + options.arch;
      toolkit.reset();
      return true;
    }
    headers.toolkit = true;
    headers.version = std::to_string(t.major) + "." + std::to_string(t.minor);
    headers.path = t.root;
    headers.foundBy = t.foundBy;
    return true;
  }
  if (!options.cudaPath.empty()) {
    errors.push_back("--cuda-path: " + why);
    return false;
  }
  headers.whyBundled = why;
  return true;
}

} // namespace kcheck::driver

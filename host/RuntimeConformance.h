// What kcheck's simulated CUDA runtime provides of the toolkit's runtime
// API, and what it leaves out with the reason (host/RuntimeExclusions.def):
// read by the conformance tables (conformance/, docs/conformance.md) and by
// the run, which names the reason when a program calls what is excluded.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kcheck::host {

/// One row of host/RuntimeExclusions.def: a runtime function kcheck does not
/// provide, its family, and why. A program that calls it stops there, with
/// the call and the reason named.
struct RuntimeExclusion {
  std::string_view name, family, why;
};
const std::vector<RuntimeExclusion> &runtimeExclusions();
/// The row for `name`, or null.
const RuntimeExclusion *runtimeExclusion(std::string_view name);

/// One row of core/CudaErrors.def: a cudaError_t and what
/// cudaGetErrorName and cudaGetErrorString return for it.
struct CudaErrorText {
  int code;
  const char *name, *message;
};
const std::vector<CudaErrorText> &cudaErrorTexts();
/// The row of `code`; for a code no row has, "unrecognized error code" for
/// both, as the runtime answers.
const CudaErrorText &cudaErrorText(int code);

/// Every runtime function a JIT'd program's call reaches kcheck's answer
/// for: the entry points and the functions the host glue defines.
std::vector<std::string> providedRuntimeFunctions();

} // namespace kcheck::host

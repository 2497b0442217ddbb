// What kcheck's simulated CUDA runtime provides of the toolkit's runtime
// API, and what it leaves out with the reason (host/RuntimeExclusions.def):
// read by the conformance tables (conformance/, docs/conformance.md) and by
// the run, which names the reason when a program calls what is excluded.
#pragma once

#include "core/CudaErrors.h"

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

/// Error names and messages (core/CudaErrors.h), which the device runtime
/// answers too.
using core::CudaErrorText;
using core::cudaErrorText;
using core::cudaErrorTexts;

/// Every runtime function a JIT'd program's call reaches kcheck's answer
/// for: the entry points and the functions the host glue defines.
std::vector<std::string> providedRuntimeFunctions();

} // namespace kcheck::host

// The part of kcheck's simulated CUDA runtime that depends on the layout of
// the CUDA headers' structs: generated as source and compiled into the
// program's own host module, against whichever headers it uses (the
// toolkit's cudaDeviceProp is not the bundled headers' one).
#pragma once

#include "core/ArchSpec.h"

#include <string>
#include <vector>

namespace kcheck::host {

// Where compileHost puts the glue in its virtual file system.
inline constexpr const char *kHostGluePath =
    "/kcheck/cuda-stubs/kcheck-host-glue.h";

// The glue for `arch`: cudaGetDeviceProperties filling every field the
// headers' cudaDeviceProp has from core/DeviceFacts.h's table (fields a
// toolkit version lacks, such as CUDA 13's removed clockRate, are skipped at
// compile time), after the runtime's kcheck_check_device.
std::string hostGlueSource(const core::ArchSpec &arch);

/// The runtime functions the glue defines (cudaGetDeviceProperties,
/// cudaFuncGetAttributes), for the conformance tables.
std::vector<std::string> hostGlueFunctions();

} // namespace kcheck::host

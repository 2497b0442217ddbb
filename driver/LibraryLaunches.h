// Launches made inside CUB and Thrust. Their kernel launches sit on the host
// side of NV_IF_TARGET, which the device-side parse (the one launch
// extraction shares with code generation) never sees: when host code calls
// into them, the file's host side is parsed once more, the launch extractor
// following the libraries' code (ExtractorOptions::followLibraries).
#pragma once

#include "analyzer/host/LaunchExtractor.h"
#include "analyzer/toolchain/DeviceCompiler.h"

#include <functional>
#include <string>

namespace kcheck::driver {

/// Makes the extractor consumer that fills a HostProgram (following the
/// libraries or not).
using LaunchExtractorFactory = std::function<analyzer::ConsumerFactory(
    analyzer::HostProgram &, bool followLibraries)>;

/// `host` came from the device-side parse and names a call into CUB or
/// Thrust (HostProgram::libraryCall): replaces it with the host-side parse's
/// program when that finds more launches. Notes in `host` say what was done.
void followLibraryLaunches(const std::string &file,
                           const analyzer::CompileOptions &options,
                           const LaunchExtractorFactory &extract,
                           analyzer::HostProgram &host);

} // namespace kcheck::driver

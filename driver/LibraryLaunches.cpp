#include "driver/LibraryLaunches.h"

namespace kcheck::driver {

void followLibraryLaunches(const std::string &file,
                           const analyzer::CompileOptions &options,
                           const LaunchExtractorFactory &extract,
                           analyzer::HostProgram &host) {
  std::string call = host.libraryCall;
  if (!options.toolkit) {
    host.notes.push_back("host code calls " + call +
                         ": the bundled headers have no CUB or Thrust, so "
                         "launches made inside them are not listed");
    return;
  }
  analyzer::HostProgram followed;
  std::string diagnostics;
  bool parsed = analyzer::parseHostSide(file, options, extract(followed, true),
                                        diagnostics);
  if (!parsed) {
    host.notes.push_back(
        "host code calls " + call +
        ": the host side of the file does not compile with Clang, so "
        "launches made inside CUB or Thrust are not listed (--run-host "
        "runs them)");
    return;
  }
  if (followed.launches.size() <= host.launches.size()) {
    host.notes.push_back(
        "host code calls " + call +
        ": following CUB and Thrust on the host side found no more "
        "launches than the program makes itself");
    return;
  }
  size_t before = host.launches.size();
  followed.notes.insert(followed.notes.begin(),
                        "host code calls " + call + ": " +
                            std::to_string(followed.launches.size()) +
                            " launches found on the host side of the "
                            "compile, following CUB's and Thrust's code "
                            "(the device side's parse found " +
                            std::to_string(before) + ")");
  host = std::move(followed);
}

} // namespace kcheck::driver

#include "analyzer/toolchain/RunProgram.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Program.h>

namespace kcheck::analyzer {

std::optional<ProgramOutput> runProgram(const std::string &program,
                                        const std::vector<std::string> &args,
                                        unsigned seconds, std::string *why) {
  llvm::SmallString<128> output;
  if (llvm::sys::fs::createTemporaryFile("kcheck-tool", "txt", output)) {
    if (why)
      *why = "no temporary file for its output";
    return std::nullopt;
  }
  std::vector<llvm::StringRef> argv = {program};
  argv.insert(argv.end(), args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {
      std::nullopt, llvm::StringRef(output), llvm::StringRef(output)};
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(program, argv, std::nullopt, redirects,
                                     seconds, 0, &error);
  auto text = llvm::MemoryBuffer::getFile(output);
  llvm::sys::fs::remove(output);
  if (rc < 0 || !text) {
    if (why)
      *why = rc < 0 ? error : "its output could not be read";
    return std::nullopt;
  }
  return ProgramOutput{rc, (*text)->getBuffer().str()};
}

} // namespace kcheck::analyzer

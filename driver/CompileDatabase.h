// -p DIR: analyse FILE.cu with the include paths, macros and language
// standard its project's build gives it, read from DIR/compile_commands.json
// (CMake's CMAKE_EXPORT_COMPILE_COMMANDS, Bear, ...), as clang-tidy -p does.
//
// Assumptions:
//   - the JSON compilation database format: an array of {directory, file,
//     command | arguments}; `output` is not needed;
//   - the compiler is gcc/clang or nvcc. Only what changes what the
//     preprocessor and front end see is kept: -I, -isystem, -iquote,
//     -idirafter, -D, -U, -include, -std (with their nvcc spellings
//     --include-path, --system-include, --define-macro, --undefine-macro,
//     --pre-include, --std, whose values may be comma-separated lists).
//     Everything else is dropped: kcheck compiles the device side for its
//     own --arch with its own CUDA headers and IR pipeline, so codegen,
//     warning, host-compiler (-Xcompiler) and link flags do not apply;
//   - relative paths are relative to the entry's `directory`;
//   - an options or response file (--options-file, @FILE) is not read: a
//     note says so.
#pragma once

#include "driver/Options.h"

#include <string>
#include <string_view>
#include <vector>

namespace kcheck::driver {

struct CompileCommand {
  std::string directory;              // absolute
  std::string file;                   // absolute, without `.` / `..`
  std::vector<std::string> arguments; // the compiler's argv, compiler first
};

/// The entries of a compile_commands.json text; `error` set when it is not
/// one (bad JSON, not an array, an entry without directory, file or
/// command/arguments).
std::vector<CompileCommand> parseCompileDatabase(std::string_view json,
                                                 std::string &error);

struct FrontEndFlags {
  // Clang spellings, paths made absolute: -I DIR, -DNAME=V, -std=c++17 ...
  std::vector<std::string> clangArgs;
  // The one GPU architecture the command builds for (-arch=sm_80,
  // -gencode arch=compute_80,code=sm_80, --cuda-gpu-arch=sm_80); empty when
  // it names none or several.
  std::string arch;
  std::vector<std::string> notes; // what was not used that could matter
};

/// The front-end flags of one compile command.
FrontEndFlags frontEndFlags(const CompileCommand &command);

struct CompileCommandMatch {
  const CompileCommand *command = nullptr; // null: no entry to use
  std::string note; // set when the entry is not the file's own, or none
};

/// The entry for `file` (an absolute path): its own, else one of a file
/// with the same name before the extension (kernel.cu for kernel.cuh, or a
/// copy elsewhere; the same directory first), as clang tools fall back.
CompileCommandMatch
findCompileCommand(const std::vector<CompileCommand> &database,
                   const std::string &file);

/// The database -p names (a directory holding compile_commands.json, or the
/// file itself); `error` set when it cannot be read or is not one.
std::vector<CompileCommand> loadCompileDatabase(const std::string &dir,
                                                std::string &error);

/// The CUDA sources (.cu) the database compiles, each once, in its order.
std::vector<std::string>
cudaSources(const std::vector<CompileCommand> &database);

/// -p: reads the database named by options.compileDatabase (a directory
/// holding compile_commands.json, or the file itself) and puts the flags of
/// options.file's entry in front of options.clangArgs; takes its --arch
/// when the command line gave none. Returns a usage error (exit 2: no such
/// file, not a compilation database), or "" with `notes` for stderr.
std::string applyCompileDatabase(Options &options,
                                 std::vector<std::string> &notes);

} // namespace kcheck::driver

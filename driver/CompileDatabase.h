// -p DIR: analyse FILE.cu with the include paths, macros and language
// standard its project's build gives it, read from DIR/compile_commands.json
// (CMake's CMAKE_EXPORT_COMPILE_COMMANDS, Bear, ...), as clang-tidy -p does.
//
// The database is clang::tooling's, stacked as clang tools stack it:
//   JSONCompilationDatabase        the file: `command` split as a POSIX
//                                  shell does, or `arguments`; a file found
//                                  through symbolic links too;
//   expandResponseFiles            @FILE arguments read in place;
//   kcheck's nvcc translation      each command's front-end flags, in Clang
//                                  spelling (below);
//   inferMissingCompileCommands    clangd's interpolation: a file the
//                                  database lacks (a header, a new file)
//                                  takes the flags of its nearest entry (the
//                                  same name, then the nearest folder).
// The translation comes before the interpolation because the interpolation
// parses commands with Clang's driver table, which reads nvcc's own flags
// (`-gencode arch=...`, `--define-macro A`) as inputs and drops their values.
//
// Assumptions of the translation:
//   - the compiler is gcc/clang or nvcc. Only what changes what the
//     preprocessor and front end see is kept: -I, -isystem, -iquote,
//     -idirafter, -D, -U, -include, -imacros, -std (with their nvcc spellings
//     --include-path, --system-include, --define-macro, --undefine-macro,
//     --pre-include, --std, whose values may be comma-separated lists), and
//     the GPU architectures. Everything else is dropped: kcheck compiles the
//     device side for its own --arch with its own IR pipeline, so codegen,
//     warning, host-compiler (-Xcompiler) and link flags do not apply;
//   - relative paths are relative to the entry's `directory`;
//   - nvcc's options files (--options-file, -optf) are read like response
//     files; one that cannot be read is named in a note.
#pragma once

#include "driver/Options.h"

#include <clang/Tooling/CompilationDatabase.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace kcheck::driver {

struct FrontEndFlags {
  // Clang spellings, paths made absolute: -I DIR, -DNAME=V, -std=c++17 ...
  std::vector<std::string> clangArgs;
  // The GPU architectures the command builds for, as sm_XX, each once
  // (-arch=sm_80, -gencode arch=compute_80,code=sm_80, --cuda-gpu-arch=sm_80).
  std::vector<std::string> archs;
  // The one architecture of `archs`; empty when it names none or several.
  std::string arch;
  std::vector<std::string> notes; // what was not used that could matter
  // The files of flags that were not read (@FILE, --options-file=FILE),
  // in Clang-readable form: a translated command keeps them so that its
  // notes still name them.
  std::vector<std::string> unread;
};

/// The front-end flags of one compile command (nvcc or Clang/GCC spelling).
FrontEndFlags frontEndFlags(const clang::tooling::CompileCommand &command);

/// The compilation database of a compile_commands.json text, stacked as the
/// header says; `error` set (and null returned) when it is not one.
std::unique_ptr<clang::tooling::CompilationDatabase>
compileDatabaseFromJson(std::string_view json, std::string &error);

/// The database -p names (a directory holding compile_commands.json, or the
/// file itself); `error` set when it cannot be read or is not one.
std::unique_ptr<clang::tooling::CompilationDatabase>
loadCompileDatabase(const std::string &dir, std::string &error);

struct CompileCommandMatch {
  std::optional<clang::tooling::CompileCommand> command; // none: no flags
  std::string note; // set when the command is not the file's own, or none
};

/// The command for `file` (an absolute path): its own entry, else one
/// interpolated from the nearest entry (the note names it).
CompileCommandMatch
findCompileCommand(const clang::tooling::CompilationDatabase &database,
                   const std::string &file);

/// The CUDA sources (.cu) the database compiles, each once, in its order,
/// as absolute paths.
std::vector<std::string>
cudaSources(const clang::tooling::CompilationDatabase &database);

/// -p: reads the database named by options.compileDatabase (a directory
/// holding compile_commands.json, or the file itself) and puts the flags of
/// options.file's entry in front of options.clangArgs; takes its --arch
/// when the command line gave none. Returns a usage error (exit 2: no such
/// file, not a compilation database), or "" with `notes` for stderr.
std::string applyCompileDatabase(Options &options,
                                 std::vector<std::string> &notes);

} // namespace kcheck::driver

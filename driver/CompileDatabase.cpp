#include "driver/CompileDatabase.h"

#include "analyzer/toolchain/NvccMacros.h"

#include "core/ArchSpec.h"

#include <clang/Tooling/JSONCompilationDatabase.h>

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/Allocator.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/StringSaver.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <algorithm>
#include <regex>
#include <set>

namespace kcheck::driver {

namespace tooling = clang::tooling;

namespace {

std::string normalized(const std::string &path, const std::string &base) {
  llvm::SmallString<256> p(path);
  if (!llvm::sys::path::is_absolute(p) && !base.empty()) {
    llvm::SmallString<256> joined(base);
    llvm::sys::path::append(joined, p);
    p = joined;
  }
  llvm::sys::path::remove_dots(p, /*remove_dot_dot=*/true);
  return std::string(p);
}

// What a compiler flag means to kcheck.
enum class FlagKind {
  Include,       // -I
  System,        // -isystem
  Quote,         // -iquote
  DirAfter,      // -idirafter
  Define,        // -D
  Undefine,      // -U
  PreInclude,    // -include
  Macros,        // -imacros
  Std,           // -std
  Arch,          // -arch, -code, -gencode, --cuda-gpu-arch ...: sm_XX in it
  OptionsFile,   // --options-file: not read
  HostCompiler,  // -Xcompiler: the host compiler's flags, -fopenmp kept
  Rdc,           // -rdc / --relocatable-device-code: true or false
  DefaultStream, // --default-stream: legacy, null or per-thread
  Drop,          // takes a value, both dropped (its value may look like a flag)
};

struct FlagSpelling {
  std::string_view name;
  FlagKind kind;
  bool joined = false; // the value may follow without `=` (-Idir)
  bool list = false;   // nvcc: the value is a comma-separated list
};

// Longer spellings before their prefixes (-include-pch before -include).
constexpr FlagSpelling kSpellings[] = {
    {"-include-pch", FlagKind::Drop},
    {"-I", FlagKind::Include, true},
    {"--include-path", FlagKind::Include, false, true},
    {"-isystem", FlagKind::System, true},
    {"--system-include", FlagKind::System, false, true},
    {"-iquote", FlagKind::Quote, true},
    {"-idirafter", FlagKind::DirAfter, true},
    {"-D", FlagKind::Define, true},
    {"--define-macro", FlagKind::Define, false, true},
    {"-U", FlagKind::Undefine, true},
    {"--undefine-macro", FlagKind::Undefine, false, true},
    {"-include", FlagKind::PreInclude, true},
    {"--pre-include", FlagKind::PreInclude, false, true},
    {"-imacros", FlagKind::Macros, true},
    {"-std", FlagKind::Std},
    {"--std", FlagKind::Std},
    {"-arch", FlagKind::Arch},
    {"--gpu-architecture", FlagKind::Arch},
    {"-code", FlagKind::Arch},
    {"--gpu-code", FlagKind::Arch},
    {"-gencode", FlagKind::Arch},
    {"--generate-code", FlagKind::Arch},
    {"--cuda-gpu-arch", FlagKind::Arch},
    {"--offload-arch", FlagKind::Arch},
    {"--options-file", FlagKind::OptionsFile},
    {"-rdc", FlagKind::Rdc},
    {"--relocatable-device-code", FlagKind::Rdc},
    {"-default-stream", FlagKind::DefaultStream},
    {"--default-stream", FlagKind::DefaultStream},
    {"-optf", FlagKind::OptionsFile},
    // Values handed to other tools, or paths: never read as flags.
    {"-Xcompiler", FlagKind::HostCompiler, false, true},
    {"--compiler-options", FlagKind::HostCompiler, false, true},
    {"-Xptxas", FlagKind::Drop},
    {"--ptxas-options", FlagKind::Drop},
    {"-Xlinker", FlagKind::Drop},
    {"--linker-options", FlagKind::Drop},
    {"-Xnvlink", FlagKind::Drop},
    {"--nvlink-options", FlagKind::Drop},
    {"-Xarchive", FlagKind::Drop},
    {"--archive-options", FlagKind::Drop},
    {"-Xcudafe", FlagKind::Drop},
    {"-Xfatbin", FlagKind::Drop},
    {"-Xclang", FlagKind::Drop},
    {"-Xarch_device", FlagKind::Drop},
    {"-Xarch_host", FlagKind::Drop},
    {"-Xcuda-ptxas", FlagKind::Drop},
    {"-o", FlagKind::Drop},
    {"-x", FlagKind::Drop},
    {"-MF", FlagKind::Drop},
    {"-MT", FlagKind::Drop},
    {"-MQ", FlagKind::Drop},
    {"-ccbin", FlagKind::Drop},
    {"--compiler-bindir", FlagKind::Drop},
    {"-target", FlagKind::Drop},
    {"-isysroot", FlagKind::Drop},
    {"-cudart", FlagKind::Drop},
    {"--cudart", FlagKind::Drop},
    {"-odir", FlagKind::Drop},
    {"--output-directory", FlagKind::Drop},
};

/// The compute capabilities named in an architecture flag's value, as
/// sm_XX: sm_80, compute_80 and arch=compute_80,code=[sm_80] all give sm_80;
/// sm_90a is sm_90 (the same memory system).
void collectArchs(const std::string &value, std::set<std::string> &archs) {
  static const std::regex cc("(?:sm|compute)_([0-9]+)[a-z]?");
  for (std::sregex_iterator it(value.begin(), value.end(), cc), end; it != end;
       ++it)
    archs.insert("sm_" + (*it)[1].str());
}

std::vector<std::string> splitList(const std::string &value, bool list) {
  if (!list)
    return {value};
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t comma = value.find(',', start);
    if (std::string part = value.substr(start, comma - start); !part.empty())
      parts.push_back(part);
    if (comma == std::string::npos)
      return parts;
    start = comma + 1;
  }
}

} // namespace

namespace {

/// The flag `args[i]` starts and its value (which may be the next argument:
/// `i` then moves past it); null for anything else (the compiler, the input,
/// -O3, -c, -g, -fPIC, --expt-relaxed-constexpr, -lineinfo, ...), which does
/// not change what the device side's front end sees, or is kcheck's own
/// choice.
const FlagSpelling *matchFlag(const std::vector<std::string> &args, size_t &i,
                              std::string &value) {
  const std::string &arg = args[i];
  for (const FlagSpelling &s : kSpellings) {
    if (arg.compare(0, s.name.size(), s.name) != 0)
      continue;
    std::string rest = arg.substr(s.name.size());
    if (rest.empty()) { // -I DIR
      if (i + 1 >= args.size())
        return nullptr;
      value = args[++i];
    } else if (rest[0] == '=') { // --include-path=DIR, -std=c++17
      value = rest.substr(1);
    } else if (s.joined) { // -IDIR
      value = rest;
    } else {
      continue; // a longer flag with this prefix: -arch vs -archive
    }
    return &s;
  }
  return nullptr;
}

/// Adds what one value of a front-end flag means to `f`.
void addFlagValue(FlagKind kind, const std::string &v,
                  const std::string &directory, FrontEndFlags &f,
                  std::set<std::string> &archs) {
  auto add = [&](std::initializer_list<std::string> args) {
    f.clangArgs.insert(f.clangArgs.end(), args);
  };
  switch (kind) {
  case FlagKind::Include:
    return add({"-I" + normalized(v, directory)});
  case FlagKind::System:
    return add({"-isystem", normalized(v, directory)});
  case FlagKind::Quote:
    return add({"-iquote", normalized(v, directory)});
  case FlagKind::DirAfter:
    return add({"-idirafter", normalized(v, directory)});
  case FlagKind::Define:
    return add({"-D" + v});
  case FlagKind::Undefine:
    return add({"-U" + v});
  case FlagKind::PreInclude:
  case FlagKind::Macros: {
    // Searched in the compiler's working directory first, then as
    // #include "..." would be (GCC's rule): keep the name if it is not
    // in `directory`.
    std::string inDirectory = normalized(v, directory);
    return add({kind == FlagKind::Macros ? "-imacros" : "-include",
                llvm::sys::fs::exists(inDirectory) ? inDirectory : v});
  }
  case FlagKind::Std:
    return add({"-std=" + v});
  case FlagKind::Arch:
    return collectArchs(v, archs);
  case FlagKind::OptionsFile:
    f.notes.push_back("options file '" + v + "' not read");
    f.unread.push_back("--options-file=" + v);
    return;
  case FlagKind::HostCompiler:
    // The host compiler's OpenMP, as nvcc passes it (-Xcompiler -fopenmp):
    // Clang compiles the host code with it (libomp, setup.sh); the host
    // compiler's other flags (warnings, -O) change nothing kcheck counts.
    if (v == "-fopenmp" || v.rfind("-fopenmp=", 0) == 0)
      return add({"-fopenmp"});
    return;
  case FlagKind::Rdc:
    // nvcc -rdc=true: relocatable device code, as dynamic parallelism
    // needs (analyzer/toolchain/DeviceCompiler.h).
    if (v == "true")
      return add({"-fgpu-rdc"});
    return;
  case FlagKind::DefaultStream:
    // What nvcc defines for it (crt/host_defines.h reads it): the runtime's
    // calls then take per-thread default streams (the _ptsz entry points).
    if (v == "per-thread")
      return add({"-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1"});
    return;
  case FlagKind::Drop:
    return;
  }
}

} // namespace

FrontEndFlags frontEndFlags(const tooling::CompileCommand &command) {
  FrontEndFlags f;
  std::set<std::string> archs;
  const std::vector<std::string> &args = command.CommandLine;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string &arg = args[i];
    if (arg.size() > 1 && arg[0] == '@') {
      f.notes.push_back("response file '" + arg.substr(1) + "' not read");
      f.unread.push_back(arg);
      continue;
    }
    // Clang's spelling of relocatable device code, and GCC's and Clang's of
    // OpenMP (a translated command carries both in these spellings).
    if (arg == "-fgpu-rdc") {
      f.clangArgs.push_back("-fgpu-rdc");
      continue;
    }
    if (arg == "-fopenmp" || arg.rfind("-fopenmp=", 0) == 0) {
      f.clangArgs.push_back("-fopenmp");
      continue;
    }
    // A flag with which nvcc defines a macro (-G: __CUDACC_DEBUG__,
    // --extended-lambda: __CUDACC_EXTENDED_LAMBDA__ ...), as nvcc does;
    // -dc, -dlto ...: relocatable device code, whose compile defines
    // __CUDACC_RDC__.
    if (const analyzer::NvccMacro *macro = analyzer::nvccMacroOfFlag(arg)) {
      if (macro->definedBy == analyzer::NvccMacroDefinedBy::Relocatable) {
        f.clangArgs.push_back("-fgpu-rdc");
        continue;
      }
      f.clangArgs.push_back("-D" + std::string(macro->name));
      if (macro->option == "--device-debug")
        f.notes.push_back("nvcc " + arg +
                          " compiles device code without optimization; "
                          "kcheck predicts the optimized build");
      continue;
    }
    std::string value;
    if (const FlagSpelling *flag = matchFlag(args, i, value))
      for (const std::string &v : splitList(value, flag->list))
        addFlagValue(flag->kind, v, command.Directory, f, archs);
  }
  f.archs.assign(archs.begin(), archs.end());
  if (archs.size() == 1)
    f.arch = *archs.begin();
  else if (archs.size() > 1) {
    std::string names;
    for (const std::string &a : archs)
      names += (names.empty() ? "" : ", ") + a;
    f.notes.push_back("the compile command builds for several architectures (" +
                      names + "): give --arch to choose");
  }
  return f;
}

namespace {

/// nvcc's --options-file/-optf FILE,... read in place, as
/// expandResponseFiles reads @FILE: the file holds arguments split as a
/// POSIX shell splits them. One that cannot be read stays, so that
/// frontEndFlags names it.
std::vector<std::string> readOptionsFiles(const std::vector<std::string> &args,
                                          const std::string &directory) {
  std::vector<std::string> out;
  for (size_t i = 0; i < args.size(); ++i) {
    size_t at = i;
    std::string value;
    const FlagSpelling *flag = i ? matchFlag(args, i, value) : nullptr;
    if (!flag || flag->kind != FlagKind::OptionsFile) {
      out.insert(out.end(), args.begin() + at, args.begin() + i + 1);
      continue;
    }
    for (const std::string &file : splitList(value, true)) {
      llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
          llvm::MemoryBuffer::getFile(normalized(file, directory));
      if (!text) {
        out.push_back("--options-file=" + file);
        continue;
      }
      llvm::BumpPtrAllocator allocator;
      llvm::StringSaver saver(allocator);
      llvm::SmallVector<const char *, 32> words;
      llvm::cl::TokenizeGNUCommandLine((*text)->getBuffer(), saver, words);
      out.insert(out.end(), words.begin(), words.end());
    }
  }
  return out;
}

/// A command as the front end needs it: the compiler, the front-end flags
/// in Clang spelling, one --cuda-gpu-arch per architecture, what could not
/// be read (response and options files, kept so that the notes name them),
/// and the file, absolute.
tooling::CompileCommand translated(tooling::CompileCommand c) {
  c.CommandLine = readOptionsFiles(c.CommandLine, c.Directory);
  FrontEndFlags f = frontEndFlags(c);
  std::vector<std::string> line = {c.CommandLine.empty() ? "c++"
                                                         : c.CommandLine[0]};
  line.insert(line.end(), f.clangArgs.begin(), f.clangArgs.end());
  for (const std::string &a : f.archs)
    line.push_back("--cuda-gpu-arch=" + a);
  line.insert(line.end(), f.unread.begin(), f.unread.end());
  c.Filename = normalized(c.Filename, c.Directory);
  line.insert(line.end(), {"-c", c.Filename});
  c.CommandLine = std::move(line);
  return c;
}

/// The translation layer of the stack the header describes.
class FrontEndFlagsDatabase : public tooling::CompilationDatabase {
public:
  explicit FrontEndFlagsDatabase(
      std::unique_ptr<tooling::CompilationDatabase> base)
      : base_(std::move(base)) {}
  std::vector<tooling::CompileCommand>
  getCompileCommands(llvm::StringRef file) const override {
    return translatedAll(base_->getCompileCommands(file));
  }
  std::vector<std::string> getAllFiles() const override {
    return base_->getAllFiles();
  }
  std::vector<tooling::CompileCommand> getAllCompileCommands() const override {
    return translatedAll(base_->getAllCompileCommands());
  }

private:
  static std::vector<tooling::CompileCommand>
  translatedAll(std::vector<tooling::CompileCommand> commands) {
    for (tooling::CompileCommand &c : commands)
      c = translated(std::move(c));
    return commands;
  }
  std::unique_ptr<tooling::CompilationDatabase> base_;
};

} // namespace

std::unique_ptr<tooling::CompilationDatabase>
compileDatabaseFromJson(std::string_view json, std::string &error) {
  // JSONCompilationDatabase reads JSON with LLVM's YAML parser, which prints
  // its syntax errors to stderr without the file's name; LLVM's JSON parser
  // says where the text stops being JSON.
  if (llvm::Expected<llvm::json::Value> syntax =
          llvm::json::parse(llvm::StringRef(json.data(), json.size()));
      !syntax) {
    error = llvm::toString(syntax.takeError());
    return nullptr;
  }
  std::unique_ptr<tooling::CompilationDatabase> db =
      tooling::JSONCompilationDatabase::loadFromBuffer(
          llvm::StringRef(json.data(), json.size()), error,
          tooling::JSONCommandLineSyntax::AutoDetect);
  if (!db)
    return nullptr;
  db = tooling::expandResponseFiles(std::move(db),
                                    llvm::vfs::getRealFileSystem());
  db = std::make_unique<FrontEndFlagsDatabase>(std::move(db));
  return tooling::inferMissingCompileCommands(std::move(db));
}

std::unique_ptr<tooling::CompilationDatabase>
loadCompileDatabase(const std::string &dir, std::string &error) {
  std::string path = dir;
  // A directory (existing or not: the message then names the file it
  // lacks), unless it names a .json file itself.
  if (llvm::sys::fs::is_directory(path) ||
      llvm::sys::path::extension(path) != ".json")
    path = normalized("compile_commands.json", path);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
      llvm::MemoryBuffer::getFile(path);
  if (!text) {
    error = "-p: cannot read '" + path + "' (" + text.getError().message() +
            "; CMake writes it with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)";
    return nullptr;
  }
  std::unique_ptr<tooling::CompilationDatabase> db =
      compileDatabaseFromJson((*text)->getBuffer(), error);
  if (!db)
    error = "-p: '" + path + "' is not a compilation database: " + error;
  return db;
}

CompileCommandMatch
findCompileCommand(const tooling::CompilationDatabase &database,
                   const std::string &file) {
  CompileCommandMatch m;
  std::vector<tooling::CompileCommand> commands =
      database.getCompileCommands(file);
  if (commands.empty()) {
    m.note =
        "no entry for '" + file + "': analysed without the project's flags";
    return m;
  }
  // A file compiled twice (two targets) takes its first command, as
  // clang-tidy does.
  m.command = std::move(commands.front());
  if (!m.command->Heuristic.empty())
    m.note =
        "no entry for '" + file + "'; its flags are " + m.command->Heuristic;
  return m;
}

std::vector<std::string>
cudaSources(const tooling::CompilationDatabase &database) {
  std::vector<std::string> files;
  for (const tooling::CompileCommand &c : database.getAllCompileCommands())
    if (llvm::sys::path::extension(c.Filename) == ".cu" &&
        std::find(files.begin(), files.end(), c.Filename) == files.end())
      files.push_back(c.Filename);
  return files;
}

std::string applyCompileDatabase(Options &options,
                                 std::vector<std::string> &notes) {
  std::string error;
  std::unique_ptr<tooling::CompilationDatabase> database =
      loadCompileDatabase(options.compileDatabase, error);
  if (!database)
    return error;

  llvm::SmallString<256> file(options.file);
  llvm::sys::fs::make_absolute(file);
  CompileCommandMatch match =
      findCompileCommand(*database, normalized(std::string(file), ""));
  if (!match.note.empty())
    notes.push_back("-p: " + match.note);
  if (!match.command)
    return "";
  FrontEndFlags flags = frontEndFlags(*match.command);
  for (const std::string &n : flags.notes)
    notes.push_back("-p: " + n);
  options.clangArgs.insert(options.clangArgs.begin(), flags.clangArgs.begin(),
                           flags.clangArgs.end());

  if (flags.arch.empty() || options.archGiven || flags.arch == options.arch)
    return "";
  std::optional<core::ArchSpec> arch = core::findArch(flags.arch);
  if (!arch) {
    notes.push_back("-p: the project builds for " + flags.arch +
                    ", which kcheck does not model: analysed for --arch " +
                    options.arch);
    return "";
  }
  if (std::string modeError =
          core::validateModelOptions(*arch, modelOptionsFor(options, *arch));
      !modeError.empty()) {
    notes.push_back("-p: the project builds for " + flags.arch + " (" +
                    modeError + "): analysed for --arch " + options.arch);
    return "";
  }
  notes.push_back("-p: --arch " + flags.arch +
                  ", as the project builds it (--arch overrides)");
  options.arch = flags.arch;
  return "";
}

} // namespace kcheck::driver

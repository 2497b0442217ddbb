#include "driver/CompileDatabase.h"

#include "core/ArchSpec.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/Allocator.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/StringSaver.h>

#include <algorithm>
#include <regex>
#include <set>

namespace kcheck::driver {

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
  Include,     // -I
  System,      // -isystem
  Quote,       // -iquote
  DirAfter,    // -idirafter
  Define,      // -D
  Undefine,    // -U
  PreInclude,  // -include
  Macros,      // -imacros
  Std,         // -std
  Arch,        // -arch, -code, -gencode, --cuda-gpu-arch ...: sm_XX in it
  OptionsFile, // --options-file: not read
  Drop,        // takes a value, both dropped (its value may look like a flag)
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
    {"-optf", FlagKind::OptionsFile},
    // Values handed to other tools, or paths: never read as flags.
    {"-Xcompiler", FlagKind::Drop},
    {"--compiler-options", FlagKind::Drop},
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

std::vector<CompileCommand> parseCompileDatabase(std::string_view json,
                                                 std::string &error) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(json);
  if (!parsed) {
    error = llvm::toString(parsed.takeError());
    return {};
  }
  const llvm::json::Array *entries = parsed->getAsArray();
  if (!entries) {
    error = "not a JSON array of compile commands";
    return {};
  }
  std::vector<CompileCommand> out;
  for (size_t i = 0; i < entries->size(); ++i) {
    const llvm::json::Object *entry = (*entries)[i].getAsObject();
    std::optional<llvm::StringRef> directory, file, command;
    const llvm::json::Array *arguments = nullptr;
    if (entry) {
      directory = entry->getString("directory");
      file = entry->getString("file");
      command = entry->getString("command");
      arguments = entry->getArray("arguments");
    }
    if (!directory || !file || (!command && !arguments)) {
      error = "entry " + std::to_string(i) +
              " lacks directory, file, or command/arguments";
      return {};
    }
    CompileCommand c;
    c.directory = normalized(directory->str(), "");
    c.file = normalized(file->str(), c.directory);
    if (arguments) {
      for (const llvm::json::Value &a : *arguments)
        if (std::optional<llvm::StringRef> s = a.getAsString())
          c.arguments.push_back(s->str());
    } else {
      // The shell quoting of `command` (CMake's Makefile and Ninja
      // generators write POSIX-shell command lines).
      llvm::BumpPtrAllocator allocator;
      llvm::StringSaver saver(allocator);
      llvm::SmallVector<const char *, 32> argv;
      llvm::cl::TokenizeGNUCommandLine(*command, saver, argv);
      for (const char *a : argv)
        c.arguments.emplace_back(a);
    }
    out.push_back(std::move(c));
  }
  return out;
}

FrontEndFlags frontEndFlags(const CompileCommand &command) {
  FrontEndFlags f;
  std::set<std::string> archs;
  const std::vector<std::string> &args = command.arguments;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string &arg = args[i];
    if (arg.size() > 1 && arg[0] == '@') {
      f.notes.push_back("response file '" + arg.substr(1) + "' not read");
      continue;
    }
    const FlagSpelling *flag = nullptr;
    std::string value;
    bool hasValue = false;
    for (const FlagSpelling &s : kSpellings) {
      if (arg.compare(0, s.name.size(), s.name) != 0)
        continue;
      std::string rest = arg.substr(s.name.size());
      if (rest.empty()) { // -I DIR
        flag = &s;
        if (i + 1 < args.size()) {
          value = args[++i];
          hasValue = true;
        }
      } else if (rest[0] == '=') { // --include-path=DIR, -std=c++17
        flag = &s;
        value = rest.substr(1);
        hasValue = true;
      } else if (s.joined) { // -IDIR
        flag = &s;
        value = rest;
        hasValue = true;
      } else {
        continue; // a longer flag with this prefix: -arch vs -archive
      }
      break;
    }
    // Anything else (the compiler, the input, -O3, -c, -g, -fPIC,
    // --expt-relaxed-constexpr, -lineinfo, ...) does not change what the
    // device side's front end sees, or is kcheck's own choice.
    if (!flag || !hasValue)
      continue;
    for (const std::string &v : splitList(value, flag->list)) {
      switch (flag->kind) {
      case FlagKind::Include:
        f.clangArgs.push_back("-I" + normalized(v, command.directory));
        break;
      case FlagKind::System:
        f.clangArgs.insert(f.clangArgs.end(),
                           {"-isystem", normalized(v, command.directory)});
        break;
      case FlagKind::Quote:
        f.clangArgs.insert(f.clangArgs.end(),
                           {"-iquote", normalized(v, command.directory)});
        break;
      case FlagKind::DirAfter:
        f.clangArgs.insert(f.clangArgs.end(),
                           {"-idirafter", normalized(v, command.directory)});
        break;
      case FlagKind::Define:
        f.clangArgs.push_back("-D" + v);
        break;
      case FlagKind::Undefine:
        f.clangArgs.push_back("-U" + v);
        break;
      case FlagKind::PreInclude:
      case FlagKind::Macros: {
        // Searched in the compiler's working directory first, then as
        // #include "..." would be (GCC's rule): keep the name if it is not
        // in `directory`.
        std::string inDirectory = normalized(v, command.directory);
        f.clangArgs.insert(
            f.clangArgs.end(),
            {flag->kind == FlagKind::Macros ? "-imacros" : "-include",
             llvm::sys::fs::exists(inDirectory) ? inDirectory : v});
        break;
      }
      case FlagKind::Std:
        f.clangArgs.push_back("-std=" + v);
        break;
      case FlagKind::Arch:
        collectArchs(v, archs);
        break;
      case FlagKind::OptionsFile:
        f.notes.push_back("options file '" + v + "' not read");
        break;
      case FlagKind::Drop:
        break;
      }
    }
  }
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

CompileCommandMatch
findCompileCommand(const std::vector<CompileCommand> &database,
                   const std::string &file) {
  CompileCommandMatch m;
  for (const CompileCommand &c : database)
    if (c.file == file) {
      m.command = &c;
      return m;
    }
  // The same file through a symbolic link (a build tree's copy, /tmp).
  llvm::SmallString<256> realFile, realEntry;
  if (!llvm::sys::fs::real_path(file, realFile))
    for (const CompileCommand &c : database)
      if (!llvm::sys::fs::real_path(c.file, realEntry) &&
          realEntry == realFile) {
        m.command = &c;
        return m;
      }
  // clang tools infer a missing file's command from a file of the same
  // name; here the same stem, the same directory first.
  llvm::StringRef stem = llvm::sys::path::stem(file);
  llvm::StringRef dir = llvm::sys::path::parent_path(file);
  for (const CompileCommand &c : database)
    if (llvm::sys::path::stem(c.file) == stem &&
        (!m.command || (llvm::sys::path::parent_path(c.file) == dir &&
                        llvm::sys::path::parent_path(m.command->file) != dir)))
      m.command = &c;
  if (m.command)
    m.note = "no entry for '" + file + "'; using the flags of '" +
             m.command->file + "'";
  else
    m.note =
        "no entry for '" + file + "': analysed without the project's flags";
  return m;
}

std::vector<CompileCommand> loadCompileDatabase(const std::string &dir,
                                                std::string &error) {
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
    return {};
  }
  std::vector<CompileCommand> database =
      parseCompileDatabase((*text)->getBuffer(), error);
  if (!error.empty())
    error = "-p: '" + path + "' is not a compilation database: " + error;
  return database;
}

std::vector<std::string>
cudaSources(const std::vector<CompileCommand> &database) {
  std::vector<std::string> files;
  for (const CompileCommand &c : database)
    if (llvm::sys::path::extension(c.file) == ".cu" &&
        std::find(files.begin(), files.end(), c.file) == files.end())
      files.push_back(c.file);
  return files;
}

std::string applyCompileDatabase(Options &options,
                                 std::vector<std::string> &notes) {
  std::string error;
  std::vector<CompileCommand> database =
      loadCompileDatabase(options.compileDatabase, error);
  if (!error.empty())
    return error;

  llvm::SmallString<256> file(options.file);
  llvm::sys::fs::make_absolute(file);
  CompileCommandMatch match =
      findCompileCommand(database, normalized(std::string(file), ""));
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

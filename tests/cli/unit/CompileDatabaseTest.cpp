// -p: reading compile_commands.json (clang::tooling's database), finding
// the file's entry or interpolating one, and keeping only the flags that
// change what kcheck's front end sees.
#include "driver/CompileDatabase.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace kcheck::driver;
using clang::tooling::CompilationDatabase;
using clang::tooling::CompileCommand;

namespace {

CompileCommand commandOf(std::vector<std::string> arguments,
                         std::string directory = "/proj/build") {
  return CompileCommand(directory, "/proj/src/k.cu", std::move(arguments), "");
}

std::vector<std::string> argsOf(const CompileCommand &c) {
  return frontEndFlags(c).clangArgs;
}

std::unique_ptr<CompilationDatabase> databaseOf(const std::string &json) {
  std::string error;
  std::unique_ptr<CompilationDatabase> db =
      compileDatabaseFromJson(json, error);
  EXPECT_EQ(error, "");
  return db;
}

} // namespace

TEST(CompileDatabaseTest, ParsesCommandAndArgumentsEntries) {
  std::unique_ptr<CompilationDatabase> db = databaseOf(R"([
    {"directory": "/proj/build", "file": "../src/a.cu",
     "command": "/usr/bin/c++ -DNAME=\"a b\" -I../include -O2 'x y.cu'"},
    {"directory": "/proj/build", "file": "/proj/src/b.cu",
     "arguments": ["nvcc", "-I", "inc", "-c", "b.cu"], "output": "b.o"}
  ])");
  ASSERT_TRUE(db);
  std::vector<CompileCommand> all = db->getAllCompileCommands();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].Filename, "/proj/src/a.cu"); // relative to directory, no ..
  // The shell's quoting undone; only front-end flags kept, in Clang spelling.
  EXPECT_EQ(
      all[0].CommandLine,
      (std::vector<std::string>{"/usr/bin/c++", "-DNAME=a b", "-I/proj/include",
                                "-c", "/proj/src/a.cu"}));
  EXPECT_EQ(all[1].CommandLine[1], "-I/proj/build/inc");
  EXPECT_EQ(cudaSources(*db),
            (std::vector<std::string>{"/proj/src/a.cu", "/proj/src/b.cu"}));
}

TEST(CompileDatabaseTest, RejectsWhatIsNoDatabase) {
  for (const char *json :
       {"{\"directory\": 1}", "[{\"directory\": \"/d\", \"file\": \"a.cu\"}]",
        "[{"}) {
    std::string error;
    EXPECT_EQ(compileDatabaseFromJson(json, error), nullptr) << json;
    EXPECT_FALSE(error.empty()) << json;
  }
}

TEST(CompileDatabaseTest, KeepsIncludesAndMacrosResolvedAgainstDirectory) {
  EXPECT_EQ(
      argsOf(commandOf(
          {"/usr/bin/c++", "-DTILE=32",    "-D",          "N=4",
           "-UOLD",        "-I../include", "-I",          "/abs/inc",
           "-isystem",     "third",        "-iquote../q", "-std=gnu++17",
           "-O3",          "-fPIC",        "-x",          "c++",
           "-o",           "k.o",          "-c",          "/proj/src/k.cu"})),
      (std::vector<std::string>{"-DTILE=32", "-DN=4", "-UOLD",
                                "-I/proj/include", "-I/abs/inc", "-isystem",
                                "/proj/build/third", "-iquote", "/proj/q",
                                "-std=gnu++17"}));
}

TEST(CompileDatabaseTest, TranslatesNvccSpellingsAndDropsCodegen) {
  FrontEndFlags f = frontEndFlags(commandOf({"/usr/local/cuda/bin/nvcc",
                                             "--include-path=inc,/opt/x",
                                             "--define-macro",
                                             "A=1,B",
                                             "--undefine-macro=C",
                                             "--std",
                                             "c++17",
                                             "-Xcompiler",
                                             "-DHOST_ONLY",
                                             "-Xcompiler=-Iignored",
                                             "--expt-relaxed-constexpr",
                                             "-lineinfo",
                                             "-gencode",
                                             "arch=compute_80,code=sm_80",
                                             "-rdc=true",
                                             "-ccbin",
                                             "-Iccbin",
                                             "--pre-include",
                                             "pre.h",
                                             "-c",
                                             "k.cu"}));
  // -rdc=true is kept: relocatable device code changes what compiles
  // (launches from device code); --expt-relaxed-constexpr gives nvcc's
  // macro.
  EXPECT_EQ(f.clangArgs,
            (std::vector<std::string>{"-I/proj/build/inc", "-I/opt/x", "-DA=1",
                                      "-DB", "-UC", "-std=c++17",
                                      "-D__CUDACC_RELAXED_CONSTEXPR__",
                                      "-fgpu-rdc", "-include", "pre.h"}));
  EXPECT_EQ(f.arch, "sm_80");
}

// nvcc's relocatable-device-code and default-stream spellings, as nvcc's
// own documentation gives them.
TEST(CompileDatabaseTest, TranslatesRelocatableCodeAndDefaultStream) {
  auto args = [](std::vector<std::string> flags) {
    std::vector<std::string> command = {"nvcc"};
    command.insert(command.end(), flags.begin(), flags.end());
    command.push_back("k.cu");
    return frontEndFlags(commandOf(command)).clangArgs;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(args({"-dc"}), V{"-fgpu-rdc"});
  EXPECT_EQ(args({"--device-c"}), V{"-fgpu-rdc"});
  EXPECT_EQ(args({"--relocatable-device-code=true"}), V{"-fgpu-rdc"});
  EXPECT_EQ(args({"-rdc", "true"}), V{"-fgpu-rdc"});
  EXPECT_EQ(args({"-rdc=false"}), V{});
  EXPECT_EQ(args({"--default-stream", "per-thread"}),
            V{"-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1"});
  EXPECT_EQ(args({"-default-stream=legacy"}), V{});
  // Separate compilation and link-time optimization imply it (nvcc then
  // defines __CUDACC_RDC__).
  EXPECT_EQ(args({"-dlto"}), V{"-fgpu-rdc"});
  EXPECT_EQ(args({"--lto"}), V{"-fgpu-rdc"});
  EXPECT_EQ(args({"-dlink"}), V{"-fgpu-rdc"});
}

// The flags with which nvcc defines a macro (analyzer/toolchain/
// NvccMacros.def), in both spellings; -G also says that kcheck predicts the
// optimized build.
TEST(CompileDatabaseTest, FlagsThatDefineNvccMacros) {
  auto flags = [](std::vector<std::string> flags) {
    std::vector<std::string> command = {"nvcc"};
    command.insert(command.end(), flags.begin(), flags.end());
    command.push_back("k.cu");
    return frontEndFlags(commandOf(command));
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(flags({"--extended-lambda"}).clangArgs,
            V{"-D__CUDACC_EXTENDED_LAMBDA__"});
  EXPECT_EQ(flags({"-expt-extended-lambda"}).clangArgs,
            V{"-D__CUDACC_EXTENDED_LAMBDA__"});
  EXPECT_EQ(flags({"-ewp"}).clangArgs, V{"-D__CUDACC_EWP__"});
  FrontEndFlags debug = flags({"-G"});
  EXPECT_EQ(debug.clangArgs, V{"-D__CUDACC_DEBUG__"});
  ASSERT_EQ(debug.notes.size(), 1u);
  EXPECT_NE(debug.notes[0].find("optimized build"), std::string::npos);
  // Not a flag of the table: nothing.
  EXPECT_EQ(flags({"-lineinfo", "--use_fast_math"}).clangArgs, V{});
}

// The host compiler's OpenMP is the one host flag kept: Clang compiles the
// host code with it, as the host compiler does under nvcc.
TEST(CompileDatabaseTest, KeepsTheHostCompilersOpenMP) {
  FrontEndFlags f = frontEndFlags(
      commandOf({"/usr/local/cuda/bin/nvcc", "-Xcompiler", "-fopenmp,-Wall",
                 "--compiler-options=-O2", "-c", "k.cu"}));
  EXPECT_EQ(f.clangArgs, (std::vector<std::string>{"-fopenmp"}));
  // A Clang or GCC command's own, and what the translated command carries
  // (read again when -p applies it).
  FrontEndFlags own = frontEndFlags(commandOf({"g++", "-fopenmp", "k.cu"}));
  EXPECT_EQ(own.clangArgs, (std::vector<std::string>{"-fopenmp"}));
  FrontEndFlags again = frontEndFlags(
      commandOf({"nvcc", "-DA", "-fopenmp", "-fgpu-rdc", "-c", "/p/k.cu"}));
  EXPECT_EQ(again.clangArgs,
            (std::vector<std::string>{"-DA", "-fopenmp", "-fgpu-rdc"}));
}

TEST(CompileDatabaseTest, OneArchitectureOrNone) {
  EXPECT_EQ(frontEndFlags(commandOf({"nvcc", "-arch=sm_86"})).arch, "sm_86");
  EXPECT_EQ(frontEndFlags(commandOf({"nvcc", "-arch", "compute_70"})).arch,
            "sm_70");
  EXPECT_EQ(
      frontEndFlags(commandOf({"clang++", "--cuda-gpu-arch=sm_90a"})).arch,
      "sm_90");
  FrontEndFlags two = frontEndFlags(
      commandOf({"nvcc", "-gencode", "arch=compute_80,code=sm_80",
                 "--generate-code=arch=compute_90,code=[compute_90,sm_90]"}));
  EXPECT_EQ(two.arch, "");
  ASSERT_EQ(two.notes.size(), 1u);
  EXPECT_NE(two.notes[0].find("sm_80, sm_90"), std::string::npos);
}

TEST(CompileDatabaseTest, NotesWhatItCannotRead) {
  FrontEndFlags f = frontEndFlags(
      commandOf({"nvcc", "--options-file", "opts.txt", "@rsp", "-Iinc"}));
  EXPECT_EQ(f.clangArgs, (std::vector<std::string>{"-I/proj/build/inc"}));
  ASSERT_EQ(f.notes.size(), 2u);
  EXPECT_NE(f.notes[0].find("opts.txt"), std::string::npos);
  EXPECT_NE(f.notes[1].find("rsp"), std::string::npos);
  EXPECT_EQ(f.unread,
            (std::vector<std::string>{"--options-file=opts.txt", "@rsp"}));
}

// Response files (@FILE, through clang::tooling) and nvcc's options files
// are read in place; one that is missing is named in a note.
TEST(CompileDatabaseTest, ReadsResponseAndOptionsFiles) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "kcheck-cdb-test";
  fs::create_directories(dir);
  std::ofstream(dir / "flags.rsp") << "-DFROM_RSP=1 -I rsp_inc\n";
  std::ofstream(dir / "opts.txt") << "--define-macro FROM_OPTS -arch=sm_80\n";
  std::string d = dir.string();
  std::unique_ptr<CompilationDatabase> db =
      databaseOf(R"([{"directory": ")" + d +
                 R"(", "file": "k.cu", "arguments": ["nvcc", "@flags.rsp",
         "--options-file", "opts.txt,missing.txt", "-c", "k.cu"]}])");
  ASSERT_TRUE(db);
  CompileCommandMatch m = findCompileCommand(*db, d + "/k.cu");
  ASSERT_TRUE(m.command);
  EXPECT_EQ(m.note, "");
  FrontEndFlags f = frontEndFlags(*m.command);
  EXPECT_EQ(f.clangArgs,
            (std::vector<std::string>{"-DFROM_RSP=1", "-I" + d + "/rsp_inc",
                                      "-DFROM_OPTS"}));
  EXPECT_EQ(f.arch, "sm_80");
  ASSERT_EQ(f.notes.size(), 1u);
  EXPECT_NE(f.notes[0].find("missing.txt"), std::string::npos);
  fs::remove_all(dir);
}

// A file the database lacks takes the flags of its nearest entry, as clangd
// interpolates them: the same name first, then the nearest folder. nvcc's
// flags are translated before, so their values survive (Clang's driver
// table would read `arch=...` and `A=1` as input files).
TEST(CompileDatabaseTest, InterpolatesFilesTheDatabaseLacks) {
  std::unique_ptr<CompilationDatabase> db = databaseOf(R"([
    {"directory": "/p/b", "file": "/p/other/k.cpp", "command": "c++ -DOTHER"},
    {"directory": "/p/b", "file": "/p/src/k.cpp", "command": "c++ -DNEAR"},
    {"directory": "/p/b", "file": "/p/src/main.cu",
     "command": "nvcc --define-macro MAIN=1 -gencode arch=compute_80,code=sm_80 -c main.cu"}
  ])");
  ASSERT_TRUE(db);
  CompileCommandMatch own = findCompileCommand(*db, "/p/src/main.cu");
  ASSERT_TRUE(own.command);
  EXPECT_EQ(own.note, "");
  EXPECT_EQ(frontEndFlags(*own.command).clangArgs,
            (std::vector<std::string>{"-DMAIN=1"}));
  CompileCommandMatch stem = findCompileCommand(*db, "/p/src/k.cuh");
  ASSERT_TRUE(stem.command);
  EXPECT_EQ(frontEndFlags(*stem.command).clangArgs,
            (std::vector<std::string>{"-DNEAR"}));
  EXPECT_NE(stem.note.find("no entry for '/p/src/k.cuh'"), std::string::npos);
  EXPECT_NE(stem.note.find("/p/src/k.cpp"), std::string::npos) << stem.note;
  CompileCommandMatch near = findCompileCommand(*db, "/p/src/z.cu");
  ASSERT_TRUE(near.command);
  FrontEndFlags nearFlags = frontEndFlags(*near.command);
  EXPECT_EQ(nearFlags.clangArgs, (std::vector<std::string>{"-DMAIN=1"}));
  EXPECT_EQ(nearFlags.arch, "sm_80");

  CompileCommandMatch none = findCompileCommand(*databaseOf("[]"), "/p/a.cu");
  EXPECT_FALSE(none.command);
  EXPECT_NE(none.note.find("without the project's flags"), std::string::npos);
}

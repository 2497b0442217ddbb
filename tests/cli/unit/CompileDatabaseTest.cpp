// -p: reading compile_commands.json, finding the file's entry, and keeping
// only the flags that change what kcheck's front end sees.
#include "driver/CompileDatabase.h"

#include <gtest/gtest.h>

using namespace kcheck::driver;

namespace {

CompileCommand commandOf(std::vector<std::string> arguments,
                         std::string directory = "/proj/build") {
  return {directory, "/proj/src/k.cu", std::move(arguments)};
}

std::vector<std::string> argsOf(const CompileCommand &c) {
  return frontEndFlags(c).clangArgs;
}

} // namespace

TEST(CompileDatabaseTest, ParsesCommandAndArgumentsEntries) {
  std::string error;
  std::vector<CompileCommand> db = parseCompileDatabase(R"([
    {"directory": "/proj/build", "file": "../src/a.cu",
     "command": "/usr/bin/c++ -DNAME=\"a b\" -I../include 'x y.cu'"},
    {"directory": "/proj/build", "file": "/proj/src/b.cu",
     "arguments": ["nvcc", "-I", "inc", "-c", "b.cu"], "output": "b.o"}
  ])",
                                                        error);
  ASSERT_EQ(error, "");
  ASSERT_EQ(db.size(), 2u);
  EXPECT_EQ(db[0].file, "/proj/src/a.cu"); // relative to directory, no ..
  EXPECT_EQ(db[0].arguments,
            (std::vector<std::string>{"/usr/bin/c++", "-DNAME=a b",
                                      "-I../include", "x y.cu"}));
  EXPECT_EQ(db[1].arguments[2], "inc");
}

TEST(CompileDatabaseTest, RejectsWhatIsNoDatabase) {
  std::string error;
  parseCompileDatabase("{\"directory\": 1}", error);
  EXPECT_NE(error.find("not a JSON array"), std::string::npos) << error;
  error.clear();
  parseCompileDatabase("[{\"directory\": \"/d\", \"file\": \"a.cu\"}]", error);
  EXPECT_NE(error.find("entry 0 lacks"), std::string::npos) << error;
  error.clear();
  parseCompileDatabase("[{", error);
  EXPECT_FALSE(error.empty());
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
  EXPECT_EQ(f.clangArgs, (std::vector<std::string>{
                             "-I/proj/build/inc", "-I/opt/x", "-DA=1", "-DB",
                             "-UC", "-std=c++17", "-include", "pre.h"}));
  EXPECT_EQ(f.arch, "sm_80");
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
}

TEST(CompileDatabaseTest, FindsTheFileOrOneOfTheSameName) {
  std::vector<CompileCommand> db = {
      {"/p/b", "/p/other/k.cpp", {"c++", "-DOTHER"}},
      {"/p/b", "/p/src/k.cpp", {"c++", "-DNEAR"}},
      {"/p/b", "/p/src/main.cu", {"nvcc", "-DMAIN"}}};
  CompileCommandMatch own = findCompileCommand(db, "/p/src/main.cu");
  ASSERT_EQ(own.command, &db[2]);
  EXPECT_EQ(own.note, "");
  CompileCommandMatch stem = findCompileCommand(db, "/p/src/k.cu");
  ASSERT_EQ(stem.command, &db[1]); // same directory first
  EXPECT_NE(stem.note.find("using the flags of '/p/src/k.cpp'"),
            std::string::npos);
  CompileCommandMatch none = findCompileCommand(db, "/p/src/z.cu");
  EXPECT_EQ(none.command, nullptr);
  EXPECT_NE(none.note.find("without the project's flags"), std::string::npos);
}

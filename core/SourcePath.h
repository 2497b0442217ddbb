// One rule for naming source files, so that the same file is one name in
// every diagnostic and two files with the same name are never taken for one.
//
// Clang's debug info stores a file as (directory, name) and, for an absolute
// path outside the working directory, strips the prefix the two share:
// /home/u/proj/src/x.cu compiled in /home/u/proj/build is
// ("/home/u/proj", "src/x.cu"). Printed alone, "src/x.cu" names no file an
// editor opens from the working directory; joined, it is the real path.
#pragma once

#include <string>

namespace kcheck::core {

/// The file of a debug location, lexically normal ("a/../b" is "b"): `name`
/// when it is absolute or `directory` is empty or the working directory;
/// otherwise `directory`/`name`.
std::string debugInfoPath(const std::string &directory,
                          const std::string &name);

/// Whether `a` and `b` name the same file: equal once made absolute (from
/// the working directory) and lexically normal ("./", "x/../").
bool sameSourceFile(const std::string &a, const std::string &b);

/// The last component of `path` ("reduce.cu" of "src/reduce.cu").
std::string baseName(const std::string &path);

} // namespace kcheck::core

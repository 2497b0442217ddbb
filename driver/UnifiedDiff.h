// A unified diff (`diff -u` format) of two texts, line by line, for
// `kcheck --diff`: what `-fix` would write, reviewable and `patch -p0`-able.
#pragma once

#include <string>

namespace kcheck::driver {

/// The hunks that turn `before` into `after`, with `context` unchanged
/// lines around each change, under `--- name` / `+++ name` headers; empty
/// when the texts are equal. A last line without a newline is marked as
/// diff marks it ("\ No newline at end of file").
std::string unifiedDiff(const std::string &before, const std::string &after,
                        const std::string &name, unsigned context = 3);

} // namespace kcheck::driver

// The bodies of the libFuzzer targets, callable from libFuzzer's main
// (fuzz_*.cpp, KCHECK_FUZZ builds) and from kcheck_fuzz_replay (ctest, every
// build). Each returns 0 and aborts, printing what failed, when an oracle
// does not hold.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kcheck::fuzz {

/// Bytes -> choices of the kernel generator -> kcheck's pipeline + oracles.
int fuzzPipeline(const uint8_t *data, size_t size);
/// Bytes as the text of a .cu file -> kcheck's pipeline (must not crash).
int fuzzPipelineMutated(const uint8_t *data, size_t size);
/// Bytes as JSON -> core/Json (nlohmann-json), the report reader, compare.
int fuzzJson(const uint8_t *data, size_t size);

} // namespace kcheck::fuzz

// libFuzzer entry of the fuzz_pipeline_mutated target
// (tests/fuzz/FuzzTargets.h).
#include "FuzzTargets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return kcheck::fuzz::fuzzPipelineMutated(data, size);
}

// libFuzzer entry of the fuzz_pipeline target (tests/fuzz/FuzzTargets.h).
#include "FuzzTargets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return kcheck::fuzz::fuzzPipeline(data, size);
}

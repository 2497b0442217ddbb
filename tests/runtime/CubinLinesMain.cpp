// cubin-lines: prints a cubin's SASS line table, or with --credits the lines
// Nsight Compute's source view credits to each instruction slot (16 bytes on
// sm_70+) up to the function's last row plus N slots. Used by the runtime
// tests and by docs/validation/check-credits.py to check the rule against
// recorded Nsight Compute source pages.
#include "runtime/CubinLineTable.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: cubin-lines FILE.cubin [--credits N]\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cubin-lines: cannot read %s\n", argv[1]);
    return 3;
  }
  std::string image((std::istreambuf_iterator<char>(in)),
                    std::istreambuf_iterator<char>());
  std::string error;
  auto table = kcheck::runtime::CubinLineTable::parse(image, &error);
  if (!table) {
    std::fprintf(stderr, "cubin-lines: %s: %s\n", argv[1], error.c_str());
    return 3;
  }
  long extra = -1;
  if (argc >= 4 && std::strcmp(argv[2], "--credits") == 0)
    extra = std::atol(argv[3]);
  for (const auto &[function, rows] : table->functions()) {
    if (extra < 0) {
      for (const auto &row : rows)
        std::printf("%s\t0x%04x\t%s\t%u\n", function.c_str(), row.address,
                    row.where.file.c_str(), row.where.line);
      continue;
    }
    uint32_t last = 0;
    for (const auto &row : rows)
      last = row.address > last ? row.address : last;
    for (uint32_t pc = 0; pc <= last + 16 * uint32_t(extra); pc += 16) {
      std::printf("%s\t0x%04x", function.c_str(), pc);
      for (const auto &line : table->linesAt(function, pc))
        std::printf("\t%s:%u", line.file.c_str(), line.line);
      std::printf("\n");
    }
  }
  return 0;
}

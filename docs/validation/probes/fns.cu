// Probe: PTX fns.b32 (Clang's __nvvm_fns) over masks, bases 0..39 and a
// few far past 31 (undefined in the PTX ISA), offsets -34..34. One line per
// (mask, base): the 69 results. Built with Clang (nvcc has no __nvvm_fns):
//   clang++ -x cuda --cuda-gpu-arch=sm_90 -O3 fns.cu -L$CUDA/lib64
//     -lcudart_static -ldl -lrt -lpthread
#include <cstdio>

constexpr unsigned kMasks[] = {0xaaaaaaaau, 0x80000001u, 0u,
                               0xffffffffu, 0x12345678u, 0xdeadbeefu};
constexpr unsigned kBases[] = {
    0,  1,  2,  3,  5,  8,  13,  16,          21,          30,         31,
    32, 33, 37, 39, 63, 64, 100, 0x7fffffffu, 0x80000000u, 0xffffffffu};
constexpr int kOffsets = 69; // -34..34

__global__ void fns(unsigned *out, unsigned mask, const unsigned *bases,
                    int nb) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nb * kOffsets)
    out[i] = __nvvm_fns(mask, bases[i / kOffsets], i % kOffsets - 34);
}

int main() {
  const int nb = sizeof kBases / sizeof kBases[0];
  unsigned *out, *bases;
  cudaMalloc(&out, nb * kOffsets * sizeof(unsigned));
  cudaMalloc(&bases, sizeof kBases);
  cudaMemcpy(bases, kBases, sizeof kBases, cudaMemcpyHostToDevice);
  static unsigned h[nb * kOffsets];
  for (unsigned mask : kMasks) {
    fns<<<(nb * kOffsets + 255) / 256, 256>>>(out, mask, bases, nb);
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    for (int b = 0; b < nb; ++b) {
      std::printf("probe fns[%08x,%u]", mask, kBases[b]);
      for (int o = 0; o < kOffsets; ++o)
        std::printf(" %d", int(h[b * kOffsets + o]));
      std::printf("\n");
    }
  }
  return 0;
}

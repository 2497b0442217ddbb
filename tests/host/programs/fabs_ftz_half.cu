// abs.ftz.f16/.f16x2 (__nvvm_fabs_ftz_f16[x2]): a subnormal half is flushed
// to zero, as the PTX ISA says and the H200 does (nvvm_calls.cu's hashes,
// docs/validation/conformance-h200.md); plain abs keeps it.
#include <cstdio>

__global__ void absOf(const unsigned short *in, unsigned short *out) {
  unsigned t = threadIdx.x;
  __fp16 x = *reinterpret_cast<const __fp16 *>(in + t);
  __fp16 ftz = __nvvm_fabs_ftz_f16(x), plain = __nvvm_fabs_f16(x);
  out[2 * t] = *reinterpret_cast<unsigned short *>(&ftz);
  out[2 * t + 1] = *reinterpret_cast<unsigned short *>(&plain);
}

int main() {
  // a negative subnormal, the smallest positive one, the largest
  // subnormal, the smallest normal (negative), 1.0, negative zero
  const unsigned short host[6] = {0x8001, 0x0001, 0x03ff,
                                  0x8400, 0x3c00, 0x8000};
  unsigned short *in, *out, result[12];
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&out, sizeof result);
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  absOf<<<1, 6>>>(in, out);
  cudaMemcpy(result, out, sizeof result, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 6; ++i)
    printf("%04x: ftz %04x plain %04x\n", host[i], result[2 * i],
           result[2 * i + 1]);
  return 0;
}

// nvcc's predefined macros as a program sees them on nvcc's host and device
// passes (nvcc --dryrun's -D list; the conformance family "nvcc's
// predefined macros"): code that tests them takes nvcc's branch. The same
// checks pass compiled by nvcc 13 and under kcheck run.
#include "conformance_checks.h"

// What both passes see.
#ifndef __NVCC__
#error "__NVCC__ is not defined"
#endif
#if !__CUDACC__ // nvcc gives it the value 1, not only a definition
#error "__CUDACC__ is not 1"
#endif
#if !defined(__CUDACC_VER_MAJOR__) || !defined(__CUDACC_VER_MINOR__) ||        \
    !defined(__CUDACC_VER_BUILD__)
#error "nvcc's version macros are missing"
#endif
#if !defined(__CUDA_API_VER_MAJOR__) || !defined(__NVCC_DIAG_PRAGMA_SUPPORT__)
#error "nvcc's API and diagnostic-pragma macros are missing"
#endif
#if !defined(__GNUC__) || __GNUC__ < 7 // nvcc 13 needs GCC 7 or newer
#error "the host compiler's version is not a supported GCC's"
#endif

struct Seen {
  int arch, archList, major, minor, build, nvcc, cudacc, doubleMath, gnuc;
};

__global__ void report(Seen *seen) {
  Seen s = {};
#ifdef __CUDA_ARCH__
  s.arch = __CUDA_ARCH__;
#endif
  s.archList = __CUDA_ARCH_LIST__;
  s.major = __CUDACC_VER_MAJOR__;
  s.minor = __CUDACC_VER_MINOR__;
  s.build = __CUDACC_VER_BUILD__;
#ifdef __NVCC__
  s.nvcc = __NVCC__;
#endif
  s.cudacc = __CUDACC__;
#ifdef CUDA_DOUBLE_MATH_FUNCTIONS // nvcc's device pass only
  s.doubleMath = 1;
#endif
  s.gnuc = __GNUC__;
  *seen = s;
}

int main() {
  Seen *d = nullptr, h = {};
  OK(cudaMalloc(&d, sizeof(Seen)));
  report<<<1, 1>>>(d);
  OK(cudaGetLastError());
  OK(cudaMemcpy(&h, d, sizeof(Seen), cudaMemcpyDeviceToHost));
  // The device pass's macros, and the host pass's values of the same.
  CHECK(h.arch == 900, "__CUDA_ARCH__ is 900 for sm_90");
  CHECK(h.archList == __CUDA_ARCH_LIST__, "__CUDA_ARCH_LIST__ on both passes");
  CHECK(__CUDA_ARCH_LIST__ == 900, "__CUDA_ARCH_LIST__ is 900 for sm_90");
  CHECK(h.major == __CUDACC_VER_MAJOR__ && h.minor == __CUDACC_VER_MINOR__ &&
            h.build == __CUDACC_VER_BUILD__,
        "nvcc's version on both passes");
  CHECK(__CUDACC_VER_MAJOR__ * 1000 + __CUDACC_VER_MINOR__ * 10 ==
            CUDART_VERSION,
        "nvcc's version is the toolkit's");
  CHECK(__CUDACC_VER_BUILD__ > 0, "nvcc's build number");
  CHECK(__CUDA_API_VER_MAJOR__ == __CUDACC_VER_MAJOR__ &&
            __CUDA_API_VER_MINOR__ == __CUDACC_VER_MINOR__,
        "the API version is nvcc's");
  CHECK(h.nvcc == 1 && h.cudacc == 1, "__NVCC__ and __CUDACC__ are 1");
  CHECK(h.doubleMath == 1, "CUDA_DOUBLE_MATH_FUNCTIONS on the device pass");
  CHECK(h.gnuc == __GNUC__, "the host compiler's version on both passes");
#ifdef CUDA_DOUBLE_MATH_FUNCTIONS
  CHECK(false, "CUDA_DOUBLE_MATH_FUNCTIONS on the host pass");
#endif
  std::printf("nvcc_macros: %d checks, %d failures\n", checks, failures);
  OK(cudaFree(d));
  return failures != 0;
}

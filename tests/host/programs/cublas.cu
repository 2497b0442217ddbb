// A library kcheck does not provide (declared here: no cuBLAS headers).
#include <cstdio>
extern "C" int cublasCreate_v2(void **handle);

int main() {
  void *handle = nullptr;
  int status = cublasCreate_v2(&handle);
  std::printf("status %d\n", status);
  return 0;
}

// A kernel that does not compile: Clang's diagnostic, exit 3.
__global__ void broken(float *a) {
  a[threadIdx.x] = 1.0f
}

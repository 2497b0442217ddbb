// A struct passed to kernels by value: pointers, sizes and a scale set field
// by field, a constructor that copies arrays, and a kernel that writes to its
// own copy. Static prediction and --run-host must agree.
#include <algorithm>
#include <cstdio>
#include <iterator>

struct Saxpy {
  const float *x;
  float *y;
  int n;
  float a;
};

template <int N> struct View {
  float *data;
  long sizes[N], strides[N];
  View(float *d, const long *s, const long *t) : data(d) {
    std::copy(s, s + N, std::begin(sizes));
    std::copy(t, t + N, std::begin(strides));
  }
};

__global__ void saxpy(Saxpy p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n)
    p.y[i] += p.a * p.x[i];
}

// Column-major walk through a 2-D view: strides decide coalescing.
__global__ void transposeRead(View<2> v, float *out) {
  long r = blockIdx.x * blockDim.x + threadIdx.x;
  v.sizes[0] -= 1; // the kernel's own copy
  if (r <= v.sizes[0])
    for (long c = 0; c < v.sizes[1]; ++c)
      out[r] += v.data[r * v.strides[0] + c * v.strides[1]];
}

int main() {
  const int n = 1000;
  Saxpy p;
  cudaMalloc((void **)&p.x, n * sizeof(float));
  cudaMalloc(&p.y, n * sizeof(float));
  cudaMemset((void *)p.x, 0, n * sizeof(float));
  cudaMemset(p.y, 0, n * sizeof(float));
  p.n = n;
  p.a = 2.0f;
  saxpy<<<(n + 127) / 128, 128>>>(p);

  long sizes[2] = {64, 8}, strides[2] = {1, 64};
  float *data, *out;
  cudaMalloc(&data, 64 * 8 * sizeof(float));
  cudaMalloc(&out, 64 * sizeof(float));
  cudaMemset(data, 0, 64 * 8 * sizeof(float));
  cudaMemset(out, 0, 64 * sizeof(float));
  View<2> v(data, sizes, strides);
  transposeRead<<<2, 32>>>(v, out);
  cudaDeviceSynchronize();
  std::printf("done\n");
  return 0;
}

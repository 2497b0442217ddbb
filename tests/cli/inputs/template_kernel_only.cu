// A file whose only kernel is an explicit template instantiation, launched
// from the command line: named in Nsight Compute's spelling, as host launches are.
template <int N> __global__ void scale(float *x, const float *y) { x[threadIdx.x] = N * y[threadIdx.x]; }
template __global__ void scale<4>(float *, const float *);

// kcheck-ignore comments: a suppressed finding, one whose comment lacks the
// reason (so it stays, with a warning), one that suppresses nothing (a note).
// The launch comes from the command line: --grid 1 --block 32,32.
__global__ void columnReads(float *out, const float *in) {
  __shared__ float tile[32][32];
  __shared__ float padded[32][33];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  padded[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  // kcheck-ignore(bank-conflict): the slides' 32-way column read, kept as is
  float a = tile[threadIdx.x][threadIdx.y];
  float b = tile[threadIdx.x][(threadIdx.y + 1) % 32]; // kcheck-ignore(bank-conflict)
  // expected-warning@-1 {{32-way shared-memory bank conflict on 'tile'}}
  // expected-warning@-2 {{kcheck-ignore needs a reason}}
  float c = padded[threadIdx.x][threadIdx.y]; // kcheck-ignore(bank-conflict): padded
  out[threadIdx.y * 32 + threadIdx.x] = a + b + c;
}

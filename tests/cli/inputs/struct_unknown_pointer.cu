// A pointer inside a struct argument that host code gets from a library
// (here: a function kcheck cannot see into) runs on a fresh buffer, as a
// pointer argument does.
struct View {
  float *data;
  int n;
};

float *libraryBuffer(int n); // defined elsewhere

__global__ void fill(View v) {
  if (threadIdx.x < v.n)
    v.data[threadIdx.x] = 1.0f;
}

int main() {
  View v{libraryBuffer(64), 64};
  fill<<<1, 128>>>(v);
  return 0;
}

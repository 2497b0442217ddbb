// Seed 003 ("Warp Tiling"), "1. 优化思路": the previous kernel, SGEMM with vectorized
// (float4) memory access, written as that tutorial's 向量化访存 chapter writes it:
// A tile stored transposed in smem_a, float4 copies of B into smem_b, float4 reads of
// both into registers, TM x TN results per thread, float4 writes of C.
// BM = BN = 128, BK = 8, TM = TN = 8 (256 threads), M = N = K = 256 ("./sgemm_vectorize
// 256 256 256"): a 2x2 grid.
//
// Shared memory, per warp (threads 32w .. 32w+31):
// * smem_a stores: inner_row_a = tid / 2 takes 16 values, inner_col_a = (tid % 2) * 4
//   two; thread t writes word (inner_col_a + j) * BM + inner_row_a, whose bank is
//   inner_row_a % 32 because BM = 128 is a multiple of 32: 16 banks with 2 different
//   words each, 2-way on each of the four lines.
// * smem_b float4 store: one row of 32 float4 = 128 consecutive words, no conflict.
// * reg_a float4 reads: thread_row = (tid / 16) * TM, so lanes 0-15 and 16-31 each read
//   one 16-byte chunk, in different banks: no conflict (2 wavefronts, fewer than the 4
//   a 16-byte warp access needs anyway).
// * reg_b float4 reads: thread_col = (tid % 16) * TN, 16 chunks 32 bytes apart, read
//   twice (lanes l and l + 16). Each quarter-warp of 8 lanes reads 8 chunks at word
//   offsets 0, 8, ..., 56 (or 64 .. 120): chunks 0 and 4 of the quarter share banks,
//   so every quarter needs 2 wavefronts, 8 in all instead of 4: 2-way.
//   (The H100 measures exactly this: 8 wavefronts per LDS.128 on this line.)
// smem_a and smem_b start at some multiple of 16 bytes; every pattern above is a shift
// by whole 16-byte chunks, so the degrees do not depend on the base.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                              \
  do {                                                                           \
    cudaError_t err_ = (call);                                                   \
    if (err_ != cudaSuccess) {                                                   \
      fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call,               \
              cudaGetErrorString(err_));                                         \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)

#define CEIL_DIV(M, N) (((M) + (N) - 1) / (N))
#define OFFSET(row, col, ld) ((row) * (ld) + (col))
#define FETCH_FLOAT4(pointer) (reinterpret_cast<float4 *>(&(pointer))[0])

// Seed 003 §1 (the vectorized kernel it starts from): sgemm_vectorize_kernel.
template <const int BM, const int BN, const int BK, const int TM, const int TN>
__global__ void sgemm_vectorize_kernel(float *A, float *B, float *C, int M, int N, int K)
{
    const uint c_row = blockIdx.y;
    const uint c_col = blockIdx.x;

    const int block_row_thread = BN / TN;
    const int block_col_thread = BM / TM;
    // 一个线程负责计算 block 中 TM*TN 个元素
    const int thread_num = block_row_thread * block_col_thread;

    // 当前线程对应 thread tile 的左上角元素在 block 中的位置
    const int thread_col = (threadIdx.x % block_row_thread) * TN;
    const int thread_row = (threadIdx.x / block_row_thread) * TM;

    // 每行4个字节作为一个内存块，当前线程负责第inner_row_a行的第inner_col_a个内存块的搬运
    const uint inner_row_a = threadIdx.x / (BK / 4);
    const uint inner_col_a = threadIdx.x % (BK / 4) * 4;

    // 每行4个字节作为一个内存块，当前线程负责第inner_row_b行的第inner_col_b个内存块的搬运
    const uint inner_row_b = threadIdx.x / (BN / 4);
    const uint inner_col_b = threadIdx.x % (BN / 4) * 4;

    // 每个线程搬运4个浮点数，完成搬运至 smem_a 需要所有线程搬运 ldg_a_num 轮
    const int ldg_a_num = BK * BM / thread_num / 4;
    // 每个线程搬运4个浮点数，完成搬运至 smem_b 需要所有线程搬运 ldg_b_num 轮
    const int ldg_b_num = BK * BN / thread_num / 4;

    // 一共 BM 行，搬运 ldg_a_num 轮，每轮搬运 stride_a 行
    const int stride_a = BM / ldg_a_num;
    // 一共 BN 行，搬运 ldg_b_num 轮，每轮搬运 stride_b 行
    const int stride_b = BK / ldg_b_num;

    __shared__ float smem_a[BM * BK];
    __shared__ float smem_b[BK * BN];

    // 计算当前线程负责计算的矩阵的起始位置
    A += c_row * BM * K;
    B += c_col * BN;
    C += c_row * BM * N + c_col * BN;

    float thread_results[TM * TN] = {0.0};
    float ldg_reg_a[4 * ldg_a_num] = {0.};
    float reg_a[TM] = {0.0}; // 缓存 smem_a
    float reg_b[TN] = {0.0}; // 缓存 smem_b

    // outer-most loop over block tiles
    for (uint bk_idx = 0; bk_idx < K; bk_idx += BK)
    {
        for (int i = 0; i < BM; i += stride_a)
        {
            int ldg_index = i / stride_a * 4;
            FETCH_FLOAT4(ldg_reg_a[ldg_index]) = FETCH_FLOAT4(A[OFFSET(i + inner_row_a, inner_col_a, K)]);
            // smem_a 转置存，其中 ldg_reg_a 做中间缓存，目的是读取时可以按FLOAT4读取
            smem_a[OFFSET(inner_col_a, i + inner_row_a, BM)] = ldg_reg_a[ldg_index]; // expected-warning {{2-way shared-memory bank conflict on 'smem_a'}}
            smem_a[OFFSET(inner_col_a + 1, i + inner_row_a, BM)] = ldg_reg_a[ldg_index + 1]; // expected-warning {{2-way shared-memory bank conflict on 'smem_a'}}
            smem_a[OFFSET(inner_col_a + 2, i + inner_row_a, BM)] = ldg_reg_a[ldg_index + 2]; // expected-warning {{2-way shared-memory bank conflict on 'smem_a'}}
            smem_a[OFFSET(inner_col_a + 3, i + inner_row_a, BM)] = ldg_reg_a[ldg_index + 3]; // expected-warning {{2-way shared-memory bank conflict on 'smem_a'}}
        }

        for (int i = 0; i < BK; i += stride_b)
        {
            FETCH_FLOAT4(smem_b[OFFSET(inner_row_b + i, inner_col_b, BN)]) = FETCH_FLOAT4(B[OFFSET(inner_row_b + i, inner_col_b, N)]);
        }

        __syncthreads();

        A += BK;
        B += BK * N;

        // calculate per-thread results
        for (uint dot_idx = 0; dot_idx < BK; ++dot_idx)
        {
            for (int m = 0; m < TM; m += 4)
            {
                FETCH_FLOAT4(reg_a[m]) = FETCH_FLOAT4(smem_a[OFFSET(dot_idx, thread_row + m, BM)]);
            }
            for (int n = 0; n < TN; n += 4)
            {
                FETCH_FLOAT4(reg_b[n]) = FETCH_FLOAT4(smem_b[OFFSET(dot_idx, thread_col + n, BN)]); // expected-warning {{2-way shared-memory bank conflict on 'smem_b'}}
            }

            for (int m = 0; m < TM; m++)
            {
                for (int n = 0; n < TN; n++)
                {
                    thread_results[m * TN + n] += reg_a[m] * reg_b[n];
                }
            }
        }
        __syncthreads();
    }

    // 写回的时候也使用了向量化的指令
    for (int m = 0; m < TM; m++)
    {
        for (int n = 0; n < TN; n += 4)
        {
            FETCH_FLOAT4(C[OFFSET(thread_row + m, thread_col + n, N)]) = FETCH_FLOAT4(thread_results[m * TN + n]); // expected-warning {{uncoalesced global store to 'C': 32 sectors per request where 16 would do}}
        }
    }
}

int main()
{
    const int m = 256, n = 256, k = 256;
    const uint BK = 8;
    const uint TM = 8;
    const uint TN = 8;
    const uint BM = 128;
    const uint BN = 128;

    float *A = (float *)malloc(m * k * sizeof(float));
    float *B = (float *)malloc(k * n * sizeof(float));
    float *C = (float *)malloc(m * n * sizeof(float));
    for (int i = 0; i < m * k; i++) A[i] = (float)(i % 13);
    for (int i = 0; i < k * n; i++) B[i] = (float)(i % 7);

    float *d_A, *d_B, *d_C;
    CHECK(cudaMalloc((void **)&d_A, m * k * sizeof(float)));
    CHECK(cudaMalloc((void **)&d_B, k * n * sizeof(float)));
    CHECK(cudaMalloc((void **)&d_C, m * n * sizeof(float)));
    CHECK(cudaMemcpy(d_A, A, m * k * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_B, B, k * n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_C, 0, m * n * sizeof(float)));

    dim3 gridDim(CEIL_DIV(n, BN), CEIL_DIV(m, BM));
    dim3 blockDim((BM * BN) / (TM * TN));
    sgemm_vectorize_kernel<BM, BN, BK, TM, TN><<<gridDim, blockDim>>>(d_A, d_B, d_C, m, n, k);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    CHECK(cudaMemcpy(C, d_C, m * n * sizeof(float), cudaMemcpyDeviceToHost));
    // Check one element against the CPU.
    float ref = 0.0f;
    for (int i = 0; i < k; i++) ref += A[1 * k + i] * B[i * n + 2];
    printf("sgemm_vectorize: C[1][2] = %f (cpu %f)\n", C[1 * n + 2], ref);
    CHECK(cudaFree(d_A));
    CHECK(cudaFree(d_B));
    CHECK(cudaFree(d_C));
    free(A);
    free(B);
    free(C);
    return 0;
}

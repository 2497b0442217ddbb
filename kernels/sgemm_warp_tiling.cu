// Seed 003 ("Warp Tiling"): SGEMM with block tiles, warp tiles and thread tiles, the
// warp-level indices of "2. 代码实现", float4 global loads, smem_a stored transposed.
// BM = BN = 64, BK = 8, WM = WN = 32, WNITER = 1, TM = TN = 4, 128 threads (4 warps);
// WMITER = (WM * WN) / (32 * TM * TN * WNITER) = 2, WSUBM = 16, WSUBN = 32.
// M = N = K = 256 ("./sgemm_warp_tiling 256 256 256"): a 4x4 grid.
//
// Shared memory, per warp (threads 32w .. 32w+31):
// * smem_a stores: inner_row_a = tid / 2 takes 16 values, inner_col_a = (tid % 2) * 4
//   two; word (inner_col_a + j) * BM + offset + inner_row_a has bank inner_row_a % 32
//   (BM = 64 and offset = 0 are multiples of 32): 2 words per bank, 2-way on each of
//   the four lines.
// * smem_b float4 store: rows 2w and 2w+1, 128 consecutive words, no conflict.
// * reg_a float4 reads: thread_row_in_warp = lane / 8, so each quarter-warp reads one
//   16-byte chunk and the four chunks are adjacent (16 consecutive words): no conflict.
// * reg_b float4 reads: thread_col_in_warp = lane % 8, so every quarter-warp reads the
//   same 8 adjacent chunks (32 consecutive words, one per bank): 4 wavefronts, the
//   minimum for a 16-byte warp access, no conflict.
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
#define WARPSIZE 32

// Seed 003, "2. 代码实现": sgemm_warp_tiling_kernel.
template <const int BM, const int BN, const int BK, const int WM, const int WN,
          const int WMITER, const int WNITER, const int TM, const int TN, const int NUM_THREADS>
__global__ void __launch_bounds__(NUM_THREADS)
    sgemm_warp_tiling_kernel(float *A, float *B, float *C, int M, int N, int K)
{
    const uint c_row = blockIdx.y;
    const uint c_col = blockIdx.x;

    const uint warp_idx = threadIdx.x / WARPSIZE;
    const uint warp_col = warp_idx % (BN / WN);
    const uint warp_row = warp_idx / (BN / WN);

    // warp tile 的大小
    // WM 是每个 Warp 处理数据的行数，WN 是每个 Warp 处理数据的列数
    // 数据行数 / 迭代次数 = 每次迭代处理的行数
    constexpr uint WSUBM = WM / WMITER;
    constexpr uint WSUBN = WN / WNITER;

    // warp 内的线程索引
    const uint thread_idx_in_warp = threadIdx.x % WARPSIZE; // [0, 31]
    const uint thread_col_in_warp = thread_idx_in_warp % (WSUBN / TN);
    const uint thread_row_in_warp = thread_idx_in_warp / (WSUBN / TN);

    // 当前线程负责搬运 A 的第 inner_row_a 行、第 inner_col_a 列起的 4 个元素
    const uint inner_row_a = threadIdx.x / (BK / 4);
    const uint inner_col_a = threadIdx.x % (BK / 4) * 4;
    // 当前线程负责搬运 B 的第 inner_row_b 行、第 inner_col_b 列起的 4 个元素
    const uint inner_row_b = threadIdx.x / (BN / 4);
    const uint inner_col_b = threadIdx.x % (BN / 4) * 4;

    // 每轮搬运 stride_a 行 A、stride_b 行 B
    constexpr uint stride_a = (NUM_THREADS * 4) / BK;
    constexpr uint stride_b = NUM_THREADS / (BN / 4);

    __shared__ float smem_a[BM * BK];
    __shared__ float smem_b[BK * BN];

    // 计算当前线程负责计算的矩阵的起始位置
    A += c_row * BM * K;
    B += c_col * BN;
    C += (c_row * BM + warp_row * WM) * N + c_col * BN + warp_col * WN;

    float thread_results[WMITER * TM * WNITER * TN] = {0.0};
    float reg_a[WMITER * TM] = {0.0}; // 缓存 smem_a
    float reg_b[WNITER * TN] = {0.0}; // 缓存 smem_b

    // 外层循环遍历矩阵块
    for (uint bk_idx = 0; bk_idx < K; bk_idx += BK)
    {
        // 从全局内存加载 A 到共享内存
        for (uint offset = 0; offset < BM; offset += stride_a)
        {
            const float4 tmp = FETCH_FLOAT4(A[OFFSET(offset + inner_row_a, inner_col_a, K)]);
            smem_a[OFFSET(inner_col_a, offset + inner_row_a, BM)] = tmp.x; // expected-warning {{2-way shared-memory bank conflict on 'smem_a'}}
            smem_a[OFFSET(inner_col_a + 1, offset + inner_row_a, BM)] = tmp.y; // expected-warning {{2-way shared-memory bank conflict on 'smem_a'}}
            smem_a[OFFSET(inner_col_a + 2, offset + inner_row_a, BM)] = tmp.z; // expected-warning {{2-way shared-memory bank conflict on 'smem_a'}}
            smem_a[OFFSET(inner_col_a + 3, offset + inner_row_a, BM)] = tmp.w; // expected-warning {{2-way shared-memory bank conflict on 'smem_a'}}
        }

        // 从全局内存加载 B 到共享内存
        for (uint offset = 0; offset < BK; offset += stride_b)
        {
            FETCH_FLOAT4(smem_b[OFFSET(inner_row_b + offset, inner_col_b, BN)]) = FETCH_FLOAT4(B[OFFSET(inner_row_b + offset, inner_col_b, N)]);
        }

        __syncthreads();

        A += BK;
        B += BK * N;

        for (uint dot_idx = 0; dot_idx < BK; ++dot_idx)
        {
            // 将共享内存中的数据读取到寄存器中 (float4)
            for (uint warp_sub_row_idx = 0; warp_sub_row_idx < WMITER; ++warp_sub_row_idx)
            {
                for (int m = 0; m < TM; m += 4)
                {
                    FETCH_FLOAT4(reg_a[warp_sub_row_idx * TM + m]) = FETCH_FLOAT4(smem_a[OFFSET(dot_idx, warp_row * WM + warp_sub_row_idx * WSUBM + thread_row_in_warp * TM + m, BM)]);
                }
            }
            for (uint warp_sub_col_idx = 0; warp_sub_col_idx < WNITER; ++warp_sub_col_idx)
            {
                for (int n = 0; n < TN; n += 4)
                {
                    FETCH_FLOAT4(reg_b[warp_sub_col_idx * TN + n]) = FETCH_FLOAT4(smem_b[OFFSET(dot_idx, warp_col * WN + warp_sub_col_idx * WSUBN + thread_col_in_warp * TN + n, BN)]);
                }
            }

            // 计算每个线程的部分结果
            for (uint warp_sub_row_idx = 0; warp_sub_row_idx < WMITER; ++warp_sub_row_idx)
            {
                for (uint warp_sub_col_idx = 0; warp_sub_col_idx < WNITER; ++warp_sub_col_idx)
                {
                    for (int m = 0; m < TM; m++)
                    {
                        for (int n = 0; n < TN; n++)
                        {
                            // 计算矩阵乘法结果并累加到 thread_results 数组中
                            thread_results[(warp_sub_row_idx * TM + m) * (WNITER * TN) + (warp_sub_col_idx * TN) + n] += reg_a[warp_sub_row_idx * TM + m] * reg_b[warp_sub_col_idx * TN + n];
                        }
                    }
                }
            }
        }
        __syncthreads();
    }

    // 将线程的结果写入全局内存
    for (uint warp_sub_row_idx = 0; warp_sub_row_idx < WMITER; ++warp_sub_row_idx)
    {
        for (uint warp_sub_col_idx = 0; warp_sub_col_idx < WNITER; ++warp_sub_col_idx)
        {
            // 计算 C 的内存索引并将结果写入 C
            float *C_interim = C + (warp_sub_row_idx * WSUBM) * N + warp_sub_col_idx * WSUBN;
            for (int m = 0; m < TM; m++)
            {
                for (int n = 0; n < TN; n += 4)
                {
                    FETCH_FLOAT4(C_interim[OFFSET(m + thread_row_in_warp * TM, n + thread_col_in_warp * TN, N)]) = FETCH_FLOAT4(thread_results[(warp_sub_row_idx * TM + m) * (WNITER * TN) + (warp_sub_col_idx * TN) + n]);
                }
            }
        }
    }
}

int main()
{
    const int m = 256, n = 256, k = 256;
    const uint NUM_THREADS = 128;
    const uint BN = 64;
    const uint BM = 64;
    const uint BK = 8;
    const uint WN = 32;
    const uint WM = 32;
    const uint WNITER = 1;
    const uint TN = 4;
    const uint TM = 4;
    // warpsubtile in warptile
    constexpr uint WMITER = (WM * WN) / (WARPSIZE * TM * TN * WNITER);
    static_assert((BN % WN == 0) && (BM % WM == 0), "warp tiles must divide the block tile");
    static_assert((BN / WN) * (BM / WM) == NUM_THREADS / WARPSIZE, "one warp tile per warp");
    static_assert((WM * WN) % (WARPSIZE * TM * TN * WNITER) == 0, "threads must cover the warp tile");
    static_assert((BM * BK) % (4 * NUM_THREADS) == 0 && (BN * BK) % (4 * NUM_THREADS) == 0, "float4 loads");

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

    dim3 blockDim(NUM_THREADS);
    dim3 gridDim(CEIL_DIV(n, BN), CEIL_DIV(m, BM));
    sgemm_warp_tiling_kernel<BM, BN, BK, WM, WN, WMITER, WNITER, TM, TN, NUM_THREADS>
        <<<gridDim, blockDim>>>(d_A, d_B, d_C, m, n, k);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    CHECK(cudaMemcpy(C, d_C, m * n * sizeof(float), cudaMemcpyDeviceToHost));
    float ref = 0.0f;
    for (int i = 0; i < k; i++) ref += A[5 * k + i] * B[i * n + 9];
    printf("sgemm_warp_tiling: C[5][9] = %f (cpu %f)\n", C[5 * n + 9], ref);
    CHECK(cudaFree(d_A));
    CHECK(cudaFree(d_B));
    CHECK(cudaFree(d_C));
    free(A);
    free(B);
    free(C);
    return 0;
}

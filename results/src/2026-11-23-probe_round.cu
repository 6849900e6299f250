#include "lab09.cuh"
template <typename T, int E>
__global__ void probe_round(const T *runs, int len, T *out, int r)
{
    kit_shared<T> S = KIT_DYNAMIC_SHARED(T);
    const int u = (int)blockDim.x, i = (int)threadIdx.x, g = 2 << r, region = g * E, half = region / 2;
    for (int x = i; x < u * E; x += u) {
        int base = x / region * region;
        S[ms_slot<E>(base + ms_cf_position(x - base, half, region))] = runs[x < len ? x : len - 1];
    }
    __syncthreads();
    int base = i / g * region;
    int n_a = len - base < 0 ? 0 : len - base < half ? len - base : half;
    int n_b = len - base - half < 0 ? 0 : len - base - half < half ? len - base - half : half;
    int diag = (i % g) * E, d = diag < n_a + n_b ? diag : n_a + n_b;
    int count = n_a + n_b - d < E ? n_a + n_b - d : E;
    const T *A = runs + base, *B = A + half;
    int a = lab09_co_rank_global(A, n_a, B, n_b, d), a_end = lab09_co_rank_global(A, n_a, B, n_b, d + count);
    T key[E];
    int origin[E];
    ms_cf_gather<T, E>(S, base, region, a, diag - a, a_end - a, count, key, origin);
    for (int j = 0; j < E; j++)
        if (origin[j] < count)
            out[(size_t)i * E + origin[j]] = key[j];
}
template <int E> void run(int u, int seed) {
    int tile=u*E; int32_t *keys=(int32_t*)malloc(tile*4), *runs=(int32_t*)malloc(tile*4);
    kit_gen_array(KIT_TYPE_I32,keys,tile,KIT_GEN_RANDOM,seed);
    int32_t *d_r,*d_o; cudaMalloc(&d_r,tile*4); cudaMalloc(&d_o,tile*4);
    for (int r=0; (2<<r)<=u; r++) {
        int half=(2<<r)*E/2; memcpy(runs,keys,tile*4);
        for(int x=0;x<tile;x+=half) kit_stable_sort(KIT_TYPE_I32,runs+x,half);
        cudaMemcpy(d_r,runs,tile*4,cudaMemcpyHostToDevice);
        size_t bytes=ms_shared_elems(tile)*4;
        probe_round<int32_t,E><<<1,u,bytes>>>(d_r,tile,d_o,r); cudaDeviceSynchronize();
        printf("launch: E=%d u=%d seed=%d g=%d\n",E,u,seed,2<<r);
    }
    cudaFree(d_r); cudaFree(d_o); free(keys); free(runs);
}
int main(){ run<17>(256,7); run<12>(512,7); run<17>(512,7); }

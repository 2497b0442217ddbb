#!/usr/bin/env bash
# temporary: build + run + ncu every kernels/*.cu on the GPU machine
set -u
FINAL=${OUT:-/tmp/out}; OUT=$(mktemp -d)
B=$(mktemp -d)
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
NVD=$(command -v nvdisasm || ls /usr/local/cuda/bin/nvdisasm)
M=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum,smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum,smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_thread_inst_executed.sum,smsp__sass_inst_executed.sum
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/env.txt; nvcc --version | tail -1 >> $OUT/env.txt
for f in kernels/*.cu; do
  n=$(basename $f .cu)
  nvcc -arch=sm_90 -O3 -lineinfo -o $B/$n $f 2>>$OUT/build.txt || { echo "BUILD FAIL $n" >> $OUT/run.txt; continue; }
  nvcc -arch=sm_90 -O3 -lineinfo -cubin -o $B/$n.cubin $f
  $NVD -g -c $B/$n.cubin > $OUT/$n.sass.txt 2>&1
  ( cd kernels; $B/$n ) >> $OUT/run.txt 2>&1; echo "$n rc=$?" >> $OUT/run.txt
  $NCU --metrics "$M" --csv --print-units base $B/$n 2>>$OUT/ncu_err.txt | grep '^"' | sed "s/^/\"$n\",/" >> $OUT/sass_counters.csv
  $NCU --section SourceCounters --import-source yes -f -o $B/src_$n $B/$n > /dev/null 2>>$OUT/ncu_err.txt
  $NCU -i $B/src_$n.ncu-rep --page source --csv --print-source cuda 2>&1 | sed "s/^/\"$n\",/" >> $OUT/source_cuda.csv
  $NCU -i $B/src_$n.ncu-rep --page source --csv --print-source sass 2>&1 | sed "s/^/\"$n\",/" >> $OUT/source_sass.csv
done
wc -l $OUT/*
cat $OUT/run.txt
tar -czf $FINAL/all.tgz -C $OUT .

#!/bin/sh
# Measures conformance programs on a GPU machine (nvcc, ncu, cuobjdump):
# for each PROGRAM.cu, its output (OUTDIR/h200-NAME.txt: the checks' summary
# and the probe lines compare_probes.py reads), every launch's counters of
# the metrics kcheck predicts (OUTDIR/h200-NAME.ncu.csv, for compare_ncu.py)
# and its SASS (OUTDIR/NAME.sass, to compare with kcheck's IR where a count
# differs). A program's line `// nvcc: FLAGS` adds FLAGS to its nvcc command
# (dynamic_parallelism.cu: -rdc=true -lcudadevrt).
#   usage: measure_gpu.sh OUTDIR PROGRAM.cu...
set -u
out=$1
shift
mkdir -p "$out"
metrics=smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum
metrics=$metrics,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
metrics=$metrics,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
metrics=$metrics,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
metrics=$metrics,smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum
metrics=$metrics,smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum
metrics=$metrics,smsp__sass_branch_targets_threads_divergent.sum
metrics=$metrics,smsp__sass_inst_executed_op_texture.sum
metrics=$metrics,smsp__sass_inst_executed_op_surface_ld.sum,smsp__sass_inst_executed_op_surface_st.sum
for program in "$@"; do
  name=$(basename "$program" .cu)
  bin=$out/$name.bin
  flags=$(sed -n 's|^// nvcc: ||p' "$program")
  # shellcheck disable=SC2086 # FLAGS are words
  nvcc -O3 -arch=sm_90 -lineinfo -w $flags -o "$bin" "$program" || continue
  "$bin" > "$out/h200-$name.txt" 2>&1
  echo "$name: exit $?: $(tail -1 "$out/h200-$name.txt")"
  ncu --metrics "$metrics" --csv "$bin" 2>/dev/null | grep '^"' \
    > "$out/h200-$name.ncu.csv"
  cuobjdump -sass "$bin" > "$out/$name.sass"
  rm -f "$bin"
done

// IR that clang++-22 -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 -O3
// -gline-tables-only emitted for the kernels below (file t.cu), verbatim.
// Assumes nothing beyond the module itself; line numbers refer to t.cu:
//   5  reduce_v1(float *g_idata, float *g_odata)   the classic tree reduction
//   18 tripcount(int *out)   loop with trip count tid % 5, then if (t & 1)
//   24 warpsum(float *, int *)   __shfl_down / __shfl_xor reductions
//   35 histo(int *in, int *bins)   data-dependent if + atomicAdd
#pragma once

namespace kcheck::sim::test {

inline constexpr const char *kClangKernels = R"IR(
; ModuleID = 't.cu'
source_filename = "t.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ9reduce_v1PfS_E5sdata = internal unnamed_addr addrspace(3) global [256 x float] undef, align 4

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z9reduce_v1PfS_(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1) local_unnamed_addr #0 !dbg !12 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !15
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !19
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !dbg !22
  %6 = mul i32 %4, %5, !dbg !25
  %7 = add i32 %6, %3, !dbg !26
  %8 = zext i32 %7 to i64, !dbg !27
  %9 = getelementptr inbounds nuw float, ptr %0, i64 %8, !dbg !27
  %10 = load float, ptr %9, align 4, !dbg !27, !tbaa !28
  %11 = zext nneg i32 %3 to i64, !dbg !30
  %12 = getelementptr inbounds nuw float, ptr addrspacecast (ptr addrspace(3) @_ZZ9reduce_v1PfS_E5sdata to ptr), i64 %11, !dbg !30
  store float %10, ptr %12, align 4, !dbg !31, !tbaa !28
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !32
  %13 = icmp samesign ugt i32 %5, 1, !dbg !33
  br i1 %13, label %16, label %14, !dbg !34

14:                                               ; preds = %30, %2
  %15 = icmp eq i32 %3, 0, !dbg !35
  br i1 %15, label %32, label %36, !dbg !35

16:                                               ; preds = %2, %30
  %17 = phi i32 [ %18, %30 ], [ 1, %2 ]
  %18 = shl i32 %17, 1, !dbg !36
  %19 = mul i32 %18, %3, !dbg !37
  %20 = icmp ult i32 %19, %5, !dbg !38
  br i1 %20, label %21, label %30, !dbg !38

21:                                               ; preds = %16
  %22 = zext nneg i32 %19 to i64
  %23 = getelementptr inbounds nuw float, ptr addrspacecast (ptr addrspace(3) @_ZZ9reduce_v1PfS_E5sdata to ptr), i64 %22
  %24 = add i32 %19, %17
  %25 = zext i32 %24 to i64
  %26 = getelementptr inbounds nuw float, ptr addrspacecast (ptr addrspace(3) @_ZZ9reduce_v1PfS_E5sdata to ptr), i64 %25
  %27 = load float, ptr %26, align 4, !dbg !39, !tbaa !28
  %28 = load float, ptr %23, align 4, !dbg !40, !tbaa !28
  %29 = fadd contract float %27, %28, !dbg !40
  store float %29, ptr %23, align 4, !dbg !40, !tbaa !28
  br label %30, !dbg !41

30:                                               ; preds = %21, %16
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !42
  %31 = icmp ult i32 %18, %5, !dbg !33
  br i1 %31, label %16, label %14, !dbg !34, !llvm.loop !43

32:                                               ; preds = %14
  %33 = zext nneg i32 %4 to i64
  %34 = getelementptr inbounds nuw float, ptr %1, i64 %33
  %35 = load float, ptr addrspacecast (ptr addrspace(3) @_ZZ9reduce_v1PfS_E5sdata to ptr), align 4, !dbg !46, !tbaa !28
  store float %35, ptr %34, align 4, !dbg !47, !tbaa !28
  br label %36, !dbg !48

36:                                               ; preds = %32, %14
  ret void, !dbg !49
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #1

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z9tripcountPi(ptr noundef captures(none) %0) local_unnamed_addr #2 !dbg !50 {
  %2 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !51
  %3 = trunc nuw nsw i32 %2 to i16
  %4 = urem i16 %3, 5
  %5 = zext nneg i16 %4 to i32
  %6 = icmp eq i16 %4, 0, !dbg !53
  br i1 %6, label %20, label %7, !dbg !54

7:                                                ; preds = %1, %7
  %8 = phi i32 [ %11, %7 ], [ 0, %1 ]
  %9 = phi i32 [ %17, %7 ], [ 0, %1 ]
  %10 = phi i32 [ %18, %7 ], [ 0, %1 ]
  %11 = add nuw nsw i32 %8, 1, !dbg !55
  %12 = zext nneg i32 %8 to i64, !dbg !56
  %13 = getelementptr inbounds nuw i32, ptr %0, i64 %12, !dbg !56
  %14 = getelementptr inbounds nuw i8, ptr %13, i64 256, !dbg !56
  %15 = load i32, ptr %14, align 4, !dbg !56, !tbaa !8
  %16 = mul nsw i32 %15, %11, !dbg !57
  %17 = add nsw i32 %16, %9, !dbg !58
  %18 = add i32 %10, 1, !dbg !54
  %19 = icmp eq i32 %18, %5, !dbg !54
  br i1 %19, label %20, label %7, !dbg !54, !llvm.loop !59

20:                                               ; preds = %7, %1
  %21 = phi i32 [ 0, %1 ], [ %17, %7 ], !dbg !61
  %22 = and i32 %2, 1, !dbg !62
  %23 = icmp eq i32 %22, 0, !dbg !63
  %24 = mul nsw i32 %21, 3, !dbg !63
  %25 = add nsw i32 %21, 100, !dbg !63
  %26 = select i1 %23, i32 %25, i32 %24, !dbg !63
  %27 = zext nneg i32 %2 to i64, !dbg !64
  %28 = getelementptr inbounds nuw i32, ptr %0, i64 %27, !dbg !64
  store i32 %26, ptr %28, align 4, !dbg !65, !tbaa !8
  ret void, !dbg !66
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind memory(argmem: write, inaccessiblemem: readwrite)
define dso_local ptx_kernel void @_Z7warpsumPfPi(ptr noundef writeonly captures(none) %0, ptr noundef writeonly captures(none) %1) local_unnamed_addr #3 !dbg !67 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !68
  %4 = uitofp nneg i32 %3 to float, !dbg !70
  %5 = tail call contract float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %4, i32 16, i32 31), !dbg !71
  %6 = fadd contract float %5, %4, !dbg !72
  %7 = tail call contract float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %6, i32 8, i32 31), !dbg !71
  %8 = fadd contract float %6, %7, !dbg !72
  %9 = tail call contract float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %8, i32 4, i32 31), !dbg !71
  %10 = fadd contract float %8, %9, !dbg !72
  %11 = tail call contract float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %10, i32 2, i32 31), !dbg !71
  %12 = fadd contract float %10, %11, !dbg !72
  %13 = tail call contract float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %12, i32 1, i32 31), !dbg !71
  %14 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %3, i32 1, i32 31), !dbg !73
  %15 = add nsw i32 %14, %3, !dbg !74
  %16 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %15, i32 2, i32 31), !dbg !73
  %17 = add nsw i32 %16, %15, !dbg !74
  %18 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %17, i32 4, i32 31), !dbg !73
  %19 = add nsw i32 %18, %17, !dbg !74
  %20 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %19, i32 8, i32 31), !dbg !73
  %21 = add nsw i32 %20, %19, !dbg !74
  %22 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %21, i32 16, i32 31), !dbg !73
  %23 = add nsw i32 %22, %21, !dbg !74
  %24 = fadd contract float %12, %13, !dbg !72
  %25 = zext nneg i32 %3 to i64, !dbg !75
  %26 = getelementptr inbounds nuw float, ptr %0, i64 %25, !dbg !75
  store float %24, ptr %26, align 4, !dbg !76, !tbaa !28
  %27 = getelementptr inbounds nuw i32, ptr %1, i64 %25, !dbg !77
  store i32 %23, ptr %27, align 4, !dbg !78, !tbaa !8
  ret void, !dbg !79
}

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare float @llvm.nvvm.shfl.sync.down.f32(i32, float, i32, i32) #4

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32) #4

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(none)

; Function Attrs: mustprogress nofree noinline norecurse nounwind willreturn memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z5histoPiS_(ptr noundef readonly captures(none) %0, ptr noundef captures(none) %1) local_unnamed_addr #6 !dbg !82 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !83
  %4 = zext nneg i32 %3 to i64, !dbg !85
  %5 = getelementptr inbounds nuw i32, ptr %0, i64 %4, !dbg !85
  %6 = load i32, ptr %5, align 4, !dbg !85, !tbaa !8
  %7 = icmp sgt i32 %6, 3, !dbg !86
  br i1 %7, label %8, label %10, !dbg !86

8:                                                ; preds = %2
  %9 = atomicrmw add ptr %1, i32 1 seq_cst, align 4, !dbg !87
  br label %10, !dbg !87

10:                                               ; preds = %8, %2
  %11 = and i32 %3, 3, !dbg !88
  %12 = zext nneg i32 %11 to i64, !dbg !89
  %13 = getelementptr inbounds nuw i32, ptr %1, i64 %12, !dbg !89
  %14 = getelementptr inbounds nuw i8, ptr %13, i64 4, !dbg !89
  %15 = atomicrmw add ptr %14, i32 1 seq_cst, align 4, !dbg !90
  ret void, !dbg !91
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #7

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #7

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #7

attributes #0 = { convergent mustprogress noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { convergent nocallback nounwind }
attributes #2 = { mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #3 = { convergent mustprogress noinline norecurse nounwind memory(argmem: write, inaccessiblemem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #4 = { convergent nocallback nounwind memory(inaccessiblemem: readwrite) }
attributes #5 = { mustprogress nofree noinline norecurse nosync nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #6 = { mustprogress nofree noinline norecurse nounwind willreturn memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #7 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6}
!llvm.ident = !{!7}
!llvm.errno.tbaa = !{!8}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "Debian clang version 22.1.8 (1~deb12u1)", isOptimized: true, runtimeVersion: 0, emissionKind: DebugDirectivesOnly, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "t.cu", directory: "/tmp/eng")
!2 = !{i32 7, !"Dwarf Version", i32 2}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!6 = !{i32 7, !"frame-pointer", i32 2}
!7 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!8 = !{!9, !9, i64 0}
!9 = !{!"int", !10, i64 0}
!10 = !{!"omnipotent char", !11, i64 0}
!11 = !{!"Simple C++ TBAA"}
!12 = distinct !DISubprogram(name: "reduce_v1", scope: !1, file: !1, line: 5, type: !13, scopeLine: 5, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!13 = !DISubroutineType(types: !14)
!14 = !{}
!15 = !DILocation(line: 53, column: 27, scope: !16, inlinedAt: !18)
!16 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !17, file: !17, line: 53, type: !13, scopeLine: 53, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!17 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_builtin_vars.h", directory: "")
!18 = distinct !DILocation(line: 7, column: 18, scope: !12)
!19 = !DILocation(line: 66, column: 27, scope: !20, inlinedAt: !21)
!20 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !17, file: !17, line: 66, type: !13, scopeLine: 66, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!21 = distinct !DILocation(line: 8, column: 16, scope: !12)
!22 = !DILocation(line: 79, column: 27, scope: !23, inlinedAt: !24)
!23 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !17, file: !17, line: 79, type: !13, scopeLine: 79, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!24 = distinct !DILocation(line: 8, column: 29, scope: !12)
!25 = !DILocation(line: 8, column: 27, scope: !12)
!26 = !DILocation(line: 8, column: 40, scope: !12)
!27 = !DILocation(line: 9, column: 16, scope: !12)
!28 = !{!29, !29, i64 0}
!29 = !{!"float", !10, i64 0}
!30 = !DILocation(line: 9, column: 3, scope: !12)
!31 = !DILocation(line: 9, column: 14, scope: !12)
!32 = !DILocation(line: 10, column: 3, scope: !12)
!33 = !DILocation(line: 11, column: 26, scope: !12)
!34 = !DILocation(line: 11, column: 3, scope: !12)
!35 = !DILocation(line: 16, column: 11, scope: !12)
!36 = !DILocation(line: 12, column: 19, scope: !12)
!37 = !DILocation(line: 12, column: 23, scope: !12)
!38 = !DILocation(line: 13, column: 15, scope: !12)
!39 = !DILocation(line: 13, column: 45, scope: !12)
!40 = !DILocation(line: 13, column: 42, scope: !12)
!41 = !DILocation(line: 13, column: 29, scope: !12)
!42 = !DILocation(line: 14, column: 5, scope: !12)
!43 = distinct !{!43, !34, !44, !45}
!44 = !DILocation(line: 15, column: 3, scope: !12)
!45 = !{!"llvm.loop.mustprogress"}
!46 = !DILocation(line: 16, column: 39, scope: !12)
!47 = !DILocation(line: 16, column: 37, scope: !12)
!48 = !DILocation(line: 16, column: 17, scope: !12)
!49 = !DILocation(line: 17, column: 1, scope: !12)
!50 = distinct !DISubprogram(name: "tripcount", scope: !1, file: !1, line: 18, type: !13, scopeLine: 18, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!51 = !DILocation(line: 53, column: 27, scope: !16, inlinedAt: !52)
!52 = distinct !DILocation(line: 19, column: 11, scope: !50)
!53 = !DILocation(line: 20, column: 21, scope: !50)
!54 = !DILocation(line: 20, column: 3, scope: !50)
!55 = !DILocation(line: 20, column: 45, scope: !50)
!56 = !DILocation(line: 20, column: 52, scope: !50)
!57 = !DILocation(line: 20, column: 50, scope: !50)
!58 = !DILocation(line: 20, column: 39, scope: !50)
!59 = distinct !{!59, !60}
!60 = !{!"llvm.loop.unroll.disable"}
!61 = !DILocation(line: 0, scope: !50)
!62 = !DILocation(line: 21, column: 9, scope: !50)
!63 = !DILocation(line: 21, column: 7, scope: !50)
!64 = !DILocation(line: 22, column: 3, scope: !50)
!65 = !DILocation(line: 22, column: 10, scope: !50)
!66 = !DILocation(line: 23, column: 1, scope: !50)
!67 = distinct !DISubprogram(name: "warpsum", scope: !1, file: !1, line: 24, type: !13, scopeLine: 24, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!68 = !DILocation(line: 53, column: 27, scope: !16, inlinedAt: !69)
!69 = distinct !DILocation(line: 25, column: 13, scope: !67)
!70 = !DILocation(line: 25, column: 13, scope: !67)
!71 = !DILocation(line: 26, column: 40, scope: !67)
!72 = !DILocation(line: 26, column: 37, scope: !67)
!73 = !DILocation(line: 28, column: 40, scope: !67)
!74 = !DILocation(line: 28, column: 37, scope: !67)
!75 = !DILocation(line: 29, column: 3, scope: !67)
!76 = !DILocation(line: 29, column: 20, scope: !67)
!77 = !DILocation(line: 29, column: 25, scope: !67)
!78 = !DILocation(line: 29, column: 43, scope: !67)
!79 = !DILocation(line: 30, column: 1, scope: !67)
!80 = distinct !DISubprogram(name: "oob", scope: !1, file: !1, line: 31, type: !13, scopeLine: 31, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!81 = !DILocation(line: 34, column: 1, scope: !80)
!82 = distinct !DISubprogram(name: "histo", scope: !1, file: !1, line: 35, type: !13, scopeLine: 35, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!83 = !DILocation(line: 53, column: 27, scope: !16, inlinedAt: !84)
!84 = distinct !DILocation(line: 36, column: 14, scope: !82)
!85 = !DILocation(line: 36, column: 11, scope: !82)
!86 = !DILocation(line: 37, column: 9, scope: !82)
!87 = !DILocation(line: 37, column: 14, scope: !82)
!88 = !DILocation(line: 38, column: 48, scope: !82)
!89 = !DILocation(line: 38, column: 26, scope: !82)
!90 = !DILocation(line: 38, column: 3, scope: !82)
!91 = !DILocation(line: 39, column: 1, scope: !82)
)IR";

} // namespace kcheck::sim::test

target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @gemm_mfma(ptr addrspace(1) noalias nocapture readonly align 8 %a.0, ptr addrspace(1) noalias nocapture readonly align 8 %bt.1, ptr addrspace(1) noalias nocapture writeonly %c.2, i32 %k.3) #0 {
entry:
  %t0 = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %lane.4 = call i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %t0)
  %row.6 = urem i32 %lane.4, 16
  %quad.7 = udiv i32 %lane.4, 16
  %kofs.9 = mul i32 %quad.7, 4
  %t1 = insertelement <4 x float> poison, float 0x0000000000000000, i64 0
  %acc.11 = shufflevector <4 x float> %t1, <4 x float> poison, <4 x i32> zeroinitializer
  br label %for0.header
for0.header:
  %k0.14 = phi i32 [ 0, %entry ], [ %t5, %for0.latch ]
  %acc.15 = phi <4 x float> [ %acc.11, %entry ], [ %acc.23, %for0.latch ]
  %t2 = icmp slt i32 %k0.14, %k.3
  br i1 %t2, label %for0.body, label %for0.exit
for0.body:
  %col.16 = add i32 %k0.14, %kofs.9
  %v17 = mul i32 %row.6, %k.3
  %v18 = add i32 %v17, %col.16
  %t3 = getelementptr inbounds half, ptr addrspace(1) %a.0, i32 %v18
  %afrag.19 = load <4 x half>, ptr addrspace(1) %t3, align 8
  %v20 = mul i32 %row.6, %k.3
  %v21 = add i32 %v20, %col.16
  %t4 = getelementptr inbounds half, ptr addrspace(1) %bt.1, i32 %v21
  %bfrag.22 = load <4 x half>, ptr addrspace(1) %t4, align 8
  %acc.23 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x16f16(<4 x half> %afrag.19, <4 x half> %bfrag.22, <4 x float> %acc.15, i32 0, i32 0, i32 0)
  br label %for0.latch
for0.latch:
  %t5 = add i32 %k0.14, 16
  br label %for0.header
for0.exit:
  %acc.13 = phi <4 x float> [ %acc.15, %for0.header ]
  %v25 = add i32 %kofs.9, 0
  %v26 = mul i32 %v25, 16
  %v27 = add i32 %v26, %row.6
  %d0.28 = extractelement <4 x float> %acc.13, i32 0
  %t6 = getelementptr inbounds float, ptr addrspace(1) %c.2, i32 %v27
  store float %d0.28, ptr addrspace(1) %t6, align 4
  %v30 = add i32 %kofs.9, 1
  %v31 = mul i32 %v30, 16
  %v32 = add i32 %v31, %row.6
  %d1.33 = extractelement <4 x float> %acc.13, i32 1
  %t7 = getelementptr inbounds float, ptr addrspace(1) %c.2, i32 %v32
  store float %d1.33, ptr addrspace(1) %t7, align 4
  %v35 = add i32 %kofs.9, 2
  %v36 = mul i32 %v35, 16
  %v37 = add i32 %v36, %row.6
  %d2.38 = extractelement <4 x float> %acc.13, i32 2
  %t8 = getelementptr inbounds float, ptr addrspace(1) %c.2, i32 %v37
  store float %d2.38, ptr addrspace(1) %t8, align 4
  %v40 = add i32 %kofs.9, 3
  %v41 = mul i32 %v40, 16
  %v42 = add i32 %v41, %row.6
  %d3.43 = extractelement <4 x float> %acc.13, i32 3
  %t9 = getelementptr inbounds float, ptr addrspace(1) %c.2, i32 %v42
  store float %d3.43, ptr addrspace(1) %t9, align 4
  ret void
}

declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32)
declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32)
declare <4 x float> @llvm.amdgcn.mfma.f32.16x16x16f16(<4 x half>, <4 x half>, <4 x float>, i32 immarg, i32 immarg, i32 immarg)

attributes #0 = { "amdgpu-flat-work-group-size"="64,64" "target-cpu"="gfx950" }

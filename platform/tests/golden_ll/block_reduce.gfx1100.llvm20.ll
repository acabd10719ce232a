target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@rocke.lds = internal addrspace(3) global [32 x i8] poison, align 16

define amdgpu_kernel void @block_reduce(ptr addrspace(1) noalias nocapture readonly %x.0, ptr addrspace(1) nocapture %out.1, i32 %n.2) #0 {
entry:
  %partial.3 = getelementptr inbounds i8, ptr addrspace(3) @rocke.lds, i32 0
  %tid.4 = call i32 @llvm.amdgcn.workitem.id.x()
  %bid.5 = call i32 @llvm.amdgcn.workgroup.id.x()
  %t0 = call ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
  %t1 = getelementptr inbounds i8, ptr addrspace(4) %t0, i64 4
  %t2 = load i16, ptr addrspace(4) %t1, align 4
  %bdim.6 = zext i16 %t2 to i32
  %v7 = mul i32 %bid.5, %bdim.6
  %tid.8 = call i32 @llvm.amdgcn.workitem.id.x()
  %gid.9 = add i32 %v7, %tid.8
  %v11 = icmp slt i32 %gid.9, %n.2
  br i1 %v11, label %if0.then, label %if0.else
if0.then:
  %t3 = getelementptr inbounds float, ptr addrspace(1) %x.0, i32 %gid.9
  %v13 = load float, ptr addrspace(1) %t3, align 4
  br label %if0.join
if0.else:
  br label %if0.join
if0.join:
  %value.12 = phi float [ %v13, %if0.then ], [ 0x0000000000000000, %if0.else ]
  %t4 = bitcast float %value.12 to i32
  %t5 = call i32 @llvm.amdgcn.ds.swizzle(i32 %t4, i32 16415)
  %v14 = bitcast i32 %t5 to float
  %value.15 = fadd float %value.12, %v14
  %t6 = bitcast float %value.15 to i32
  %t7 = call i32 @llvm.amdgcn.ds.swizzle(i32 %t6, i32 8223)
  %v16 = bitcast i32 %t7 to float
  %value.17 = fadd float %value.15, %v16
  %t8 = bitcast float %value.17 to i32
  %t9 = call i32 @llvm.amdgcn.ds.swizzle(i32 %t8, i32 4127)
  %v18 = bitcast i32 %t9 to float
  %value.19 = fadd float %value.17, %v18
  %t10 = bitcast float %value.19 to i32
  %t11 = call i32 @llvm.amdgcn.ds.swizzle(i32 %t10, i32 2079)
  %v20 = bitcast i32 %t11 to float
  %value.21 = fadd float %value.19, %v20
  %t12 = bitcast float %value.21 to i32
  %t13 = call i32 @llvm.amdgcn.ds.swizzle(i32 %t12, i32 1055)
  %v22 = bitcast i32 %t13 to float
  %value.23 = fadd float %value.21, %v22
  %group.25 = udiv i32 %tid.4, 32
  %v26 = urem i32 %tid.4, 32
  %v28 = icmp eq i32 %v26, 0
  br i1 %v28, label %if1.then, label %if1.join
if1.then:
  %t14 = getelementptr inbounds float, ptr addrspace(3) %partial.3, i32 %group.25
  store float %value.23, ptr addrspace(3) %t14, align 4
  br label %if1.join
if1.join:
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %v30 = icmp eq i32 %tid.4, 0
  br i1 %v30, label %if2.then, label %if2.join
if2.then:
  %t15 = call ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
  %t16 = getelementptr inbounds i8, ptr addrspace(4) %t15, i64 4
  %t17 = load i16, ptr addrspace(4) %t16, align 4
  %v31 = zext i16 %t17 to i32
  %v33 = add i32 %v31, 31
  %groups.34 = udiv i32 %v33, 32
  br label %for3.header
for3.header:
  %g.38 = phi i32 [ 0, %if2.then ], [ %t20, %for3.latch ]
  %acc.39 = phi float [ 0x0000000000000000, %if2.then ], [ %acc.41, %for3.latch ]
  %t18 = icmp slt i32 %g.38, %groups.34
  br i1 %t18, label %for3.body, label %for3.exit
for3.body:
  %t19 = getelementptr inbounds float, ptr addrspace(3) %partial.3, i32 %g.38
  %v40 = load float, ptr addrspace(3) %t19, align 4
  %acc.41 = fadd float %acc.39, %v40
  br label %for3.latch
for3.latch:
  %t20 = add i32 %g.38, 1
  br label %for3.header
for3.exit:
  %acc.37 = phi float [ %acc.39, %for3.header ]
  %t21 = getelementptr inbounds float, ptr addrspace(1) %out.1, i32 0
  %t22 = atomicrmw fadd ptr addrspace(1) %t21, float %acc.37 syncscope("agent") monotonic, align 4
  br label %if2.join
if2.join:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
declare i32 @llvm.amdgcn.ds.swizzle(i32, i32 immarg)
declare void @llvm.amdgcn.s.barrier()

attributes #0 = { "amdgpu-flat-work-group-size"="32,256" "target-cpu"="gfx1100" }

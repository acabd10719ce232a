target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @axpy(ptr addrspace(1) noalias captures(none) readonly align 16 %x.0, ptr addrspace(1) noalias captures(none) align 16 %y.1, float %a.2, i32 %n.3) #0 {
entry:
  %bid.4 = call i32 @llvm.amdgcn.workgroup.id.x()
  %t0 = call ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
  %t1 = getelementptr inbounds i8, ptr addrspace(4) %t0, i64 4
  %t2 = load i16, ptr addrspace(4) %t1, align 4
  %bdim.5 = zext i16 %t2 to i32
  %v6 = mul i32 %bid.4, %bdim.5
  %tid.7 = call i32 @llvm.amdgcn.workitem.id.x()
  %gid.8 = add i32 %v6, %tid.7
  %in_range.9 = icmp slt i32 %gid.8, %n.3
  br i1 %in_range.9, label %if0.then, label %if0.join
if0.then:
  %t3 = getelementptr inbounds float, ptr addrspace(1) %x.0, i32 %gid.8
  %xv.10 = load float, ptr addrspace(1) %t3, align 4
  %t4 = getelementptr inbounds float, ptr addrspace(1) %y.1, i32 %gid.8
  %yv.11 = load float, ptr addrspace(1) %t4, align 4
  %r.12 = call float @llvm.fma.f32(float %a.2, float %xv.10, float %yv.11)
  %t5 = getelementptr inbounds float, ptr addrspace(1) %y.1, i32 %gid.8
  store float %r.12, ptr addrspace(1) %t5, align 4
  br label %if0.join
if0.join:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
declare float @llvm.fma.f32(float, float, float)

attributes #0 = { "amdgpu-flat-work-group-size"="64,256" "target-cpu"="gfx942" }

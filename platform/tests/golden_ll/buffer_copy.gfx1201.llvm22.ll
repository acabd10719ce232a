target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @buffer_copy(ptr addrspace(1) captures(none) readonly align 16 %src.0, ptr addrspace(1) captures(none) writeonly align 16 %dst.1, ptr addrspace(4) captures(none) readonly %lut.2, ptr addrspace(1) captures(none) %scaled.3, i32 %nbytes.4) #0 {
entry:
  %bid.5 = call i32 @llvm.amdgcn.workgroup.id.x()
  %t0 = call ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
  %t1 = getelementptr inbounds i8, ptr addrspace(4) %t0, i64 4
  %t2 = load i16, ptr addrspace(4) %t1, align 4
  %bdim.6 = zext i16 %t2 to i32
  %v7 = mul i32 %bid.5, %bdim.6
  %tid.8 = call i32 @llvm.amdgcn.workitem.id.x()
  %gid.9 = add i32 %v7, %tid.8
  %t3 = zext i32 %nbytes.4 to i64
  %rsrc_in.10 = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1) %src.0, i16 0, i64 %t3, i32 822243328)
  %t4 = zext i32 %nbytes.4 to i64
  %rsrc_out.11 = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1) %dst.1, i16 0, i64 %t4, i32 822243328)
  %offset.13 = mul i32 %gid.9, 16
  %data.14 = call <4 x i32> @llvm.amdgcn.raw.ptr.buffer.load.v4i32(ptr addrspace(8) %rsrc_in.10, i32 %offset.13, i32 0, i32 0)
  call void @llvm.amdgcn.s.wait.loadcnt(i16 0)
  call void @llvm.amdgcn.raw.ptr.buffer.store.v4i32(<4 x i32> %data.14, ptr addrspace(8) %rsrc_out.11, i32 %offset.13, i32 0, i32 0)
  %lut1.16 = getelementptr inbounds float, ptr addrspace(4) %lut.2, i32 1
  %v18 = urem i32 %gid.9, 16
  %t5 = getelementptr inbounds float, ptr addrspace(4) %lut1.16, i32 %v18
  %entry.19 = load float, ptr addrspace(4) %t5, align 4
  %v21 = fmul float %entry.19, 0x4000000000000000
  %t6 = getelementptr inbounds float, ptr addrspace(1) %scaled.3, i32 %gid.9
  store float %v21, ptr addrspace(1) %t6, align 4
  call void @llvm.amdgcn.s.wait.dscnt(i16 0)
  call void @llvm.amdgcn.s.wait.kmcnt(i16 0)
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
declare void @llvm.amdgcn.s.wait.loadcnt(i16 immarg)
declare void @llvm.amdgcn.s.wait.dscnt(i16 immarg)
declare void @llvm.amdgcn.s.wait.kmcnt(i16 immarg)
declare ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1), i16, i64, i32)
declare <4 x i32> @llvm.amdgcn.raw.ptr.buffer.load.v4i32(ptr addrspace(8), i32, i32, i32 immarg)
declare void @llvm.amdgcn.raw.ptr.buffer.store.v4i32(<4 x i32>, ptr addrspace(8), i32, i32, i32 immarg)

attributes #0 = { "amdgpu-flat-work-group-size"="32,64" "target-cpu"="gfx1201" }

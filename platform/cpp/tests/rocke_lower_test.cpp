// ctest: the C++ lowerer on its own (no Python): the samples against the committed golden .ll
// files, small embedded kernels against the text the Python engine writes for them (constants,
// waitcnt encodings, shuffles, LDS), every refusal with its exact message and exception type,
// and the data tables behind the lowerer (flavors, intrinsics, arch domain).
// Python twin: platform/tests/test_lower_module.py and test_lower_golden.py (the expected texts
// below were written by rocke.lower.lower).
#include <fstream>
#include <sstream>
#include <string>
#include <unordered_map>

#include "check.hpp"
#include "rocke/arch/arch_domain.hpp"
#include "rocke/arch/errors.hpp"
#include "rocke/arch/flavors.hpp"
#include "rocke/arch/intrinsics.hpp"
#include "rocke/arch/target.hpp"
#include "rocke/ir/errors.hpp"
#include "rocke/ir/optable.hpp"
#include "rocke/ir/parser.hpp"
#include "rocke/ir/samples.hpp"
#include "rocke/lower/dispatch.hpp"
#include "rocke/lower/emitter.hpp"
#include "rocke/lower/lower.hpp"
#include "rocke/lower/names.hpp"
#include "rocke/lower/ops_arith.hpp"
#include "rocke/lower/ops_gpu.hpp"
#include "rocke/lower/ops_math.hpp"
#include "rocke/lower/ops_mem.hpp"
#include "rocke/lower/ops_mma.hpp"
#include "rocke/lower/ops_scf.hpp"
#include "rocke/lower/ops_sync.hpp"
#include "rocke/lower/ops_vec.hpp"
#include "rocke/lower/ops_xlane.hpp"
#include "rocke/util/strings.hpp"

namespace {

using rocke_test::check;
using rocke_test::check_eq;

struct Text {
  const char* name;
  const char* text;
};

// kind: "ll" (the .ll text), or the Python exception class of the refusal and its message.
struct Case {
  const char* name;
  const char* arch;
  const char* flavor;
  const char* kind;
  const char* expected;
};

const Text kTexts[] = {
    {"consts", R"IR(rocke.ir/1
kernel @consts {max_workgroup_size = 64 : i32, waves_per_eu = 0 : i32}
param %0 "p0" : ptr<f16, global> {align = 0 : i32, noalias = false : bool, readonly = false : bool, writeonly = false : bool}
param %1 "p1" : ptr<bf16, global> {align = 0 : i32, noalias = false : bool, readonly = false : bool, writeonly = false : bool}
param %2 "p2" : ptr<f32, global> {align = 0 : i32, noalias = false : bool, readonly = false : bool, writeonly = false : bool}
param %3 "p3" : ptr<f16, global> {align = 0 : i32, noalias = false : bool, readonly = false : bool, writeonly = false : bool}
param %4 "p4" : ptr<f16, global> {align = 0 : i32, noalias = false : bool, readonly = false : bool, writeonly = false : bool}
param %5 "p5" : ptr<i64, global> {align = 0 : i32, noalias = false : bool, readonly = false : bool, writeonly = false : bool}
param %6 "p6" : ptr<i8, global> {align = 0 : i32, noalias = false : bool, readonly = false : bool, writeonly = false : bool}
param %7 "p7" : ptr<f16, global> {align = 0 : i32, noalias = false : bool, readonly = false : bool, writeonly = false : bool}
param %8 "p8" : ptr<bf16, global> {align = 0 : i32, noalias = false : bool, readonly = false : bool, writeonly = false : bool}
param %9 "p9" : ptr<f32, global> {align = 0 : i32, noalias = false : bool, readonly = false : bool, writeonly = false : bool}
body {
  %10 : i32 = arith.constant {value = 0 : i32}
  %11 : f16 = arith.constant {value = 0x3FF8000000000000 : f16}
  mem.store %0, %10, %11 {align = 0 : i32}
  %12 : i32 = arith.constant {value = 0 : i32}
  %13 : bf16 = arith.constant {value = 0x8000000000000000 : bf16}
  mem.store %1, %12, %13 {align = 0 : i32}
  %14 : i32 = arith.constant {value = 0 : i32}
  %15 : f32 = arith.constant {value = 0x7FF0000000000000 : f32}
  mem.store %2, %14, %15 {align = 0 : i32}
  %16 : i32 = arith.constant {value = 0 : i32}
  %17 : f16 = arith.constant {value = 0x7FF8000000000000 : f16}
  mem.store %3, %16, %17 {align = 0 : i32}
  %18 : i32 = arith.constant {value = 0 : i32}
  %19 : f16 = arith.constant {value = 0x3E70000000000000 : f16}
  mem.store %4, %18, %19 {align = 0 : i32}
  %20 : i32 = arith.constant {value = 0 : i32}
  %21 : i64 = arith.constant {value = -1 : i64}
  mem.store %5, %20, %21 {align = 0 : i32}
  %22 : i32 = arith.constant {value = 0 : i32}
  %23 : i8 = arith.constant {value = -7 : i8}
  mem.store %6, %22, %23 {align = 0 : i32}
  %24 : i32 = arith.constant {value = 0 : i32}
  %25 : f16 = arith.constant {value = 0x40EFFC0000000000 : f16}
  mem.store %7, %24, %25 {align = 0 : i32}
  %26 : i32 = arith.constant {value = 0 : i32}
  %27 : bf16 = arith.constant {value = 0xFFF0000000000000 : bf16}
  mem.store %8, %26, %27 {align = 0 : i32}
  %28 : i32 = arith.constant {value = 0 : i32}
  %29 : f32 = arith.constant {value = 0x3FB99999A0000000 : f32}
  mem.store %9, %28, %29 {align = 0 : i32}
}
)IR"},
    {"waits", R"IR(rocke.ir/1
kernel @waits {max_workgroup_size = 64 : i32, waves_per_eu = 2 : i32}
body {
  sync.waitcnt {lgkmcnt = -1 : i32, vmcnt = 0 : i32}
  sync.waitcnt {lgkmcnt = 0 : i32, vmcnt = -1 : i32}
  sync.waitcnt {lgkmcnt = -1 : i32, vmcnt = -1 : i32}
  sync.waitcnt {lgkmcnt = 63 : i32, vmcnt = 63 : i32}
  sync.waitcnt {lgkmcnt = 40 : i32, vmcnt = 11 : i32}
}
)IR"},
    {"shuffle", R"IR(rocke.ir/1
kernel @shuffle {max_workgroup_size = 64 : i32, waves_per_eu = 0 : i32}
param %0 "p" : ptr<f32, global> {align = 0 : i32, noalias = false : bool, readonly = false : bool, writeonly = false : bool}
body {
  %1 : i32 = gpu.thread_id_x
  %2 : f32 = mem.load %0, %1 {align = 0 : i32, lanes = 1 : i32}
  %3 : f32 = xlane.shuffle_xor %2 {mask = 32 : i32}
  mem.store %0, %1, %3 {align = 0 : i32}
}
)IR"},
    {"big", R"IR(rocke.ir/1
kernel @big {max_workgroup_size = 64 : i32, waves_per_eu = 0 : i32}
body {
  %0 : ptr<f32, lds> = mem.lds_alloc {align = 16 : i32, count = 40960 : i32}
  %1 : i32 = gpu.thread_id_x
  %2 : f32 = arith.constant {value = 0x0000000000000000 : f32}
  mem.lds_store %0, %1, %2 {align = 0 : i32}
}
)IR"},
    {"buf", R"IR(rocke.ir/1
kernel @buf {max_workgroup_size = 64 : i32, waves_per_eu = 0 : i32}
param %0 "src" : ptr<i32, global> {align = 0 : i32, noalias = false : bool, readonly = false : bool, writeonly = false : bool}
body {
  %1 : i32 = arith.constant {value = 64 : i32}
  %2 : rsrc = mem.make_rsrc %0, %1
  %3 : i32 = arith.constant {value = 0 : i32}
  %4 : vec<f16x3> = mem.buffer_load %2, %3
}
)IR"},
};
const Case kCases[] = {
    {"consts", "gfx1201", "llvm20", "ll", R"LL(target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @consts(ptr addrspace(1) nocapture %p0.0, ptr addrspace(1) nocapture %p1.1, ptr addrspace(1) nocapture %p2.2, ptr addrspace(1) nocapture %p3.3, ptr addrspace(1) nocapture %p4.4, ptr addrspace(1) nocapture %p5.5, ptr addrspace(1) nocapture %p6.6, ptr addrspace(1) nocapture %p7.7, ptr addrspace(1) nocapture %p8.8, ptr addrspace(1) nocapture %p9.9) #0 {
entry:
  %t0 = getelementptr inbounds half, ptr addrspace(1) %p0.0, i32 0
  store half 0xH3E00, ptr addrspace(1) %t0, align 2
  %t1 = getelementptr inbounds bfloat, ptr addrspace(1) %p1.1, i32 0
  store bfloat 0xR8000, ptr addrspace(1) %t1, align 2
  %t2 = getelementptr inbounds float, ptr addrspace(1) %p2.2, i32 0
  store float 0x7FF0000000000000, ptr addrspace(1) %t2, align 4
  %t3 = getelementptr inbounds half, ptr addrspace(1) %p3.3, i32 0
  store half 0xH7E00, ptr addrspace(1) %t3, align 2
  %t4 = getelementptr inbounds half, ptr addrspace(1) %p4.4, i32 0
  store half 0xH0001, ptr addrspace(1) %t4, align 2
  %t5 = getelementptr inbounds i64, ptr addrspace(1) %p5.5, i32 0
  store i64 -1, ptr addrspace(1) %t5, align 8
  %t6 = getelementptr inbounds i8, ptr addrspace(1) %p6.6, i32 0
  store i8 -7, ptr addrspace(1) %t6, align 1
  %t7 = getelementptr inbounds half, ptr addrspace(1) %p7.7, i32 0
  store half 0xH7BFF, ptr addrspace(1) %t7, align 2
  %t8 = getelementptr inbounds bfloat, ptr addrspace(1) %p8.8, i32 0
  store bfloat 0xRFF80, ptr addrspace(1) %t8, align 2
  %t9 = getelementptr inbounds float, ptr addrspace(1) %p9.9, i32 0
  store float 0x3FB99999A0000000, ptr addrspace(1) %t9, align 4
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="32,64" "target-cpu"="gfx1201" }
)LL"},
    {"waits", "gfx942", "llvm22", "ll", R"LL(target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @waits() #0 {
entry:
  call void @llvm.amdgcn.s.waitcnt(i32 3952)
  call void @llvm.amdgcn.s.waitcnt(i32 49279)
  call void @llvm.amdgcn.s.waitcnt(i32 53119)
  call void @llvm.amdgcn.s.waitcnt(i32 3963)
  ret void
}

declare void @llvm.amdgcn.s.waitcnt(i32 immarg)

attributes #0 = { "amdgpu-flat-work-group-size"="64,64" "amdgpu-waves-per-eu"="2" "target-cpu"="gfx942" }
)LL"},
    {"waits", "gfx1201", "llvm22", "ll", R"LL(target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @waits() #0 {
entry:
  call void @llvm.amdgcn.s.wait.loadcnt(i16 0)
  call void @llvm.amdgcn.s.wait.dscnt(i16 0)
  call void @llvm.amdgcn.s.wait.kmcnt(i16 0)
  call void @llvm.amdgcn.s.wait.loadcnt(i16 63)
  call void @llvm.amdgcn.s.wait.dscnt(i16 63)
  call void @llvm.amdgcn.s.wait.kmcnt(i16 31)
  call void @llvm.amdgcn.s.wait.loadcnt(i16 11)
  call void @llvm.amdgcn.s.wait.dscnt(i16 40)
  call void @llvm.amdgcn.s.wait.kmcnt(i16 31)
  ret void
}

declare void @llvm.amdgcn.s.wait.loadcnt(i16 immarg)
declare void @llvm.amdgcn.s.wait.dscnt(i16 immarg)
declare void @llvm.amdgcn.s.wait.kmcnt(i16 immarg)

attributes #0 = { "amdgpu-flat-work-group-size"="32,64" "amdgpu-waves-per-eu"="2" "target-cpu"="gfx1201" }
)LL"},
    {"shuffle", "gfx942", "llvm22", "ll", R"LL(target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @shuffle(ptr addrspace(1) captures(none) %p.0) #0 {
entry:
  %v1 = call i32 @llvm.amdgcn.workitem.id.x()
  %t0 = getelementptr inbounds float, ptr addrspace(1) %p.0, i32 %v1
  %v2 = load float, ptr addrspace(1) %t0, align 4
  %t1 = bitcast float %v2 to i32
  %t2 = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %t3 = call i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %t2)
  %t4 = xor i32 %t3, 32
  %t5 = shl i32 %t4, 2
  %t6 = call i32 @llvm.amdgcn.ds.bpermute(i32 %t5, i32 %t1)
  %v3 = bitcast i32 %t6 to float
  %t7 = getelementptr inbounds float, ptr addrspace(1) %p.0, i32 %v1
  store float %v3, ptr addrspace(1) %t7, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32)
declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32)
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32)

attributes #0 = { "amdgpu-flat-work-group-size"="64,64" "target-cpu"="gfx942" }
)LL"},
    {"shuffle", "gfx1100", "llvm22", "LowerError", R"LL(xlane.shuffle_xor %3 at body[2]: mask 32 is not below the wave size 32 of gfx1100)LL"},
    {"big", "gfx942", "llvm22", "LowerError", R"LL(kernel @big: allocates 163840 bytes of LDS; gfx942 allows 65536 per workgroup)LL"},
    {"big", "gfx950", "llvm20", "ll", R"LL(target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@rocke.lds = internal addrspace(3) global [163840 x i8] poison, align 16

define amdgpu_kernel void @big() #0 {
entry:
  %v0 = getelementptr inbounds i8, ptr addrspace(3) @rocke.lds, i32 0
  %v1 = call i32 @llvm.amdgcn.workitem.id.x()
  %t0 = getelementptr inbounds float, ptr addrspace(3) %v0, i32 %v1
  store float 0x0000000000000000, ptr addrspace(3) %t0, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()

attributes #0 = { "amdgpu-flat-work-group-size"="64,64" "target-cpu"="gfx950" }
)LL"},
    {"buf", "gfx942", "llvm20", "LowerError", R"LL(mem.buffer_load %4 at body[3]: a buffer access of vec<f16x3> moves 6 bytes; raw buffer accesses move 1, 2, 4, 8, 12 or 16 bytes)LL"},
    {"consts", "gfx90a", "llvm22", "UnknownArchError", R"LL(unknown arch 'gfx90a'; known: gfx942, gfx950, gfx1100, gfx1201, sm_90)LL"},
    {"consts", "gfx90a", "llvm99", "ValueError", R"LL(unknown flavor 'llvm99'; known flavors: llvm20, llvm22)LL"},
};

std::string text_of(const char* name) {
  for (const Text& t : kTexts) {
    if (std::string(t.name) == name) return t.text;
  }
  return "";
}

// The outcome of lowering, as (kind, text): "ll" and the text, or the exception class and message.
std::pair<std::string, std::string> outcome(const rocke::ir::KernelDef& kernel, const std::string& arch,
                                            const std::string& flavor) {
  try {
    return {"ll", rocke::lower::lower(kernel, arch, flavor)};
  } catch (const rocke::LowerError& e) {
    return {"LowerError", e.what()};
  } catch (const rocke::VerifyError& e) {
    return {"VerifyError", e.what()};
  } catch (const rocke::arch::UnknownArchError& e) {
    return {"UnknownArchError", e.what()};
  } catch (const rocke::ValueError& e) {
    return {"ValueError", e.what()};
  }
}

void check_cases() {
  for (const Case& c : kCases) {
    rocke::ir::KernelDef kernel = rocke::ir::parse_kernel(text_of(c.name));
    auto [kind, text] = outcome(kernel, c.arch, c.flavor);
    std::string label = std::string(c.name) + " on " + c.arch + " " + c.flavor;
    check_eq(kind, c.kind, label + ": outcome kind");
    check_eq(text, c.expected, label + ": text");
  }
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream data;
  data << in.rdbuf();
  return data.str();
}

// platform/tests/golden_ll/<kernel>.<arch>.<flavor>.ll, from the C++ Builder twins of the samples.
void check_goldens() {
  const std::pair<const char*, const char*> goldens[] = {
      {"axpy", "gfx942"}, {"block_reduce", "gfx1100"}, {"buffer_copy", "gfx1201"}, {"gemm_mfma", "gfx950"}};
  for (auto& [name, kernel] : rocke::ir::samples::sample_kernels()) {
    for (const auto& [golden, arch] : goldens) {
      if (name != golden) continue;
      for (const char* flavor : {"llvm20", "llvm22"}) {
        std::string path = std::string("tests/golden_ll/") + golden + "." + arch + "." + flavor + ".ll";
        std::string expected = read_file(path);
        check(!expected.empty(), path + " is readable (ctest runs in platform/)");
        check_eq(rocke::lower::lower(kernel, arch, flavor), expected, path);
      }
    }
  }
}

// Every sample lowers the same way twice on every arch where it verifies (no hidden state).
void check_determinism() {
  int lowered = 0;
  for (auto& [name, kernel] : rocke::ir::samples::sample_kernels()) {
    for (const std::string& arch : rocke::arch::arch_names()) {
      for (const char* flavor : {"llvm20", "llvm22"}) {
        auto first = outcome(kernel, arch, flavor);
        auto second = outcome(kernel, arch, flavor);
        check(first == second, name + " on " + arch + " " + flavor + " is deterministic");
        if (first.first == "ll") ++lowered;
        else check_eq(first.first, "VerifyError", name + " on " + arch + " is refused by the verifier only");
      }
    }
  }
  check(lowered >= 40, "most samples lower on most archs: " + std::to_string(lowered));
}

void check_refusal_types() {
  rocke::ir::KernelDef kernel = rocke::ir::parse_kernel(text_of("big"));
  try {
    rocke::lower::lower(kernel, "gfx942", "llvm22");
    check(false, "too much LDS is refused");
  } catch (const rocke::ValueError& e) {  // LowerError is a ValueError, as in Python
    const auto* lower_error = dynamic_cast<const rocke::LowerError*>(&e);
    check(lower_error != nullptr, "the refusal is a LowerError");
    if (lower_error != nullptr) {
      check_eq(lower_error->where(), "kernel @big", "LowerError.where");
      check_eq(lower_error->detail(), "allocates 163840 bytes of LDS; gfx942 allows 65536 per workgroup",
               "LowerError.what");
    }
  }
  rocke_test::check_throws<rocke::KeyError>([&] { rocke::lower::lower(kernel, "gfx90a", "llvm22"); },
                                            "unknown arch 'gfx90a'; known: gfx942, gfx950, gfx1100, gfx1201, sm_90",
                                            "an unknown arch is a KeyError too (UnknownArchError)");
  rocke_test::check_throws<rocke::ValueError>([&] { rocke::lower::lower(kernel, "gfx90a", "llvm21"); },
                                              "unknown flavor 'llvm21'; known flavors: llvm20, llvm22",
                                              "the flavor is checked before the arch");
  for (auto& [name, sample] : rocke::ir::samples::sample_kernels()) {
    if (name != "gemm_mfma") continue;
    rocke_test::check_throws<rocke::VerifyError>(
        [&] { rocke::lower::lower(sample, "gfx1100", "llvm22"); },
        "[arch] mma.mma %23 at body[9].body[7]: op_id 'mfma_f32_16x16x16_f16' is not available on gfx1100",
        "the verifier runs with the arch");
  }
}

// The arch-domain check of FunctionEmitter::declare (the real table never lets a verified kernel
// reach it: the verifier and the waitcnt model keep ops on their archs).
void check_arch_domain() {
  check(rocke::arch::arch_domain_status("llvm.amdgcn.s.wait.loadcnt", "gfx942", "llvm22") == "arch-absent",
        "s.wait.loadcnt is absent on gfx942");
  check(rocke::arch::arch_domain_status("llvm.amdgcn.s.wait.loadcnt", "gfx1201", "llvm20") == "ok",
        "s.wait.loadcnt is there on gfx1201");
  check(rocke::arch::arch_domain_status("llvm.fma.bf16", "gfx1100", "llvm22") == "ok", "overloads per element");
  check(!rocke::arch::arch_domain_status("llvm.made.up", "gfx942", "llvm22").has_value(), "no entry");
  check(!rocke::arch::arch_domain_status("llvm.fma.f32", "gfx90a", "llvm22").has_value(), "unknown arch");
  check(!rocke::arch::arch_domain_status("llvm.fma.f32", "gfx942", "llvm99").has_value(), "unknown flavor");

  std::unordered_map<std::int64_t, std::int64_t> no_lds;
  rocke::lower::FunctionEmitter em(rocke::arch::get_arch("gfx942"), rocke::arch::get_flavor("llvm22"), no_lds,
                                      &rocke::lower::lower_op);
  rocke_test::check_throws<rocke::LowerError>(
      [&] { em.declare(rocke::arch::intrinsic_def("llvm.amdgcn.s.wait.loadcnt")); },
      "kernel: intrinsic 'llvm.amdgcn.s.wait.loadcnt' is outside the arch domain of gfx942 under flavor llvm22 "
      "(arch-absent: LLVM cannot select it there)",
      "declare refuses an intrinsic outside the arch domain");
  check(em.decls.empty(), "a refused declaration is not recorded");
  em.declare(rocke::arch::intrinsic_def("llvm.fma.{M}"), "f16", 4);
  check(em.declared_named("llvm.fma.v4f16") != nullptr, "a vector instantiation is checked by its element's entry");
}

void check_tables() {
  check_eq(rocke::util::join(rocke::arch::flavor_names(), ","), "llvm20,llvm22", "flavor names");
  check_eq(rocke::arch::get_flavor("llvm22").nocapture, "captures(none)", "llvm22 nocapture");
  check_eq(rocke::arch::get_target("amdgcn").triple, "amdgcn-amd-amdhsa", "triple");
  const auto& rsrc = rocke::arch::intrinsic_def("llvm.amdgcn.make.buffer.rsrc.p8.p1");
  check_eq(rocke::arch::instantiate(rsrc, "llvm20").text(),
           "declare ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1), i16, i32, i32)",
           "llvm20 overrides the record count");
  check_eq(rocke::arch::instantiate(rsrc, "llvm22").text(),
           "declare ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1), i16, i64, i32)",
           "llvm22 takes the row");
  rocke::arch::IntrinsicDecl fma = rocke::arch::instantiate(rocke::arch::intrinsic_def("llvm.fma.{M}"), "llvm22",
                                                            "bf16", 2);
  check_eq(fma.text(), "declare <2 x bfloat> @llvm.fma.v2bf16(<2 x bfloat>, <2 x bfloat>, <2 x bfloat>)", "overload");
  check_eq(fma.domain_key, "llvm.fma.bf16", "the domain key is the scalar's");
  rocke_test::check_throws<rocke::ValueError>(
      [] { rocke::arch::instantiate(rocke::arch::intrinsic_def("llvm.fma.{M}"), "llvm22", "i32"); },
      "intrinsic 'llvm.fma.{M}' is not defined for element type 'i32'", "overload classes");
  rocke_test::check_throws<rocke::ValueError>([] { rocke::arch::intrinsic_def("llvm.nope"); },
                                              "unknown intrinsic 'llvm.nope'", "unknown intrinsic");
  const auto& swizzle = rocke::arch::intrinsic_def("llvm.amdgcn.ds.swizzle");
  check_eq(rocke::util::join(rocke::arch::instantiate(swizzle, "llvm22").arg_types(), ","), "i32,i32",
           "immarg is not part of a call's argument types");
  const auto& rows = rocke::arch::intrinsics();
  check(!rows.empty() && !rows.back().mma_op_id.empty(), "the table ends with the MMA catalog");
  check_eq(rocke::arch::waitcnt_encoding("split_counters").form, "split", "waitcnt encodings");
  check_eq(rocke::lower::sanitize_hint("a-b\xc3\xa9.c"), "a_b_.c", "a UTF-8 character becomes one '_'");
}

// One ops_<dialect> file per dialect (as in Python and the simulator), and merging their tables
// refuses an opcode listed twice instead of keeping one.
void check_dispatch() {
  namespace lw = rocke::lower;
  const std::pair<std::string, const lw::Lowerings*> files[] = {
      {"arith", &lw::ops_arith::lowerings()}, {"math", &lw::ops_math::lowerings()},
      {"gpu", &lw::ops_gpu::lowerings()},     {"mem", &lw::ops_mem::lowerings()},
      {"mem", &lw::ops_mem::shared_lowerings()}, {"xlane", &lw::ops_xlane::lowerings()},
      {"sync", &lw::ops_sync::lowerings()},   {"sync", &lw::ops_sync::shared_lowerings()},
      {"mma", &lw::ops_mma::lowerings()},     {"vec", &lw::ops_vec::lowerings()},
      {"scf", &lw::ops_scf::lowerings()}};
  std::size_t count = 0;
  for (const auto& [dialect, table] : files) {
    check(!table->empty(), dialect + " lowers something");
    for (const auto& [opcode, lowering] : *table) {
      check_eq(opcode.substr(0, opcode.find('.')), dialect, opcode + " is lowered in ops_" + dialect);
    }
    count += table->size();
  }
  std::size_t ops = 0;
  for (const rocke::ir::OpDef& op : rocke::ir::ops()) ops += op.name != "scf.yield";
  check(count == ops, "every op but scf.yield has one lowering");
  lw::Lowerings first{{"a.x", nullptr}};
  lw::Lowerings second{{"a.y", nullptr}, {"a.x", nullptr}};
  lw::Lowerings third{{"a.z", nullptr}};
  check(lw::merge_lowerings({&first, &third}).size() == 2, "distinct tables merge");
  rocke_test::check_throws<rocke::ValueError>([&] { lw::merge_lowerings({&first, &second}); },
                                              "two lowerings for 'a.x'", "a duplicate op");
  lw::Lowerings bitcast{{"vec.bitcast", nullptr}};
  rocke_test::check_throws<rocke::ValueError>(
      [&] { lw::merge_lowerings({&lw::ops_arith::lowerings(), &bitcast, &lw::ops_vec::lowerings()}); },
      "two lowerings for 'vec.bitcast'", "a duplicate of a real op");
}

}  // namespace

int main() {
  check_cases();
  check_goldens();
  check_determinism();
  check_refusal_types();
  check_arch_domain();
  check_tables();
  check_dispatch();
  return rocke_test::finish("rocke_lower_test");
}

// rocKE C++ engine: lowering of scf.for and scf.if into basic blocks with phis.
// Python twin: rocke/lower/ops_scf.py
//
// scf.for (K = the scf op's number in program order):
//
//       br label %forK.header
//     forK.header:                      ; iv and iter values: phis from the entering block and the latch
//       %iv = phi [lb, %PRE], [%next, %forK.latch]  ...
//       %cond = icmp slt iv, ub
//       br i1 %cond, label %forK.body, label %forK.exit
//     forK.body:   <body ops>           br label %forK.latch
//     forK.latch:  %next = add iv, step  br label %forK.header
//     forK.exit:   <one phi per result, from the header>
//
// scf.if:  br i1 %c, label %ifK.then, label %ifK.else (or %ifK.join when the else region is only a
// bare scf.yield and the op has no results); each region's block(s) end with br label %ifK.join;
// ifK.join starts with one phi per result naming the block each region ended in.
#pragma once

#include "rocke/lower/dispatch.hpp"

namespace rocke::lower::ops_scf {

const Lowerings& lowerings();

}  // namespace rocke::lower::ops_scf

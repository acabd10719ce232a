// Python twin: rocke/families/elementwise/builder.py
#include "rocke/families/elementwise/builder.hpp"

#include <vector>

#include "rocke/helpers.hpp"
#include "rocke/ir/verifier.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::families::elementwise {

using ir::Builder;
using ir::KernelDef;
using ir::Type;
using ir::Value;
using ir::Values;
using namespace rocke::helpers;

void check_arch(const ElementwiseSpec& spec, const arch::ArchTarget& target) {
  check_wave_multiple(spec, "block", spec.block, target);
}

Value* apply_op(Builder& b, std::string_view op, const Values& args, std::int64_t lanes) {
  Value* x = args[0];
  if (op == "add") return b.add(x, args[1], "r");
  if (op == "sub") return b.sub(x, args[1], "r");
  if (op == "mul") return b.mul(x, args[1], "r");
  if (op == "max") return b.maxf(x, args[1], "r");
  if (op == "relu") return relu(b, x, lanes, "r");
  if (op == "silu") return silu(b, x, lanes, "r");
  return gelu_tanh(b, x, lanes, "r");
}

KernelDef build(const ElementwiseSpec& spec, std::string_view arch) {
  const arch::ArchTarget& target = arch::get_arch(arch);
  check_arch(spec, target);
  Type elem = ir_type(spec.dtype);
  std::int64_t esize = elem_bytes(spec.dtype);
  std::int64_t lanes = spec.vec;
  Builder b(spec.kernel_name(), {.max_workgroup_size = spec.block});
  std::vector<std::string> names = spec.inputs();
  Values inputs;
  for (const std::string& name : names) {
    inputs.push_back(b.param(name, ir::ptr(elem, "global"), {.noalias = true, .readonly = true}));
  }
  Value* out = b.param("out", ir::ptr(elem, "global"), {.noalias = true, .writeonly = true});
  Value* n = b.param("n", ir::i32);

  Value* gid = global_id_x(b, spec.block);
  Value* first = mul_i32(b, gid, lanes, "first");
  Value* valid = b.sub(n, first, "valid");  // elements of this thread's vector inside 0..n-1
  Values args;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string& name = names[i];
    Value* rsrc = buffer_rsrc(b, inputs[i], n, esize, util::cat(name, "_rsrc"));
    Value* raw = load_guarded(b, rsrc, first, valid, elem, lanes, name);
    args.push_back(to_f32(b, raw, elem, lanes, util::cat(name, "_f32")));
  }
  Value* result = from_f32(b, apply_op(b, spec.op, args, lanes), elem, lanes, "out_value");
  Value* out_rsrc = buffer_rsrc(b, out, n, esize, "out_rsrc");
  store_guarded(b, out_rsrc, first, valid, result, elem, lanes);
  KernelDef kernel = b.finish();
  ir::verify(kernel, &target);
  return kernel;
}

KernelDef build_kv(std::string_view kv, std::string_view arch) {
  ElementwiseSpec spec = ElementwiseSpec::from_kv(kv);
  return build(spec, arch);
}

}  // namespace rocke::families::elementwise

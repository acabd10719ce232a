// rocKE C++ engine: the Builder writes KernelDefs with typed helpers, one per op of ops.toml.
// Python twin: rocke/ir/builder.py (same helper names, same argument order, same name hints,
// same error messages).
//
// Host-time decisions are plain C++ (if/for unroll at build time); device-time control flow
// uses callbacks, as in Python:
//
//     Builder b("axpy", {.max_workgroup_size = 256});
//     Value* x = b.param("x", ptr(f32, "global"), {.noalias = true, .readonly = true});
//     Value* n = b.param("n", i32);
//     Value* tid = b.thread_id_x("tid");
//     auto body = [&](Value* i, Value* acc) { return Values{b.add(acc, b.sitofp(i, f32))}; };
//     Value* total = b.for_(b.const_(0, i32), n, b.const_(1, i32), {b.const_(0.0, f32)}, body,
//                           {.names = Names{"acc"}})[0];
//     b.if_(b.cmpi("slt", tid, n), [&] { b.store(x, tid, total); });
//     KernelDef kernel = b.finish();
//
// Python keyword arguments become option structs with designated initializers, in the order
// the Python signature lists them. Every value-producing helper takes a name hint last (or in
// its option struct). Callbacks return a Value*, Values or nothing; scf.for bodies take
// (iv, const Values& iters) or (iv, iter0, iter1, ...).
#pragma once

#include <concepts>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "rocke/errors.hpp"
#include "rocke/ir/core.hpp"
#include "rocke/ir/scope.hpp"

namespace rocke::ir {

using Names = std::vector<Hint>;

struct KernelOpts {
  std::optional<std::int64_t> max_workgroup_size = std::nullopt;
  std::optional<std::int64_t> waves_per_eu = std::nullopt;
};

struct ParamOpts {
  std::optional<std::int64_t> align = std::nullopt;
  std::optional<bool> noalias = std::nullopt;
  std::optional<bool> readonly = std::nullopt;
  std::optional<bool> writeonly = std::nullopt;
};

struct LoadOpts {
  std::optional<std::int64_t> lanes = std::nullopt;
  std::optional<std::int64_t> align = std::nullopt;
  Hint name = std::nullopt;
};

struct StoreOpts {
  std::optional<std::int64_t> align = std::nullopt;
};

struct LdsAllocOpts {
  std::optional<std::int64_t> align = std::nullopt;
  Hint name = std::nullopt;
};

struct WaitcntOpts {
  std::optional<std::int64_t> vmcnt = std::nullopt;
  std::optional<std::int64_t> lgkmcnt = std::nullopt;
};

struct ForOpts {
  std::optional<Names> names = std::nullopt;  // hint both the iter region arguments and the results
  Hint iv_name = std::nullopt;
};

struct IfOpts {
  std::optional<Names> names = std::nullopt;
};

namespace detail {

inline Values to_values(Value* value) { return value == nullptr ? Values{} : Values{value}; }
inline Values to_values(Values values) { return values; }
inline Values to_values(std::nullptr_t) { return {}; }

// Call fn and turn what it returns (nothing, a Value* or Values) into Values.
template <class Fn, class... Args>
Values call_yielding(Fn& fn, Args&&... args) {
  using R = std::invoke_result_t<Fn&, Args...>;
  if constexpr (std::is_void_v<R>) {
    std::invoke(fn, std::forward<Args>(args)...);
    return {};
  } else {
    return to_values(std::invoke(fn, std::forward<Args>(args)...));
  }
}

}  // namespace detail

// While alive, Builder::finish(true) on this thread does not verify the kernel; it counts the
// kernels left unverified instead, and the owner of the scope verifies them (or, on any failure,
// builds again without the scope, so the first error is the one finish would raise). This lets
// one-pass emitters (gates::emit_family) verify a kernel once, for its arch, instead of once in
// finish and again in every lower(); the checks and their order are those of verify().
class DeferFinishVerify : public ThreadScope<DeferFinishVerify> {
 public:
  // Kernels finish() returned unverified while this scope was the innermost one.
  std::int64_t deferred() const { return deferred_; }

 private:
  friend class Builder;
  std::int64_t deferred_ = 0;
};

// Builds one KernelDef.
class Builder {
 public:
  explicit Builder(std::string name, KernelOpts opts = {});
  Builder(const Builder&) = delete;
  Builder& operator=(const Builder&) = delete;

  // ------------------------------------------------------------------ kernel interface
  // Declare the next kernel parameter (all params come before the first op).
  Value* param(const std::string& name, Type type, ParamOpts opts = {});
  // Generic form of every helper (ops without regions). Missing attributes take table defaults.
  Values emit(std::string_view opcode, const Values& operands = {}, const AttrMap& attrs = {},
              const std::optional<std::vector<Type>>& result_types = std::nullopt,
              const std::optional<Names>& names = std::nullopt);
  // Number values in text order (canonical ids), optionally verify, and return the kernel.
  // While a DeferFinishVerify is alive on this thread, finish(true) leaves the verification to it.
  KernelDef finish(bool verify = true);

  // ------------------------------------------------------------------ device control flow
  // scf.for: body(iv, iters) returns the next iter values; returns the final ones.
  template <class Body>
  Values for_(Value* lb, Value* ub, Value* step, const Values& init, Body&& body, ForOpts opts = {}) {
    return for_impl(lb, ub, step, init, make_body(body, init.size()), std::move(opts));
  }

  // scf.if: then() and else_() return the values each branch yields; returns the results.
  template <class Then>
  Values if_(Value* cond, Then&& then, IfOpts opts = {}) {
    return if_impl(cond, [&] { return detail::call_yielding(then); }, nullptr, std::move(opts));
  }
  template <class Then, class Else>
  Values if_(Value* cond, Then&& then, Else&& else_, IfOpts opts = {}) {
    if constexpr (std::is_null_pointer_v<std::decay_t<Else>>) {
      return if_impl(cond, [&] { return detail::call_yielding(then); }, nullptr, std::move(opts));
    } else {
      return if_impl(cond, [&] { return detail::call_yielding(then); }, [&] { return detail::call_yielding(else_); },
                     std::move(opts));
    }
  }

  // ------------------------------------------------------------------ arith
  // arith.constant; ints wrap to the signed form, floats round to nearest even in type.
  template <class T>
    requires std::is_arithmetic_v<T>
  Value* const_(T value, Type type, Hint name = {}) {
    if constexpr (std::is_floating_point_v<T>) {
      return constant(normalize_num(static_cast<double>(value), type), type, std::move(name));
    } else {
      return constant(normalize_num(static_cast<__int128>(value), type), type, std::move(name));
    }
  }

  Value* add(Value* lhs, Value* rhs, Hint name = {});
  Value* sub(Value* lhs, Value* rhs, Hint name = {});
  Value* mul(Value* lhs, Value* rhs, Hint name = {});
  Value* divf(Value* lhs, Value* rhs, Hint name = {});
  Value* remf(Value* lhs, Value* rhs, Hint name = {});
  Value* divs(Value* lhs, Value* rhs, Hint name = {});
  Value* divu(Value* lhs, Value* rhs, Hint name = {});
  Value* rems(Value* lhs, Value* rhs, Hint name = {});
  Value* remu(Value* lhs, Value* rhs, Hint name = {});
  Value* and_(Value* lhs, Value* rhs, Hint name = {});
  Value* or_(Value* lhs, Value* rhs, Hint name = {});
  Value* xor_(Value* lhs, Value* rhs, Hint name = {});
  Value* shl(Value* lhs, Value* rhs, Hint name = {});
  Value* shrs(Value* lhs, Value* rhs, Hint name = {});
  Value* shru(Value* lhs, Value* rhs, Hint name = {});
  Value* negf(Value* x, Hint name = {});
  Value* minf(Value* lhs, Value* rhs, Hint name = {});
  Value* maxf(Value* lhs, Value* rhs, Hint name = {});
  Value* mins(Value* lhs, Value* rhs, Hint name = {});
  Value* maxs(Value* lhs, Value* rhs, Hint name = {});
  Value* minu(Value* lhs, Value* rhs, Hint name = {});
  Value* maxu(Value* lhs, Value* rhs, Hint name = {});
  Value* fma(Value* a, Value* b, Value* c, Hint name = {});
  Value* cmpi(const std::string& pred, Value* lhs, Value* rhs, Hint name = {});
  Value* cmpf(const std::string& pred, Value* lhs, Value* rhs, Hint name = {});
  Value* select(Value* cond, Value* a, Value* b, Hint name = {});
  Value* extf(Value* x, Type type, Hint name = {});
  Value* truncf(Value* x, Type type, Hint name = {});
  Value* sitofp(Value* x, Type type, Hint name = {});
  Value* uitofp(Value* x, Type type, Hint name = {});
  Value* fptosi(Value* x, Type type, Hint name = {});
  Value* fptoui(Value* x, Type type, Hint name = {});
  Value* exts(Value* x, Type type, Hint name = {});
  Value* extu(Value* x, Type type, Hint name = {});
  Value* trunc(Value* x, Type type, Hint name = {});

  // ------------------------------------------------------------------ math
  Value* exp2(Value* x, Hint name = {});
  Value* log2(Value* x, Hint name = {});
  Value* rcp(Value* x, Hint name = {});
  Value* sqrt(Value* x, Hint name = {});
  Value* rsqrt(Value* x, Hint name = {});

  // ------------------------------------------------------------------ gpu
  Value* thread_id_x(Hint name = {});
  Value* thread_id_y(Hint name = {});
  Value* thread_id_z(Hint name = {});
  Value* block_id_x(Hint name = {});
  Value* block_id_y(Hint name = {});
  Value* block_id_z(Hint name = {});
  Value* block_dim_x(Hint name = {});
  Value* block_dim_y(Hint name = {});
  Value* block_dim_z(Hint name = {});
  Value* lane_id(Hint name = {});
  Value* wave_id(Hint name = {});
  Value* wave_size(Hint name = {});

  // ------------------------------------------------------------------ mem
  Value* load(Value* ptr, Value* index, LoadOpts opts = {});
  void store(Value* ptr, Value* index, Value* value, StoreOpts opts = {});
  Value* ptr_add(Value* ptr, Value* index, Hint name = {});
  Value* make_rsrc(Value* base, Value* num_records, Hint name = {});
  Value* buffer_load(Value* rsrc, Value* offset, Type type, Hint name = {});
  void buffer_store(Value* rsrc, Value* offset, Value* value);
  // LDS allocation of count pointees; returns ptr<pointee, lds>.
  Value* lds_alloc(Type pointee, std::int64_t count, LdsAllocOpts opts = {});
  Value* lds_load(Value* ptr, Value* index, LoadOpts opts = {});
  void lds_store(Value* ptr, Value* index, Value* value, StoreOpts opts = {});
  void atomic_add_f32(Value* ptr, Value* index, Value* value);

  // ------------------------------------------------------------------ xlane
  Value* ds_swizzle(Value* x, std::int64_t pattern, Hint name = {});
  Value* ds_bpermute(Value* addr, Value* x, Hint name = {});
  Value* readfirstlane(Value* x, Hint name = {});
  Value* shuffle_xor(Value* x, std::int64_t mask, Hint name = {});

  // ------------------------------------------------------------------ sync
  void barrier();
  void wave_lds_fence();
  void waitcnt(WaitcntOpts opts = {});

  // ------------------------------------------------------------------ mma
  // D = A * B + C with catalog op op_id; the arch check happens in verify(kernel, arch).
  Value* mma(const std::string& op_id, Value* a, Value* b, Value* c, Hint name = {});

  // ------------------------------------------------------------------ vec
  Value* extract(Value* v, std::int64_t index, Hint name = {});
  Value* insert(Value* v, Value* x, std::int64_t index, Hint name = {});
  Value* splat(Value* x, std::int64_t lanes, Hint name = {});
  Value* bitcast(Value* x, Type type, Hint name = {});

 private:
  using Callback = std::function<Values()>;
  using BodyCallback = std::function<Values(Value*, const Values&)>;

  template <class Body>
  static BodyCallback make_body(Body& body, std::size_t iters) {
    if constexpr (std::is_invocable_v<Body&, Value*, const Values&>) {
      (void)iters;
      return [&body](Value* iv, const Values& args) { return detail::call_yielding(body, iv, args); };
    } else {
      return [&body, iters](Value* iv, const Values& args) -> Values {
        if constexpr (std::is_invocable_v<Body&, Value*>) {
          if (iters == 0) return detail::call_yielding(body, iv);
        }
        if constexpr (std::is_invocable_v<Body&, Value*, Value*>) {
          if (iters == 1) return detail::call_yielding(body, iv, args[0]);
        }
        if constexpr (std::is_invocable_v<Body&, Value*, Value*, Value*>) {
          if (iters == 2) return detail::call_yielding(body, iv, args[0], args[1]);
        }
        if constexpr (std::is_invocable_v<Body&, Value*, Value*, Value*, Value*>) {
          if (iters == 3) return detail::call_yielding(body, iv, args[0], args[1], args[2]);
        }
        throw TypeError("scf.for: the body callback does not take the induction variable and " +
                        std::to_string(iters) + " iter values");
      };
    }
  }

  Values for_impl(Value* lb, Value* ub, Value* step, const Values& init, const BodyCallback& body, ForOpts opts);
  Values if_impl(Value* cond, const Callback& then, const Callback& else_, IfOpts opts);
  Values region(Region* region, const std::function<Values()>& callback, const char* opname, const char* what);

  Value* new_value(Type ty, const Hint& name);
  void live() const;
  static void types(const OpDef& opdef, std::span<Value* const> operands, std::vector<Type>& out);
  static std::vector<Type> types(const OpDef& opdef, std::span<Value* const> operands);
  AttrMap attrs(const OpDef& opdef, AttrMap given) const;
  // Checks and appends one op (operands and attributes move into it) and returns it.
  Op* emit_op(const OpDef& opdef, OpValues&& operands, AttrMap&& attrs,
              const std::optional<std::span<const Type>>& result_types,
              const std::optional<std::span<const Hint>>& names);
  Value* one(const OpDef& opdef, OpValues operands, AttrMap attrs, const Type& result_type, const Hint& name);
  void none(const OpDef& opdef, OpValues operands, AttrMap attrs);
  Value* constant(AttrValue num, Type type, Hint name);

  std::string name_;
  AttrMap kernel_attrs_;
  std::vector<Param> params_;
  std::unique_ptr<Arena> arena_;
  Region* body_;
  std::vector<Region*> regions_;
  std::int64_t next_id_ = 0;
  bool finished_ = false;
  // emit_op's operand and result types, kept between ops so that building allocates no vector for them.
  std::vector<Type> operand_types_;
  std::vector<Type> result_types_;
};

}  // namespace rocke::ir

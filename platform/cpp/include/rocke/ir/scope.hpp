// rocKE C++ engine: a scope object that is the innermost one of its class on its thread while it
// lives (nested scopes restore the outer one): the base of the emission scopes DeferFinishVerify
// (builder.hpp) and VerifyOnce (verifier.hpp).
// Python twin: rocke/ir/scope.py (ContextScope, per thread and asyncio context through a ContextVar).
#pragma once

namespace rocke::ir {

template <class Scope>
class ThreadScope {
 public:
  ThreadScope(const ThreadScope&) = delete;
  ThreadScope& operator=(const ThreadScope&) = delete;

  // The innermost live scope of this class on this thread, or nullptr.
  static Scope* active() { return innermost_; }

 protected:
  ThreadScope() : outer_(innermost_) { innermost_ = static_cast<Scope*>(this); }
  ~ThreadScope() { innermost_ = outer_; }

 private:
  Scope* outer_;
  static inline thread_local Scope* innermost_ = nullptr;
};

}  // namespace rocke::ir

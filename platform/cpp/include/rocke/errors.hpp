// rocKE C++ engine: exceptions that mirror Python's built-in ones.
// Python twins: ValueError, TypeError, KeyError, NotImplementedError (the bindings map each
// class here to its Python counterpart; messages are byte-identical to the Python engine's).
//
// Error is a virtual base so a class can be both a KeyError and a ValueError, as Python's
// rocke.arch.UnknownArchError is, while carrying one message.
#pragma once

#include <exception>
#include <string>
#include <utility>

namespace rocke {

class Error : public std::exception {
 public:
  explicit Error(std::string message) : message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }
  const std::string& message() const noexcept { return message_; }

 protected:
  Error() = default;

 private:
  std::string message_;
};

class ValueError : public virtual Error {
 public:
  explicit ValueError(std::string message) : Error(std::move(message)) {}

 protected:
  ValueError() = default;
};

class TypeError : public virtual Error {
 public:
  explicit TypeError(std::string message) : Error(std::move(message)) {}

 protected:
  TypeError() = default;
};

class KeyError : public virtual Error {
 public:
  explicit KeyError(std::string message) : Error(std::move(message)) {}

 protected:
  KeyError() = default;
};

class NotImplementedError : public virtual Error {
 public:
  explicit NotImplementedError(std::string message) : Error(std::move(message)) {}
};

// A generated data table does not have the shape the engine expects (a generator or data bug).
class DataError : public ValueError {
 public:
  explicit DataError(std::string message) : Error(std::move(message)) {}
};

}  // namespace rocke

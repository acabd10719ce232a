// rocKE C++ engine: exceptions of the arch layer, each with one fixed, plain message.
// Python twin: rocke/arch/errors.py (UnknownArchError, UnknownMmaOpError and UnknownFeatureError
// are both KeyErrors and ValueErrors there, as here).
#pragma once

#include <string>

#include "rocke/errors.hpp"

namespace rocke::arch {

// An arch name that is not in archs.toml.
class UnknownArchError : public KeyError, public ValueError {
 public:
  explicit UnknownArchError(std::string message) : Error(std::move(message)) {}
};

// An MMA op id that is not in mma.toml.
class UnknownMmaOpError : public KeyError, public ValueError {
 public:
  explicit UnknownMmaOpError(std::string message) : Error(std::move(message)) {}
};

// A feature string that archs.toml does not declare.
class UnknownFeatureError : public KeyError, public ValueError {
 public:
  explicit UnknownFeatureError(std::string message) : Error(std::move(message)) {}
};

// archs.toml or mma.toml does not have the expected shape.
class ArchDataError : public ValueError {
 public:
  explicit ArchDataError(std::string message) : Error(std::move(message)) {}
};

// A layout formula that does not parse or cannot be evaluated.
class LayoutExprError : public ValueError {
 public:
  explicit LayoutExprError(std::string message) : Error(std::move(message)) {}
};

}  // namespace rocke::arch

// rocKE C++ engine: framed records, how native emitters stream many kernels through one process.
// Python twin: rocke/gates/frames.py (write_record, write_end; read_records is the strict reader)
//
// A stream is a sequence of records and one end marker, all LF-terminated:
//
//     @@rocke-record <index> <kind> <nbytes>\n<payload: exactly nbytes bytes>\n
//     @@rocke-end <configs>\n
//
// Records of one config share its index (0-based, in config-file order); the end marker counts
// configs. kind is "ir", "ll:<flavor>" or "refusal".
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

namespace rocke::gates {

inline constexpr std::string_view kRecord = "@@rocke-record ";
inline constexpr std::string_view kEnd = "@@rocke-end ";

// The bytes of one record.
std::string write_record(std::int64_t index, std::string_view kind, std::string_view payload);
// The bytes of the end marker.
std::string write_end(std::int64_t configs);

// Writes records to a stream and the end marker last, counting configs (distinct indices).
class FrameWriter {
 public:
  explicit FrameWriter(std::ostream& out) : out_(out) {}
  void record(std::int64_t index, std::string_view kind, std::string_view payload);
  void end();

 private:
  std::ostream& out_;
  std::int64_t configs_ = 0;
  std::int64_t last_index_ = -1;
};

}  // namespace rocke::gates

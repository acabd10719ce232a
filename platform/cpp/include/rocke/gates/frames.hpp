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

#include <cstddef>
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
// Records are held and handed to the stream in blocks of about kHeldBytes: a native run writes
// tens of KB per config, and a write call per record costs more in the kernel than the copy into
// the block (docs/performance.md, ninth round). flush() hands over what is held; end() and the
// destructor do too, so nothing written is lost when a run stops early.
class FrameWriter {
 public:
  static constexpr std::size_t kHeldBytes = std::size_t{1} << 18;

  explicit FrameWriter(std::ostream& out) : out_(out) {}
  FrameWriter(const FrameWriter&) = delete;
  FrameWriter& operator=(const FrameWriter&) = delete;
  ~FrameWriter() { flush(); }

  void record(std::int64_t index, std::string_view kind, std::string_view payload);
  void flush();
  void end();

 private:
  std::ostream& out_;
  std::string held_;
  std::int64_t configs_ = 0;
  std::int64_t last_index_ = -1;
};

}  // namespace rocke::gates

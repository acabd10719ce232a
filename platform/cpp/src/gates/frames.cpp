// Python twin: rocke/gates/frames.py (write_record, write_end)
#include "rocke/gates/frames.hpp"

#include "rocke/errors.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::gates {

namespace {

// Appends one record to out: "@@rocke-record <index> <kind> <nbytes>\n", the payload, "\n".
// Appended, never resized into: a resize would first zero the payload's bytes.
void append_record(std::string& out, std::int64_t index, std::string_view kind, std::string_view payload) {
  std::string size = std::to_string(payload.size());
  std::string at = std::to_string(index);
  out.reserve(out.size() + kRecord.size() + at.size() + kind.size() + size.size() + payload.size() + 4);
  out.append(kRecord).append(at).append(1, ' ').append(kind).append(1, ' ').append(size).append(1, '\n');
  out.append(payload).append(1, '\n');
}

}  // namespace

std::string write_record(std::int64_t index, std::string_view kind, std::string_view payload) {
  std::string out;
  append_record(out, index, kind, payload);
  return out;
}

std::string write_end(std::int64_t configs) { return util::cat(kEnd, std::to_string(configs), "\n"); }

void FrameWriter::record(std::int64_t index, std::string_view kind, std::string_view payload) {
  // Records arrive config by config; a new index opens the next config.
  if (index < last_index_) throw ValueError("frame records must arrive in config order");
  if (index != last_index_) {
    ++configs_;
    last_index_ = index;
  }
  append_record(held_, index, kind, payload);
  if (held_.size() >= kHeldBytes) flush();
}

void FrameWriter::flush() {
  if (!held_.empty()) {
    out_.write(held_.data(), static_cast<std::streamsize>(held_.size()));
    held_.clear();
  }
  out_.flush();
}

void FrameWriter::end() {
  held_ += write_end(configs_);
  flush();
}

}  // namespace rocke::gates

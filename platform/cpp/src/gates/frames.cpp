// Python twin: rocke/gates/frames.py (write_record, write_end)
#include "rocke/gates/frames.hpp"

#include "rocke/errors.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::gates {

namespace {

// "@@rocke-record <index> <kind> <nbytes>\n": what precedes a record's payload.
std::string record_header(std::int64_t index, std::string_view kind, std::size_t payload_size) {
  std::string out;
  out.reserve(kRecord.size() + kind.size() + 48);
  out += kRecord;
  out += std::to_string(index);
  out += ' ';
  out += kind;
  out += ' ';
  out += std::to_string(payload_size);
  out += '\n';
  return out;
}

}  // namespace

std::string write_record(std::int64_t index, std::string_view kind, std::string_view payload) {
  std::string out = record_header(index, kind, payload.size());
  out.reserve(out.size() + payload.size() + 1);
  out += payload;
  out += '\n';
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
  // Appended, not resized then copied into: a resize would first zero the payload's bytes.
  std::string header = record_header(index, kind, payload.size());
  held_.reserve(held_.size() + header.size() + payload.size() + 1);
  held_.append(header).append(payload).push_back('\n');
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

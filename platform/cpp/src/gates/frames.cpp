// Python twin: rocke/gates/frames.py (write_record, write_end)
#include "rocke/gates/frames.hpp"

#include "rocke/errors.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::gates {

std::string write_record(std::int64_t index, std::string_view kind, std::string_view payload) {
  std::string out;
  out.reserve(kRecord.size() + kind.size() + payload.size() + 48);
  out += kRecord;
  out += std::to_string(index);
  out += ' ';
  out += kind;
  out += ' ';
  out += std::to_string(payload.size());
  out += '\n';
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
  out_ << write_record(index, kind, payload);
}

void FrameWriter::end() {
  out_ << write_end(configs_);
  out_.flush();
}

}  // namespace rocke::gates

// Python twin: rocke/ir/facts.py
#include "rocke/ir/facts.hpp"

namespace rocke::ir {

data::NodeRef ir_facts() { return data::document("rocke/ir/data/ir.toml"); }

const FormatFacts& format_facts() {
  static const FormatFacts facts = [] {
    data::NodeRef root = ir_facts();
    data::NodeRef format = root["format"];
    return FormatFacts{
        std::string(format["version"].str()),
        format["max_region_depth"].integer(),
        format["max_value_id"].integer(),
        format["max_int_digits"].integer(),
        format["indent"].integer(),
        format["max_input_bytes"].integer(),
        std::string(root["kernel"]["param_types"].str()),
    };
  }();
  return facts;
}

}  // namespace rocke::ir

#include "binsparse_descriptor.hpp"

#include <nlohmann/json.hpp>

#include <set>

namespace vkprim::sparse::detail {
namespace {

using nlohmann::json;

bool parse_type(std::string text, BinsparseType& t) {
  static const std::set<std::string> scalars = {"int8",  "int16",  "int32",   "int64",   "uint8", "uint16",
                                                "uint32", "uint64", "float32", "float64", "bint8"};
  for (;;) {
    if (text.rfind("iso[", 0) == 0 && text.back() == ']') {
      t.iso = true;
      text = text.substr(4, text.size() - 5);
    } else if (text.rfind("complex[", 0) == 0 && text.back() == ']') {
      t.complex = true;
      text = text.substr(8, text.size() - 9);
    } else {
      break;
    }
  }
  t.scalar = text;
  return scalars.count(text) != 0;
}

}  // namespace

Result<BinsparseDescriptor> parse_binsparse_descriptor(std::string_view text, const std::string& where) {
  auto fail = [&](const std::string& what) { return make_error(Errc::parse_error, where + ": " + what); };
  json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return fail("the 'binsparse' attribute is not valid JSON");
  const json& d = doc.is_object() && doc.contains("binsparse") ? doc["binsparse"] : doc;
  if (!d.is_object()) return fail("expected a JSON object in the 'binsparse' attribute");

  BinsparseDescriptor out;
  if (!d.contains("version") || !d["version"].is_string())
    return fail("expected key 'version' (a string such as \"0.1\")");
  const std::string version = d["version"];
  if (version.rfind("0.", 0) != 0 && version.rfind("1.", 0) != 0)
    return make_error(Errc::unsupported, where + ": Binsparse version " + version + " is not supported (0.1 is)");

  if (!d.contains("format") || !d["format"].is_string()) return fail("expected key 'format' (a string)");
  out.format = d["format"];
  for (char& c : out.format)
    if (c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');

  if (!d.contains("shape") || !d["shape"].is_array()) return fail("expected key 'shape' (an array)");
  for (const json& s : d["shape"]) {
    if (!s.is_number_integer() || s.get<int64_t>() < 0) return fail("expected 'shape' to hold integers >= 0");
    out.shape.push_back(s.get<int64_t>());
  }
  if (out.shape.empty() || out.shape.size() > 2)
    return make_error(Errc::unsupported,
                      where + ": only vectors and matrices are supported, found a shape of rank " +
                          std::to_string(out.shape.size()));

  if (!d.contains("number_of_stored_values") || !d["number_of_stored_values"].is_number_integer() ||
      d["number_of_stored_values"].get<int64_t>() < 0)
    return fail("expected key 'number_of_stored_values' (an integer >= 0)");
  out.stored = d["number_of_stored_values"];

  if (!d.contains("data_types") || !d["data_types"].is_object()) return fail("expected key 'data_types' (an object)");
  for (const auto& [key, value] : d["data_types"].items()) {
    if (!value.is_string()) return fail("expected data_types." + key + " to be a string");
    BinsparseType t;
    if (!parse_type(value.get<std::string>(), t))
      return fail("data_types." + key + ": unknown type '" + value.get<std::string>() + "'");
    out.data_types[key] = t;
  }

  if (d.contains("structure")) {
    if (!d["structure"].is_string()) return fail("expected 'structure' to be a string");
    out.structure = d["structure"];
  }
  out.finch_tensor = d.contains("tensor");
  return out;
}

std::string make_binsparse_descriptor(const BinsparseDescriptor& d) {
  json types = json::object();
  for (const auto& [key, t] : d.data_types) {
    std::string s = t.scalar;
    if (t.complex) s = "complex[" + s + "]";
    if (t.iso) s = "iso[" + s + "]";
    types[key] = s;
  }
  json inner = {{"version", "0.1"},
                {"format", d.format},
                {"shape", d.shape},
                {"number_of_stored_values", d.stored},
                {"data_types", types}};
  if (!d.structure.empty()) inner["structure"] = d.structure;
  return json{{"binsparse", inner}}.dump(2);
}

}  // namespace vkprim::sparse::detail

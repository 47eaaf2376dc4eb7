// scene_json.cpp — the collide2d JSON scene format (docs/scene-format.md).
//
// Outline: a first pass over the text finds the first array or object nested deeper than
// scene_nesting_limit (outside strings) and refuses the file there, so no later stage (nlohmann's
// document, the scanner below, the validator) ever meets a deeper document; that pass costs one
// read of the text. nlohmann-json then checks the syntax and builds the document. nlohmann keeps no source
// positions, so a small scanner walks the same (now known valid) text and records where every
// value and every key starts, keyed by its JSON pointer ("/bodies/0/shape/radius"). The
// validator then walks the document and, for any problem, reports the line and column of the
// offending value or key. Duplicate keys are refused by the scanner.
#include <cmath>
#include <cstdlib>
#include <tuple>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "collide2d/io/scene.hpp"
#include "text_position.hpp"

namespace collide2d::io {
namespace {

using Json = nlohmann::json;

/// The byte offset of the first '[' or '{' (outside strings) that opens a level deeper than
/// scene_nesting_limit, if any. Text that is not valid JSON is scanned all the same: the parser
/// reports its syntax error once the nesting is known to be within the limit.
std::optional<std::size_t> too_deep_offset(std::string_view text) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;  // the escaped character cannot end the string
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > scene_nesting_limit) return i;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return std::nullopt;
}

/// JSON-pointer escaping of one reference token.
std::string pointer_token(const std::string& key) {
  std::string escaped;
  for (char c : key) {
    if (c == '~') escaped += "~0";
    else if (c == '/') escaped += "~1";
    else escaped += c;
  }
  return escaped;
}

/// Where each value ("/a/0") and each key ("/a/0#key") starts in the text.
struct PositionIndex {
  std::map<std::string, std::size_t> offsets;
  std::optional<std::pair<std::size_t, std::string>> duplicate_key;  // offset and key
  std::optional<std::pair<std::size_t, std::string>> overflowing_number;  // offset and text of the first number beyond a double
};

/// Scans valid JSON text and records value and key offsets by pointer.
class PositionScanner {
 public:
  explicit PositionScanner(std::string_view text) : text_(text) {}

  PositionIndex scan() {
    skip_space();
    value("");
    return std::move(index_);
  }

 private:
  void skip_space() {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\n' || text_[at_] == '\r')) ++at_;
  }
  std::string string_token() {  // at the opening quote; returns the decoded-enough key text
    std::string content;
    ++at_;
    while (at_ < text_.size() && text_[at_] != '"') {
      if (text_[at_] == '\\') {
        ++at_;
        if (at_ < text_.size() && text_[at_] == 'u') {  // keep \uXXXX escapes to nlohmann's decoding
          std::string quoted(1, '"');
          quoted.append(text_.substr(at_ - 1, 6));
          quoted.push_back('"');
          Json decoded = Json::parse(quoted, nullptr, false);
          content += decoded.is_string() ? decoded.get<std::string>() : "";
          at_ += 5;
          continue;
        }
        static constexpr std::string_view escapes = "\"\\/bfnrt", decoded = "\"\\/\b\f\n\r\t";
        const std::size_t which = escapes.find(text_[at_]);
        content += which == std::string_view::npos ? text_[at_] : decoded[which];
        ++at_;
        continue;
      }
      content += text_[at_++];
    }
    ++at_;  // closing quote
    return content;
  }
  void value(const std::string& pointer) {
    if (at_ >= text_.size()) return;
    index_.offsets[pointer] = at_;
    const char c = text_[at_];
    if (c == '{') {
      ++at_;
      std::map<std::string, bool> seen;
      skip_space();
      while (at_ < text_.size() && text_[at_] != '}') {
        const std::size_t key_offset = at_;
        const std::string key = string_token();
        if (seen[key] && !index_.duplicate_key) index_.duplicate_key = {key_offset, key};
        seen[key] = true;
        const std::string child = pointer + "/" + pointer_token(key);
        index_.offsets[child + "#key"] = key_offset;
        skip_space();
        ++at_;  // ':'
        skip_space();
        value(child);
        skip_space();
        if (at_ < text_.size() && text_[at_] == ',') ++at_;
        skip_space();
      }
      ++at_;
    } else if (c == '[') {
      ++at_;
      skip_space();
      for (int item = 0; at_ < text_.size() && text_[at_] != ']'; ++item) {
        value(pointer + "/" + std::to_string(item));
        skip_space();
        if (at_ < text_.size() && text_[at_] == ',') ++at_;
        skip_space();
      }
      ++at_;
    } else if (c == '"') {
      string_token();
    } else {  // number or literal
      const std::size_t start = at_;
      while (at_ < text_.size() && std::string_view(",]} \t\r\n").find(text_[at_]) == std::string_view::npos) ++at_;
      const std::string token(text_.substr(start, at_ - start));
      if ((c == '-' || (c >= '0' && c <= '9')) && !std::isfinite(std::strtod(token.c_str(), nullptr))) {
        // nlohmann stopped here (out_of_range 406); the text after it was never checked, so stop too.
        index_.overflowing_number = {start, token};
        at_ = text_.size();
      }
    }
  }

  std::string_view text_;
  std::size_t at_ = 0;
  PositionIndex index_;
};

/// Thrown inside the validator and turned into a LoadError at its boundary.
struct Problem {
  std::string pointer;  // where: a value pointer, or a key pointer ending in "#key"
  std::string message;
};

const char* kind_name(const Json& value) {
  switch (value.type()) {
    case Json::value_t::object: return "an object";
    case Json::value_t::array: return "an array";
    case Json::value_t::string: return "a string";
    case Json::value_t::boolean: return "true or false";
    case Json::value_t::null: return "null";
    default: return "a number";
  }
}

class SceneReader {
 public:
  explicit SceneReader(const LoadOptions& options) : options_(options) {}

  Scene read(const Json& document) {
    expect_object(document, "", "the scene", {"bodies", "$schema"});
    if (!document.contains("bodies")) throw Problem{"", "the scene has no \"bodies\" array"};
    const Json& bodies = document["bodies"];
    if (!bodies.is_array()) throw Problem{"/bodies", "\"bodies\" must be an array, found " + std::string(kind_name(bodies))};
    Scene scene;
    for (std::size_t i = 0; i < bodies.size(); ++i) scene.bodies.push_back(body(bodies[i], "/bodies/" + std::to_string(i)));
    return scene;
  }

 private:
  static void expect_object(const Json& value, const std::string& pointer, const std::string& what,
                            std::initializer_list<std::string_view> allowed) {
    if (!value.is_object()) throw Problem{pointer, what + " must be an object, found " + kind_name(value)};
    for (const auto& [key, member] : value.items()) {
      bool known = false;
      for (std::string_view name : allowed) known = known || key == name;
      if (!known) {
        std::string expected;
        for (std::string_view name : allowed) expected += (expected.empty() ? "" : ", ") + std::string(name);
        throw Problem{pointer + "/" + pointer_token(key) + "#key", "unknown key \"" + key + "\" in " + what + " (expected one of: " + expected + ")"};
      }
    }
  }
  static Real number(const Json& value, const std::string& pointer, const std::string& what) {
    if (!value.is_number()) throw Problem{pointer, what + " must be a number, found " + kind_name(value)};
    const double number = value.get<double>();
    if (!std::isfinite(number) || !std::isfinite(static_cast<Real>(number))) throw Problem{pointer, what + " is not a finite number"};
    return static_cast<Real>(number);
  }
  /// A coordinate, radius, half extent or velocity: also within coordinate_limit.
  static Real length_value(const Json& value, const std::string& pointer, const std::string& what) {
    const Real length = number(value, pointer, what);
    if (!within_coordinate_limit(length)) throw Problem{pointer, what + " is beyond " + coordinate_limit_text()};
    return length;
  }
  static Vec2 point(const Json& value, const std::string& pointer, const std::string& what) {
    if (!value.is_array() || value.size() != 2) throw Problem{pointer, what + " must be an array of two numbers [x, y]"};
    return {length_value(value[0], pointer + "/0", what + " x"), length_value(value[1], pointer + "/1", what + " y")};
  }
  static const Json& required(const Json& object, const std::string& pointer, const char* key, const std::string& what) {
    if (!object.contains(key)) throw Problem{pointer, what + " needs \"" + key + "\""};
    return object[key];
  }
  static Real radius(const Json& object, const std::string& pointer, const std::string& what, bool needed) {
    if (!needed && !object.contains("radius")) return 0;
    const Real value = number(required(object, pointer, "radius", what), pointer + "/radius", what + " radius");
    if (value < 0) throw Problem{pointer + "/radius", what + " radius must not be negative"};
    if (!within_coordinate_limit(value)) throw Problem{pointer + "/radius", what + " radius is beyond " + coordinate_limit_text()};
    return value;
  }

  Shape shape(const Json& value, const std::string& pointer) {
    if (!value.is_object()) throw Problem{pointer, "a shape must be an object, found " + std::string(kind_name(value))};
    const Json& type_value = required(value, pointer, "type", "a shape");
    if (!type_value.is_string()) throw Problem{pointer + "/type", "shape \"type\" must be a string"};
    const std::string type = type_value.get<std::string>();
    const std::string what = type + " shape";
    if (type == "circle") {
      expect_object(value, pointer, what, {"type", "radius", "center"});
      const Vec2 center = value.contains("center") ? point(value["center"], pointer + "/center", "circle center") : Vec2{};
      return Circle{center, radius(value, pointer, what, true)};
    }
    if (type == "box") {
      expect_object(value, pointer, what, {"type", "half_extents", "radius"});
      const Vec2 half = point(required(value, pointer, "half_extents", what), pointer + "/half_extents", "box half_extents");
      if (!(half.x > 0) || !(half.y > 0)) throw Problem{pointer + "/half_extents", "box half_extents must both be positive"};
      Result<Polygon> box = make_box(half.x, half.y, {}, radius(value, pointer, what, false));
      if (!box) throw Problem{pointer, "box: " + box.error().message};
      return std::move(box).value();
    }
    if (type == "polygon") {
      expect_object(value, pointer, what, {"type", "vertices", "radius"});
      const Json& vertices = required(value, pointer, "vertices", what);
      if (!vertices.is_array()) throw Problem{pointer + "/vertices", "polygon vertices must be an array of [x, y] points"};
      std::vector<Vec2> outline;
      for (std::size_t i = 0; i < vertices.size(); ++i) {
        outline.push_back(point(vertices[i], pointer + "/vertices/" + std::to_string(i), "polygon vertex " + std::to_string(i)));
      }
      Result<Shape> polygon = shape_from_file_outline(outline, radius(value, pointer, what, false), options_);
      if (!polygon) {
        const int vertex = polygon.error().index;
        throw Problem{vertex >= 0 ? pointer + "/vertices/" + std::to_string(vertex) : pointer + "/vertices",
                      "polygon: " + polygon.error().message};
      }
      return std::move(polygon).value();
    }
    if (type == "capsule") {
      expect_object(value, pointer, what, {"type", "a", "b", "radius"});
      return Capsule{point(required(value, pointer, "a", what), pointer + "/a", "capsule a"),
                     point(required(value, pointer, "b", what), pointer + "/b", "capsule b"), radius(value, pointer, what, true)};
    }
    if (type == "segment") {
      expect_object(value, pointer, what, {"type", "a", "b"});
      return Segment{point(required(value, pointer, "a", what), pointer + "/a", "segment a"),
                     point(required(value, pointer, "b", what), pointer + "/b", "segment b")};
    }
    throw Problem{pointer + "/type", "unknown shape type \"" + type + "\" (expected circle, box, polygon, capsule or segment)"};
  }

  static BodyType body_type(const Json& value, const std::string& pointer) {
    if (!value.is_string()) throw Problem{pointer, "body \"type\" must be a string, found " + std::string(kind_name(value))};
    const std::string name = value.get<std::string>();
    if (name == "static") return BodyType::static_body;
    if (name == "kinematic") return BodyType::kinematic_body;
    if (name == "dynamic") return BodyType::dynamic_body;
    throw Problem{pointer, "unknown body type \"" + name + "\" (expected static, kinematic or dynamic)"};
  }

  Body body(const Json& value, const std::string& pointer) {
    expect_object(value, pointer, "a body",
                  {"name", "position", "angle", "angle_deg", "velocity", "angular_velocity", "type", "density", "friction", "restitution", "shape"});
    Body body;
    if (value.contains("name")) {
      if (!value["name"].is_string()) throw Problem{pointer + "/name", "body \"name\" must be a string"};
      body.name = value["name"].get<std::string>();
    }
    if (value.contains("angle") && value.contains("angle_deg")) {
      throw Problem{pointer + "/angle_deg#key", "a body takes \"angle\" (radians) or \"angle_deg\" (degrees), not both"};
    }
    Real angle = 0;
    if (value.contains("angle")) angle = number(value["angle"], pointer + "/angle", "body angle");
    if (value.contains("angle_deg")) {
      angle = number(value["angle_deg"], pointer + "/angle_deg", "body angle_deg") / 180 * std::numbers::pi_v<Real>;  // divided first: no overflow
    }
    const Vec2 position = value.contains("position") ? point(value["position"], pointer + "/position", "body position") : Vec2{};
    body.transform = Transform::from(position, angle);
    if (value.contains("velocity")) body.velocity = point(value["velocity"], pointer + "/velocity", "body velocity");
    if (value.contains("angular_velocity")) {
      body.angular_velocity = number(value["angular_velocity"], pointer + "/angular_velocity", "body angular_velocity");
    }
    if (value.contains("type")) body.type = body_type(value["type"], pointer + "/type");
    for (auto [key, amount] : {std::pair{"density", &body.density}, {"friction", &body.friction}, {"restitution", &body.restitution}}) {
      if (!value.contains(key)) continue;
      const std::string where = pointer + "/" + key;
      *amount = number(value[key], where, std::string("body ") + key);
      if (*amount < 0) throw Problem{where, std::string("body ") + key + " must not be negative"};
    }
    body.shape = shape(required(value, pointer, "shape", "a body"), pointer + "/shape");
    return body;
  }

  LoadOptions options_;
};

}  // namespace

Result<Scene, LoadError> parse_json_scene(std::string_view text, std::string_view file, const LoadOptions& options) {
  const detail::LineIndex lines(text);
  if (const std::optional<std::size_t> deep = too_deep_offset(text)) {
    return lines.error_at(file, *deep, "arrays and objects are nested deeper than " + std::to_string(scene_nesting_limit) +
                                           " levels (the limit of scene files)");
  }
  Json document;
  try {
    document = Json::parse(text);
  } catch (const Json::parse_error& error) {
    std::string message = error.what();
    const std::size_t colon = message.find(": ");
    message = colon == std::string::npos ? message : message.substr(colon + 2);
    return lines.error_at(file, error.byte > 0 ? error.byte - 1 : 0, "invalid JSON: " + message);
  } catch (const Json::out_of_range& error) {  // a number beyond a double (1e999); the text up to it is valid
    const PositionIndex positions = PositionScanner(text).scan();
    if (positions.overflowing_number) {
      return lines.error_at(file, positions.overflowing_number->first,
                            "the number " + positions.overflowing_number->second + " is out of range (not a finite number)");
    }
    return lines.error_at(file, 0, std::string("invalid JSON: ") + error.what());
  } catch (const Json::exception& error) {
    return lines.error_at(file, 0, std::string("invalid JSON: ") + error.what());
  }
  PositionIndex positions = PositionScanner(text).scan();
  if (positions.duplicate_key) {
    return lines.error_at(file, positions.duplicate_key->first, "duplicate key \"" + positions.duplicate_key->second + "\"");
  }
  try {
    Scene scene = SceneReader(options).read(document);
    for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
      std::tie(scene.bodies[i].line, scene.bodies[i].column) = lines.line_and_column(positions.offsets.at("/bodies/" + std::to_string(i)));
    }
    return scene;
  } catch (const Problem& problem) {
    auto found = positions.offsets.find(problem.pointer);
    return lines.error_at(file, found == positions.offsets.end() ? 0 : found->second, problem.message);
  }
}

}  // namespace collide2d::io

// scene_steersuite.cpp — SteerSuite test cases (the steersim <SteerBenchTestCase> format).
//
// Outline: pugixml parses the document (keeping byte offsets for messages; its parser is not
// recursive); a walk without recursion refuses the first element nested deeper than
// scene_nesting_limit, before the XPath search below descends the tree; every
// <polygonObstacle> anywhere under the root becomes a polygon body in document order, its
// <vertex> children read as <x>, <y>, <z> with the plane (x, z) mapped to (x, y) and y ignored.
// Outlines go through shape_from_file_outline, like JSON polygons. Everything else is ignored.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <tuple>
#include <pugixml.hpp>

#include "collide2d/io/scene.hpp"
#include "text_position.hpp"

namespace collide2d::io {
namespace {

/// The first element (in document order) nested deeper than scene_nesting_limit below the
/// document, found by walking the tree through its parent and sibling links (no recursion).
pugi::xml_node first_too_deep_element(const pugi::xml_document& document) {
  pugi::xml_node node = document.first_child();
  int depth = 1;
  while (node) {
    if (node.type() == pugi::node_element && depth > scene_nesting_limit) return node;
    if (node.first_child()) {
      node = node.first_child();
      ++depth;
      continue;
    }
    while (node && !node.next_sibling()) {
      node = node.parent();
      --depth;
    }
    if (node) node = node.next_sibling();
  }
  return {};
}

struct Problem {
  std::ptrdiff_t offset;
  std::string message;
};

Real coordinate(const pugi::xml_node& vertex, const char* axis, int obstacle, int index) {
  const pugi::xml_node node = vertex.child(axis);
  const std::string where = "polygonObstacle " + std::to_string(obstacle) + " vertex " + std::to_string(index);
  if (!node) throw Problem{vertex.offset_debug(), where + " has no <" + axis + ">"};
  const std::string text = node.child_value();
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  while (end != nullptr && *end != '\0' && std::isspace(static_cast<unsigned char>(*end))) ++end;
  if (text.empty() || end == text.c_str() || *end != '\0') {
    throw Problem{node.offset_debug(), where + " <" + axis + "> is not a number: \"" + text + "\""};
  }
  if (!std::isfinite(value) || !std::isfinite(static_cast<Real>(value))) {
    throw Problem{node.offset_debug(), where + " <" + axis + "> is not a finite number"};
  }
  if (!within_coordinate_limit(static_cast<Real>(value))) {
    throw Problem{node.offset_debug(), where + " <" + axis + "> is beyond " + coordinate_limit_text()};
  }
  return static_cast<Real>(value);
}

}  // namespace

Result<Scene, LoadError> parse_steersuite_scene(std::string_view text, std::string_view file, const LoadOptions& options) {
  const detail::LineIndex lines(text);
  auto error_at = [&](std::ptrdiff_t offset, const std::string& message) {
    return lines.error_at(file, static_cast<std::size_t>(std::max<std::ptrdiff_t>(offset, 0)), message);
  };
  pugi::xml_document document;
  const pugi::xml_parse_result parsed = document.load_buffer(text.data(), text.size());
  if (!parsed) return error_at(parsed.offset, std::string("invalid XML: ") + parsed.description());
  if (const pugi::xml_node deep = first_too_deep_element(document)) {
    return error_at(deep.offset_debug(), "elements are nested deeper than " + std::to_string(scene_nesting_limit) +
                                             " levels (the limit of scene files)");
  }
  const pugi::xml_node root = document.document_element();
  if (std::string_view(root.name()) != "SteerBenchTestCase") {
    return error_at(root.offset_debug(), "expected a <SteerBenchTestCase> root element, found <" + std::string(root.name()) + ">");
  }
  Scene scene;
  try {
    int obstacle = 0;
    for (const pugi::xpath_node& found : root.select_nodes(".//polygonObstacle")) {
      const pugi::xml_node element = found.node();
      std::vector<Vec2> outline;
      int index = 0;
      for (const pugi::xml_node& vertex : element.children("vertex")) {
        outline.push_back({coordinate(vertex, "x", obstacle, index), coordinate(vertex, "z", obstacle, index)});
        ++index;
      }
      Result<Shape> polygon = shape_from_file_outline(outline, 0, options);
      if (!polygon) {
        throw Problem{element.offset_debug(), "polygonObstacle " + std::to_string(obstacle) + ": " + polygon.error().message};
      }
      Body body;
      body.name = "polygonObstacle " + std::to_string(obstacle);
      body.shape = std::move(polygon).value();
      std::tie(body.line, body.column) = lines.line_and_column(static_cast<std::size_t>(element.offset_debug()));
      scene.bodies.push_back(std::move(body));
      ++obstacle;
    }
  } catch (const Problem& problem) {
    return error_at(problem.offset, problem.message);
  }
  return scene;
}

}  // namespace collide2d::io

// collide2d/io/scene.hpp — scenes of bodies, read from JSON scene files or SteerSuite test cases.
//
// Part of the collide2d::io library (JSON via nlohmann-json, XML via pugixml); the core library
// knows nothing of files. The JSON format is documented in docs/scene-format.md and
// scenes/scene.schema.json.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "collide2d/dynamics.hpp"
#include "collide2d/math.hpp"
#include "collide2d/result.hpp"
#include "collide2d/shapes.hpp"

namespace collide2d::io {

/// One body of a scene: a shape placed in the world, with the motion the casts will use and the
/// material `simulate` gives it.
struct Body {
  std::string name;            ///< optional label from the file; empty when none
  Transform transform;         ///< world placement of the shape's local frame
  Vec2 velocity;               ///< linear velocity, world length units per time unit
  Real angular_velocity = 0;   ///< radians per time unit, counter-clockwise
  BodyType type = BodyType::static_body;  ///< how `simulate` moves it; static when the file does not say
  Real density = RigidBodyDefinition{}.density;          ///< mass per unit area (>= 0), for dynamic bodies
  Real friction = RigidBodyDefinition{}.friction;        ///< Coulomb friction coefficient (>= 0)
  Real restitution = RigidBodyDefinition{}.restitution;  ///< bounciness (>= 0)
  Shape shape;                 ///< the shape in the body's local frame: convex, or a Compound for a concave polygon
  int line = 0;                ///< 1-based line where the body starts in its scene file; 0 for a body not read from a file
  int column = 0;              ///< 1-based column (in bytes) where the body starts; 0 for a body not read from a file
};

/// A scene: bodies in file order; a body's index is its id in every report.
struct Scene {
  std::vector<Body> bodies;  ///< in the order the file lists them
};

/// Why a scene could not be read: where (1-based line and column, in bytes) and what.
struct LoadError {
  std::string file;     ///< the file name as given
  int line = 0;         ///< 1-based line; 0 when the problem is the file as a whole
  int column = 0;       ///< 1-based column in bytes; 0 when the problem is the file as a whole
  std::string message;  ///< "FILE:LINE:COL: what was wrong and what was expected"
};

/// The deepest nesting of arrays and objects a JSON scene file may have, and of elements a
/// SteerSuite file may have (a scene needs 6 and 4). A deeper file is refused at the first
/// bracket or element past the limit, before anything recursive walks it, whatever its depth.
inline constexpr int scene_nesting_limit = 64;

/// Options for reading scenes.
struct LoadOptions {
  /// Treat every polygon's vertex list as a point cloud and use its convex hull (what
  /// SteerSuite's own collision code did), instead of cutting concave outlines into convex pieces.
  bool hull = false;
};

/// Reads a scene file, choosing the format by extension: .json for the collide2d format, .xml
/// for a SteerSuite test case. Nothing is returned unless the whole file is valid.
Result<Scene, LoadError> load_scene(const std::filesystem::path& path, const LoadOptions& options = {});

/// Parses collide2d JSON scene text; `file` names it in error messages.
Result<Scene, LoadError> parse_json_scene(std::string_view text, std::string_view file, const LoadOptions& options = {});

/// Parses a SteerSuite test case (<SteerBenchTestCase> with <polygonObstacle> elements): each
/// obstacle becomes a polygon body in file order, its (x, z) vertices mapped to (x, y); y,
/// agents and every other element are ignored. `file` names it in error messages.
Result<Scene, LoadError> parse_steersuite_scene(std::string_view text, std::string_view file, const LoadOptions& options = {});

/// Builds the shape of a polygon outline read from a file, for both formats: a convex outline
/// becomes a Polygon, a concave one a Compound of its convex pieces (shape_from_outline), or,
/// with `options.hull`, the convex hull of the points. Refuses non-finite points, fewer than 3
/// distinct points, zero area, a self-crossing outline (naming the two edges), an outline
/// enclosing a hole, and a rounded concave outline. The message has no location: callers prefix it.
Result<Shape> shape_from_file_outline(std::span<const Vec2> outline, Real radius, const LoadOptions& options);

}  // namespace collide2d::io

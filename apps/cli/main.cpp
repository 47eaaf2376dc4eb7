// collide2d — the command-line tool: check scenes, list overlapping pairs, measure distances,
// cast rays and shapes, move a body with move_and_slide, simulate rigid bodies, and draw pictures. Errors go to stderr as "error: FILE:LINE:COL: message" with exit code 2.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <iostream>
#include <map>
#include <numbers>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "collide2d/collide2d.hpp"
#include "collide2d/io/pairs.hpp"
#include "collide2d/io/scene.hpp"
#include "collide2d/io/simulate.hpp"
#include "collide2d/io/svg.hpp"
#include "collide2d/io/text.hpp"

namespace {

using namespace collide2d;
using namespace collide2d::io;
using Json = nlohmann::ordered_json;

constexpr int exit_error = 2;

struct Failure {
  std::string message;  // printed after "error: "
};

/// The value with negative zero turned into zero, so outputs never show "-0".
double without_negative_zero(Real value) { return double(value) + 0.0; }

/// A number for JSON output: the shortest decimal that reads back as the same Real, so a float
/// 0.7 prints as 0.7 rather than as the double 0.699999988079071; never "-0".
double json_number(Real value) {
  char buffer[40];
  const auto written = std::to_chars(buffer, buffer + sizeof buffer - 1, value);
  *written.ptr = '\0';
  return std::strtod(buffer, nullptr) + 0.0;
}

Json point_json(Vec2 p) { return Json::array({json_number(p.x), json_number(p.y)}); }

std::string format_number(Real value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", without_negative_zero(value));
  return buffer;
}

std::string format_point(Vec2 p) { return "(" + format_number(p.x) + ", " + format_number(p.y) + ")"; }

const char* kind_of(const Shape& shape) {
  static constexpr const char* names[] = {"circle", "capsule", "segment", "polygon", "concave polygon"};
  return names[shape.index()];
}

/// The vertices of each convex piece of a concave body, in the body's local frame.
std::vector<std::vector<Vec2>> pieces_of(const Compound& compound) {
  std::vector<std::vector<Vec2>> pieces;
  for (const CompoundChild& child : compound.children()) {
    std::vector<Vec2>& piece = pieces.emplace_back();
    if (const auto* polygon = std::get_if<Polygon>(&child.shape)) {
      for (Vec2 vertex : polygon->vertices()) piece.push_back(transform_point(child.transform, vertex));
    }
  }
  return pieces;
}

Scene load(const std::string& path, bool hull) {
  Result<Scene, LoadError> scene = load_scene(path, {.hull = hull});
  if (!scene) throw Failure{scene.error().message};
  return std::move(scene).value();
}

void write_svg(const std::string& path, const std::string& svg) {
  if (path.empty()) return;
  const std::string problem = write_file_atomically(path, svg);
  if (!problem.empty()) throw Failure{path + ":0:0: " + problem};
}

std::string pairs_output(const Scene& scene, const std::vector<PairReport>& pairs, const std::string& format) {
  std::ostringstream out;
  if (format == "json") {
    Json document{{"bodies", scene.bodies.size()}, {"pairs", Json::array()}};
    for (const PairReport& pair : pairs) {
      Json entry{{"a", pair.a}, {"b", pair.b}, {"status", status_name(pair.status)}};
      if (pair.status != PairStatus::separate) {
        entry["depth"] = json_number(pair.depth);
        entry["normal"] = point_json(pair.normal);
        entry["contacts"] = Json::array();
        for (const ManifoldPoint& contact : pair.contacts) {
          entry["contacts"].push_back({{"point", point_json(contact.point)}, {"separation", json_number(contact.separation)}});
        }
      }
      document["pairs"].push_back(entry);
    }
    out << document.dump(2) << "\n";
  } else if (format == "steersuite") {
    // SteerSuite's collisionAI lines, for every pair i < j, with (x, y) back in the (x, z) plane.
    std::map<std::pair<int, int>, const PairReport*> by_pair;
    for (const PairReport& pair : pairs) by_pair[{pair.a, pair.b}] = &pair;
    const int count = static_cast<int>(scene.bodies.size());
    for (int i = 0; i < count; ++i) {
      for (int j = i + 1; j < count; ++j) {
        auto found = by_pair.find({i, j});
        if (found != by_pair.end() && found->second->status == PairStatus::overlap) {
          const PairReport& pair = *found->second;
          out << " Collision detected between polygon No." << i << " and No." << j << " with a penetration depth of "
              << format_number(pair.depth) << " and penetration vector of (" << format_number(pair.normal.x) << ",0,"
              << format_number(pair.normal.y) << ")\n";
        } else {
          out << " NO collision detected between polygon No." << i << " and No." << j << "\n";
        }
      }
    }
  } else {
    out << count_of(scene.bodies.size(), "body", "bodies") << ", " << count_of(pairs.size(), "pair", "pairs") << " listed\n";
    if (!pairs.empty()) {
      char line[200];
      std::snprintf(line, sizeof line, "%5s %5s  %-9s %12s  %-24s %s\n", "a", "b", "status", "depth", "normal (a to b)", "contacts");
      out << line;
      for (const PairReport& pair : pairs) {
        const bool apart = pair.status == PairStatus::separate;
        std::snprintf(line, sizeof line, "%5d %5d  %-9s %12s  %-24s %zu\n", pair.a, pair.b, status_name(pair.status),
                      apart ? "-" : format_number(pair.depth).c_str(), apart ? "-" : format_point(pair.normal).c_str(),
                      pair.contacts.size());
        out << line;
      }
    }
  }
  return out.str();
}

std::string distance_output(const std::vector<DistanceReport>& reports, const std::string& format) {
  std::ostringstream out;
  if (format == "json") {
    Json document{{"pairs", Json::array()}};
    for (const DistanceReport& report : reports) {
      document["pairs"].push_back({{"a", report.a}, {"b", report.b}, {"distance", json_number(report.distance)}, {"normal", point_json(report.normal)},
                                   {"point_a", point_json(report.point_a)}, {"point_b", point_json(report.point_b)}});
    }
    out << document.dump(2) << "\n";
  } else {
    char line[240];
    std::snprintf(line, sizeof line, "%5s %5s %12s  %-24s %-24s %s\n", "a", "b", "distance", "normal (a to b)", "point on a", "point on b");
    out << line;
    for (const DistanceReport& report : reports) {
      std::snprintf(line, sizeof line, "%5d %5d %12s  %-24s %-24s %s\n", report.a, report.b, format_number(report.distance).c_str(),
                    format_point(report.normal).c_str(), format_point(report.point_a).c_str(), format_point(report.point_b).c_str());
      out << line;
    }
  }
  return out.str();
}

std::string check_output(const Scene& scene, const std::string& format) {
  std::map<std::string, int> kinds;
  std::optional<Aabb> bounds;
  for (const Body& body : scene.bodies) {
    ++kinds[kind_of(body.shape)];
    const Aabb box = compute_aabb(body.shape, body.transform);
    bounds = bounds ? bounds->merged(box) : box;
  }
  std::ostringstream out;
  if (format == "json") {
    Json document{{"valid", true}, {"bodies", scene.bodies.size()}, {"kinds", Json::object()}, {"bodies_detail", Json::array()}};
    for (const auto& [kind, count] : kinds) document["kinds"][kind] = count;
    if (bounds) document["bounds"] = {{"lower", point_json(bounds->lower)}, {"upper", point_json(bounds->upper)}};
    for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
      const Body& body = scene.bodies[i];
      const Aabb box = compute_aabb(body.shape, body.transform);
      Json entry{{"index", i}, {"name", body.name}, {"kind", kind_of(body.shape)}, {"position", point_json(body.transform.position)},
                 {"angle", json_number(body.transform.rotation.angle())}, {"bounds", {{"lower", point_json(box.lower)}, {"upper", point_json(box.upper)}}}};
      if (const auto* polygon = std::get_if<Polygon>(&body.shape)) entry["vertices"] = polygon->count();
      if (const auto* compound = std::get_if<Compound>(&body.shape)) {
        entry["pieces"] = Json::array();
        for (const std::vector<Vec2>& piece : pieces_of(*compound)) {
          Json corners = Json::array();
          for (Vec2 vertex : piece) corners.push_back(point_json(vertex));
          entry["pieces"].push_back(corners);
        }
      }
      document["bodies_detail"].push_back(entry);
    }
    out << document.dump(2) << "\n";
  } else {
    out << "valid scene: " << count_of(scene.bodies.size(), "body", "bodies");
    for (const auto& [kind, count] : kinds) out << ", " << count_of(count, kind, kind + "s");
    out << "\n";
    if (bounds) out << "bounds: " << format_point(bounds->lower) << " to " << format_point(bounds->upper) << "\n";
    for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
      const Body& body = scene.bodies[i];
      out << "  " << i << "  " << kind_of(body.shape);
      if (const auto* polygon = std::get_if<Polygon>(&body.shape)) out << " (" << count_of(polygon->count(), "vertex", "vertices") << ")";
      out << " at " << format_point(body.transform.position) << ", angle " << format_number(body.transform.rotation.angle());
      if (!body.name.empty()) out << "  \"" << body.name << "\"";
      out << "\n";
      if (const auto* compound = std::get_if<Compound>(&body.shape)) {
        const std::vector<std::vector<Vec2>> pieces = pieces_of(*compound);
        out << "      " << count_of(pieces.size(), "convex piece", "convex pieces") << " (body frame):\n";
        for (std::size_t piece = 0; piece < pieces.size(); ++piece) {
          out << "        piece " << piece << ":";
          for (Vec2 vertex : pieces[piece]) out << " " << format_point(vertex);
          out << "\n";
        }
      }
    }
  }
  return out.str();
}

/// Parses the comma-separated value of `option`, which must hold exactly as many finite numbers
/// within coordinate_limit as `names` has comma-separated names (such as "OX,OY,DX,DY"); throws Failure naming the option
/// on anything else.
std::vector<Real> parse_numbers(const std::string& text, const std::string& option, const std::string& names) {
  const std::size_t expected = static_cast<std::size_t>(std::count(names.begin(), names.end(), ',')) + 1;
  const std::string how_many = expected == 2 ? "two" : "four";
  std::vector<Real> numbers;
  std::stringstream stream(text);
  std::string part;
  while (std::getline(stream, part, ',')) {
    char* end = nullptr;
    const double value = std::strtod(part.c_str(), &end);
    if (part.empty() || end != part.c_str() + part.size() || !std::isfinite(value) || !std::isfinite(static_cast<Real>(value))) {
      throw Failure{option + " expects " + how_many + " finite numbers " + names + "; \"" + part + "\" is not one"};
    }
    if (!within_coordinate_limit(static_cast<Real>(value))) {
      throw Failure{option + " " + names + ": " + part + " is beyond " + coordinate_limit_text()};
    }
    numbers.push_back(static_cast<Real>(value));
  }
  if (numbers.size() != expected || (!text.empty() && text.back() == ',')) {
    throw Failure{option + " expects " + how_many + " numbers " + names + ", got \"" + text + "\""};
  }
  return numbers;
}

/// Parses "OX,OY,DX,DY" into a ray.
Ray parse_ray(const std::string& text) {
  const std::vector<Real> numbers = parse_numbers(text, "--ray", "OX,OY,DX,DY");
  return Ray{{numbers[0], numbers[1]}, {numbers[2], numbers[3]}, 1};
}

/// The `minkowski` command; with `motion_text` ("DX,DY", B's world motion that brought it to its
/// pose in the scene), also the exit back along that motion (minkowski_exit).
std::string minkowski_command(const std::string& scene_path, const Scene& scene, int a, int b, const std::string& svg_path,
                               const std::string& motion_text, const std::string& format) {
  const int count = static_cast<int>(scene.bodies.size());
  for (int index : {a, b}) {
    if (index < 0 || index >= count) {
      throw Failure{scene_path + ":0:0: body " + std::to_string(index) + " does not exist (the scene has " +
                    count_of(static_cast<std::size_t>(count), "body", "bodies") + ")"};
    }
  }
  if (a == b) throw Failure{scene_path + ":0:0: bodies A and B must differ"};
  const Body& first = scene.bodies[static_cast<std::size_t>(a)];
  const Body& second = scene.bodies[static_cast<std::size_t>(b)];
  // The Minkowski difference of convex shapes is convex; a concave body has no single one.
  auto convex_shape = [&](const Body& body, int index) {
    return std::visit(
        [&](const auto& shape) -> ConvexShape {
          if constexpr (std::is_same_v<std::decay_t<decltype(shape)>, Compound>) {
            throw Failure{scene_path + ":" + std::to_string(body.line) + ":" + std::to_string(body.column) + ": body " +
                          std::to_string(index) + " is a concave polygon (" +
                          count_of(shape.children().size(), "convex piece", "convex pieces") + "); minkowski needs convex bodies"};
          } else {
            return shape;
          }
        },
        body.shape);
  };
  const ConvexShape shape_a = convex_shape(first, a), shape_b = convex_shape(second, b);
  const Transform b_to_a = inverse_compose(first.transform, second.transform);
  MinkowskiPicture picture;
  picture.difference = minkowski_difference(shape_a, shape_b, b_to_a);
  const GjkResult cores = std::visit(
      [&](const auto& convex_a, const auto& convex_b) { return gjk(convex_a, convex_b, b_to_a, {.trace = &picture.gjk_simplices}); },
      shape_a, shape_b);
  std::optional<EpaResult> expansion;
  if (cores.overlapping) {
    expansion = std::visit(
        [&](const auto& convex_a, const auto& convex_b) {
          return epa(convex_a, convex_b, b_to_a, cores.simplex, {.trace = &picture.epa_polytopes});
        },
        shape_a, shape_b);
  }
  const MinkowskiDifference& difference = picture.difference;
  if (difference.contains_origin) picture.penetration_vector = difference.closest_point;
  std::optional<Result<MinkowskiExit, ExitRefusal>> exit;
  if (!motion_text.empty()) {
    const std::vector<Real> numbers = parse_numbers(motion_text, "--motion", "DX,DY");
    const Vec2 motion{numbers[0], numbers[1]};
    exit = minkowski_exit(shape_a, first.transform, shape_b, second.transform, motion);
    if (exit->has_value()) picture.exit_point = exit->value().fraction * inverse_rotate(first.transform.rotation, motion);
  }
  write_svg(svg_path, minkowski_picture(picture, "Minkowski difference of bodies " + std::to_string(b) + " - " + std::to_string(a)));

  std::ostringstream out;
  if (format == "json") {
    Json document{{"a", a},
                  {"b", b},
                  {"frame", "body a's local frame"},
                  {"hull", Json::array()},
                  {"radius", json_number(difference.radius)},
                  {"contains_origin", difference.contains_origin},
                  {"signed_distance", json_number(difference.signed_distance)},
                  {"closest_point", point_json(difference.closest_point)},
                  {"normal", point_json(difference.normal)},
                  {"gjk_steps", picture.gjk_simplices.size()},
                  {"epa_steps", picture.epa_polytopes.size()}};
    for (Vec2 p : difference.hull) document["hull"].push_back(point_json(p));
    if (exit && exit->has_value()) {
      const MinkowskiExit& found = exit->value();
      document["exit"] = {{"frame", "world"},
                          {"fraction", json_number(found.fraction)},
                          {"translation_b", point_json(found.translation_b)},
                          {"normal", point_json(found.normal)},
                          {"slide", point_json(found.slide)},
                          {"point_in_a_frame", point_json(*picture.exit_point)}};
    } else if (exit) {
      document["exit"] = {{"refused", exit->error().message}};
    }
    out << document.dump(2) << "\n";
  } else {
    out << "Minkowski difference of bodies " << b << " - " << a << " (in body " << a << "'s frame): " << count_of(difference.hull.size(), "hull vertex", "hull vertices")
        << " from " << count_of(difference.all_points.size(), "vertex difference", "vertex differences") << ", rounding " << format_number(difference.radius) << "\n";
    out << (difference.contains_origin ? "contains the origin: overlap, depth " : "excludes the origin: apart, distance ")
        << format_number(std::abs(difference.signed_distance)) << ", normal a to b " << format_point(difference.normal) << "\n";
    out << "GJK: " << count_of(picture.gjk_simplices.size(), "simplex", "simplices");
    if (expansion) out << "; EPA: " << count_of(picture.epa_polytopes.size(), "polytope", "polytopes") << ", core depth " << format_number(expansion->depth);
    out << "\n";
    if (exit && exit->has_value()) {
      const MinkowskiExit& found = exit->value();
      out << "exit back along the motion (world): fraction " << format_number(found.fraction) << ", translation of b "
          << format_point(found.translation_b) << ", normal a to b " << format_point(found.normal) << ", slide " << format_point(found.slide)
          << "\n";
    } else if (exit) {
      out << "no exit back along the motion: " << exit->error().message << "\n";
    }
  }
  return out.str();
}

Json hit_json(const RayReport& report) {
  return {{"hit", true},
          {"body", report.body},
          {"fraction", json_number(report.hit.fraction)},
          {"point", point_json(report.hit.point)},
          {"normal", point_json(report.hit.normal)},
          {"inside", report.hit.inside}};
}

std::string raycast_output(const std::vector<RayReport>& hits, bool all, const std::string& format) {
  std::ostringstream out;
  if (format == "json") {
    Json document;
    if (all) {
      document["hits"] = Json::array();
      for (const RayReport& report : hits) document["hits"].push_back(hit_json(report));
    } else {
      document = hits.empty() ? Json{{"hit", false}} : hit_json(hits.front());
    }
    out << document.dump(2) << "\n";
  } else if (hits.empty()) {
    out << "the ray hits nothing\n";
  } else {
    char line[200];
    std::snprintf(line, sizeof line, "%5s %10s  %-24s %-24s\n", "body", "fraction", "point", "normal");
    out << line;
    for (const RayReport& report : hits) {
      std::snprintf(line, sizeof line, "%5d %10s  %-24s %-24s%s\n", report.body, format_number(report.hit.fraction).c_str(),
                    format_point(report.hit.point).c_str(), format_point(report.hit.normal).c_str(),
                    report.hit.inside ? "  (starts inside)" : "");
      out << line;
    }
  }
  return out.str();
}

std::string cast_output(const std::vector<ImpactReport>& impacts, Real duration, const std::string& format) {
  std::ostringstream out;
  if (format == "json") {
    Json document{{"time", json_number(duration)}, {"hits", Json::array()}};
    for (const ImpactReport& impact : impacts) {
      document["hits"].push_back({{"a", impact.a}, {"b", impact.b}, {"toi", json_number(impact.time)},
                                  {"point", point_json(impact.hit.point)}, {"normal", point_json(impact.hit.normal)}});
    }
    out << document.dump(2) << "\n";
  } else {
    out << count_of(impacts.size(), "pair comes", "pairs come") << " into contact within time " << format_number(duration) << "\n";
    if (!impacts.empty()) {
      char line[200];
      std::snprintf(line, sizeof line, "%5s %5s %12s  %-24s %s\n", "a", "b", "toi", "point", "normal (a to b)");
      out << line;
      for (const ImpactReport& impact : impacts) {
        std::snprintf(line, sizeof line, "%5d %5d %12s  %-24s %s\n", impact.a, impact.b, format_number(impact.time).c_str(),
                      format_point(impact.hit.point).c_str(), format_point(impact.hit.normal).c_str());
        out << line;
      }
    }
  }
  return out.str();
}

/// The `move` command's output: where the mover ends, what is left of the motion, what touches
/// it, and every body met.
std::string move_output(int mover, Vec2 motion, const MoveResult& result, const std::string& format) {
  std::ostringstream out;
  if (format == "json") {
    Json document{{"body", mover},
                  {"motion", point_json(motion)},
                  {"position", point_json(result.transform.position)},
                  {"remaining", point_json(result.remaining)},
                  {"pushed_out", point_json(result.pushed_out)},
                  {"on_floor", result.on_floor},
                  {"floor_normal", result.floor_normal ? point_json(*result.floor_normal) : Json(nullptr)},
                  {"on_wall", result.on_wall},
                  {"on_ceiling", result.on_ceiling},
                  {"iterations", result.iterations},
                  {"status", result.status == IterationStatus::converged ? "converged" : "iteration_cap"},
                  {"path", Json::array()},
                  {"hits", Json::array()}};
    for (Vec2 position : result.path) document["path"].push_back(point_json(position));
    for (const MoveHit& hit : result.hits) {
      document["hits"].push_back({{"body", hit.body.index}, {"point", point_json(hit.point)}, {"normal", point_json(hit.normal)}});
    }
    out << document.dump(2) << "\n";
  } else {
    out << "body " << mover << " moved by " << format_point(motion) << " ends at " << format_point(result.transform.position)
        << ", remaining " << format_point(result.remaining) << "\n";
    if (result.pushed_out != Vec2{}) out << "it started overlapping: pushed out by " << format_point(result.pushed_out) << " first\n";
    out << (result.on_floor ? "on a floor, normal " + format_point(*result.floor_normal) : std::string("not on a floor"))
        << "; on a wall: " << (result.on_wall ? "yes" : "no") << "; on a ceiling: " << (result.on_ceiling ? "yes" : "no") << "\n";
    out << count_of(static_cast<std::size_t>(result.iterations), "round", "rounds")
        << (result.status == IterationStatus::converged ? "" : ", stopped at the --iterations cap with motion left") << "\n";
    if (!result.hits.empty()) {
      char line[200];
      std::snprintf(line, sizeof line, "%5s  %-24s %s\n", "body", "point", "normal (toward the mover)");
      out << line;
      for (const MoveHit& hit : result.hits) {
        std::snprintf(line, sizeof line, "%5u  %-24s %s\n", hit.body.index, format_point(hit.point).c_str(), format_point(hit.normal).c_str());
        out << line;
      }
    }
  }
  return out.str();
}

const char* type_name(BodyType type) {
  switch (type) {
    case BodyType::static_body: return "static";
    case BodyType::kinematic_body: return "kinematic";
    case BodyType::dynamic_body: return "dynamic";
  }
  return "static";
}

/// The `simulate` command's output: the time reached and every body's state, in scene order.
std::string simulate_output(const Scene& scene, const Simulation& simulation, const std::string& format) {
  std::ostringstream out;
  if (format == "json") {
    Json document{{"time", json_number(simulation.time)}, {"steps", simulation.steps}, {"bodies", Json::array()}};
    for (std::size_t i = 0; i < simulation.bodies.size(); ++i) {
      const SimulatedBody& body = simulation.bodies[i];
      document["bodies"].push_back({{"body", i},
                                    {"name", scene.bodies[i].name},
                                    {"type", type_name(body.type)},
                                    {"position", point_json(body.transform.position)},
                                    {"angle", json_number(body.angle)},
                                    {"velocity", point_json(body.velocity)},
                                    {"angular_velocity", json_number(body.angular_velocity)},
                                    {"awake", body.awake}});
    }
    out << document.dump(2) << "\n";
  } else {
    out << "time " << format_number(simulation.time) << " after " << count_of(static_cast<std::size_t>(simulation.steps), "step", "steps")
        << "\n";
    char line[240];
    std::snprintf(line, sizeof line, "%5s  %-9s  %-28s %12s  %-28s %16s  %-5s  %s\n", "body", "type", "position", "angle",
                  "velocity", "angular velocity", "awake", "name");
    out << line;
    for (std::size_t i = 0; i < simulation.bodies.size(); ++i) {
      const SimulatedBody& body = simulation.bodies[i];
      std::snprintf(line, sizeof line, "%5zu  %-9s  %-28s %12s  %-28s %16s  %-5s  %s", i, type_name(body.type),
                    format_point(body.transform.position).c_str(), format_number(body.angle).c_str(), format_point(body.velocity).c_str(),
                    format_number(body.angular_velocity).c_str(), body.awake ? "yes" : "no", scene.bodies[i].name.c_str());
      std::string row = line;
      row.erase(row.find_last_not_of(' ') + 1);  // no padding after the last column when the body has no name
      out << row << "\n";
    }
  }
  return out.str();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"collide2d: check scenes of 2D shapes for overlaps, distances and Minkowski differences"};
  app.require_subcommand(1);
  std::string scene_path, svg_path, format = "text";
  bool all = false, hull = false;
  int body_a = 0, body_b = 0;
  auto common = [&](CLI::App* command, bool steersuite) {
    command->add_option("scene", scene_path, "scene file: .json (collide2d) or .xml (SteerSuite test case)")->required();
    std::vector<std::string> formats = {"text", "json"};
    if (steersuite) formats.push_back("steersuite");
    command->add_option("--format", format, "output format")->check(CLI::IsMember(formats));
    command->add_flag("--hull", hull, "use the convex hull of every polygon's vertices (SteerSuite's behaviour)");
  };
  CLI::App* pairs = app.add_subcommand("pairs", "list the pairs of bodies that overlap or touch");
  common(pairs, true);
  pairs->add_flag("--all", all, "list every pair, including separate ones");
  pairs->add_option("--svg", svg_path, "also draw the scene, contacts and normals to this SVG file");
  CLI::App* distances = app.add_subcommand("distance", "distance and closest points of every pair");
  common(distances, false);
  CLI::App* check = app.add_subcommand("check", "validate a scene and summarise it");
  common(check, false);
  CLI::App* minkowski = app.add_subcommand("minkowski", "picture the Minkowski difference of two bodies, with GJK and EPA steps");
  common(minkowski, false);
  minkowski->add_option("a", body_a, "index of body A")->required();
  minkowski->add_option("b", body_b, "index of body B")->required();
  minkowski->add_option("--svg", svg_path, "the SVG file to draw")->required();
  std::string motion_text;
  minkowski->add_option("--motion", motion_text,
                        "DX,DY: the world motion that brought body B to its pose in the scene; also find the exit back along it");
  std::string ray_text;
  CLI::App* raycast_command = app.add_subcommand("raycast", "what a ray from (OX, OY) along (DX, DY) hits, fraction in [0, 1]");
  common(raycast_command, false);
  raycast_command->add_option("--ray", ray_text, "OX,OY,DX,DY: origin and translation of the ray")->required();
  raycast_command->add_flag("--all", all, "list every body hit, in order of fraction");
  raycast_command->add_option("--svg", svg_path, "also draw the scene, the ray and the hits to this SVG file");
  double duration = 0;
  CLI::App* cast = app.add_subcommand("cast", "when pairs of moving bodies first touch within a time span");
  common(cast, false);
  cast->add_option("--time", duration, "how long every body moves with its velocity and angular velocity")
      ->required()
      ->check(CLI::NonNegativeNumber);
  cast->add_option("--svg", svg_path, "also draw the bodies at their times of impact to this SVG file");

  int mover = 0;
  double max_floor_angle_degrees = 45, skin = MoveOptions{}.skin, snap_distance = 0, step_height = 0;
  int iterations = MoveOptions{}.max_iterations;
  CLI::App* move = app.add_subcommand("move", "move one body by a motion with move_and_slide, every other body fixed");
  common(move, false);
  move->add_option("--body", mover, "index of the body to move")->required();
  move->add_option("--motion", motion_text, "DX,DY: the world motion asked for")->required();
  move->add_option("--max-floor-angle", max_floor_angle_degrees, "degrees from up within which a surface is a floor (default 45)")
      ->check(CLI::Range(0.0, 180.0));
  move->add_option("--skin", skin, "gap kept from every surface, length units (default 0.01)")->check(CLI::NonNegativeNumber);
  move->add_option("--iterations", iterations, "most cast-and-slide rounds (default 8)")->check(CLI::Range(1, 100000));
  move->add_option("--snap", snap_distance, "put a mover that starts on a floor back on it within this distance")->check(CLI::NonNegativeNumber);
  move->add_option("--step", step_height, "highest step climbed when a wall blocks a mover on a floor")->check(CLI::NonNegativeNumber);
  move->add_option("--svg", svg_path, "also draw the bodies, the path, the hits and their normals to this SVG file");

  SimulationOptions simulation_options;
  double time_step = 1.0 / 60;
  std::string gravity_text = "0,-10";
  CLI::App* simulate = app.add_subcommand("simulate", "run the scene's rigid bodies for a number of steps and print their final state");
  common(simulate, false);
  simulate->add_option("--steps", simulation_options.steps,
                       "how many steps to run, 0 to " + std::to_string(simulation_step_limit))
      ->required();
  simulate->add_option("--dt", time_step, "time units per step (default 1/60)");
  simulate->add_option("--gravity", gravity_text, "GX,GY: gravity, length units per time unit squared (default 0,-10)");
  simulate->add_option("--svg", svg_path, "also draw the final state and each moving body's trail to this SVG file");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& help) {
    return app.exit(help);
  } catch (const CLI::CallForAllHelp& help) {
    return app.exit(help);
  } catch (const CLI::ParseError& error) {
    std::cerr << "error: " << error.what() << "\n" << "run 'collide2d --help' for usage\n";
    return exit_error;
  }

  try {
    const Scene scene = load(scene_path, hull);
    std::string output;
    if (pairs->parsed()) {
      const std::vector<PairReport> found = find_pairs(scene, all);
      write_svg(svg_path, pairs_picture(scene, found));
      output = pairs_output(scene, found, format);
    } else if (distances->parsed()) {
      output = distance_output(all_distances(scene), format);
    } else if (check->parsed()) {
      output = check_output(scene, format);
    } else if (raycast_command->parsed()) {
      const Ray ray = parse_ray(ray_text);
      const std::vector<RayReport> hits = cast_ray(scene, ray, all);
      write_svg(svg_path, ray_picture(scene, ray, hits));
      output = raycast_output(hits, all, format);
    } else if (cast->parsed()) {
      if (!std::isfinite(duration) || !std::isfinite(static_cast<Real>(duration))) throw Failure{"--time must be a finite number"};
      const std::vector<ImpactReport> impacts = find_impacts(scene, static_cast<Real>(duration));
      write_svg(svg_path, impacts_picture(scene, impacts, static_cast<Real>(duration)));
      output = cast_output(impacts, static_cast<Real>(duration), format);
    } else if (move->parsed()) {
      const int count = static_cast<int>(scene.bodies.size());
      if (mover < 0 || mover >= count) {
        throw Failure{scene_path + ":0:0: body " + std::to_string(mover) + " does not exist (the scene has " +
                      count_of(static_cast<std::size_t>(count), "body", "bodies") + ")"};
      }
      const std::vector<Real> numbers = parse_numbers(motion_text, "--motion", "DX,DY");
      const Vec2 motion{numbers[0], numbers[1]};
      for (const auto& [name, value] : {std::pair{"--skin", skin}, {"--snap", snap_distance}, {"--step", step_height}}) {
        if (!within_coordinate_limit(static_cast<Real>(value))) throw Failure{std::string(name) + " " + std::to_string(value) + " is beyond " + coordinate_limit_text()};
      }
      MoveOptions options;
      options.max_floor_angle = static_cast<Real>(max_floor_angle_degrees * std::numbers::pi / 180);
      options.skin = static_cast<Real>(skin);
      options.max_iterations = iterations;
      options.snap_distance = static_cast<Real>(snap_distance);
      options.step_height = static_cast<Real>(step_height);
      const MoveResult result = move_body(scene, mover, motion, options);
      write_svg(svg_path, move_picture(scene, mover, motion, result));
      output = move_output(mover, motion, result, format);
    } else if (simulate->parsed()) {
      const std::vector<Real> gravity = parse_numbers(gravity_text, "--gravity", "GX,GY");
      simulation_options.gravity = {gravity[0], gravity[1]};
      simulation_options.time_step = static_cast<Real>(time_step);
      Result<Simulation, SimulationError> simulation = simulate_scene(scene, simulation_options);
      if (!simulation) {
        const SimulationError& error = simulation.error();
        if (error.body < 0) throw Failure{error.message};
        const Body& body = scene.bodies[static_cast<std::size_t>(error.body)];
        throw Failure{scene_path + ":" + std::to_string(body.line) + ":" + std::to_string(body.column) + ": body " +
                      std::to_string(error.body) + ": " + error.message};
      }
      write_svg(svg_path, simulation_picture(scene, simulation.value()));
      output = simulate_output(scene, simulation.value(), format);
    } else {
      output = minkowski_command(scene_path, scene, body_a, body_b, svg_path, motion_text, format);
    }
    std::cout << output << std::flush;
    return std::cout ? 0 : exit_error;
  } catch (const Failure& failure) {
    std::cerr << "error: " << failure.message << "\n";
    return exit_error;
  } catch (const std::exception& unexpected) {
    std::cerr << "error: " << scene_path << ":0:0: " << unexpected.what() << "\n";
    return exit_error;
  }
}

// svg.cpp — the SVG canvas and the two pictures the command draws.
//
// Rounded outlines (rounded polygons, capsules) are drawn exactly: each core edge pushed out by
// the radius, joined by circular arcs around the core vertices, so what the picture shows is the
// shape the queries see.
#include "collide2d/io/svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "collide2d/io/text.hpp"

namespace collide2d::io {
namespace {

std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f", value);
  return buffer;
}

std::string escape(std::string_view text) {
  std::string escaped;
  for (char c : text) {
    switch (c) {
      case '&': escaped += "&amp;"; break;
      case '<': escaped += "&lt;"; break;
      case '>': escaped += "&gt;"; break;
      case '"': escaped += "&quot;"; break;
      default: escaped += c;
    }
  }
  return escaped;
}

Aabb grown(Aabb box, Real amount) { return {box.lower - Vec2{amount, amount}, box.upper + Vec2{amount, amount}}; }

}  // namespace

SvgCanvas::SvgCanvas(Aabb world, double width_pixels) : width_(width_pixels) {
  Vec2 extent = world.upper - world.lower;
  const Real largest = std::max({extent.x, extent.y, Real(1e-6)});
  world = grown(world, Real(0.08) * largest);
  if (extent.x < largest * Real(0.25)) world = {world.lower - Vec2{largest * Real(0.125), 0}, world.upper + Vec2{largest * Real(0.125), 0}};
  if (extent.y < largest * Real(0.25)) world = {world.lower - Vec2{0, largest * Real(0.125)}, world.upper + Vec2{0, largest * Real(0.125)}};
  world_ = world;
  extent = world.upper - world.lower;
  scale_ = width_pixels / double(extent.x);
  height_ = double(extent.y) * scale_;
}

double SvgCanvas::screen_x(Real x) const { return (double(x) - double(world_.lower.x)) * scale_; }
double SvgCanvas::screen_y(Real y) const { return (double(world_.upper.y) - double(y)) * scale_; }

void SvgCanvas::polygon(std::span<const Vec2> points, std::string_view fill, std::string_view stroke, double stroke_pixels,
                        double fill_opacity) {
  body_ += "<polygon points=\"";
  for (Vec2 p : points) body_ += number(screen_x(p.x)) + "," + number(screen_y(p.y)) + " ";
  body_ += "\" fill=\"" + std::string(fill) + "\" fill-opacity=\"" + number(fill_opacity) + "\" stroke=\"" + std::string(stroke) +
           "\" stroke-width=\"" + number(stroke_pixels) + "\" stroke-linejoin=\"round\"/>\n";
}

std::string SvgCanvas::path_of_rounded(std::span<const Vec2> core, Real radius, const Transform& transform) const {
  std::vector<Vec2> points;
  for (Vec2 p : core) points.push_back(transform_point(transform, p));
  const std::size_t n = points.size();
  std::vector<Vec2> normals(n);
  for (std::size_t i = 0; i < n; ++i) normals[i] = normalize(right_perpendicular(points[(i + 1) % n] - points[i]));
  const std::string r = number(double(radius) * scale_);
  auto at = [&](Vec2 p) { return number(screen_x(p.x)) + " " + number(screen_y(p.y)); };
  std::string path = "M " + at(points[0] + radius * normals[n - 1]);
  for (std::size_t i = 0; i < n; ++i) {
    // The arc turns counter-clockwise in the world, which the flipped screen shows as
    // counter-clockwise in SVG's angle sense too (sweep flag 0): y and the angle both flip.
    path += " A " + r + " " + r + " 0 0 0 " + at(points[i] + radius * normals[i]);
    path += " L " + at(points[(i + 1) % n] + radius * normals[i]);
  }
  return path + " Z";
}

void SvgCanvas::shape(const Shape& shape, const Transform& transform, std::string_view fill, std::string_view stroke,
                      double stroke_pixels, double fill_opacity) {
  const std::string paint = "fill=\"" + std::string(fill) + "\" fill-opacity=\"" + number(fill_opacity) + "\" stroke=\"" +
                            std::string(stroke) + "\" stroke-width=\"" + number(stroke_pixels) + "\"";
  if (const auto* circle = std::get_if<Circle>(&shape)) {
    const Vec2 center = transform_point(transform, circle->center);
    body_ += "<circle cx=\"" + number(screen_x(center.x)) + "\" cy=\"" + number(screen_y(center.y)) + "\" r=\"" +
             number(std::max(double(circle->radius) * scale_, 1.5)) + "\" " + paint + "/>\n";
    if (circle->radius > 0) line(center, transform_point(transform, circle->center + Vec2{circle->radius, 0}), stroke, 1);  // shows the turn
  } else if (const auto* segment = std::get_if<Segment>(&shape)) {
    line(transform_point(transform, segment->a), transform_point(transform, segment->b), stroke, std::max(stroke_pixels, 2.0));
  } else if (const auto* capsule = std::get_if<Capsule>(&shape)) {
    const std::array<Vec2, 2> core = {capsule->a, capsule->b};
    if (capsule->radius > 0 && !(capsule->a == capsule->b)) {
      body_ += "<path d=\"" + path_of_rounded(core, capsule->radius, transform) + "\" " + paint + "/>\n";
    } else if (capsule->radius > 0) {
      this->shape(Circle{capsule->a, capsule->radius}, transform, fill, stroke, stroke_pixels, fill_opacity);
    } else {
      line(transform_point(transform, capsule->a), transform_point(transform, capsule->b), stroke, std::max(stroke_pixels, 2.0));
    }
  } else if (const auto* compound = std::get_if<Compound>(&shape)) {
    // Pieces filled without outlines, then the outline strongly and the seams between pieces faintly.
    const auto children = compound->children();
    for (const CompoundChild& child : children) {
      std::visit([&](const auto& piece) { this->shape(piece, compose(transform, child.transform), fill, "none", 0, fill_opacity); }, child.shape);
    }
    for (std::size_t i = 0; i < children.size(); ++i) {
      const Transform placed = compose(transform, children[i].transform);
      const auto* polygon = std::get_if<Polygon>(&children[i].shape);
      if (polygon == nullptr) {
        std::visit([&](const auto& piece) { this->shape(piece, placed, "none", stroke, stroke_pixels, 0); }, children[i].shape);
        continue;
      }
      for (int edge = 0; edge < polygon->count(); ++edge) {
        const Vec2 from = transform_point(placed, polygon->vertices()[edge]);
        const Vec2 to = transform_point(placed, polygon->vertices()[(edge + 1) % polygon->count()]);
        if (compound->is_internal_edge(static_cast<int>(i), edge)) {
          line(from, to, stroke, std::max(stroke_pixels * 0.4, 0.5), "3 3", 0.35);
        } else {
          line(from, to, stroke, stroke_pixels);
        }
      }
    }
  } else {
    const Polygon& polygon = std::get<Polygon>(shape);
    if (polygon.radius() > 0) {
      body_ += "<path d=\"" + path_of_rounded(polygon.vertices(), polygon.radius(), transform) + "\" " + paint + "/>\n";
    } else {
      std::vector<Vec2> points;
      for (Vec2 p : polygon.vertices()) points.push_back(transform_point(transform, p));
      this->polygon(points, fill, stroke, stroke_pixels, fill_opacity);
    }
  }
}

void SvgCanvas::line(Vec2 from, Vec2 to, std::string_view stroke, double stroke_pixels, std::string_view dash, double opacity) {
  body_ += "<line x1=\"" + number(screen_x(from.x)) + "\" y1=\"" + number(screen_y(from.y)) + "\" x2=\"" + number(screen_x(to.x)) +
           "\" y2=\"" + number(screen_y(to.y)) + "\" stroke=\"" + std::string(stroke) + "\" stroke-width=\"" + number(stroke_pixels) +
           "\" stroke-linecap=\"round\"" + (dash.empty() ? std::string() : " stroke-dasharray=\"" + std::string(dash) + "\"") +
           (opacity < 1 ? " stroke-opacity=\"" + number(opacity) + "\"" : std::string()) + "/>\n";
}

void SvgCanvas::polyline(std::span<const Vec2> points, std::string_view stroke, double stroke_pixels, double opacity) {
  if (points.size() < 2) return;
  body_ += "<polyline points=\"";
  double last_x = screen_x(points[0].x), last_y = screen_y(points[0].y);
  body_ += number(last_x) + "," + number(last_y) + " ";
  for (std::size_t i = 1; i < points.size(); ++i) {
    const double x = screen_x(points[i].x), y = screen_y(points[i].y);
    if (i + 1 < points.size() && std::hypot(x - last_x, y - last_y) < 0.5) continue;  // within half a pixel of the last point drawn
    body_ += number(x) + "," + number(y) + " ";
    last_x = x;
    last_y = y;
  }
  body_ += "\" fill=\"none\" stroke=\"" + std::string(stroke) + "\" stroke-width=\"" + number(stroke_pixels) +
           "\" stroke-linejoin=\"round\" stroke-linecap=\"round\"" +
           (opacity < 1 ? " stroke-opacity=\"" + number(opacity) + "\"" : std::string()) + "/>\n";
}

void SvgCanvas::arrow(Vec2 from, Vec2 to, std::string_view stroke, double stroke_pixels) {
  line(from, to, stroke, stroke_pixels);
  // The head, built on screen so it keeps its size.
  const double x1 = screen_x(from.x), y1 = screen_y(from.y), x2 = screen_x(to.x), y2 = screen_y(to.y);
  const double length = std::hypot(x2 - x1, y2 - y1);
  if (length < 1e-9) return;
  const double ux = (x2 - x1) / length, uy = (y2 - y1) / length, head = 4 + 2 * stroke_pixels;
  body_ += "<polygon points=\"" + number(x2) + "," + number(y2) + " " + number(x2 - head * ux - 0.5 * head * uy) + "," +
           number(y2 - head * uy + 0.5 * head * ux) + " " + number(x2 - head * ux + 0.5 * head * uy) + "," +
           number(y2 - head * uy - 0.5 * head * ux) + "\" fill=\"" + std::string(stroke) + "\"/>\n";
}

void SvgCanvas::dot(Vec2 at, double radius_pixels, std::string_view fill) {
  body_ += "<circle cx=\"" + number(screen_x(at.x)) + "\" cy=\"" + number(screen_y(at.y)) + "\" r=\"" + number(radius_pixels) +
           "\" fill=\"" + std::string(fill) + "\"/>\n";
}

void SvgCanvas::text(Vec2 at, std::string_view content, double size_pixels, std::string_view fill, double dx_pixels, double dy_pixels) {
  body_ += "<text x=\"" + number(screen_x(at.x) + dx_pixels) + "\" y=\"" + number(screen_y(at.y) + dy_pixels) +
           "\" font-family=\"sans-serif\" font-size=\"" + number(size_pixels) + "\" fill=\"" + std::string(fill) + "\">" +
           escape(content) + "</text>\n";
}

void SvgCanvas::axes_and_scale() {
  const std::string axis_colour = "#9aa0a6";
  if (world_.lower.y <= 0 && 0 <= world_.upper.y) line({world_.lower.x, 0}, {world_.upper.x, 0}, axis_colour, 1, "6 4");
  if (world_.lower.x <= 0 && 0 <= world_.upper.x) line({0, world_.lower.y}, {0, world_.upper.y}, axis_colour, 1, "6 4");
  if (world_.lower.y <= 0 && 0 <= world_.upper.y) text({world_.upper.x, 0}, "x", 12, axis_colour, -12, -4);
  if (world_.lower.x <= 0 && 0 <= world_.upper.x) text({0, world_.upper.y}, "y", 12, axis_colour, 4, 14);
  // A scale bar of a round length, about a fifth of the width, in the bottom-right corner.
  const double target = double(world_.upper.x - world_.lower.x) / 5;
  const double decade = std::pow(10.0, std::floor(std::log10(target)));
  double bar = decade;
  for (double factor : {2.0, 5.0, 10.0}) {
    if (decade * factor <= target) bar = decade * factor;
  }
  const double right = width_ - 20, bottom = height_ - 16, left = right - bar * scale_;
  body_ += "<path d=\"M " + number(left) + " " + number(bottom - 5) + " V " + number(bottom) + " H " + number(right) + " V " +
           number(bottom - 5) + "\" fill=\"none\" stroke=\"#333\" stroke-width=\"1.5\"/>\n";
  std::ostringstream label;
  label << bar;
  body_ += "<text x=\"" + number((left + right) / 2) + "\" y=\"" + number(bottom - 8) +
           "\" font-family=\"sans-serif\" font-size=\"12\" fill=\"#333\" text-anchor=\"middle\">" + escape(label.str()) + " units</text>\n";
}

void SvgCanvas::legend(const std::vector<std::pair<std::string, std::string>>& colour_and_label) {
  const double row = 18, box_height = row * double(colour_and_label.size()) + 10;
  body_ += "<rect x=\"8\" y=\"8\" width=\"230\" height=\"" + number(box_height) +
           "\" fill=\"white\" fill-opacity=\"0.85\" stroke=\"#bbb\"/>\n";
  for (std::size_t i = 0; i < colour_and_label.size(); ++i) {
    const double y = 16 + row * double(i);
    body_ += "<rect x=\"16\" y=\"" + number(y) + "\" width=\"14\" height=\"12\" fill=\"" + colour_and_label[i].first + "\"/>\n";
    body_ += "<text x=\"38\" y=\"" + number(y + 10) + "\" font-family=\"sans-serif\" font-size=\"12\" fill=\"#222\">" +
             escape(colour_and_label[i].second) + "</text>\n";
  }
}

std::string SvgCanvas::finish(std::string_view title) const {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + number(width_) +
         "\" height=\"" + number(height_) + "\" viewBox=\"0 0 " + number(width_) + " " + number(height_) + "\">\n<title>" +
         escape(title) + "</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n" + body_ + "</svg>\n";
}

namespace {
/// The box holding every body of the scene at its start pose ([-1, 1]^2 for an empty scene).
Aabb scene_bounds(const Scene& scene) {
  std::optional<Aabb> bounds;
  for (const Body& body : scene.bodies) {
    const Aabb box = compute_aabb(body.shape, body.transform);
    bounds = bounds ? bounds->merged(box) : box;
  }
  return bounds.value_or(Aabb{{-1, -1}, {1, 1}});
}

/// Writes body `index`'s number at the centre of its bounding box at `transform`.
void label_body(SvgCanvas& canvas, const Body& body, const Transform& transform, std::size_t index) {
  canvas.text(compute_aabb(body.shape, transform).center(), std::to_string(index), 12, "#222", -4, 4);
}

/// How a scene body is drawn in the pairs, ray and move pictures.
enum class BodyMark { plain, touched, overlapping };

/// Draws every scene body but `left_out` (-1: none) at its scene pose, coloured by
/// `mark_of(index)` (blue plain, orange touched, red overlapping), with its number.
template <class MarkOf>
void draw_scene_bodies(SvgCanvas& canvas, const Scene& scene, const MarkOf& mark_of, int left_out = -1) {
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    if (static_cast<int>(i) == left_out) continue;
    const Body& body = scene.bodies[i];
    const BodyMark mark = mark_of(i);
    canvas.shape(body.shape, body.transform, mark == BodyMark::overlapping ? "#f4a6a6" : mark == BodyMark::touched ? "#f9d79b" : "#cfe3f5",
                 mark == BodyMark::overlapping ? "#c0392b" : mark == BodyMark::touched ? "#d68910" : "#2c6fad", 1.5, 0.75);
    label_body(canvas, body, body.transform, i);
  }
}
}  // namespace

std::string pairs_picture(const Scene& scene, const std::vector<PairReport>& pairs) {
  SvgCanvas canvas(scene_bounds(scene));
  canvas.axes_and_scale();
  std::vector<PairStatus> worst(scene.bodies.size(), PairStatus::separate);
  for (const PairReport& pair : pairs) {
    for (int body : {pair.a, pair.b}) {
      if (pair.status == PairStatus::overlap || (pair.status == PairStatus::touching && worst[body] == PairStatus::separate)) {
        worst[body] = pair.status;
      }
    }
  }
  draw_scene_bodies(canvas, scene, [&](std::size_t i) {
    return worst[i] == PairStatus::overlap ? BodyMark::overlapping : worst[i] == PairStatus::touching ? BodyMark::touched : BodyMark::plain;
  });
  for (const PairReport& pair : pairs) {
    for (const ManifoldPoint& contact : pair.contacts) {
      if (pair.status == PairStatus::separate) continue;
      canvas.arrow(contact.point, contact.point + pair.depth * pair.normal, "#6c3483", 2);
      canvas.dot(contact.point, 3.5, "#111");
    }
  }
  canvas.legend({{"#f4a6a6", "overlapping body"},
                 {"#f9d79b", "touching body"},
                 {"#cfe3f5", "body apart from all others"},
                 {"#111", "contact point"},
                 {"#6c3483", "normal a to b, length = depth"}});
  return canvas.finish("collide2d pairs: " + count_of(scene.bodies.size(), "body", "bodies"));
}

std::string ray_picture(const Scene& scene, const Ray& ray, const std::vector<RayReport>& hits) {
  const Vec2 end = ray.origin + ray.max_fraction * ray.translation;
  const Aabb bodies = scene_bounds(scene);
  SvgCanvas canvas(bodies.merged({min(ray.origin, end), max(ray.origin, end)}));
  canvas.axes_and_scale();
  draw_scene_bodies(canvas, scene, [&](std::size_t i) {
    const bool hit = std::any_of(hits.begin(), hits.end(), [&](const RayReport& report) { return report.body == int(i); });
    return hit ? BodyMark::touched : BodyMark::plain;
  });
  const Vec2 first = hits.empty() ? end : hits.front().hit.point;
  canvas.line(ray.origin, end, "#c0392b", 1.5, "6 4");
  canvas.arrow(ray.origin, first, "#c0392b", 2);
  canvas.dot(ray.origin, 4, "#c0392b");
  const Real normal_length = Real(0.08) * length(bodies.upper - bodies.lower);
  for (const RayReport& report : hits) {
    canvas.arrow(report.hit.point, report.hit.point + normal_length * report.hit.normal, "#6c3483", 2);
    canvas.dot(report.hit.point, 4, "#111");
  }
  canvas.legend({{"#c0392b", "ray (solid to the first hit)"},
                 {"#f9d79b", "body the ray hits"},
                 {"#111", "hit point"},
                 {"#6c3483", "surface normal at the hit"}});
  return canvas.finish("collide2d raycast: " + count_of(hits.size(), "hit", "hits"));
}

std::string move_picture(const Scene& scene, int mover, Vec2 motion, const MoveResult& result) {
  const Body& moving = scene.bodies[static_cast<std::size_t>(mover)];
  const Transform start = moving.transform;
  const Vec2 wanted = start.position + motion;
  Aabb bounds = scene_bounds(scene).merged(compute_aabb(moving.shape, result.transform));
  bounds = bounds.merged({min(start.position, wanted), max(start.position, wanted)});
  SvgCanvas canvas(bounds);
  canvas.axes_and_scale();
  draw_scene_bodies(
      canvas, scene,
      [&](std::size_t i) {
        const bool hit = std::any_of(result.hits.begin(), result.hits.end(), [&](const MoveHit& met) { return met.body.index == i; });
        return hit ? BodyMark::touched : BodyMark::plain;
      },
      mover);
  canvas.shape(moving.shape, start, "#a9dfbf", "#1e8449", 1, 0.35);
  canvas.shape(moving.shape, result.transform, "#a9dfbf", "#1e8449", 2, 0.85);
  label_body(canvas, moving, result.transform, static_cast<std::size_t>(mover));
  canvas.line(start.position, wanted, "#7f8c8d", 1.5, "6 4");
  for (std::size_t i = 1; i < result.path.size(); ++i) canvas.arrow(result.path[i - 1], result.path[i], "#c0392b", 2);
  canvas.dot(start.position, 4, "#c0392b");
  const Real normal_length = Real(0.08) * length(bounds.upper - bounds.lower);
  for (const MoveHit& met : result.hits) {
    canvas.arrow(met.point, met.point + normal_length * met.normal, "#6c3483", 2);
    canvas.dot(met.point, 4, "#111");
  }
  canvas.legend({{"#7f8c8d", "motion asked for"},
                 {"#c0392b", "path taken (one arrow a round)"},
                 {"#a9dfbf", "mover: start (faint) and end"},
                 {"#111", "hit point"},
                 {"#6c3483", "normal, obstacle toward mover"}});
  return canvas.finish("collide2d move: body " + std::to_string(mover) + ", " + count_of(result.hits.size(), "hit", "hits"));
}

std::string impacts_picture(const Scene& scene, const std::vector<ImpactReport>& impacts, Real duration) {
  std::vector<std::optional<Real>> earliest(scene.bodies.size());
  for (const ImpactReport& impact : impacts) {
    for (int body : {impact.a, impact.b}) {
      if (!earliest[body] || impact.time < *earliest[body]) earliest[body] = impact.time;
    }
  }
  std::vector<Sweep> sweeps;
  Aabb bounds = scene_bounds(scene);
  for (const Body& body : scene.bodies) {
    sweeps.push_back(Sweep::from_motion(body.transform, body.velocity, body.angular_velocity, duration));
    bounds = bounds.merged(compute_aabb(body.shape, sweeps.back().at(1)));
  }
  SvgCanvas canvas(bounds);
  canvas.axes_and_scale();
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    const Body& body = scene.bodies[i];
    canvas.shape(body.shape, body.transform, "#cfe3f5", "#7fa7c9", 1, 0.35);
    const Real fraction = earliest[i] && duration > 0 ? *earliest[i] / duration : Real(1);
    canvas.line(sweeps[i].center_start, sweeps[i].at(fraction).position, "#7f8c8d", 1, "4 3");
    if (earliest[i]) {
      canvas.shape(body.shape, sweeps[i].at(fraction), "#f4a6a6", "#c0392b", 1.5, 0.7);
      label_body(canvas, body, sweeps[i].at(fraction), i);
    } else {
      label_body(canvas, body, body.transform, i);
    }
  }
  const Real normal_length = Real(0.06) * length(bounds.upper - bounds.lower);
  for (const ImpactReport& impact : impacts) {
    canvas.arrow(impact.hit.point, impact.hit.point + normal_length * impact.hit.normal, "#6c3483", 2);
    canvas.dot(impact.hit.point, 3.5, "#111");
  }
  canvas.legend({{"#cfe3f5", "bodies at time 0"},
                 {"#f4a6a6", "bodies at their first contact"},
                 {"#7f8c8d", "path of each body's origin"},
                 {"#111", "contact point"},
                 {"#6c3483", "normal a to b"}});
  return canvas.finish("collide2d cast: " + count_of(impacts.size(), "contact", "contacts"));
}

std::string simulation_picture(const Scene& scene, const Simulation& simulation) {
  Aabb bounds = scene_bounds(scene);
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    const SimulatedBody& simulated = simulation.bodies[i];
    bounds = bounds.merged(compute_aabb(scene.bodies[i].shape, simulated.transform));
    for (Vec2 point : simulated.trail) bounds = bounds.merged({point, point});
  }
  SvgCanvas canvas(bounds);
  canvas.axes_and_scale();
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    const Body& body = scene.bodies[i];
    if (body.type != BodyType::static_body) canvas.shape(body.shape, body.transform, "#a9dfbf", "#1e8449", 1, 0.2);
  }
  int sleeping = 0;
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    const Body& body = scene.bodies[i];
    const SimulatedBody& simulated = simulation.bodies[i];
    if (body.type == BodyType::static_body) {
      canvas.shape(body.shape, simulated.transform, "#cfe3f5", "#2c6fad", 1.5, 0.75);
    } else if (body.type == BodyType::kinematic_body) {
      canvas.shape(body.shape, simulated.transform, "#f9d79b", "#d68910", 1.5, 0.8);
    } else if (simulated.awake) {
      canvas.shape(body.shape, simulated.transform, "#a9dfbf", "#1e8449", 1.5, 0.85);
    } else {
      ++sleeping;
      canvas.shape(body.shape, simulated.transform, "#d5d8dc", "#566573", 1.5, 0.85);
    }
  }
  for (const SimulatedBody& simulated : simulation.bodies) canvas.polyline(simulated.trail, "#c0392b", 1.5, 0.8);
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) label_body(canvas, scene.bodies[i], simulation.bodies[i].transform, i);
  canvas.legend({{"#cfe3f5", "static body"},
                 {"#a9dfbf", "dynamic body: start (faint) and end"},
                 {"#d5d8dc", "dynamic body asleep at the end"},
                 {"#f9d79b", "kinematic body"},
                 {"#c0392b", "trail of each centre of mass"}});
  char time[32];
  std::snprintf(time, sizeof time, "%g", double(simulation.time));
  return canvas.finish("collide2d simulate: " + count_of(static_cast<std::size_t>(simulation.steps), "step", "steps") + ", time " +
                       time + ", " + count_of(static_cast<std::size_t>(sleeping), "body", "bodies") + " asleep");
}

std::string minkowski_picture(const MinkowskiPicture& picture, std::string_view title) {
  const MinkowskiDifference& difference = picture.difference;
  Aabb bounds{{0, 0}, {0, 0}};
  for (Vec2 p : difference.all_points) bounds = bounds.merged({p, p});
  bounds = grown(bounds, difference.radius);
  SvgCanvas canvas(bounds);
  canvas.axes_and_scale();
  if (difference.hull.size() >= 3 || difference.radius > 0) {
    if (difference.hull.size() >= 3) {
      if (Result<Polygon> hull = make_polygon(difference.hull, difference.radius)) {
        canvas.shape(std::move(hull).value(), Transform{}, "#d6eaf8", "#1f618d", 2, 0.6);
      }
    } else if (difference.hull.size() == 2) {
      canvas.shape(Capsule{difference.hull[0], difference.hull[1], difference.radius}, Transform{}, "#d6eaf8", "#1f618d", 2, 0.6);
    } else if (difference.hull.size() == 1) {
      canvas.shape(Circle{difference.hull[0], difference.radius}, Transform{}, "#d6eaf8", "#1f618d", 2, 0.6);
    }
    if (difference.radius > 0 && difference.hull.size() >= 2) {
      canvas.polygon(difference.hull, "none", "#1f618d", 1, 0);  // the core hull inside the rounding
    }
  } else if (difference.hull.size() == 2) {
    canvas.line(difference.hull[0], difference.hull[1], "#1f618d", 2);
  }
  for (Vec2 p : difference.all_points) canvas.dot(p, 2, "#7f8c8d");
  for (std::size_t step = 0; step < picture.gjk_simplices.size(); ++step) {
    const Simplex& simplex = picture.gjk_simplices[step];
    std::vector<Vec2> points;
    for (int i = 0; i < simplex.count; ++i) points.push_back(simplex.vertices[i].point);
    const bool last = step + 1 == picture.gjk_simplices.size();
    if (points.size() == 1) canvas.dot(points[0], last ? 5 : 3.5, "#27ae60");
    if (points.size() >= 2) canvas.polygon(points, "none", "#27ae60", last ? 2.5 : 1.2, 0);
    if (!points.empty()) canvas.text(points.back(), "GJK " + std::to_string(step + 1), 10, "#1e8449", 5, -5);
  }
  for (std::size_t step = 0; step < picture.epa_polytopes.size(); ++step) {
    const bool last = step + 1 == picture.epa_polytopes.size();
    canvas.polygon(picture.epa_polytopes[step], "none", "#e67e22", last ? 2.5 : 1, 0);
  }
  canvas.dot({0, 0}, 4.5, "#000");
  canvas.text({0, 0}, "origin", 12, "#000", 6, 14);
  if (picture.penetration_vector) canvas.arrow({0, 0}, *picture.penetration_vector, "#c0392b", 2.5);
  if (picture.exit_point) canvas.arrow({0, 0}, *picture.exit_point, "#8e44ad", 2.5);
  std::vector<std::pair<std::string, std::string>> legend = {{"#d6eaf8", "Minkowski difference B - A"},
                                                              {"#7f8c8d", "vertex differences b - a"},
                                                              {"#000", "origin (inside: overlap)"},
                                                              {"#27ae60", "GJK simplices"}};
  if (!picture.epa_polytopes.empty()) legend.push_back({"#e67e22", "EPA polytopes (last is bold)"});
  if (picture.penetration_vector) legend.push_back({"#c0392b", "penetration vector (-depth * normal)"});
  if (picture.exit_point) legend.push_back({"#8e44ad", "exit along B's motion (fraction * motion)"});
  canvas.legend(legend);
  return canvas.finish(title);
}

std::string write_file_atomically(const std::string& path, std::string_view contents) {
  const std::string temporary = path + ".partial";
  {
    std::ofstream stream(temporary, std::ios::binary | std::ios::trunc);
    if (!stream) return "cannot write " + path;
    stream.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    stream.close();
    if (!stream) {
      std::filesystem::remove(temporary);
      return "cannot write " + path;
    }
  }
  std::error_code failure;
  std::filesystem::rename(temporary, path, failure);
  if (failure) {
    std::filesystem::remove(temporary);
    return "cannot write " + path + ": " + failure.message();
  }
  return {};
}

}  // namespace collide2d::io

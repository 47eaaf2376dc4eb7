// drawing.cpp — camera arithmetic, shape outlines, the grid and number formatting for the demo.
//
// Outline: painted_over (source-over blending, for tests that predict pixel colours); Camera's
// mappings, pan, zoom and fit; rounded_outline (each core edge pushed out by the radius, joined
// by arcs around the core vertices, so the drawn outline is the shape the queries see); shape
// outlines and draw_shape; the grid; format_number.
#include "drawing.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

namespace collide2d::demo {

Colour painted_over(Colour colour, Colour below) {
  const double alpha = colour.alpha / 255.0;
  auto channel = [&](std::uint8_t top, std::uint8_t bottom) {
    return static_cast<std::uint8_t>(std::lround(alpha * top + (1 - alpha) * bottom));
  };
  return {channel(colour.red, below.red), channel(colour.green, below.green), channel(colour.blue, below.blue), 255};
}

ScreenPoint Camera::to_screen(Vec2 world) const {
  return {(double(world.x) - double(center.x)) * pixels_per_unit + width / 2.0,
          height / 2.0 - (double(world.y) - double(center.y)) * pixels_per_unit};
}

Vec2 Camera::to_world(ScreenPoint screen) const {
  return {static_cast<Real>(double(center.x) + (screen.x - width / 2.0) / pixels_per_unit),
          static_cast<Real>(double(center.y) + (height / 2.0 - screen.y) / pixels_per_unit)};
}

void Camera::pan_pixels(double dx, double dy) {
  center = center + Vec2{static_cast<Real>(-dx / pixels_per_unit), static_cast<Real>(dy / pixels_per_unit)};
}

void Camera::zoom_at(ScreenPoint screen, double factor) {
  if (!(factor > 0) || !std::isfinite(factor)) return;
  const Vec2 fixed = to_world(screen);
  pixels_per_unit = std::clamp(pixels_per_unit * factor, 2.0, 5000.0);
  // Move the centre so that `fixed` is under `screen` again.
  const Vec2 now = to_world(screen);
  center = center + (fixed - now);
}

void Camera::fit(const Aabb& box) {
  center = box.center();
  const double extent_x = std::max(double(box.upper.x - box.lower.x), 1e-3);
  const double extent_y = std::max(double(box.upper.y - box.lower.y), 1e-3);
  pixels_per_unit = std::clamp(0.7 * std::min(width / extent_x, height / extent_y), 2.0, 5000.0);
}

std::vector<Vec2> rounded_outline(std::span<const Vec2> core, Real radius) {
  std::vector<Vec2> outline;
  if (core.empty()) return outline;
  if (radius <= 0) return {core.begin(), core.end()};
  const double step = 7.5 * std::numbers::pi / 180;
  auto arc = [&](Vec2 center, double from_angle, double to_angle) {
    while (to_angle < from_angle) to_angle += 2 * std::numbers::pi;
    const int pieces = std::max(1, static_cast<int>(std::ceil((to_angle - from_angle) / step)));
    for (int i = 0; i <= pieces; ++i) {
      const double angle = from_angle + (to_angle - from_angle) * i / pieces;
      outline.push_back(center + radius * Vec2{static_cast<Real>(std::cos(angle)), static_cast<Real>(std::sin(angle))});
    }
  };
  if (core.size() == 1) {
    arc(core[0], 0, 2 * std::numbers::pi - step);
    return outline;
  }
  // Outward normal of edge i (from core[i] to core[i + 1]) of a counter-clockwise core; a
  // segment's two ends make a two-edge "polygon" going there and back.
  const std::size_t count = core.size();
  auto normal_angle = [&](std::size_t edge) {
    const Vec2 direction = core[(edge + 1) % count] - core[edge];
    const Vec2 normal = right_perpendicular(direction);
    return std::atan2(double(normal.y), double(normal.x));
  };
  for (std::size_t i = 0; i < count; ++i) arc(core[i], normal_angle((i + count - 1) % count), normal_angle(i));
  return outline;
}

std::vector<Vec2> core_points(const ConvexShape& shape) {
  if (const auto* circle = std::get_if<Circle>(&shape)) return {circle->center};
  if (const auto* capsule = std::get_if<Capsule>(&shape)) return {capsule->a, capsule->b};
  if (const auto* segment = std::get_if<Segment>(&shape)) return {segment->a, segment->b};
  const auto vertices = std::get<Polygon>(shape).vertices();
  return {vertices.begin(), vertices.end()};
}

std::vector<Vec2> shape_outline(const ConvexShape& shape, const Transform& transform) {
  std::vector<Vec2> core = core_points(shape);
  const Real radius = std::visit([](const auto& convex) { return convex.rounding_radius(); }, shape);
  std::vector<Vec2> outline = rounded_outline(core, radius);
  for (Vec2& point : outline) point = transform_point(transform, point);
  return outline;
}

namespace {

void draw_convex(DrawList& list, const ConvexShape& shape, const Transform& transform, Colour fill, Colour outline, double outline_pixels) {
  if (const auto* segment = std::get_if<Segment>(&shape)) {
    list.add(Polyline{{transform_point(transform, segment->a), transform_point(transform, segment->b)}, false, outline,
                      std::max(outline_pixels, 3.0)});
    return;
  }
  std::vector<Vec2> points = shape_outline(shape, transform);
  if (fill.alpha > 0) list.add(FilledPolygon{points, fill});
  if (outline_pixels > 0) list.add(Polyline{std::move(points), true, outline, outline_pixels});
}

}  // namespace

void draw_shape(DrawList& list, const Shape& shape, const Transform& transform, Colour fill, Colour outline, double outline_pixels) {
  const auto* compound = std::get_if<Compound>(&shape);
  if (compound == nullptr) {
    std::visit(
        [&](const auto& convex) {
          if constexpr (!std::is_same_v<std::decay_t<decltype(convex)>, Compound>) {
            draw_convex(list, convex, transform, fill, outline, outline_pixels);
          }
        },
        shape);
    return;
  }
  // Pieces filled without outlines, then the outside edges strongly and the seams faintly.
  const auto children = compound->children();
  for (const CompoundChild& child : children) draw_convex(list, child.shape, compose(transform, child.transform), fill, fill, 0);
  Colour seam = outline;
  seam.alpha = 90;
  for (std::size_t i = 0; i < children.size(); ++i) {
    const Transform placed = compose(transform, children[i].transform);
    const auto* polygon = std::get_if<Polygon>(&children[i].shape);
    if (polygon == nullptr) {
      draw_convex(list, children[i].shape, placed, Colour{0, 0, 0, 0}, outline, outline_pixels);
      continue;
    }
    for (int edge = 0; edge < polygon->count(); ++edge) {
      const Vec2 from = transform_point(placed, polygon->vertices()[edge]);
      const Vec2 to = transform_point(placed, polygon->vertices()[(edge + 1) % polygon->count()]);
      const bool internal = compound->is_internal_edge(static_cast<int>(i), edge);
      list.add(Polyline{{from, to}, false, internal ? seam : outline, internal ? 1 : outline_pixels});
    }
  }
}

void draw_grid(DrawList& list, const Camera& camera) {
  // The spacing: the smallest of 1, 2, 5 times a power of ten that is at least 40 pixels.
  const double smallest = 40 / camera.pixels_per_unit;
  double spacing = std::pow(10.0, std::floor(std::log10(smallest)));
  for (double factor : {1.0, 2.0, 5.0, 10.0}) {
    if (spacing * factor >= smallest) {
      spacing *= factor;
      break;
    }
  }
  const Vec2 lower = camera.to_world({0, double(camera.height)});
  const Vec2 upper = camera.to_world({double(camera.width), 0});
  const long first_x = std::lround(std::ceil(double(lower.x) / spacing)), last_x = std::lround(std::floor(double(upper.x) / spacing));
  const long first_y = std::lround(std::ceil(double(lower.y) / spacing)), last_y = std::lround(std::floor(double(upper.y) / spacing));
  auto label = [&](double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", std::abs(value) < spacing * 1e-6 ? 0.0 : value);
    return std::string(buffer);
  };
  for (long i = first_x; i <= last_x; ++i) {
    const Real x = static_cast<Real>(double(i) * spacing);
    list.add(Polyline{{{x, lower.y}, {x, upper.y}}, false, i == 0 ? palette::axis : palette::grid, 1});
    const ScreenPoint at = camera.to_screen({x, 0});
    if (at.x > camera.width - 60) continue;  // the corner belongs to the y labels
    list.add(Text{label(double(i) * spacing), Anchor::screen, at.x + 3, double(camera.height) - 18, 0, 0, 12, palette::grid_label});
  }
  for (long i = first_y; i <= last_y; ++i) {
    const Real y = static_cast<Real>(double(i) * spacing);
    list.add(Polyline{{{lower.x, y}, {upper.x, y}}, false, i == 0 ? palette::axis : palette::grid, 1});
    const ScreenPoint at = camera.to_screen({0, y});
    if (at.y > camera.height - 30) continue;  // the corner belongs to the x labels
    list.add(Text{label(double(i) * spacing), Anchor::screen, double(camera.width) - 46, at.y - 15, 0, 0, 12, palette::grid_label});
  }
}

std::string format_number(Real value, int significant) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.*g", significant, double(value) + 0.0);
  std::string text = buffer;
  if (text == "-0") text = "0";
  return text;
}

std::string format_vector(Vec2 value, int significant) {
  std::string text = "(";
  text.append(format_number(value.x, significant)).append(", ").append(format_number(value.y, significant)).append(")");
  return text;
}

}  // namespace collide2d::demo

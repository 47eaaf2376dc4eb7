// views.cpp — the four views and the demo frame around them.
//
// Outline: key names; helpers (turning a rotation, arrow-key direction, shapes under a point);
// BoxesView (motion, push-out with penetration(), drawing); the shape catalogue; MinkowskiView
// (recompute runs minkowski_difference, gjk, epa and sat with their traces; drawing the current
// step); exit_vector_move (minkowski_exit round by round) and SlopesView (the level as one
// outline, velocity and gravity, either method each frame, drawing the hits); SceneView (io::find_pairs after every drag; drawing as pairs --svg does); Demo (view
// switching, cameras, mouse and keyboard, the grid and the panels).
#include "views.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numbers>
#include <utility>

#include "collide2d/decompose.hpp"
#include "collide2d/distance.hpp"
#include "collide2d/overlap.hpp"
#include "collide2d/point_query.hpp"
#include "collide2d/io/text.hpp"

namespace collide2d::demo {
namespace {

constexpr std::pair<Key, std::string_view> key_names[] = {
    {Key::left, "left"}, {Key::right, "right"}, {Key::up, "up"},      {Key::down, "down"}, {Key::a, "a"},
    {Key::d, "d"},       {Key::s, "s"},         {Key::w, "w"},        {Key::i, "i"},       {Key::o, "o"},
    {Key::p, "p"},       {Key::n, "n"},         {Key::b, "b"},        {Key::g, "g"},       {Key::e, "e"},
    {Key::t, "t"},       {Key::z, "z"},         {Key::c, "c"},        {Key::m, "m"},       {Key::r, "r"},
    {Key::space, "space"}, {Key::h, "h"},       {Key::plus, "plus"},  {Key::minus, "minus"}, {Key::view_1, "1"},
    {Key::view_2, "2"},  {Key::view_3, "3"},    {Key::view_4, "4"},   {Key::view_5, "5"},
};

constexpr Real move_speed = 3;      // world units per second, arrow keys
constexpr Real turn_speed = 1.5;    // radians per second, I and O
constexpr double pan_speed = 500;   // pixels per second, WASD

bool is_held(std::span<const Key> held, Key key) { return std::find(held.begin(), held.end(), key) != held.end(); }

/// The arrows held, as a direction (not normalised: diagonals move faster, as in the original).
Vec2 arrow_direction(std::span<const Key> held) {
  Vec2 direction;
  if (is_held(held, Key::left)) direction.x -= 1;
  if (is_held(held, Key::right)) direction.x += 1;
  if (is_held(held, Key::down)) direction.y -= 1;
  if (is_held(held, Key::up)) direction.y += 1;
  return direction;
}

/// I and O held: +1 for counter-clockwise turning of the first and second shape.
std::pair<Real, Real> turn_directions(std::span<const Key> held) {
  return {is_held(held, Key::i) ? Real(1) : Real(0), is_held(held, Key::o) ? Real(1) : Real(0)};
}

/// `rotation` turned by `radians`, renormalised so thousands of small turns do not drift.
Rot turned(Rot rotation, Real radians) {
  const Rot result = compose(Rot::from_angle(radians), rotation);
  const Real norm = std::sqrt(result.cosine * result.cosine + result.sine * result.sine);
  return {result.cosine / norm, result.sine / norm};
}

Real degrees(Rot rotation) { return rotation.angle() * Real(180 / std::numbers::pi); }

Colour faint(Colour colour, std::uint8_t alpha = 70) {
  colour.alpha = alpha;
  return colour;
}

std::string yes_no(bool value) { return value ? "yes" : "no"; }

/// Where a body's label goes: the centre of its bounding box, or for a concave body the centre of
/// its largest piece's box (a bounding box's centre can lie in a notch, outside the body).
Vec2 label_point(const Shape& shape, const Transform& transform) {
  const auto* compound = std::get_if<Compound>(&shape);
  if (compound == nullptr) return compute_aabb(shape, transform).center();
  const auto boxes = compound->child_boxes();
  auto area = [](const Aabb& box) { return (box.upper.x - box.lower.x) * (box.upper.y - box.lower.y); };
  const auto largest = std::max_element(boxes.begin(), boxes.end(), [&](const Aabb& x, const Aabb& y) { return area(x) < area(y); });
  return transform_point(transform, largest->center());
}

template <class Visitor>
auto visit_pair(const ConvexShape& a, const ConvexShape& b, Visitor&& visitor) {
  return std::visit(visitor, a, b);
}

}  // namespace

std::optional<Key> key_from_name(std::string_view name) {
  for (const auto& [key, key_text] : key_names) {
    if (key_text == name) return key;
  }
  return std::nullopt;
}

std::string_view key_name(Key key) {
  for (const auto& [candidate, key_text] : key_names) {
    if (candidate == key) return key_text;
  }
  return "?";
}

// ---------------------------------------------------------------- view 1: boxes

BoxesView::BoxesView()
    : red_shape_(make_box(1.5, 1.0).value()),
      green_shape_(make_box(1, Real(0.7)).value()),
      red_(Transform::from({2, 0}, Real(0.35))),
      green_(Transform::from({Real(-2.2), Real(0.4)}, Real(-0.2))) {}

void BoxesView::rotate_red(Real radians) { red_.rotation = turned(red_.rotation, radians); }
void BoxesView::rotate_green(Real radians) { green_.rotation = turned(green_.rotation, radians); }

void BoxesView::update(std::span<const Key> held, Real seconds) {
  move_green(move_speed * seconds * arrow_direction(held));
  const auto [turn_red, turn_green] = turn_directions(held);
  if (turn_red != 0) rotate_red(turn_red * turn_speed * seconds);
  if (turn_green != 0) rotate_green(turn_green * turn_speed * seconds);
  resolve();
}

void BoxesView::resolve() {
  last_push_.reset();
  if (!push_out_) return;
  const std::optional<Penetration> found = current_penetration();
  if (!found || found->depth <= 0) return;
  move_green(found->depth * found->normal);
  last_push_ = found;
}

void BoxesView::key_pressed(Key key) {
  if (key == Key::p) {
    push_out_ = !push_out_;
    last_push_.reset();
  }
}

std::optional<Penetration> BoxesView::current_penetration() const { return penetration(red_shape_, red_, green_shape_, green_); }

bool BoxesView::overlapping() const {
  const std::optional<Penetration> found = current_penetration();
  return found && found->depth > found->tolerance;
}

int BoxesView::body_at(Vec2 world) const {
  if (contains(green_shape_, green_, world)) return 1;
  if (contains(red_shape_, red_, world)) return 0;
  return -1;
}

void BoxesView::move_body(int body, Vec2 delta) {
  if (body == 0) red_.position = red_.position + delta;
  if (body == 1) move_green(delta);
}

Camera BoxesView::initial_camera(int width, int height) const {
  Camera camera{{Real(0.2), 0}, 80, width, height};
  return camera;
}

void BoxesView::draw(DrawList& list, std::vector<std::string>& info) const {
  const std::optional<Penetration> found = current_penetration();
  const bool overlap_now = found && found->depth > found->tolerance;
  draw_shape(list, red_shape_, red_, overlap_now ? palette::overlap : palette::red_box,
             overlap_now ? palette::overlap_outline : palette::red_box_outline);
  draw_shape(list, green_shape_, green_, overlap_now ? palette::overlap : palette::green_box,
             overlap_now ? palette::overlap_outline : palette::green_box_outline);
  list.add(Text{"red (A)", Anchor::world, red_.position.x, red_.position.y, -24, -8, 14, palette::text});
  list.add(Text{"green (B)", Anchor::world, green_.position.x, green_.position.y, -32, -8, 14, palette::text});

  info.push_back("View 1: boxes. Red is A, green is B in penetration(red, green).");
  info.push_back(std::string("push-out: ") + (push_out_ ? "on: every frame the green box moves by depth * normal" : "off"));
  if (last_push_) {
    // The arrow shows this frame's push: from where B's deepest point was to where it went.
    list.add(Arrow{last_push_->point_b, last_push_->point_b + last_push_->depth * last_push_->normal, palette::normal_arrow, 3});
    info.push_back("pushed out this frame by depth " + format_number(last_push_->depth) + " along normal " +
                   format_vector(last_push_->normal));
  }
  if (overlap_now) {
    list.add(Arrow{found->point_b, found->point_b + found->depth * found->normal, palette::normal_arrow, 3});
    list.add(Dot{found->point_a, 3.5, palette::contact});
    list.add(Dot{found->point_b, 3.5, palette::contact});
    info.push_back("overlap: depth " + format_number(found->depth) + ", normal " + format_vector(found->normal) +
                   " (arrow: depth * normal from B's deepest point)");
  } else if (found) {
    info.push_back("touching (depth " + format_number(found->depth) + " within the touching band " + format_number(found->tolerance) + ")");
  } else {
    info.push_back("apart: distance " + format_number(distance(red_shape_, red_, green_shape_, green_).distance));
  }
  info.push_back("red at " + format_vector(red_.position) + " turned " + format_number(degrees(red_.rotation)) + " deg; green at " +
                 format_vector(green_.position) + " turned " + format_number(degrees(green_.rotation)) + " deg");
}

std::vector<std::string> BoxesView::help() const {
  return {"arrows: move the green box", "I: turn the red box, O: turn the green box", "P: push-out on/off",
          "left drag: move a box"};
}

// ---------------------------------------------------------------- view 2: minkowski

const std::vector<CatalogueShape>& shape_catalogue() {
  static const std::vector<CatalogueShape> catalogue = [] {
    auto regular = [](int count, Real radius, Real phase) {
      std::vector<Vec2> points;
      for (int i = 0; i < count; ++i) {
        const double angle = double(phase) + 2 * std::numbers::pi * i / count;
        points.push_back({radius * static_cast<Real>(std::cos(angle)), radius * static_cast<Real>(std::sin(angle))});
      }
      return points;
    };
    const std::vector<Vec2> triangle = {{Real(-0.8), Real(-0.5)}, {Real(0.9), Real(-0.4)}, {0, Real(0.8)}};
    return std::vector<CatalogueShape>{
        {"box", make_box(Real(0.8), Real(0.5)).value()},
        {"circle", Circle{{0, 0}, Real(0.7)}},
        {"capsule", Capsule{{Real(-0.6), 0}, {Real(0.6), 0}, Real(0.35)}},
        {"segment", Segment{{Real(-0.8), Real(-0.3)}, {Real(0.8), Real(0.3)}}},
        {"triangle", make_polygon(triangle).value()},
        {"pentagon", make_polygon(regular(5, Real(0.8), Real(0.3))).value()},
        {"rounded hexagon", make_polygon(regular(6, Real(0.55), 0), Real(0.2)).value()},
    };
  }();
  return catalogue;
}

MinkowskiView::MinkowskiView() : a_(Transform::from({-5, 0}, Real(0.3))), b_(Transform::from({Real(-4.1), Real(0.45)}, 0)) { recompute(); }

const ConvexShape& MinkowskiView::convex_a() const { return shape_catalogue()[static_cast<std::size_t>(shape_a_)].shape; }
const ConvexShape& MinkowskiView::convex_b() const { return shape_catalogue()[static_cast<std::size_t>(shape_b_)].shape; }

void MinkowskiView::set_shapes(int shape_a, int shape_b) {
  const int count = static_cast<int>(shape_catalogue().size());
  shape_a_ = ((shape_a % count) + count) % count;
  shape_b_ = ((shape_b % count) + count) % count;
  recompute();
}

void MinkowskiView::set_transforms(const Transform& a, const Transform& b) {
  a_ = a;
  b_ = b;
  recompute();
}

void MinkowskiView::set_algorithm(Algorithm algorithm) {
  algorithm_ = algorithm;
  step_ = 0;
}

int MinkowskiView::step_count() const {
  switch (algorithm_) {
    case Algorithm::gjk: return static_cast<int>(gjk_trace_.size());
    case Algorithm::epa: return static_cast<int>(epa_trace_.size());
    case Algorithm::sat: return static_cast<int>(sat_trace_.size());
  }
  return 0;
}

void MinkowskiView::next_step() { step_ = std::clamp(step_ + 1, 0, std::max(0, step_count() - 1)); }
void MinkowskiView::previous_step() { step_ = std::clamp(step_ - 1, 0, std::max(0, step_count() - 1)); }

void MinkowskiView::recompute() {
  const Transform b_to_a = inverse_compose(a_, b_);
  const ConvexShape& a = convex_a();
  const ConvexShape& b = convex_b();
  difference_ = minkowski_difference(a, b, b_to_a);
  gjk_trace_.clear();
  gjk_result_ = visit_pair(a, b, [&](const auto& convex_a, const auto& convex_b) {
    return gjk(convex_a, convex_b, b_to_a, {.trace = &gjk_trace_});
  });
  epa_trace_.clear();
  epa_result_.reset();
  if (gjk_result_.overlapping) {
    epa_result_ = visit_pair(a, b, [&](const auto& convex_a, const auto& convex_b) {
      return epa(convex_a, convex_b, b_to_a, gjk_result_.simplex, {.trace = &epa_trace_});
    });
  }
  sat_trace_.clear();
  sat_result_.reset();
  const auto* polygon_a = std::get_if<Polygon>(&a);
  const auto* polygon_b = std::get_if<Polygon>(&b);
  if (polygon_a != nullptr && polygon_b != nullptr) sat_result_ = sat(*polygon_a, *polygon_b, b_to_a, &sat_trace_);
  step_ = std::clamp(step_, 0, std::max(0, step_count() - 1));
}

void MinkowskiView::update(std::span<const Key> held, Real seconds) {
  const Vec2 direction = arrow_direction(held);
  const auto [turn_a, turn_b] = turn_directions(held);
  if (direction == Vec2{} && turn_a == 0 && turn_b == 0) return;
  b_.position = b_.position + move_speed * seconds * direction;
  if (turn_a != 0) a_.rotation = turned(a_.rotation, turn_a * turn_speed * seconds);
  if (turn_b != 0) b_.rotation = turned(b_.rotation, turn_b * turn_speed * seconds);
  recompute();
}

void MinkowskiView::key_pressed(Key key) {
  switch (key) {
    case Key::n: next_step(); break;
    case Key::b: previous_step(); break;
    case Key::g: set_algorithm(Algorithm::gjk); break;
    case Key::e: set_algorithm(Algorithm::epa); break;
    case Key::t: set_algorithm(Algorithm::sat); break;
    case Key::z: set_shapes(shape_a_ + 1, shape_b_); break;
    case Key::c: set_shapes(shape_a_, shape_b_ + 1); break;
    default: break;
  }
}

int MinkowskiView::body_at(Vec2 world) const {
  const bool in_b = std::visit([&](const auto& shape) { return contains(shape, b_, world); }, convex_b());
  if (in_b) return 1;
  const bool in_a = std::visit([&](const auto& shape) { return contains(shape, a_, world); }, convex_a());
  return in_a ? 0 : -1;
}

void MinkowskiView::move_body(int body, Vec2 delta) {
  if (body == 0) a_.position = a_.position + delta;
  if (body == 1) b_.position = b_.position + delta;
  if (body == 0 || body == 1) recompute();
}

Camera MinkowskiView::initial_camera(int width, int height) const { return Camera{{Real(-1.6), Real(0.2)}, 80, width, height}; }

namespace {

/// A chain of difference points as the view draws a simplex or polytope: a dot, a segment or a closed polygon.
void draw_chain(DrawList& list, const std::vector<Vec2>& points, Colour colour, double width, bool vertices) {
  if (points.size() == 1) list.add(Dot{points[0], width + 2.5, colour});
  if (points.size() >= 2) list.add(Polyline{points, points.size() >= 3, colour, width});
  if (vertices && points.size() >= 2) {
    for (Vec2 point : points) list.add(Dot{point, width + 1.5, colour});
  }
}

/// Distance from the origin to the nearest edge line of a polytope (the edge EPA expands next).
Real nearest_edge_distance(const std::vector<Vec2>& polytope) {
  Real nearest = std::numeric_limits<Real>::infinity();
  for (std::size_t i = 0; i < polytope.size(); ++i) {
    const Vec2 from = polytope[i], to = polytope[(i + 1) % polytope.size()];
    const Real edge_length = length(to - from);
    if (edge_length > 0) nearest = std::min(nearest, std::abs(cross(to - from, from)) / edge_length);
  }
  return nearest;
}

}  // namespace

void MinkowskiView::draw(DrawList& list, std::vector<std::string>& info) const {
  const ConvexShape& a = convex_a();
  const ConvexShape& b = convex_b();
  const std::string& name_a = shape_catalogue()[static_cast<std::size_t>(shape_a_)].name;
  const std::string& name_b = shape_catalogue()[static_cast<std::size_t>(shape_b_)].name;
  const bool shapes_overlap = visit_pair(a, b, [&](const auto& convex_a, const auto& convex_b) { return overlap(convex_a, a_, convex_b, b_); });
  const Colour fill = shapes_overlap ? palette::overlap : palette::apart;
  const Colour outline = shapes_overlap ? palette::overlap_outline : palette::apart_outline;
  std::visit([&](const auto& shape) { draw_shape(list, Shape(shape), a_, fill, outline); }, a);
  std::visit([&](const auto& shape) { draw_shape(list, Shape(shape), b_, fill, outline); }, b);
  list.add(Text{"A: " + name_a, Anchor::world, a_.position.x, a_.position.y, -20, -8, 14, palette::text});
  list.add(Text{"B: " + name_b, Anchor::world, b_.position.x, b_.position.y, -20, -8, 14, palette::text});

  // The difference B - A in A's frame, drawn with its origin at the world origin.
  const MinkowskiDifference& difference = difference_;
  if (difference.hull.size() >= 3 || difference.radius > 0) {
    const std::vector<Vec2> outline_points = rounded_outline(difference.hull, difference.radius);
    list.add(FilledPolygon{outline_points, palette::difference});
    list.add(Polyline{outline_points, true, palette::difference_outline, 2});
    if (difference.radius > 0 && difference.hull.size() >= 2) {
      list.add(Polyline{difference.hull, difference.hull.size() >= 3, faint(palette::difference_outline, 150), 1});
    }
  } else if (difference.hull.size() == 2) {
    list.add(Polyline{difference.hull, false, palette::difference_outline, 3});
  }
  for (Vec2 point : difference.all_points) list.add(Dot{point, 2.5, palette::vertex_difference});
  Real top = 0, left = 0;
  for (Vec2 point : difference.all_points) {
    top = std::max(top, point.y + difference.radius);
    left = std::min(left, point.x - difference.radius);
  }
  list.add(Text{"B - A (A's frame)", Anchor::world, left, top, 0, -24, 14, palette::difference_outline});

  info.push_back("View 2: the Minkowski difference B - A in A's frame; its origin is the world origin.");
  info.push_back("A: " + name_a + ", B: " + name_b + ". collide2d::overlap: " + yes_no(shapes_overlap) +
                 ". The difference contains the origin: " + yes_no(difference.contains_origin) + " (signed distance " +
                 format_number(difference.signed_distance) + ")");

  const int count = step_count();
  const std::string step_text = "step " + std::to_string(count == 0 ? 0 : step_ + 1) + " of " + std::to_string(count);
  switch (algorithm_) {
    case Algorithm::gjk: {
      for (int i = 0; i < count; ++i) {
        const Simplex& simplex = gjk_trace_[static_cast<std::size_t>(i)];
        std::vector<Vec2> points;
        for (int v = 0; v < simplex.count; ++v) points.push_back(simplex.vertices[static_cast<std::size_t>(v)].point);
        if (i < step_) draw_chain(list, points, faint(palette::gjk), 1.5, false);
      }
      info.push_back("GJK (on the cores) " + step_text + ": the simplex after each support step");
      if (count > 0) {
        const Simplex& simplex = gjk_trace_[static_cast<std::size_t>(step_)];
        std::vector<Vec2> points;
        std::string vertices;
        for (int v = 0; v < simplex.count; ++v) {
          const MinkowskiVertex& vertex = simplex.vertices[static_cast<std::size_t>(v)];
          points.push_back(vertex.point);
          vertices += (v > 0 ? ", " : "") + format_vector(vertex.point);
          // The support points on the shapes themselves that made this vertex.
          list.add(Dot{transform_point(a_, vertex.point_a), 4, palette::gjk});
          list.add(Dot{transform_point(a_, vertex.point_b), 4, palette::gjk});
          list.add(Polyline{{transform_point(a_, vertex.point_a), transform_point(a_, vertex.point_b)}, false, faint(palette::gjk, 140), 1});
        }
        draw_chain(list, points, palette::gjk, 3, true);
        info.push_back("simplex: " + io::count_of(static_cast<std::size_t>(simplex.count), "vertex", "vertices") + ": " + vertices);
      }
      info.push_back("GJK answer: " +
                     (gjk_result_.overlapping ? std::string("the cores overlap")
                                              : "the cores are " + format_number(gjk_result_.distance) + " apart, normal " +
                                                    format_vector(gjk_result_.normal)) +
                     ", " + std::to_string(gjk_result_.iterations) + " support evaluations");
      break;
    }
    case Algorithm::epa: {
      if (count == 0) {
        info.push_back("EPA: not run: GJK found the cores " + format_number(gjk_result_.distance) + " apart (EPA starts from an overlap)");
        break;
      }
      for (int i = 0; i < step_; ++i) draw_chain(list, epa_trace_[static_cast<std::size_t>(i)], faint(palette::epa), 1.5, false);
      const std::vector<Vec2>& polytope = epa_trace_[static_cast<std::size_t>(step_)];
      draw_chain(list, polytope, palette::epa, 3, true);
      info.push_back("EPA (on the cores) " + step_text + ": the polytope after each expansion");
      info.push_back("polytope: " + io::count_of(polytope.size(), "vertex", "vertices") + ", nearest edge " +
                     format_number(nearest_edge_distance(polytope)) + " from the origin");
      info.push_back("EPA answer: core depth " + format_number(epa_result_->depth) + ", normal " + format_vector(epa_result_->normal) +
                     ", " + std::to_string(epa_result_->iterations) + " expansions; with the radii: depth " +
                     format_number(-difference.signed_distance));
      break;
    }
    case Algorithm::sat: {
      if (count == 0) {
        const std::string& not_polygon = std::holds_alternative<Polygon>(a) ? name_b : name_a;
        info.push_back("SAT: needs two polygons (this pair has a " + not_polygon + ")");
        break;
      }
      // Separation s along axis n: the difference lies in {x : dot(x, m) >= s} with m = n for A's
      // edges and m = -n for B's; the line dot(x, m) = s is its supporting line, and the origin
      // is on the far side (a separating axis) exactly when s > 0.
      auto support_line = [](const SatAxis& axis) {
        const Vec2 m = axis.shape == 0 ? axis.normal : -axis.normal;
        const Vec2 foot = axis.separation * m;
        const Vec2 along = left_perpendicular(m);
        return std::pair{foot, Polyline{{foot - Real(3) * along, foot + Real(3) * along}, false, palette::sat_axis, 2.5}};
      };
      for (int i = 0; i < step_; ++i) {
        Polyline line = support_line(sat_trace_[static_cast<std::size_t>(i)]).second;
        line.colour = faint(palette::sat_axis);
        line.width_pixels = 1.5;
        list.add(line);
      }
      const SatAxis& axis = sat_trace_[static_cast<std::size_t>(step_)];
      const auto [foot, line] = support_line(axis);
      list.add(line);
      list.add(Polyline{{{0, 0}, foot}, false, palette::sat_axis, 1.5});
      // The edge whose normal the axis is, on its shape.
      const Polygon& reference = std::get<Polygon>(axis.shape == 0 ? a : b);
      const Transform& placed = axis.shape == 0 ? a_ : b_;
      const int edge = axis.edge, next = (axis.edge + 1) % reference.count();
      list.add(Polyline{{transform_point(placed, reference.vertices()[edge]), transform_point(placed, reference.vertices()[next])},
                        false, palette::sat_axis, 4});
      info.push_back("SAT " + step_text + ": the edge normals of A and B tried as axes (core separation along each)");
      info.push_back(std::string("axis: ") + (axis.shape == 0 ? "A" : "B") + "'s edge " + std::to_string(axis.edge) + ", normal " +
                     format_vector(axis.normal) + ", separation " + format_number(axis.separation) +
                     (axis.separation > 0 ? ": separating" : ": overlapping along it"));
      info.push_back(std::string("SAT answer: ") + (sat_result_->shape == 0 ? "A" : "B") + "'s edge " + std::to_string(sat_result_->edge) +
                     ", separation " + format_number(sat_result_->separation) + " (" +
                     (sat_result_->separation > 0 ? "a separating axis" : "least overlap") + ")");
      break;
    }
  }
  if (difference.contains_origin) list.add(Arrow{{0, 0}, difference.closest_point, palette::penetration_vector, 2.5});
  list.add(Dot{{0, 0}, 5, palette::origin});
  list.add(Text{"origin", Anchor::world, 0, 0, 8, 4, 14, palette::origin});
}

std::vector<std::string> MinkowskiView::help() const {
  return {"arrows: move B, I: turn A, O: turn B, left drag: move A or B", "Z: next shape for A, C: next shape for B",
          "G: GJK, E: EPA, T: SAT (separating axes)", "N: next step, B: back one step"};
}

// ---------------------------------------------------------------- view 3: slopes

MoveResult exit_vector_move(const World& world, const Shape& shape, const Transform& transform, Vec2 motion, const MoveOptions& options) {
  MoveResult result;
  result.transform = transform;
  result.path.push_back(transform.position);
  Vec2 rest = motion;
  bool unexplained = false;  // an overlap the motion does not explain: that round's move is not made
  for (int round = 0; round < options.max_iterations && !(rest == Vec2{}); ++round) {
    result.iterations = round + 1;
    Transform moved = result.transform;
    moved.position = moved.position + rest;
    // Of the bodies overlapped after the move, the one met first along the motion is the one the
    // exit backs out of furthest; backing out of it clears the others, which the motion met later.
    std::optional<MinkowskiExit> first;
    BodyHandle first_body;
    for (BodyHandle body : world.query_shape(shape, moved, options.filter.filter)) {
      const BodyDefinition& definition = *world.find(body);
      if (body == options.filter.ignore || (definition.sensor && !options.filter.include_sensors)) continue;
      const Result<MinkowskiExit, ExitRefusal> exit = minkowski_exit(definition.shape, definition.transform, shape, moved, rest);
      if (!exit) {
        unexplained = unexplained || exit.error().kind == ExitRefusalKind::overlapping_before;
        continue;  // otherwise only touching: nothing to back out of
      }
      if (!first || exit.value().fraction > first->fraction) {
        first = exit.value();
        first_body = body;
      }
    }
    if (unexplained) break;
    if (!first) {
      result.transform = moved;
      result.path.push_back(moved.position);
      rest = {};
      break;
    }
    Transform touching = moved;
    touching.position = moved.position + first->translation_b;
    const BodyDefinition& met = *world.find(first_body);
    result.hits.push_back({first_body, distance(met.shape, met.transform, shape, touching).point_a, first->normal});
    result.transform = touching;
    result.path.push_back(touching.position);
    rest = first->slide;
  }
  if (!unexplained && !(rest == Vec2{})) result.status = IterationStatus::iteration_cap;  // a slide left at the cap
  result.remaining = motion - (result.transform.position - transform.position);
  // Floor, wall or ceiling by the exit normals, as move_and_slide tells them apart.
  const Real floor_cosine = std::cos(options.max_floor_angle);
  for (const MoveHit& hit : result.hits) {
    const Real upness = dot(hit.normal, options.up);
    if (upness >= floor_cosine) {
      result.on_floor = true;
      if (!result.floor_normal || upness > dot(*result.floor_normal, options.up)) result.floor_normal = hit.normal;
    } else if (-upness >= floor_cosine) {
      result.on_ceiling = true;
    } else {
      result.on_wall = true;
    }
  }
  return result;
}

std::string_view method_name(SlopeMethod method) {
  switch (method) {
    case SlopeMethod::mover: return "move_and_slide";
    case SlopeMethod::exit_vector: return "exit vector (minkowski_exit)";
  }
  return "?";
}

namespace {

constexpr std::size_t trail_length = 150;  // frames of trail view 3 draws
constexpr Real normal_length = 2;          // world length of a drawn hit normal: out of the 1.4-tall character

Real rise(Real run, double degrees) { return static_cast<Real>(double(run) * std::tan(degrees * std::numbers::pi / 180)); }

Real run_for(Real height, double degrees) { return static_cast<Real>(double(height) / std::tan(degrees * std::numbers::pi / 180)); }

/// View 3's level: the terrain's surface, left to right (a wall, flat ground, a 20-degree climb,
/// a step, 35 degrees down into a valley, 60 degrees up out of it, a ledge over a drop whose
/// underside is a ceiling, lower ground and a wall), and a name for each feature where it is.
struct SlopeLevel {
  std::vector<Vec2> surface;
  std::vector<SlopeLabel> labels;
};

SlopeLevel slope_level() {
  SlopeLevel level;
  std::vector<Vec2>& points = level.surface;
  points = {{-16, 3}, {Real(-15.5), 3}, {Real(-15.5), 0}, {-10, 0}};
  // Goes on from the last point by (dx, dy).
  auto go = [&](Real dx, Real dy) { points.push_back(points.back() + Vec2{dx, dy}); };
  // A name at the middle of the piece just made, its text moved by (x, y) pixels.
  auto name = [&](std::string text, double x, double y) {
    level.labels.push_back({std::move(text), Real(0.5) * (points[points.size() - 2] + points.back()), x, y});
  };
  go(5, rise(5, 20));
  name("20 deg", -24, -28);
  go(2, 0);
  go(0, Real(0.25));                        // a step, lower than the mover's step height
  name("step", -14, -30);
  go(2, 0);
  const Real top = points.back().y;
  go(run_for(top, 35), -top);               // down to the valley floor at y = 0
  name("35 deg", 4, -20);
  go(Real(1.5), 0);
  name("valley", -20, 4);                   // under the floor, where the character does not cover it
  go(run_for(Real(1.2), 60), Real(1.2));    // a wall to a walker
  name("60 deg", 12, -32);
  go(9 - points.back().x, 0);
  go(0, Real(-0.5));                        // the ledge's tip
  name("ledge", -40, -34);
  go(Real(-1.5), 0);                        // its underside, a ceiling
  go(0, Real(-2.2));
  go(8, 0);                                 // the lower ground
  go(0, Real(4.5));
  go(Real(0.5), 0);
  return level;
}

}  // namespace

SlopesView::SlopesView()
    : character_shape_(make_box(Real(0.35), Real(0.7)).value()),
      start_{-13, Real(0.72)},
      options_{.snap_distance = Real(0.15), .step_height = Real(0.3)} {
  SlopeLevel level = slope_level();
  surface_ = std::move(level.surface);
  labels_ = std::move(level.labels);
  std::vector<Vec2> outline = surface_;
  outline.push_back({16, Real(-3.5)});
  outline.push_back({-16, Real(-3.5)});
  terrain_ = world_.add({.shape = shape_from_outline(outline).value()});
  world_.add({.shape = make_box(Real(0.5), Real(0.5)).value(), .transform = Transform::from({Real(11.5), -1}, 0)});
  world_.add({.shape = make_box(Real(0.6), Real(0.9)).value(), .transform = Transform::from({Real(13.8), Real(-0.6)}, 0)});
  reset();
}

void SlopesView::place_character(Vec2 position) {
  character_.position = position;
  const PushOutResult freed = push_out(world_, character_shape_, character_, {.skin = options_.skin});
  character_ = freed.transform;
  velocity_ = {};
  last_move_.reset();
  trail_.clear();
}

void SlopesView::reset() { place_character(start_); }

void SlopesView::update(std::span<const Key> held, Real seconds) {
  Real walk = 0;
  if (is_held(held, Key::left)) walk -= 1;
  if (is_held(held, Key::right)) walk += 1;
  velocity_.x = walk * walk_speed;
  // A floor stops the fall; from a floor, up or space jumps; in the air gravity accumulates.
  if (on_floor()) velocity_.y = 0;
  if (on_floor() && (is_held(held, Key::up) || is_held(held, Key::space))) velocity_.y = jump_speed;
  velocity_.y = std::max(velocity_.y - gravity * seconds, -max_fall_speed);
  const Vec2 motion = seconds * velocity_;
  last_move_ = method_ == SlopeMethod::mover ? move_and_slide(world_, character_shape_, character_, motion, options_)
                                             : exit_vector_move(world_, character_shape_, character_, motion, options_);
  character_ = last_move_->transform;
  if (last_move_->on_ceiling && velocity_.y > 0) velocity_.y = 0;  // a head bump ends the jump
  trail_.push_back(character_.position);
  if (trail_.size() > trail_length) trail_.erase(trail_.begin());
}

void SlopesView::key_pressed(Key key) {
  if (key == Key::m) set_method(method_ == SlopeMethod::mover ? SlopeMethod::exit_vector : SlopeMethod::mover);
  if (key == Key::r) reset();
}

int SlopesView::body_at(Vec2 world) const { return contains(character_shape_, character_, world) ? 0 : -1; }

void SlopesView::move_body(int body, Vec2 delta) {
  if (body == 0) place_character(character_.position + delta);
}

Camera SlopesView::initial_camera(int width, int height) const { return Camera{{0, Real(0.5)}, width / 36.0, width, height}; }

void SlopesView::draw(DrawList& list, std::vector<std::string>& info) const {
  // The terrain and the crates as the SVG pictures draw obstacles; draw_shape draws the cuts
  // between the terrain's pieces faintly.
  const std::vector<BodyHandle> bodies = world_.bodies();
  for (BodyHandle body : bodies) {
    const BodyDefinition& definition = *world_.find(body);
    draw_shape(list, definition.shape, definition.transform, palette::apart, palette::apart_outline);
  }
  // What each part of the terrain is, written next to it.
  for (const SlopeLabel& label : labels_) {
    list.add(Text{label.text, Anchor::world, label.at.x, label.at.y, label.offset_x_pixels, label.offset_y_pixels, 13, palette::grid_label});
  }
  if (trail_.size() >= 2) list.add(Polyline{trail_, false, palette::path, 2});
  draw_shape(list, character_shape_, character_, palette::mover, palette::mover_outline);
  if (last_move_) {
    for (const MoveHit& hit : last_move_->hits) {
      list.add(Arrow{hit.point, hit.point + normal_length * hit.normal, palette::normal_arrow, 2.5});
      list.add(Dot{hit.point, 3.5, palette::contact});
    }
  }

  const std::size_t pieces = std::get<Compound>(world_.find(terrain_)->shape).children().size();
  info.push_back("View 3: slopes. The terrain is one concave outline cut into " + std::to_string(pieces) +
                 " convex pieces (faint lines: the cuts); the character is a box.");
  info.push_back(method_ == SlopeMethod::mover
                     ? "method: move_and_slide: casts, keeps a 0.01 skin, slides; floors carry the weight, steps up to 0.3, snaps to slopes"
                     : "method: exit vector (minkowski_exit): moves, backs out along the motion, slides; no floor rule, so it creeps down slopes");
  const std::optional<MoveResult>& move = last_move_;
  std::string state = "on floor: " + yes_no(move && move->on_floor);
  if (move && move->floor_normal) {
    const double slope = std::acos(std::clamp(double(dot(*move->floor_normal, options_.up)), -1.0, 1.0)) * 180 / std::numbers::pi;
    state += " (normal " + format_vector(*move->floor_normal) + ", a " + format_number(static_cast<Real>(slope)) + " deg slope)";
  }
  state += "; on wall: " + yes_no(move && move->on_wall) + "; on ceiling: " + yes_no(move && move->on_ceiling);
  info.push_back(state);
  info.push_back("at " + format_vector(character_.position) + ", velocity " + format_vector(velocity_) +
                 (move ? "; last move: " + io::count_of(move->hits.size(), "hit", "hits") + " (purple: normals), " +
                             io::count_of(static_cast<std::size_t>(move->iterations), "round", "rounds")
                       : std::string()));
}

std::vector<std::string> SlopesView::help() const {
  return {"left/right: walk, up or space: jump", "M: move_and_slide or the exit-vector method, R: back to the start",
          "left drag: move the character"};
}

// ---------------------------------------------------------------- view 4: playground

namespace {

constexpr Real playground_normal_length = Real(0.4);  // world length of a drawn contact normal
constexpr int playground_pyramid_rows = 6;

/// A static body of the playground's box.
RigidBodyDefinition fixed(Shape shape, Transform transform) {
  return {.shape = std::move(shape), .transform = transform, .type = BodyType::static_body};
}

/// A convex polygon of 5 to 7 corners at random angles on a circle of `radius` (corners on a
/// circle, taken in angle order, always make a convex outline).
Polygon random_polygon(std::mt19937& random, Real radius) {
  std::uniform_real_distribution<Real> angle(0, 2 * std::numbers::pi_v<Real>);
  const int corners = std::uniform_int_distribution<int>(5, 7)(random);
  std::vector<Real> angles;
  for (int i = 0; i < corners; ++i) angles.push_back(angle(random));
  std::sort(angles.begin(), angles.end());
  std::vector<Vec2> points;
  for (Real a : angles) points.push_back(radius * Vec2{std::cos(a), std::sin(a)});
  if (auto polygon = make_polygon(points)) return std::move(polygon).value();
  return make_box(radius, radius).value();  // corners too close together: a square instead
}

}  // namespace

std::string_view drop_name(DropKind kind) {
  switch (kind) {
    case DropKind::box: return "box";
    case DropKind::circle: return "circle";
    case DropKind::capsule: return "capsule";
    case DropKind::polygon: return "polygon";
  }
  return "?";
}

PlaygroundView::PlaygroundView() { reset(); }

void PlaygroundView::reset() {
  physics_ = PhysicsWorld({.gravity = {0, -10}});
  movable_.clear();
  random_.seed(2026);
  next_drop_ = DropKind::box;
  paused_ = false;
  steps_ = 0;
  held_ = -1;
  // The box: a floor, two walls and a 20 degree slope on the left.
  static_cast<void>(physics_.add(fixed(make_box(12, Real(0.5)).value(), {{0, Real(-0.5)}, {}})));
  static_cast<void>(physics_.add(fixed(make_box(Real(0.5), 6).value(), {{Real(-12.5), Real(5.5)}, {}})));
  static_cast<void>(physics_.add(fixed(make_box(Real(0.5), 6).value(), {{Real(12.5), Real(5.5)}, {}})));
  static_cast<void>(physics_.add(fixed(make_box(4, Real(0.25)).value(), {{-7, Real(2.5)}, Rot::from_angle(Real(-20 * std::numbers::pi / 180))})));
  // A kerb between the slope and the pyramid: what rolls off the slope stops before the pyramid.
  static_cast<void>(physics_.add(fixed(make_box(Real(0.25), Real(0.4)).value(), {{Real(1.25), Real(0.4)}, {}})));
  // A pyramid of boxes on the right.
  for (int row = 0; row < playground_pyramid_rows; ++row) {
    for (int column = 0; column < playground_pyramid_rows - row; ++column) {
      const Real x = 5 + static_cast<Real>(column) - static_cast<Real>(playground_pyramid_rows - row - 1) / 2;
      movable_.push_back(physics_.add({.shape = make_box(Real(0.5), Real(0.5)).value(), .transform = {{x, Real(0.5) + static_cast<Real>(row)}, {}}}).value());
    }
  }
  // One of each kind above the slope, to slide and roll down it.
  for (const Vec2 at : {Vec2{-9, 6}, Vec2{-7, 7}, Vec2{-5, 6}, Vec2{-3, 8}}) drop(at);
}

void PlaygroundView::drop(Vec2 world) {
  Shape shape;
  switch (next_drop_) {
    case DropKind::box: shape = make_box(Real(0.4), Real(0.4)).value(); break;
    case DropKind::circle: shape = Circle{{}, Real(0.4)}; break;
    case DropKind::capsule: shape = Capsule{{Real(-0.4), 0}, {Real(0.4), 0}, Real(0.25)}; break;
    case DropKind::polygon: shape = random_polygon(random_, Real(0.5)); break;
  }
  const Real turn = std::uniform_real_distribution<Real>(-1, 1)(random_);
  movable_.push_back(physics_.add({.shape = std::move(shape), .transform = {world, Rot::from_angle(turn)}, .restitution = Real(0.2)}).value());
  next_drop_ = static_cast<DropKind>((static_cast<int>(next_drop_) + 1) % 4);
}

void PlaygroundView::step_once() {
  const auto start = std::chrono::steady_clock::now();
  physics_.step(step_seconds);
  last_step_milliseconds_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ++steps_;
  if (held_ >= 0) {  // a held body stays where the drag put it
    physics_.set_transform(movable_[static_cast<std::size_t>(held_)], held_at_);
    physics_.set_velocity(movable_[static_cast<std::size_t>(held_)], {}, 0);
  }
}

void PlaygroundView::update(std::span<const Key>, Real) {
  if (!paused_) step_once();
}

void PlaygroundView::key_pressed(Key key) {
  if (key == Key::p) paused_ = !paused_;
  if (key == Key::n && paused_) step_once();
  if (key == Key::r) reset();
}

int PlaygroundView::body_at(Vec2 world) const {
  for (int i = static_cast<int>(movable_.size()) - 1; i >= 0; --i) {
    const BodyHandle body = movable_[static_cast<std::size_t>(i)];
    const BodyDefinition* definition = physics_.world().find(body);
    if (definition != nullptr && contains(definition->shape, definition->transform, world)) return i;
  }
  return -1;
}

void PlaygroundView::move_body(int body, Vec2 delta) {
  if (body < 0 || body >= static_cast<int>(movable_.size())) return;
  held_ = body;
  const BodyHandle handle = movable_[static_cast<std::size_t>(body)];
  const Transform placed = physics_.transform(handle);
  held_at_ = {placed.position + delta, placed.rotation};
  physics_.set_transform(handle, held_at_);
  physics_.set_velocity(handle, {}, 0);
}

void PlaygroundView::release() { held_ = -1; }

Camera PlaygroundView::initial_camera(int width, int height) const {
  Camera camera{{0, 0}, 60, width, height};
  camera.fit({{-13, -1}, {13, 11}});
  return camera;
}

void PlaygroundView::draw(DrawList& list, std::vector<std::string>& info) const {
  int awake = 0;
  for (BodyHandle body : physics_.bodies()) {
    const BodyDefinition& definition = *physics_.world().find(body);
    if (physics_.type(body) == BodyType::static_body) {
      draw_shape(list, definition.shape, definition.transform, palette::touching, palette::touching_outline);
    } else if (physics_.awake(body)) {
      ++awake;
      draw_shape(list, definition.shape, definition.transform, palette::mover, palette::mover_outline);
    } else {
      draw_shape(list, definition.shape, definition.transform, palette::apart, palette::apart_outline);
    }
  }
  int points = 0;
  for (const RigidContact& contact : physics_.contacts()) {
    for (int i = 0; i < contact.point_count; ++i) {
      const RigidContactPoint& point = contact.points[static_cast<std::size_t>(i)];
      if (point.separation > 0) continue;  // speculative: not touching yet
      ++points;
      list.add(Arrow{point.point, point.point + playground_normal_length * contact.normal, palette::normal_arrow, 2});
      list.add(Dot{point.point, 3, palette::contact});
    }
  }
  const StepStatistics& statistics = physics_.statistics();
  info.push_back("View 4: playground. " + io::count_of(movable_.size(), "dynamic body", "dynamic bodies") + ", " + std::to_string(awake) +
                 " awake (green; asleep: blue); " + io::count_of(static_cast<std::size_t>(points), "contact point", "contact points") +
                 " (purple: normals)");
  info.push_back(std::string(paused_ ? "paused" : "running") + " at step " + std::to_string(steps_) + " (" + format_number(step_seconds * 1000) +
                 " ms of simulated time each): the last took " + format_number(static_cast<Real>(last_step_milliseconds_)) + " ms; " +
                 io::count_of(static_cast<std::size_t>(statistics.islands), "island", "islands") + ", " +
                 io::count_of(static_cast<std::size_t>(statistics.continuous_hits), "swept stop", "swept stops"));
  info.push_back("a click on empty space drops a " + std::string(drop_name(next_drop_)));
}

std::vector<std::string> PlaygroundView::help() const {
  return {"left click on empty space: drop a box, circle, capsule or polygon (in turn)", "left drag: hold and move a body",
          "P: pause or run, N: one step while paused, R: start again"};
}

// ---------------------------------------------------------------- view 5: scene

SceneView::SceneView(io::Scene scene, std::string path) : scene_(std::move(scene)), path_(std::move(path)) {
  pairs_ = io::find_pairs(scene_, false);
}

int SceneView::body_at(Vec2 world) const {
  for (int i = static_cast<int>(scene_.bodies.size()) - 1; i >= 0; --i) {
    const io::Body& body = scene_.bodies[static_cast<std::size_t>(i)];
    if (contains(body.shape, body.transform, world)) return i;
  }
  return -1;
}

void SceneView::move_body(int body, Vec2 delta) {
  if (body < 0 || body >= static_cast<int>(scene_.bodies.size())) return;
  Transform& transform = scene_.bodies[static_cast<std::size_t>(body)].transform;
  transform.position = transform.position + delta;
  pairs_ = io::find_pairs(scene_, false);
}

Camera SceneView::initial_camera(int width, int height) const {
  Camera camera{{0, 0}, 60, width, height};
  if (scene_.bodies.empty()) return camera;
  Aabb bounds = compute_aabb(scene_.bodies[0].shape, scene_.bodies[0].transform);
  for (const io::Body& body : scene_.bodies) bounds = bounds.merged(compute_aabb(body.shape, body.transform));
  camera.fit(bounds);
  return camera;
}

void SceneView::draw(DrawList& list, std::vector<std::string>& info) const {
  // Each body coloured by the worst status of its pairs, as pairs_picture() does.
  std::vector<io::PairStatus> worst(scene_.bodies.size(), io::PairStatus::separate);
  for (const io::PairReport& pair : pairs_) {
    for (int body : {pair.a, pair.b}) {
      io::PairStatus& status = worst[static_cast<std::size_t>(body)];
      if (pair.status == io::PairStatus::overlap || (pair.status == io::PairStatus::touching && status == io::PairStatus::separate)) {
        status = pair.status;
      }
    }
  }
  std::vector<Text> labels;  // drawn last, over the contacts
  for (std::size_t i = 0; i < scene_.bodies.size(); ++i) {
    const io::Body& body = scene_.bodies[i];
    const bool overlapping = worst[i] == io::PairStatus::overlap, touching = worst[i] == io::PairStatus::touching;
    draw_shape(list, body.shape, body.transform, overlapping ? palette::overlap : touching ? palette::touching : palette::apart,
               overlapping ? palette::overlap_outline : touching ? palette::touching_outline : palette::apart_outline);
    const Vec2 at = label_point(body.shape, body.transform);
    labels.push_back(Text{std::to_string(i) + (body.name.empty() ? "" : " " + body.name), Anchor::world, at.x, at.y, -6, -8, 13, palette::text});
  }
  for (const io::PairReport& pair : pairs_) {
    for (const ManifoldPoint& contact : pair.contacts) {
      if (pair.depth > 0) list.add(Arrow{contact.point, contact.point + pair.depth * pair.normal, palette::normal_arrow, 2});
      list.add(Dot{contact.point, 3.5, palette::contact});
    }
  }
  for (Text& label : labels) list.add(std::move(label));
  info.push_back("View 5: " + path_ + ": " + io::count_of(scene_.bodies.size(), "body", "bodies") + ", " +
                 io::count_of(pairs_.size(), "pair", "pairs") + " overlapping or touching (as collide2d pairs reports them)");
  constexpr std::size_t shown = 10;
  for (std::size_t i = 0; i < std::min(shown, pairs_.size()); ++i) {
    const io::PairReport& pair = pairs_[i];
    info.push_back(std::to_string(pair.a) + " - " + std::to_string(pair.b) + ": " + io::status_name(pair.status) + ", depth " +
                   format_number(pair.depth) + ", normal " + format_vector(pair.normal) + ", " +
                   io::count_of(pair.contacts.size(), "contact", "contacts"));
  }
  if (pairs_.size() > shown) info.push_back("... and " + io::count_of(pairs_.size() - shown, "more pair", "more pairs"));
}

std::vector<std::string> SceneView::help() const { return {"left drag: move a body; pairs, depths, normals and contacts follow"}; }

// ---------------------------------------------------------------- the demo

std::optional<ViewKind> view_from_name(std::string_view name) {
  if (name == "boxes") return ViewKind::boxes;
  if (name == "minkowski") return ViewKind::minkowski;
  if (name == "slopes") return ViewKind::slopes;
  if (name == "playground") return ViewKind::playground;
  if (name == "scene") return ViewKind::scene;
  return std::nullopt;
}

std::string_view view_name(ViewKind view) {
  switch (view) {
    case ViewKind::boxes: return "boxes";
    case ViewKind::minkowski: return "minkowski";
    case ViewKind::slopes: return "slopes";
    case ViewKind::playground: return "playground";
    case ViewKind::scene: return "scene";
  }
  return "?";
}

Demo::Demo(ViewKind view, std::optional<SceneView> scene, int width, int height) : view_(view), scene_(std::move(scene)) {
  cameras_[0] = boxes_.initial_camera(width, height);
  cameras_[1] = minkowski_.initial_camera(width, height);
  cameras_[2] = slopes_.initial_camera(width, height);
  cameras_[3] = playground_.initial_camera(width, height);
  cameras_[4] = scene_ ? scene_->initial_camera(width, height) : Camera{{0, 0}, 60, width, height};
}

void Demo::set_view(ViewKind view) {
  view_ = view;
  dragged_body_ = -1;
}

void Demo::key_pressed(Key key) {
  switch (key) {
    case Key::view_1: set_view(ViewKind::boxes); return;
    case Key::view_2: set_view(ViewKind::minkowski); return;
    case Key::view_3: set_view(ViewKind::slopes); return;
    case Key::view_4: set_view(ViewKind::playground); return;
    case Key::view_5: set_view(ViewKind::scene); return;
    case Key::h: show_help_ = !show_help_; return;
    case Key::plus:
    case Key::minus: {
      Camera& camera = active_camera();
      camera.zoom_at({camera.width / 2.0, camera.height / 2.0}, key == Key::plus ? 1.25 : 1 / 1.25);
      return;
    }
    default: break;
  }
  if (view_ == ViewKind::boxes) boxes_.key_pressed(key);
  if (view_ == ViewKind::minkowski) minkowski_.key_pressed(key);
  if (view_ == ViewKind::slopes) slopes_.key_pressed(key);
  if (view_ == ViewKind::playground) playground_.key_pressed(key);
}

void Demo::update(std::span<const Key> held, Real seconds) {
  double dx = 0, dy = 0;
  if (is_held(held, Key::a)) dx += 1;
  if (is_held(held, Key::d)) dx -= 1;
  if (is_held(held, Key::w)) dy += 1;
  if (is_held(held, Key::s)) dy -= 1;
  if (dx != 0 || dy != 0) active_camera().pan_pixels(dx * pan_speed * seconds, dy * pan_speed * seconds);
  if (view_ == ViewKind::boxes) boxes_.update(held, seconds);
  if (view_ == ViewKind::minkowski) minkowski_.update(held, seconds);
  if (view_ == ViewKind::slopes) slopes_.update(held, seconds);
  if (view_ == ViewKind::playground) playground_.update(held, seconds);
}

void Demo::mouse_pressed(MouseButton button, ScreenPoint at) {
  last_mouse_ = at;
  if (button != MouseButton::left) {
    panning_ = true;
    return;
  }
  const Vec2 world = camera().to_world(at);
  switch (view_) {
    case ViewKind::boxes: dragged_body_ = boxes_.body_at(world); break;
    case ViewKind::minkowski: dragged_body_ = minkowski_.body_at(world); break;
    case ViewKind::slopes: dragged_body_ = slopes_.body_at(world); break;
    case ViewKind::playground:
      dragged_body_ = playground_.body_at(world);
      if (dragged_body_ < 0) playground_.drop(world);
      break;
    case ViewKind::scene: dragged_body_ = scene_ ? scene_->body_at(world) : -1; break;
  }
}

void Demo::mouse_moved(ScreenPoint at) {
  if (dragged_body_ >= 0) {
    const Vec2 delta = camera().to_world(at) - camera().to_world(last_mouse_);
    switch (view_) {
      case ViewKind::boxes: boxes_.move_body(dragged_body_, delta); break;
      case ViewKind::minkowski: minkowski_.move_body(dragged_body_, delta); break;
      case ViewKind::slopes: slopes_.move_body(dragged_body_, delta); break;
      case ViewKind::playground: playground_.move_body(dragged_body_, delta); break;
      case ViewKind::scene:
        if (scene_) scene_->move_body(dragged_body_, delta);
        break;
    }
  } else if (panning_) {
    active_camera().pan_pixels(at.x - last_mouse_.x, at.y - last_mouse_.y);
  }
  last_mouse_ = at;
}

void Demo::mouse_released(MouseButton button) {
  if (button == MouseButton::left) {
    dragged_body_ = -1;
    playground_.release();
  } else {
    panning_ = false;
  }
}

void Demo::wheel(double notches, ScreenPoint at) { active_camera().zoom_at(at, std::pow(1.15, notches)); }

void Demo::resize(int width, int height) {
  for (Camera& camera : cameras_) {
    camera.width = std::max(width, 1);
    camera.height = std::max(height, 1);
  }
}

DrawList Demo::draw() const {
  DrawList list;
  draw_grid(list, camera());
  std::vector<std::string> info;
  std::vector<std::string> help;
  switch (view_) {
    case ViewKind::boxes:
      boxes_.draw(list, info);
      help = boxes_.help();
      break;
    case ViewKind::minkowski:
      minkowski_.draw(list, info);
      help = minkowski_.help();
      break;
    case ViewKind::slopes:
      slopes_.draw(list, info);
      help = slopes_.help();
      break;
    case ViewKind::playground:
      playground_.draw(list, info);
      help = playground_.help();
      break;
    case ViewKind::scene:
      if (scene_) {
        scene_->draw(list, info);
        help = scene_->help();
      } else {
        info.push_back("View 5: no scene. Start the demo with --scene FILE (a JSON scene or a SteerSuite XML test case).");
      }
      break;
  }
  if (show_help_) {
    std::vector<std::string> lines = {"collide2d demo: view " + std::string(view_name(view_)),
                                      "1: boxes   2: minkowski   3: slopes   4: playground   5: scene"};
    lines.insert(lines.end(), help.begin(), help.end());
    lines.push_back("WASD or right/middle drag: pan; wheel or +/-: zoom");
    lines.push_back("H: hide this help");
    list.add(Panel{std::move(lines), 10, 10, 15});
  } else {
    list.add(Panel{{"H: help"}, 10, 10, 15});
  }
  if (!info.empty()) list.add(Panel{std::move(info), 10, -34, 15});
  return list;
}

}  // namespace collide2d::demo

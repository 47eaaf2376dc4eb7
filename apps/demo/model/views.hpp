// views.hpp — the demo's views and the frame around them, without a window.
//
// Outline: Key (the keys the demo reacts to) and its names; BoxesView (view 1: the red and green
// box, push-out by penetration()); MinkowskiView (view 2: two shapes from a catalogue, their
// Minkowski difference and the steps of GJK, EPA and SAT from the library's own traces);
// SceneView (view 5: a scene file's bodies with the io library's pair report); Demo (the current
// view, one camera per view, keyboard and mouse input, the grid and the help panel). Every view
// describes its frame as a DrawList; the window program only paints it.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "collide2d/algorithms.hpp"
#include "collide2d/io/pairs.hpp"
#include "collide2d/io/scene.hpp"
#include "collide2d/penetration.hpp"
#include "drawing.hpp"

namespace collide2d::demo {

/// The keys the demo reacts to (the window program maps its key codes to these).
enum class Key {
  left, right, up, down,           ///< arrows: move the green box (view 1) or shape B (view 2)
  a, d, s, w,                      ///< pan left, right, down, up
  i, o,                            ///< rotate: I the red box / shape A, O the green box / shape B
  p,                               ///< view 1: push-out on or off
  n, b,                            ///< view 2: next step, back one step
  g, e, t,                         ///< view 2: show GJK, EPA or SAT (separating axes Tried)
  z, c,                            ///< view 2: next shape for A (Z) or B (C)
  h,                               ///< help panel on or off
  plus, minus,                     ///< zoom in or out about the window's centre
  view_1, view_2, view_5,          ///< number keys: switch to view 1, 2 or 5
};

/// The key of a name used in --keys scripts ("left", "i", "1", "plus", ...); empty for unknown names.
std::optional<Key> key_from_name(std::string_view name);
/// The script name of a key ("left", "i", "1", ...).
std::string_view key_name(Key key);

/// Mouse buttons the demo uses.
enum class MouseButton { left, right, middle };

/// View 1: a red box and a green box. Arrows move the green one, I turns the red one and O the
/// green one, and with push-out on each frame moves the green box by penetration()'s
/// depth * normal so that the two never stay overlapping.
class BoxesView {
 public:
  /// The starting position: the green box to the left of the red one, apart.
  BoxesView();

  /// The red box's shape (A in every query).
  const Shape& red_shape() const { return red_shape_; }
  /// The green box's shape (B in every query).
  const Shape& green_shape() const { return green_shape_; }
  /// Where the red box is.
  const Transform& red() const { return red_; }
  /// Where the green box is.
  const Transform& green() const { return green_; }

  /// Is push-out on (the default)?
  bool push_out() const { return push_out_; }
  /// Turns push-out on or off.
  void set_push_out(bool on) { push_out_ = on; }

  /// Moves the green box by a world vector.
  void move_green(Vec2 delta) { green_.position = green_.position + delta; }
  /// Turns the red box by `radians` about its centre, counter-clockwise.
  void rotate_red(Real radians);
  /// Turns the green box by `radians` about its centre, counter-clockwise.
  void rotate_green(Real radians);

  /// One frame: arrows move the green box (3 units per second), I and O turn the boxes (1.5
  /// radians per second), then push-out runs once when it is on.
  void update(std::span<const Key> held, Real seconds);
  /// Push-out: when the boxes overlap or touch, moves the green box by depth * normal and
  /// remembers that move as the frame's penetration vector. Does nothing when push-out is off.
  void resolve();
  /// A key going down: P toggles push-out.
  void key_pressed(Key key);

  /// penetration(red, green) now: empty when the boxes are apart.
  std::optional<Penetration> current_penetration() const;
  /// True when the boxes overlap by more than the touching band (the colour of overlap).
  bool overlapping() const;

  /// The box under a world point: 0 red, 1 green, or -1.
  int body_at(Vec2 world) const;
  /// Moves box 0 (red) or 1 (green) by a world vector.
  void move_body(int body, Vec2 delta);

  /// The starting camera: both boxes in view.
  Camera initial_camera(int width, int height) const;
  /// The frame: both boxes (overlap colour when overlapping), the penetration vector as an arrow, and the numbers.
  void draw(DrawList& list, std::vector<std::string>& info) const;
  /// Key help lines of this view.
  std::vector<std::string> help() const;

 private:
  Shape red_shape_;
  Shape green_shape_;
  Transform red_;
  Transform green_;
  bool push_out_ = true;
  std::optional<Penetration> last_push_;  // what push-out did this frame: where (point_b) and depth * normal
};

/// The algorithm whose steps view 2 shows.
enum class Algorithm { gjk, epa, sat };

/// A shape view 2 offers, with its name.
struct CatalogueShape {
  std::string name;   ///< "box", "circle", ...
  ConvexShape shape;  ///< the shape in its local frame, about its origin
};

/// The shapes view 2 picks from: box, circle, capsule, segment, triangle, pentagon, rounded hexagon.
const std::vector<CatalogueShape>& shape_catalogue();

/// View 2: shapes A and B, their Minkowski difference B - A in A's frame (drawn with its origin
/// at the world origin) and the steps of GJK, EPA or SAT, one at a time.
class MinkowskiView {
 public:
  /// Starts with A a box and B a triangle, overlapping, showing GJK's first step.
  MinkowskiView();

  /// Index of A's shape in shape_catalogue().
  int shape_a() const { return shape_a_; }
  /// Index of B's shape in shape_catalogue().
  int shape_b() const { return shape_b_; }
  /// Picks A's and B's shapes by catalogue index (taken modulo the catalogue's size).
  void set_shapes(int shape_a, int shape_b);
  /// Where A is.
  const Transform& transform_a() const { return a_; }
  /// Where B is.
  const Transform& transform_b() const { return b_; }
  /// Places A and B.
  void set_transforms(const Transform& a, const Transform& b);
  /// A's shape.
  const ConvexShape& convex_a() const;
  /// B's shape.
  const ConvexShape& convex_b() const;

  /// The algorithm shown.
  Algorithm algorithm() const { return algorithm_; }
  /// Shows another algorithm, from its first step.
  void set_algorithm(Algorithm algorithm);
  /// Number of steps of the shown algorithm: the length of its library trace (GjkOptions::trace,
  /// EpaOptions::trace or sat's trace); 0 when it does not apply (EPA when the cores are apart,
  /// SAT unless both shapes are polygons).
  int step_count() const;
  /// The step shown, 0-based; 0 when there are none.
  int step() const { return step_; }
  /// Shows the next step (stays on the last).
  void next_step();
  /// Shows the previous step (stays on the first).
  void previous_step();

  /// The GJK trace: the simplex after each step.
  const std::vector<Simplex>& gjk_trace() const { return gjk_trace_; }
  /// GJK's answer on the cores.
  const GjkResult& gjk_result() const { return gjk_result_; }
  /// The EPA trace: the polytope after each expansion (empty when the cores are apart).
  const std::vector<std::vector<Vec2>>& epa_trace() const { return epa_trace_; }
  /// The SAT trace: every axis tried (empty unless both shapes are polygons).
  const std::vector<SatAxis>& sat_trace() const { return sat_trace_; }
  /// The brute-force Minkowski difference B - A in A's frame.
  const MinkowskiDifference& difference() const { return difference_; }

  /// One frame: arrows move B (3 units per second), I turns A and O turns B (1.5 radians per second).
  void update(std::span<const Key> held, Real seconds);
  /// A key going down: N, B step; G, E, T pick the algorithm; Z, C cycle A's and B's shapes.
  void key_pressed(Key key);

  /// The shape under a world point: 0 for A, 1 for B, or -1.
  int body_at(Vec2 world) const;
  /// Moves shape 0 (A) or 1 (B) by a world vector.
  void move_body(int body, Vec2 delta);

  /// The starting camera: the shapes on the left, the difference around the origin.
  Camera initial_camera(int width, int height) const;
  /// The frame: A and B, the difference with its vertex differences, the origin, the current
  /// step of the shown algorithm (earlier ones faint), the penetration vector, and the numbers.
  void draw(DrawList& list, std::vector<std::string>& info) const;
  /// Key help lines of this view.
  std::vector<std::string> help() const;

 private:
  void recompute();  // the difference and the three traces, after any change of shape or pose

  int shape_a_ = 0;
  int shape_b_ = 4;
  Transform a_;
  Transform b_;
  Algorithm algorithm_ = Algorithm::gjk;
  int step_ = 0;
  MinkowskiDifference difference_;
  std::vector<Simplex> gjk_trace_;
  GjkResult gjk_result_;
  std::vector<std::vector<Vec2>> epa_trace_;
  std::optional<EpaResult> epa_result_;
  std::vector<SatAxis> sat_trace_;
  std::optional<SatAxis> sat_result_;
};

/// View 5: the bodies of a scene file; dragging one updates the pairs as `collide2d pairs`
/// reports them (io::find_pairs).
class SceneView {
 public:
  /// Shows `scene`, read from `path` (named in the panel).
  SceneView(io::Scene scene, std::string path);

  /// The scene as it stands (bodies moved by dragging).
  const io::Scene& scene() const { return scene_; }
  /// io::find_pairs(scene(), false): the pairs that overlap or touch.
  const std::vector<io::PairReport>& pairs() const { return pairs_; }

  /// The body under a world point (the last drawn, so the one on top), or -1.
  int body_at(Vec2 world) const;
  /// Moves a body by a world vector and reports the pairs again.
  void move_body(int body, Vec2 delta);

  /// The starting camera: every body in view.
  Camera initial_camera(int width, int height) const;
  /// The frame: bodies coloured as in `collide2d pairs --svg`, contact points, normals of length depth, and the pair list.
  void draw(DrawList& list, std::vector<std::string>& info) const;
  /// Key help lines of this view.
  std::vector<std::string> help() const;

 private:
  io::Scene scene_;
  std::string path_;
  std::vector<io::PairReport> pairs_;
};

/// Which view is shown.
enum class ViewKind { boxes, minkowski, scene };

/// The view of a --view name ("boxes", "minkowski", "scene"); empty for unknown names.
std::optional<ViewKind> view_from_name(std::string_view name);
/// The --view name of a view.
std::string_view view_name(ViewKind view);

/// The whole demo: the three views, which one is shown, a camera per view, and input.
class Demo {
 public:
  /// A demo showing `view` in a window of `width` by `height` pixels; view 5 shows `scene` when given.
  Demo(ViewKind view, std::optional<SceneView> scene, int width = 1200, int height = 800);

  /// The view shown.
  ViewKind view() const { return view_; }
  /// Shows another view (keeping each view's state and camera).
  void set_view(ViewKind view);
  /// View 1.
  BoxesView& boxes() { return boxes_; }
  /// View 2.
  MinkowskiView& minkowski() { return minkowski_; }
  /// View 5, when a scene was given.
  SceneView* scene() { return scene_ ? &*scene_ : nullptr; }
  /// The camera of the view shown.
  const Camera& camera() const { return cameras_[static_cast<std::size_t>(view_)]; }

  /// A key going down: number keys switch views, H toggles help, + and - zoom; the rest goes to the view.
  void key_pressed(Key key);
  /// One frame of `seconds` with `held` keys down: WASD pan, then the view's own motion.
  void update(std::span<const Key> held, Real seconds);
  /// A mouse button going down at a window pixel: left grabs the body under it, right and middle start panning.
  void mouse_pressed(MouseButton button, ScreenPoint at);
  /// The mouse moving to a window pixel: drags the grabbed body or pans.
  void mouse_moved(ScreenPoint at);
  /// A mouse button going up: ends the drag or the pan.
  void mouse_released(MouseButton button);
  /// The wheel turned by `notches` (positive: zoom in) with the mouse at a window pixel.
  void wheel(double notches, ScreenPoint at);
  /// The window's new size in pixels; every camera keeps its centre and zoom.
  void resize(int width, int height);

  /// The frame: the grid, the view's drawing, the view's numbers and the help panel.
  DrawList draw() const;

 private:
  Camera& active_camera() { return cameras_[static_cast<std::size_t>(view_)]; }

  ViewKind view_;
  BoxesView boxes_;
  MinkowskiView minkowski_;
  std::optional<SceneView> scene_;
  std::array<Camera, 3> cameras_;
  bool show_help_ = true;
  int dragged_body_ = -1;                 // the body the left button holds, or -1
  bool panning_ = false;                  // right or middle button held
  ScreenPoint last_mouse_;
};

}  // namespace collide2d::demo

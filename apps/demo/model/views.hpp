// views.hpp — the demo's views and the frame around them, without a window.
//
// Outline: Key (the keys the demo reacts to) and its names; BoxesView (view 1: the red and green
// box, push-out by penetration()); MinkowskiView (view 2: two shapes from a catalogue, their
// Minkowski difference and the steps of GJK, EPA and SAT from the library's own traces);
// exit_vector_move and SlopesView (view 3: a character walking and jumping on one concave
// terrain outline, moved by move_and_slide or by the original exit-vector method);
// PlaygroundView (view 4: the rigid-body step: drop shapes, drag them, pause and single-step);
// SceneView (view 5: a scene file's bodies with the io library's pair report); Demo (the current
// view, one camera per view, keyboard and mouse input, the grid and the help panel). Every view
// describes its frame as a DrawList; the window program only paints it.
#pragma once

#include <array>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "collide2d/algorithms.hpp"
#include "collide2d/dynamics.hpp"
#include "collide2d/io/pairs.hpp"
#include "collide2d/io/scene.hpp"
#include "collide2d/penetration.hpp"
#include "collide2d/response.hpp"
#include "collide2d/world.hpp"
#include "drawing.hpp"

namespace collide2d::demo {

/// The keys the demo reacts to (the window program maps its key codes to these).
enum class Key {
  left, right, up, down,           ///< arrows: move the green box (view 1) or shape B (view 2); walk and jump (view 3)
  a, d, s, w,                      ///< pan left, right, down, up
  i, o,                            ///< rotate: I the red box / shape A, O the green box / shape B
  p,                               ///< view 1: push-out on or off; view 4: pause
  n, b,                            ///< view 2: next step, back one step; view 4: N one step while paused
  g, e, t,                         ///< view 2: show GJK, EPA or SAT (separating axes Tried)
  z, c,                            ///< view 2: next shape for A (Z) or B (C)
  m, r, space,                     ///< view 3: switch the method (M), back to the start (R, also view 4), jump (space)
  h,                               ///< help panel on or off
  plus, minus,                     ///< zoom in or out about the window's centre
  view_1, view_2, view_3, view_4, view_5,  ///< number keys: switch to view 1, 2, 3, 4 or 5
};

/// The key of a name used in --keys scripts ("left", "i", "1", "plus", "space", ...); empty for unknown names.
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

/// The original exit-vector method, one frame of it: move `shape` by the whole `motion`; if it
/// then overlaps bodies of the world, back it out along the motion to the first one it met
/// (minkowski_exit, the largest fraction) and move it on by the exit's slide, for at most
/// options.max_iterations rounds (the last round's slide is not made, so it ends touching, never
/// overlapping). Nothing is cast, so a motion longer than a body is thick can pass through it, and
/// the slide keeps the part of gravity along a slope. Reported as move_and_slide reports: floor,
/// wall and ceiling from the exit normals against options.up and options.max_floor_angle; each
/// exit a hit (its point: the closest point of the body at the touching pose); the path. Of
/// `options` it uses up, max_floor_angle, max_iterations and filter; skin, snapping and steps are
/// the mover's own.
MoveResult exit_vector_move(const World& world, const Shape& shape, const Transform& transform, Vec2 motion, const MoveOptions& options = {});

/// A name view 3 writes next to a feature of its terrain ("20 deg", "step", ...).
struct SlopeLabel {
  std::string text;              ///< the name
  Vec2 at;                       ///< the world point it belongs to
  double offset_x_pixels = 0;    ///< the text's top-left corner this many pixels right of `at`
  double offset_y_pixels = 0;    ///< ... and this many pixels below it
};

/// How view 3 moves its character each frame.
enum class SlopeMethod {
  mover,        ///< move_and_slide: casts with a skin, floors carry the weight, steps and snapping
  exit_vector,  ///< exit_vector_move: move, then back out along the motion and slide (the original method)
};

/// The name view 3 shows for a method ("move_and_slide", "exit vector (minkowski_exit)").
std::string_view method_name(SlopeMethod method);

/// View 3: a box character on terrain (slopes of 20, 35 and 60 degrees, a step, a valley, a
/// ledge over a drop, walls at both ends: one concave outline cut into convex pieces) and two
/// crates. Left and right walk, up or space jumps; the model integrates the velocity (gravity
/// accumulates while airborne and is reset on a floor) and moves the character each frame by
/// move_and_slide or, after M, by the exit-vector method, so the two can be compared.
class SlopesView {
 public:
  /// Walking speed, world units per second.
  static constexpr Real walk_speed = 5;
  /// Gravity, world units per second squared.
  static constexpr Real gravity = 25;
  /// Upward speed of a jump, world units per second (a jump rises about 1.6 units).
  static constexpr Real jump_speed = 9;
  /// The fastest fall, world units per second.
  static constexpr Real max_fall_speed = 20;

  /// The level with the character standing at its start, on the flat ground at the left, using the mover.
  SlopesView();

  /// The world: body 0 is the terrain, then the crates.
  const World& world() const { return world_; }
  /// The terrain's handle in world().
  BodyHandle terrain() const { return terrain_; }
  /// The terrain's top surface, left to right: the points of its outline from the top of the left
  /// wall to the top of the right wall (the underside of the ledge included), world units.
  const std::vector<Vec2>& surface() const { return surface_; }
  /// The character's shape: a box 0.7 wide and 1.4 tall about its centre (a flat bottom, so it
  /// lands on a step's top face and the mover's step climbing works at walking speed).
  const Shape& character_shape() const { return character_shape_; }
  /// Where the character is.
  const Transform& character() const { return character_; }
  /// Its velocity, world units per second.
  Vec2 velocity() const { return velocity_; }
  /// The options the mover (and the floor test of the exit-vector method) uses.
  const MoveOptions& move_options() const { return options_; }
  /// What the last frame's move reported (empty before the first frame and after a reset or a drag).
  const std::optional<MoveResult>& last_move() const { return last_move_; }
  /// True when the last move ended on a floor.
  bool on_floor() const { return last_move_ && last_move_->on_floor; }

  /// The method in use.
  SlopeMethod method() const { return method_; }
  /// Switches the method, keeping the character where it is.
  void set_method(SlopeMethod method) { method_ = method; }
  /// Puts the character's centre at `position` at rest (pushed out of anything it would overlap)
  /// and forgets the last move and the trail.
  void place_character(Vec2 position);
  /// Back to the start: the character at rest at its starting point.
  void reset();

  /// One frame: left and right set the walking velocity, up or space starts a jump from a floor,
  /// gravity acts, then the method moves the character by velocity * seconds.
  void update(std::span<const Key> held, Real seconds);
  /// A key going down: M switches the method, R resets.
  void key_pressed(Key key);

  /// 0 when the world point is on the character, otherwise -1 (the terrain and crates stay put).
  int body_at(Vec2 world) const;
  /// Moves the character (body 0) by a world vector; it is put at rest and out of the terrain.
  void move_body(int body, Vec2 delta);

  /// The starting camera: the whole level across the window.
  Camera initial_camera(int width, int height) const;
  /// The frame: the terrain's pieces with faint cuts, the crates, the character's recent trail,
  /// the character, the last move's hit points and normals, and the floor, wall and ceiling state.
  void draw(DrawList& list, std::vector<std::string>& info) const;
  /// Key help lines of this view.
  std::vector<std::string> help() const;

 private:
  World world_;
  BodyHandle terrain_;
  std::vector<Vec2> surface_;
  std::vector<SlopeLabel> labels_;  // a name at each feature of the terrain
  Shape character_shape_;
  Transform character_;
  Vec2 start_;
  Vec2 velocity_;
  MoveOptions options_;
  SlopeMethod method_ = SlopeMethod::mover;
  std::optional<MoveResult> last_move_;
  std::vector<Vec2> trail_;  // the character's last positions, oldest first
};

/// The shapes view 4 drops, in turn.
enum class DropKind { box, circle, capsule, polygon };

/// The name view 4 shows for a drop kind ("box", "circle", "capsule", "polygon").
std::string_view drop_name(DropKind kind);

/// View 4: the rigid-body step (PhysicsWorld). A ground, two walls, a slope, a kerb and a pyramid
/// of boxes; a left click on empty space drops the next shape (a box, a circle, a capsule, a random
/// convex polygon), a left drag holds a body and moves it, P pauses, N steps once while paused,
/// R resets. Bodies awake and asleep are coloured apart; contact points and normals are drawn, with
/// the step's time in milliseconds and the counts.
class PlaygroundView {
 public:
  /// The simulated time of one step (one per frame while running), seconds.
  static constexpr Real step_seconds = Real(1) / 60;

  /// The starting scene, running.
  PlaygroundView();

  /// The simulation.
  const PhysicsWorld& physics() const { return physics_; }
  /// The bodies a drag may move (every dynamic body), in the order they were added.
  const std::vector<BodyHandle>& movable() const { return movable_; }
  /// True while paused.
  bool paused() const { return paused_; }
  /// Steps taken since the start or the last reset.
  int steps() const { return steps_; }
  /// What the next click drops.
  DropKind next_drop() const { return next_drop_; }
  /// Back to the starting scene, running.
  void reset();
  /// Drops the next shape, at rest, centred on a world point, and moves on to the next kind.
  void drop(Vec2 world);

  /// One frame: one step unless paused (a held body is kept still).
  void update(std::span<const Key> held, Real seconds);
  /// A key going down: P pauses or runs, N steps once while paused, R resets.
  void key_pressed(Key key);
  /// The movable body under a world point (its index in movable()), or -1.
  int body_at(Vec2 world) const;
  /// Holds a movable body and moves it by a world vector (it keeps still until released).
  void move_body(int body, Vec2 delta);
  /// Lets go of the held body.
  void release();

  /// The starting camera: the whole box in the window.
  Camera initial_camera(int width, int height) const;
  /// The frame: static bodies, dynamic bodies (awake and asleep apart), contact points and normals.
  void draw(DrawList& list, std::vector<std::string>& info) const;
  /// Key help lines of this view.
  std::vector<std::string> help() const;

 private:
  void step_once();

  PhysicsWorld physics_;
  std::vector<BodyHandle> movable_;
  std::mt19937 random_{2026};
  DropKind next_drop_ = DropKind::box;
  bool paused_ = false;
  int steps_ = 0;
  int held_ = -1;              // index in movable_ of the body a drag holds, or -1
  Transform held_at_;          // where the held body is kept
  double last_step_milliseconds_ = 0;
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

/// Which view is shown (in the order of their number keys).
enum class ViewKind { boxes, minkowski, slopes, playground, scene };

/// The view of a --view name ("boxes", "minkowski", "slopes", "playground", "scene"); empty for unknown names.
std::optional<ViewKind> view_from_name(std::string_view name);
/// The --view name of a view.
std::string_view view_name(ViewKind view);

/// The whole demo: the five views, which one is shown, a camera per view, and input.
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
  /// View 3.
  SlopesView& slopes() { return slopes_; }
  /// View 4.
  PlaygroundView& playground() { return playground_; }
  /// View 5, when a scene was given.
  SceneView* scene() { return scene_ ? &*scene_ : nullptr; }
  /// The camera of the view shown.
  const Camera& camera() const { return cameras_[static_cast<std::size_t>(view_)]; }

  /// A key going down: number keys switch views, H toggles help, + and - zoom; the rest goes to the view.
  void key_pressed(Key key);
  /// One frame of `seconds` with `held` keys down: WASD pan, then the view's own motion.
  void update(std::span<const Key> held, Real seconds);
  /// A mouse button going down at a window pixel: left grabs the body under it (in view 4, on empty
  /// space, drops a shape there), right and middle start panning.
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
  SlopesView slopes_;
  PlaygroundView playground_;
  std::optional<SceneView> scene_;
  std::array<Camera, 5> cameras_;
  bool show_help_ = true;
  int dragged_body_ = -1;                 // the body the left button holds, or -1
  bool panning_ = false;                  // right or middle button held
  ScreenPoint last_mouse_;
};

}  // namespace collide2d::demo

// test_demo_model.cpp — the demo's window-free model: input to motion, push-out, trace stepping,
// the scene view's pairs, the camera, the command line and key scripts.
//
// Outline: view 1 (arrows and I/O move and turn the right box; push-out by penetration() leaves
// the pair touching, never overlapping; dragging); view 2 (step counts equal the library's trace
// lengths, N and B walk them, the difference holds the origin exactly when overlap() says so);
// view 3 (exit_vector_move against minkowski_exit; the character walks flat ground and the gentle
// slope, never overlaps the terrain, stands still on slopes with the mover and creeps with the
// exit vector, cannot walk up 60 degrees, jumps and lands; M, R, 3 and dragging; the drawing);
// view 5 (the pairs of every shipped scene equal io::find_pairs, before and after a drag); the
// camera; the command line and key scripts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numbers>

#include "collide2d/decompose.hpp"
#include "collide2d/distance.hpp"
#include "collide2d/overlap.hpp"
#include "model/options.hpp"
#include "model/views.hpp"

namespace {

using namespace collide2d;
using namespace collide2d::demo;

constexpr Real frame = Real(1) / 60;

/// Runs `frames` frames of a view with `held` keys down.
template <class View>
void hold(View& view, std::vector<Key> held, int frames) {
  for (int i = 0; i < frames; ++i) view.update(held, frame);
}

/// parse_options over a list of arguments.
Result<Options, OptionsError> parse(std::vector<std::string_view> arguments) { return parse_options(arguments); }

/// The pair is not overlapping: apart, or touching within penetration()'s own band.
bool not_overlapping(const BoxesView& boxes) {
  const std::optional<Penetration> found = penetration(boxes.red_shape(), boxes.red(), boxes.green_shape(), boxes.green());
  return !found || found->depth <= found->tolerance;
}

// ---------------------------------------------------------------- view 1

TEST(BoxesView, ArrowsMoveOnlyTheGreenBox) {
  BoxesView boxes;
  const Transform red = boxes.red(), green = boxes.green();
  hold(boxes, {Key::right}, 12);  // 0.2 s at 3 units per second: still apart
  EXPECT_NEAR(boxes.green().position.x - green.position.x, 0.6, 1e-4);
  EXPECT_NEAR(boxes.green().position.y, green.position.y, 1e-6);
  hold(boxes, {Key::up}, 6);
  EXPECT_NEAR(boxes.green().position.y - green.position.y, 0.3, 1e-4);
  hold(boxes, {Key::left, Key::down}, 6);
  EXPECT_NEAR(boxes.green().position.x - green.position.x, 0.3, 1e-4);
  EXPECT_NEAR(boxes.green().position.y - green.position.y, 0.0, 1e-4);
  EXPECT_EQ(boxes.red(), red);
  EXPECT_EQ(boxes.green().rotation, green.rotation);
}

TEST(BoxesView, ITurnsTheRedBoxAndOTheGreenBox) {
  BoxesView boxes;
  const Transform red = boxes.red(), green = boxes.green();
  hold(boxes, {Key::i}, 20);  // 1/3 s at 1.5 radians per second
  EXPECT_NEAR(boxes.red().rotation.angle() - red.rotation.angle(), 0.5, 1e-4);
  EXPECT_EQ(boxes.red().position, red.position);
  EXPECT_EQ(boxes.green(), green);
  hold(boxes, {Key::o}, 10);
  EXPECT_NEAR(boxes.green().rotation.angle() - green.rotation.angle(), 0.25, 1e-4);
  EXPECT_NEAR(boxes.red().rotation.angle() - red.rotation.angle(), 0.5, 1e-4);
}

TEST(BoxesView, WithoutPushOutTheGreenBoxGoesIntoTheRedOne) {
  BoxesView boxes;
  boxes.set_push_out(false);
  hold(boxes, {Key::right}, 60);
  EXPECT_TRUE(boxes.overlapping());
  EXPECT_TRUE(overlap(boxes.red_shape(), boxes.red(), boxes.green_shape(), boxes.green()));
  EXPECT_GT(boxes.current_penetration()->depth, 0.5);
}

TEST(BoxesView, PushOutLeavesThePairNotOverlappingEveryFrame) {
  BoxesView boxes;
  ASSERT_TRUE(boxes.push_out());
  bool met = false;
  // Drive into the red box, then turn both boxes and push diagonally while touching.
  for (const auto& [keys, frames] : std::vector<std::pair<std::vector<Key>, int>>{
           {{Key::right}, 90}, {{Key::i}, 40}, {{Key::o, Key::right, Key::up}, 60}, {{Key::i, Key::o, Key::down}, 60}}) {
    for (int i = 0; i < frames; ++i) {
      boxes.update(keys, frame);
      EXPECT_TRUE(not_overlapping(boxes)) << "frame " << i;
      EXPECT_FALSE(boxes.overlapping());
      met = met || distance(boxes.red_shape(), boxes.red(), boxes.green_shape(), boxes.green()).distance < 1e-3;
    }
  }
  EXPECT_TRUE(met) << "the green box should have reached the red one";
  const DistanceResult gap = distance(boxes.red_shape(), boxes.red(), boxes.green_shape(), boxes.green());
  EXPECT_LT(gap.distance, 1e-3);
}

TEST(BoxesView, PushOutMovesTheGreenBoxByDepthTimesNormal) {
  BoxesView boxes;
  boxes.set_push_out(false);
  hold(boxes, {Key::right}, 50);
  const std::optional<Penetration> found = boxes.current_penetration();
  ASSERT_TRUE(found && found->depth > 0.1);
  const Vec2 before = boxes.green().position;
  boxes.set_push_out(true);
  boxes.resolve();
  const Vec2 moved = boxes.green().position - before;
  EXPECT_NEAR(moved.x, found->depth * found->normal.x, 1e-5);
  EXPECT_NEAR(moved.y, found->depth * found->normal.y, 1e-5);
  EXPECT_TRUE(not_overlapping(boxes));
}

TEST(BoxesView, PTogglesPushOutAndTheDrawingFollowsTheStatus) {
  Demo demo(ViewKind::boxes, std::nullopt);
  demo.key_pressed(Key::p);
  EXPECT_FALSE(demo.boxes().push_out());
  for (int i = 0; i < 60; ++i) demo.update(std::vector<Key>{Key::right}, frame);
  auto count_fills = [](const DrawList& list, Colour colour) {
    return std::count_if(list.items.begin(), list.items.end(), [&](const DrawItem& item) {
      const auto* polygon = std::get_if<FilledPolygon>(&item);
      return polygon != nullptr && polygon->fill == colour;
    });
  };
  auto count_arrows = [](const DrawList& list) {
    return std::count_if(list.items.begin(), list.items.end(), [](const DrawItem& item) {
      const auto* arrow = std::get_if<Arrow>(&item);
      return arrow != nullptr && arrow->colour == palette::normal_arrow;
    });
  };
  DrawList list = demo.draw();
  EXPECT_EQ(count_fills(list, palette::overlap), 2);
  EXPECT_EQ(count_fills(list, palette::red_box), 0);
  EXPECT_EQ(count_arrows(list), 1);
  demo.key_pressed(Key::p);
  EXPECT_TRUE(demo.boxes().push_out());
  demo.update(std::vector<Key>{Key::right}, frame);
  list = demo.draw();
  EXPECT_EQ(count_fills(list, palette::overlap), 0);
  EXPECT_EQ(count_fills(list, palette::red_box), 1);
  EXPECT_EQ(count_fills(list, palette::green_box), 1);
  EXPECT_EQ(count_arrows(list), 1);  // the push of this frame
}

TEST(BoxesView, MouseDragMovesTheBoxUnderTheCursor) {
  Demo demo(ViewKind::boxes, std::nullopt);
  const Transform red = demo.boxes().red(), green = demo.boxes().green();
  const ScreenPoint start = demo.camera().to_screen(green.position);
  demo.mouse_pressed(MouseButton::left, start);
  demo.mouse_moved({start.x, start.y - 80});  // 80 pixels up
  demo.mouse_released(MouseButton::left);
  const double units = 80 / demo.camera().pixels_per_unit;
  EXPECT_NEAR(demo.boxes().green().position.y - green.position.y, units, 1e-4);
  EXPECT_NEAR(demo.boxes().green().position.x, green.position.x, 1e-4);
  EXPECT_EQ(demo.boxes().red(), red);
  // The red box, then empty space: only the red box moves, and empty space moves nothing.
  const ScreenPoint red_at = demo.camera().to_screen(red.position);
  demo.mouse_pressed(MouseButton::left, red_at);
  demo.mouse_moved({red_at.x + 40, red_at.y});
  demo.mouse_released(MouseButton::left);
  EXPECT_NEAR(demo.boxes().red().position.x - red.position.x, 40 / demo.camera().pixels_per_unit, 1e-4);
  const Transform red_now = demo.boxes().red(), green_now = demo.boxes().green();
  demo.mouse_pressed(MouseButton::left, {1190, 790});
  demo.mouse_moved({1100, 700});
  demo.mouse_released(MouseButton::left);
  EXPECT_EQ(demo.boxes().red(), red_now);
  EXPECT_EQ(demo.boxes().green(), green_now);
}

// ---------------------------------------------------------------- view 2

struct Traces {
  std::vector<Simplex> gjk;
  std::vector<std::vector<Vec2>> epa;
  std::vector<SatAxis> sat;
};

/// The library's traces for the view's pair, computed here independently of the view.
Traces library_traces(const MinkowskiView& view) {
  Traces traces;
  const Transform b_to_a = inverse_compose(view.transform_a(), view.transform_b());
  const GjkResult cores = std::visit(
      [&](const auto& a, const auto& b) { return gjk(a, b, b_to_a, {.trace = &traces.gjk}); }, view.convex_a(), view.convex_b());
  if (cores.overlapping) {
    std::visit([&](const auto& a, const auto& b) { (void)epa(a, b, b_to_a, cores.simplex, {.trace = &traces.epa}); }, view.convex_a(),
               view.convex_b());
  }
  const auto* polygon_a = std::get_if<Polygon>(&view.convex_a());
  const auto* polygon_b = std::get_if<Polygon>(&view.convex_b());
  if (polygon_a != nullptr && polygon_b != nullptr) (void)sat(*polygon_a, *polygon_b, b_to_a, &traces.sat);
  return traces;
}

TEST(MinkowskiView, StepCountsAreTheLibraryTraceLengthsForEveryPairOfShapes) {
  const int count = static_cast<int>(shape_catalogue().size());
  int pairs_with_epa = 0, pairs_with_sat = 0;
  for (int a = 0; a < count; ++a) {
    for (int b = 0; b < count; ++b) {
      for (Real offset : {Real(0.3), Real(1.2), Real(3)}) {
        MinkowskiView view;
        view.set_shapes(a, b);
        view.set_transforms(Transform::from({-5, 0}, Real(0.4)), Transform::from({-5 + offset, Real(0.2)}, Real(-0.3)));
        const Traces traces = library_traces(view);
        view.set_algorithm(Algorithm::gjk);
        EXPECT_EQ(view.step_count(), static_cast<int>(traces.gjk.size()));
        EXPECT_GT(view.step_count(), 0);
        view.set_algorithm(Algorithm::epa);
        EXPECT_EQ(view.step_count(), static_cast<int>(traces.epa.size()));
        pairs_with_epa += view.step_count() > 0;
        view.set_algorithm(Algorithm::sat);
        EXPECT_EQ(view.step_count(), static_cast<int>(traces.sat.size()));
        pairs_with_sat += view.step_count() > 0;
        // The trace the view shows is the library's, step by step.
        view.set_algorithm(Algorithm::gjk);
        ASSERT_EQ(view.gjk_trace().size(), traces.gjk.size());
        for (std::size_t i = 0; i < traces.gjk.size(); ++i) {
          ASSERT_EQ(view.gjk_trace()[i].count, traces.gjk[i].count);
          for (int v = 0; v < traces.gjk[i].count; ++v) {
            EXPECT_EQ(view.gjk_trace()[i].vertices[static_cast<std::size_t>(v)].point, traces.gjk[i].vertices[static_cast<std::size_t>(v)].point);
          }
        }
      }
    }
  }
  EXPECT_GT(pairs_with_epa, 0);
  EXPECT_GT(pairs_with_sat, 0);
}

TEST(MinkowskiView, NAndBWalkTheTraceAndBack) {
  Demo demo(ViewKind::minkowski, std::nullopt);
  MinkowskiView& view = demo.minkowski();
  for (Key algorithm : {Key::g, Key::e, Key::t}) {
    demo.key_pressed(algorithm);
    const int count = view.step_count();
    ASSERT_GT(count, 1) << "the default pair overlaps: every algorithm has steps";
    EXPECT_EQ(view.step(), 0);
    for (int i = 1; i < count; ++i) {
      demo.key_pressed(Key::n);
      EXPECT_EQ(view.step(), i);
    }
    demo.key_pressed(Key::n);
    EXPECT_EQ(view.step(), count - 1) << "N stays on the last step";
    for (int i = count - 2; i >= 0; --i) {
      demo.key_pressed(Key::b);
      EXPECT_EQ(view.step(), i);
    }
    demo.key_pressed(Key::b);
    EXPECT_EQ(view.step(), 0) << "B stays on the first step";
  }
}

TEST(MinkowskiView, TheDifferenceHoldsTheOriginExactlyWhenTheShapesOverlap) {
  MinkowskiView view;
  int overlapping = 0, apart = 0;
  for (int frame_index = 0; frame_index < 120; ++frame_index) {
    view.update(std::vector<Key>{Key::right, Key::o}, frame);  // B moves out through A, turning
    const bool says = std::visit([&](const auto& a, const auto& b) { return overlap(a, view.transform_a(), b, view.transform_b()); },
                                 view.convex_a(), view.convex_b());
    if (std::abs(view.difference().signed_distance) < 1e-3) continue;  // too close to touching to compare two methods
    EXPECT_EQ(view.difference().contains_origin, says) << "frame " << frame_index;
    (says ? overlapping : apart) += 1;
    view.set_algorithm(Algorithm::epa);
    EXPECT_EQ(view.step_count() > 0, view.gjk_result().overlapping);
  }
  EXPECT_GT(overlapping, 5);
  EXPECT_GT(apart, 5);
}

TEST(MinkowskiView, StepStaysWithinATraceThatShrinks) {
  MinkowskiView view;
  view.set_algorithm(Algorithm::epa);
  while (view.step() + 1 < view.step_count()) view.next_step();
  ASSERT_GT(view.step(), 0);
  for (int i = 0; i < 60; ++i) view.update(std::vector<Key>{Key::right}, frame);
  EXPECT_EQ(view.step_count(), 0) << "apart: EPA does not run";
  EXPECT_EQ(view.step(), 0);
  view.next_step();
  EXPECT_EQ(view.step(), 0);
}

TEST(MinkowskiView, ZAndCCycleTheShapesAndSatNeedsPolygons) {
  Demo demo(ViewKind::minkowski, std::nullopt);
  MinkowskiView& view = demo.minkowski();
  const int a = view.shape_a(), b = view.shape_b();
  demo.key_pressed(Key::z);
  EXPECT_EQ(view.shape_a(), (a + 1) % static_cast<int>(shape_catalogue().size()));
  demo.key_pressed(Key::c);
  EXPECT_EQ(view.shape_b(), (b + 1) % static_cast<int>(shape_catalogue().size()));
  view.set_shapes(1, 1);  // two circles
  view.set_algorithm(Algorithm::sat);
  EXPECT_EQ(view.step_count(), 0);
}

// ---------------------------------------------------------------- view 3

/// A piece of view 3's terrain surface, from its left end to its right end.
struct SurfacePiece {
  Vec2 left;
  Vec2 right;
  /// The surface's height at x, for left.x <= x <= right.x.
  Real height_at(Real x) const { return left.y + (x - left.x) / (right.x - left.x) * (right.y - left.y); }
};

/// The pieces of the surface that rise or fall at `degrees` (within half a degree), left to right.
std::vector<SurfacePiece> surface_pieces_at(const SlopesView& view, double degrees) {
  std::vector<SurfacePiece> pieces;
  const std::vector<Vec2>& surface = view.surface();
  for (std::size_t i = 0; i + 1 < surface.size(); ++i) {
    Vec2 left = surface[i], right = surface[i + 1];
    if (right.x < left.x) std::swap(left, right);
    const double angle = std::atan2(std::abs(double(right.y - left.y)), double(right.x - left.x)) * 180 / std::numbers::pi;
    if (std::abs(angle - degrees) < 0.5) pieces.push_back({left, right});
  }
  return pieces;
}

/// The character's half width and half height (its shape is a box).
constexpr Real half_width = Real(0.35), half_height = Real(0.7);

/// Depth of the character's overlap with a body of view 3's world; 0 when apart.
Real overlap_depth(const SlopesView& view, BodyHandle body) {
  const BodyDefinition& definition = *view.world().find(body);
  const std::optional<Penetration> found = penetration(definition.shape, definition.transform, view.character_shape(), view.character());
  return found ? found->depth : 0;
}

/// Overlap beyond this (a tenth of the mover's skin) would be a character inside the terrain.
constexpr Real overlap_band = Real(1e-3);

TEST(ExitVectorMove, BacksOutAlongTheMotionToTheFirstContactAndSlides) {
  // A 30-degree slope (a long box turned) and a box dropped diagonally into it.
  World world;
  const Shape slope = make_box(20, 1).value();
  const Transform slope_at = Transform::from({Real(0.5), Real(-0.866)}, Real(std::numbers::pi / 6));
  world.add({.shape = slope, .transform = slope_at});
  const Shape box = make_box(Real(0.5), Real(0.5)).value();
  const Transform start = Transform::from({0, 2}, 0);
  const Vec2 motion{Real(0.6), Real(-2.5)};
  Transform moved = start;
  moved.position = start.position + motion;
  ASSERT_TRUE(overlap(slope, slope_at, box, moved));
  const MinkowskiExit exit = minkowski_exit(slope, slope_at, box, moved, motion).value();

  // One round: moved, backed out by the exit, and the slide not made.
  const MoveResult one = exit_vector_move(world, box, start, motion, {.max_iterations = 1});
  const Vec2 touching = moved.position + exit.translation_b;
  EXPECT_NEAR(one.transform.position.x, touching.x, 1e-6);
  EXPECT_NEAR(one.transform.position.y, touching.y, 1e-6);
  EXPECT_EQ(one.status, IterationStatus::iteration_cap);
  ASSERT_EQ(one.hits.size(), 1u);
  EXPECT_EQ(one.hits[0].body, world.bodies()[0]);
  EXPECT_EQ(one.hits[0].normal, exit.normal);
  EXPECT_NEAR(one.hits[0].normal.x, -0.5, 1e-4);  // the slope's normal, from the slope toward the box
  EXPECT_NEAR(one.hits[0].normal.y, 0.866, 1e-4);
  EXPECT_LT(distance(slope, slope_at, box, one.transform).distance, 1e-3);  // touching
  EXPECT_TRUE(one.on_floor);
  ASSERT_TRUE(one.floor_normal);
  EXPECT_EQ(*one.floor_normal, exit.normal);
  const Vec2 made = one.transform.position - start.position;
  EXPECT_NEAR(one.remaining.x, motion.x - made.x, 1e-6);
  EXPECT_NEAR(one.remaining.y, motion.y - made.y, 1e-6);

  // Two rounds: the slide along the slope is made too (it goes into nothing), which takes the
  // part of gravity along the slope with it: down the slope, to the left.
  const MoveResult two = exit_vector_move(world, box, start, motion, {.max_iterations = 2});
  EXPECT_NEAR(two.transform.position.x, touching.x + exit.slide.x, 1e-5);
  EXPECT_NEAR(two.transform.position.y, touching.y + exit.slide.y, 1e-5);
  EXPECT_LT(exit.slide.x, 0);
  EXPECT_NEAR(dot(exit.slide, exit.normal), 0, 1e-5);
  EXPECT_EQ(two.status, IterationStatus::converged);
  ASSERT_EQ(two.path.size(), 3u);
  EXPECT_EQ(two.path[1], one.transform.position);
  EXPECT_FALSE(overlap(slope, slope_at, box, two.transform) &&
               penetration(slope, slope_at, box, two.transform)->depth > overlap_band);

  // A body the filter ignores is passed through; a motion that meets nothing is made whole; a wall is a wall.
  QueryFilter ignore_slope;
  ignore_slope.ignore = world.bodies()[0];
  const MoveResult ignored = exit_vector_move(world, box, start, motion, {.filter = ignore_slope});
  EXPECT_EQ(ignored.transform.position, moved.position);
  EXPECT_TRUE(ignored.hits.empty());
  const MoveResult free = exit_vector_move(world, box, start, {1, 0});
  EXPECT_EQ(free.transform.position, (start.position + Vec2{1, 0}));
  EXPECT_TRUE(free.hits.empty());
  EXPECT_FALSE(free.on_floor || free.on_wall || free.on_ceiling);
  world.add({.shape = make_box(Real(0.5), 5).value(), .transform = Transform::from({3, 2}, 0)});
  const MoveResult walled = exit_vector_move(world, box, start, {2, 0});
  EXPECT_TRUE(walled.on_wall);
  EXPECT_FALSE(walled.on_floor);
  EXPECT_NEAR(walled.transform.position.x, 2, 1e-3);  // the wall's face at 2.5, the box's half width 0.5
}

TEST(SlopesView, HoldingRightWalksAlongFlatGroundAndUpTheGentleSlopeWithoutStopping) {
  SlopesView view;
  const std::vector<SurfacePiece> gentle = surface_pieces_at(view, 20);
  ASSERT_EQ(gentle.size(), 1u);
  const SurfacePiece slope = gentle[0];
  ASSERT_GT(slope.right.y, slope.left.y) << "the slope rises to the right";
  ASSERT_LT(view.character().position.x, slope.left.x - 2) << "the walk starts on the flat ground";
  // Up the slope the mover keeps the walk's share along it: cos^2(20 deg) of it horizontally.
  const Real flat_step = SlopesView::walk_speed * frame;
  const Real slope_step = flat_step * Real(std::pow(std::cos(std::numbers::pi / 9), 2));
  int frames = 0, flat_frames = 0, slope_frames = 0;
  Real slowest = flat_step;
  while (view.character().position.x - half_width < slope.right.x + 1 && frames < 600) {
    const Vec2 before = view.character().position;
    view.update(std::vector<Key>{Key::right}, frame);
    ++frames;
    const Vec2 after = view.character().position;
    slowest = std::min(slowest, after.x - before.x);
    EXPECT_TRUE(view.on_floor()) << "frame " << frames;
    if (after.x + half_width < slope.left.x) {
      // Flat ground: the whole walk, within twice the skin above the ground.
      EXPECT_NEAR(after.x - before.x, flat_step, 1e-4) << "frame " << frames;
      EXPECT_GT(after.y - half_height - slope.left.y, 0) << "frame " << frames;
      EXPECT_LE(after.y - half_height - slope.left.y, 2 * view.move_options().skin) << "frame " << frames;
      ++flat_frames;
    } else if (before.x - half_width > slope.left.x && after.x + half_width < slope.right.x) {
      // On the slope: its lower right corner rests on the slope within twice the skin.
      EXPECT_NEAR(after.x - before.x, slope_step, 1e-3) << "frame " << frames;
      const Real gap = after.y - half_height - slope.height_at(after.x + half_width);
      EXPECT_GT(gap, 0) << "frame " << frames;
      EXPECT_LT(gap, 2 * view.move_options().skin / std::cos(Real(std::numbers::pi / 9))) << "frame " << frames;
      ++slope_frames;
    }
  }
  std::cout << frames << " frames: " << flat_frames << " on flat ground, " << slope_frames << " wholly on the slope, slowest step "
            << slowest << " (flat " << flat_step << ", slope " << slope_step << ")\n";
  EXPECT_LT(frames, 600) << "it should have walked past the top of the slope";
  EXPECT_GT(flat_frames, 20);
  EXPECT_GT(slope_frames, 40);
  EXPECT_GT(slowest, Real(0.5) * slope_step) << "it slowed down or stopped somewhere";
}

TEST(SlopesView, NeverEndsAFrameInsideTheTerrainOrACrateWithEitherMethod) {
  for (SlopeMethod method : {SlopeMethod::mover, SlopeMethod::exit_vector}) {
    SCOPED_TRACE(std::string(method_name(method)));
    SlopesView view;
    view.set_method(method);
    // Right across the level jumping every 40 frames, then back left, then right again.
    std::vector<std::pair<std::vector<Key>, int>> script;
    for (Key direction : {Key::right, Key::left, Key::right}) {
      for (int i = 0; i < 12; ++i) {
        script.push_back({{direction}, 38});
        script.push_back({{direction, Key::up}, 2});
      }
    }
    Real deepest = 0, lowest = 1e9f, highest = -1e9f, leftmost = 1e9f, rightmost = -1e9f;
    int frames = 0, floor_frames = 0;
    for (const auto& [keys, count] : script) {
      for (int i = 0; i < count; ++i, ++frames) {
        view.update(keys, frame);
        for (BodyHandle body : view.world().bodies()) {
          const Real depth = overlap_depth(view, body);
          deepest = std::max(deepest, depth);
          EXPECT_LE(depth, overlap_band) << "frame " << frames << " at " << format_vector(view.character().position, 6);
        }
        const Vec2 at = view.character().position;
        lowest = std::min(lowest, at.y);
        highest = std::max(highest, at.y);
        leftmost = std::min(leftmost, at.x);
        rightmost = std::max(rightmost, at.x);
        floor_frames += view.on_floor();
      }
    }
    std::cout << method_name(method) << ": " << frames << " frames, deepest overlap " << deepest << ", x from " << leftmost << " to "
              << rightmost << ", y from " << lowest << " to " << highest << ", " << floor_frames << " frames on a floor\n";
    // It went places: up the slope, over the step and into the valley at least, and it jumped.
    EXPECT_GT(rightmost, 2);
    EXPECT_GT(highest, 3);
    EXPECT_GT(floor_frames, frames / 3);
  }
}

TEST(SlopesView, StandsStillOnAGentleSlopeWithTheMoverAndCreepsDownWithTheExitVector) {
  SlopesView probe;
  std::vector<SurfacePiece> slopes = surface_pieces_at(probe, 20);
  const std::vector<SurfacePiece> steeper = surface_pieces_at(probe, 35);
  slopes.insert(slopes.end(), steeper.begin(), steeper.end());
  ASSERT_EQ(slopes.size(), 2u);
  for (const SurfacePiece& slope : slopes) {
    for (SlopeMethod method : {SlopeMethod::mover, SlopeMethod::exit_vector}) {
      SCOPED_TRACE(std::string(method_name(method)) + " on the slope from " + format_vector(slope.left));
      SlopesView view;
      view.set_method(method);
      const Real x = Real(0.5) * (slope.left.x + slope.right.x);
      view.place_character({x, slope.height_at(x) + 2});
      hold(view, {}, 60);  // falls onto the slope and settles
      ASSERT_TRUE(view.on_floor());
      const Vec2 rested = view.character().position;
      Real farthest = 0;
      for (int i = 0; i < 200; ++i) {
        view.update(std::vector<Key>{}, frame);
        farthest = std::max(farthest, length(view.character().position - rested));
        EXPECT_LE(overlap_depth(view, view.terrain()), overlap_band);
      }
      const Vec2 drift = view.character().position - rested;
      std::cout << method_name(method) << " on the slope from " << format_vector(slope.left) << ": drift " << format_vector(drift, 4)
                << " in 200 frames\n";
      if (method == SlopeMethod::mover) {
        EXPECT_LT(farthest, 1e-4);
        EXPECT_TRUE(view.on_floor());
      } else {
        // The slide keeps gravity's part along the slope: it creeps downhill.
        const Real downhill = slope.right.y > slope.left.y ? -drift.x : drift.x;
        EXPECT_GT(downhill, Real(0.05));
        EXPECT_LT(drift.y, 0);
      }
    }
  }
}

TEST(SlopesView, CannotWalkUpTheSlopeSteeperThan45DegreesButWalksUp35) {
  SlopesView view;
  const std::vector<SurfacePiece> steep = surface_pieces_at(view, 60);
  ASSERT_EQ(steep.size(), 1u);
  const SurfacePiece wall = steep[0];
  ASSERT_GT(wall.right.y, wall.left.y) << "the steep slope rises to the right, out of the valley";
  view.place_character({wall.left.x - 1, wall.left.y + half_height + Real(0.3)});
  hold(view, {}, 30);
  ASSERT_TRUE(view.on_floor()) << "on the valley floor";
  const Real floor_y = view.character().position.y;
  Real highest = floor_y, rightmost = view.character().position.x;
  for (int i = 0; i < 240; ++i) {
    view.update(std::vector<Key>{Key::right}, frame);
    highest = std::max(highest, view.character().position.y);
    rightmost = std::max(rightmost, view.character().position.x);
  }
  std::cout << "against 60 degrees: rightmost " << rightmost << " (the slope's foot at " << wall.left.x << "), highest " << highest
            << " (floor " << floor_y << ")\n";
  EXPECT_LT(highest - floor_y, 1e-3) << "it was lifted up the steep slope";
  EXPECT_LT(rightmost + half_width, wall.left.x + Real(0.05));
  EXPECT_TRUE(view.on_floor());
  EXPECT_TRUE(view.last_move()->on_wall);
  // The valley's other side, 35 degrees, is a floor: left walks up it and out, onto the flat above.
  const std::vector<SurfacePiece> gentler = surface_pieces_at(view, 35);
  ASSERT_EQ(gentler.size(), 1u);
  const Vec2 top = gentler[0].left;
  int frames = 0;
  for (; frames < 200 && view.character().position.x - half_width > top.x - 1; ++frames) {
    view.update(std::vector<Key>{Key::left}, frame);
    ASSERT_TRUE(view.on_floor()) << "frame " << frames;
  }
  EXPECT_LT(frames, 200);
  EXPECT_GT(view.character().position.y - half_height - top.y, 0);
  EXPECT_LE(view.character().position.y - half_height - top.y, 2 * view.move_options().skin);
}

TEST(SlopesView, JumpingLiftsItAndItLandsOnTheFloorAgain) {
  for (SlopeMethod method : {SlopeMethod::mover, SlopeMethod::exit_vector}) {
    SCOPED_TRACE(std::string(method_name(method)));
    SlopesView view;
    view.set_method(method);
    hold(view, {}, 10);
    ASSERT_TRUE(view.on_floor());
    const Vec2 ground = view.character().position;
    view.update(std::vector<Key>{Key::up}, frame);
    EXPECT_FALSE(view.on_floor());
    EXPECT_GT(view.velocity().y, 0);
    Real highest = ground.y;
    int airborne = 1;
    while (!view.on_floor() && airborne < 200) {
      view.update(std::vector<Key>{}, frame);
      highest = std::max(highest, view.character().position.y);
      ++airborne;
    }
    // v^2 / 2g = 1.62 in continuous time; the frame steps take a little off.
    std::cout << method_name(method) << ": rose " << highest - ground.y << " in a jump of " << airborne << " frames\n";
    EXPECT_GT(highest - ground.y, Real(1.4));
    EXPECT_LT(highest - ground.y, Real(1.7));
    EXPECT_GT(airborne, 30);
    EXPECT_LT(airborne, 60);
    EXPECT_TRUE(view.on_floor());
    EXPECT_NEAR(view.character().position.y, ground.y, 0.02);
    EXPECT_NEAR(view.character().position.x, ground.x, 1e-5);
    // Space jumps too.
    view.update(std::vector<Key>{Key::space}, frame);
    EXPECT_GT(view.character().position.y, ground.y + Real(0.1));
  }
}

TEST(SlopesView, AJumpUnderTheLedgeHitsItsUndersideACeilingAndFallsBack) {
  for (SlopeMethod method : {SlopeMethod::mover, SlopeMethod::exit_vector}) {
    SCOPED_TRACE(std::string(method_name(method)));
    SlopesView view;
    view.set_method(method);
    // The ledge's underside: the only level piece of the surface that runs right to left (the
    // solid is above it).
    const std::vector<Vec2>& surface = view.surface();
    std::vector<SurfacePiece> undersides;
    for (std::size_t i = 0; i + 1 < surface.size(); ++i) {
      if (surface[i].y == surface[i + 1].y && surface[i + 1].x < surface[i].x) undersides.push_back({surface[i + 1], surface[i]});
    }
    ASSERT_EQ(undersides.size(), 1u);
    const SurfacePiece underside = undersides[0];
    const Real x = Real(0.5) * (underside.left.x + underside.right.x);
    view.place_character({x, underside.left.y - 2});
    hold(view, {}, 60);
    ASSERT_TRUE(view.on_floor()) << "on the ground under the ledge";
    const Real ground = view.character().position.y;
    ASSERT_LT(underside.left.y - (ground + half_height), Real(1.55)) << "a jump would reach the underside";
    bool bumped = false;
    Real highest = ground;
    view.update(std::vector<Key>{Key::up}, frame);
    for (int i = 0; i < 90 && !view.on_floor(); ++i) {
      bumped = bumped || view.last_move()->on_ceiling;
      if (view.last_move()->on_ceiling) {
        EXPECT_LE(view.velocity().y, 0) << "a head bump ends the rise";
      }
      highest = std::max(highest, view.character().position.y);
      EXPECT_LE(overlap_depth(view, view.terrain()), overlap_band);
      view.update(std::vector<Key>{}, frame);
    }
    EXPECT_TRUE(bumped);
    EXPECT_LE(highest + half_height, underside.left.y);
    EXPECT_GT(highest + half_height, underside.left.y - Real(0.1));
    EXPECT_TRUE(view.on_floor());
    EXPECT_NEAR(view.character().position.y, ground, 0.02);
  }
}

TEST(SlopesView, MSwitchesToTheExitVectorMethodWhichAlsoWalksAndTheDrawingSaysWhich) {
  Demo demo(ViewKind::slopes, std::nullopt);
  auto info_mentions = [&](std::string_view text) {
    const DrawList list = demo.draw();
    return std::any_of(list.items.begin(), list.items.end(), [&](const DrawItem& item) {
      const auto* panel = std::get_if<Panel>(&item);
      return panel != nullptr && std::any_of(panel->lines.begin(), panel->lines.end(),
                                              [&](const std::string& line) { return line.find(text) != std::string::npos; });
    });
  };
  EXPECT_EQ(demo.slopes().method(), SlopeMethod::mover);
  EXPECT_TRUE(info_mentions("method: move_and_slide"));
  demo.key_pressed(Key::m);
  EXPECT_EQ(demo.slopes().method(), SlopeMethod::exit_vector);
  EXPECT_TRUE(info_mentions("method: exit vector (minkowski_exit)"));
  const Vec2 start = demo.slopes().character().position;
  for (int i = 0; i < 60; ++i) demo.update(std::vector<Key>{Key::right}, frame);
  const Vec2 walked = demo.slopes().character().position - start;
  EXPECT_GT(walked.x, 4) << "a second of walking: 5 units on the flat, a little less up the slope";
  EXPECT_TRUE(demo.slopes().on_floor());
  EXPECT_TRUE(info_mentions("on floor: yes"));
  demo.key_pressed(Key::m);
  EXPECT_EQ(demo.slopes().method(), SlopeMethod::mover);
  EXPECT_EQ(demo.slopes().character().position, start + walked) << "switching keeps the character where it is";
  demo.key_pressed(Key::r);
  EXPECT_EQ(demo.slopes().character().position, start);
  EXPECT_FALSE(demo.slopes().last_move());
}

TEST(SlopesView, KeyThreeAndTheViewOptionSelectItAndDraggingMovesTheCharacter) {
  Demo demo(ViewKind::boxes, std::nullopt);
  demo.key_pressed(Key::view_3);
  ASSERT_EQ(demo.view(), ViewKind::slopes);
  EXPECT_EQ(parse({"--view", "slopes"}).value().view, ViewKind::slopes);
  EXPECT_EQ(view_from_name("slopes"), ViewKind::slopes);
  EXPECT_EQ(view_name(ViewKind::slopes), "slopes");
  for (Key key : {Key::m, Key::r, Key::space, Key::view_3}) EXPECT_EQ(key_from_name(key_name(key)), key);
  EXPECT_EQ(key_from_name("space"), Key::space);
  EXPECT_EQ(key_from_name("3"), Key::view_3);
  // The whole level is in view.
  for (Vec2 point : demo.slopes().surface()) {
    const ScreenPoint at = demo.camera().to_screen(point);
    EXPECT_GE(at.x, 0);
    EXPECT_LE(at.x, 1200);
    EXPECT_GT(at.y, 200) << "below the help panel";
    EXPECT_LT(at.y, 600) << "above the numbers";
  }
  // Drag the character 80 pixels up: it moves with the mouse and stops.
  for (int i = 0; i < 20; ++i) demo.update(std::vector<Key>{Key::right}, frame);
  const Vec2 before = demo.slopes().character().position;
  const ScreenPoint grab = demo.camera().to_screen(before);
  demo.mouse_pressed(MouseButton::left, grab);
  demo.mouse_moved({grab.x, grab.y - 80});
  demo.mouse_released(MouseButton::left);
  EXPECT_NEAR(demo.slopes().character().position.y - before.y, 80 / demo.camera().pixels_per_unit, 1e-4);
  EXPECT_NEAR(demo.slopes().character().position.x, before.x, 1e-5);
  EXPECT_EQ(demo.slopes().velocity(), Vec2{});
  // Dropped into the ground it is pushed out; the terrain is not dragged.
  const ScreenPoint inside = demo.camera().to_screen(demo.slopes().character().position);
  demo.mouse_pressed(MouseButton::left, inside);
  demo.mouse_moved({inside.x, inside.y + 120});
  demo.mouse_released(MouseButton::left);
  EXPECT_LE(overlap_depth(demo.slopes(), demo.slopes().terrain()), overlap_band);
  const Transform terrain = demo.slopes().world().find(demo.slopes().terrain())->transform;
  const ScreenPoint ground = demo.camera().to_screen({-12, -2});
  demo.mouse_pressed(MouseButton::left, ground);
  demo.mouse_moved({ground.x + 50, ground.y});
  demo.mouse_released(MouseButton::left);
  EXPECT_EQ(demo.slopes().world().find(demo.slopes().terrain())->transform, terrain);
}

TEST(SlopesView, DrawsEveryTerrainPieceWithFaintCutsTheCharacterAndOneNormalPerHit) {
  Demo demo(ViewKind::slopes, std::nullopt);
  for (int i = 0; i < 5; ++i) demo.update(std::vector<Key>{}, frame);
  const SlopesView& view = demo.slopes();
  ASSERT_TRUE(view.last_move());
  ASSERT_FALSE(view.last_move()->hits.empty()) << "standing, gravity meets the floor every frame";
  const auto& terrain = std::get<Compound>(view.world().find(view.terrain())->shape);
  ASSERT_GE(terrain.children().size(), 5u) << "the outline is cut into pieces";
  const DrawList list = demo.draw();
  int obstacle_fills = 0, character_fills = 0, normals = 0, cuts = 0;
  for (const DrawItem& item : list.items) {
    if (const auto* polygon = std::get_if<FilledPolygon>(&item)) {
      obstacle_fills += polygon->fill == palette::apart;
      character_fills += polygon->fill == palette::mover;
    } else if (const auto* arrow = std::get_if<Arrow>(&item)) {
      normals += arrow->colour == palette::normal_arrow;
    } else if (const auto* line = std::get_if<Polyline>(&item)) {
      cuts += line->colour.alpha < 255 && line->colour.red == palette::apart_outline.red && line->width_pixels <= 1;
    }
  }
  EXPECT_EQ(obstacle_fills, static_cast<int>(terrain.children().size()) + 2) << "every piece and the two crates";
  EXPECT_EQ(character_fills, 1);
  EXPECT_EQ(normals, static_cast<int>(view.last_move()->hits.size()));
  // Every cut is an edge of the two pieces it separates: drawn twice, once from each side.
  int internal_edges = 0;
  for (std::size_t i = 0; i < terrain.children().size(); ++i) {
    const Polygon& piece = std::get<Polygon>(terrain.children()[i].shape);
    for (int edge = 0; edge < piece.count(); ++edge) internal_edges += terrain.is_internal_edge(static_cast<int>(i), edge);
  }
  EXPECT_EQ(cuts, internal_edges);
  EXPECT_GE(cuts, 2 * (static_cast<int>(terrain.children().size()) - 1));
}

// ---------------------------------------------------------------- view 5

std::vector<std::filesystem::path> shipped_scenes() {
  std::vector<std::filesystem::path> paths;
  for (const auto& entry : std::filesystem::directory_iterator(COLLIDE2D_SCENES_DIR)) {
    const std::filesystem::path& path = entry.path();
    if (path.filename() == "scene.schema.json") continue;
    if (path.extension() == ".json" || path.extension() == ".xml") paths.push_back(path);
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

void expect_same_pairs(const std::vector<io::PairReport>& shown, const std::vector<io::PairReport>& reported) {
  ASSERT_EQ(shown.size(), reported.size());
  for (std::size_t i = 0; i < shown.size(); ++i) {
    EXPECT_EQ(shown[i].a, reported[i].a);
    EXPECT_EQ(shown[i].b, reported[i].b);
    EXPECT_EQ(shown[i].status, reported[i].status);
    EXPECT_EQ(shown[i].depth, reported[i].depth);
    EXPECT_EQ(shown[i].normal, reported[i].normal);
    ASSERT_EQ(shown[i].contacts.size(), reported[i].contacts.size());
    for (std::size_t c = 0; c < shown[i].contacts.size(); ++c) EXPECT_EQ(shown[i].contacts[c].point, reported[i].contacts[c].point);
  }
}

// ---------------------------------------------------------------- view 4: playground

TEST(PlaygroundView, ThePyramidStandsAndSleepsWhileDroppedShapesFall) {
  PlaygroundView view;
  const std::size_t pyramid = 21;  // 6 + 5 + ... + 1 boxes, added first
  ASSERT_GE(view.movable().size(), pyramid);
  const BodyHandle top = view.movable()[pyramid - 1];
  const Vec2 top_start = view.physics().center_of_mass(top);
  view.drop({0, 6});
  const BodyHandle dropped = view.movable().back();
  const Real dropped_start = view.physics().center_of_mass(dropped).y;
  for (int step = 0; step < 30; ++step) view.update({}, frame);
  EXPECT_LT(view.physics().center_of_mass(dropped).y, dropped_start - 1) << "a dropped shape falls";
  for (int step = 30; step < 300; ++step) view.update({}, frame);
  EXPECT_EQ(view.steps(), 300);
  EXPECT_LT(length(view.physics().center_of_mass(top) - top_start), Real(0.05)) << "the pyramid stands";
  EXPECT_FALSE(view.physics().awake(top)) << "and falls asleep";
  EXPECT_NEAR(view.physics().center_of_mass(dropped).y, 0.4, 0.05) << "the dropped box rests on the floor";
  for (BodyHandle body : view.movable()) {
    const Vec2 at = view.physics().center_of_mass(body);
    EXPECT_TRUE(at.x > -12 && at.x < 12 && at.y > 0) << "every body stays in the box";
  }
}

TEST(PlaygroundView, DropsEachKindInTurnAndPauseStepAndResetWork) {
  PlaygroundView view;
  const std::size_t start = view.movable().size();
  const DropKind first = view.next_drop();
  for (int i = 0; i < 4; ++i) view.drop({static_cast<Real>(i) * 2 - 3, 9});
  EXPECT_EQ(view.movable().size(), start + 4);
  EXPECT_EQ(view.next_drop(), first) << "four drops cycle through the four kinds";
  view.key_pressed(Key::p);
  ASSERT_TRUE(view.paused());
  const Vec2 before = view.physics().center_of_mass(view.movable().back());
  for (int step = 0; step < 10; ++step) view.update({}, frame);
  EXPECT_EQ(view.physics().center_of_mass(view.movable().back()), before) << "paused: nothing moves";
  EXPECT_EQ(view.steps(), 0);
  view.key_pressed(Key::n);
  EXPECT_EQ(view.steps(), 1) << "N steps once";
  EXPECT_LT(view.physics().center_of_mass(view.movable().back()).y, before.y);
  view.key_pressed(Key::r);
  EXPECT_EQ(view.movable().size(), start);
  EXPECT_FALSE(view.paused());
  EXPECT_EQ(view.steps(), 0);
}

TEST(PlaygroundView, ADragHoldsABodyStillAndAClickOnEmptySpaceDrops) {
  Demo demo(ViewKind::boxes, std::nullopt, 1200, 800);
  demo.key_pressed(Key::view_4);
  ASSERT_EQ(demo.view(), ViewKind::playground);
  PlaygroundView& view = demo.playground();
  const std::size_t start = view.movable().size();
  // A click on empty space, high above the floor, drops a shape there.
  const ScreenPoint empty = demo.camera().to_screen({0, 9});
  demo.mouse_pressed(MouseButton::left, empty);
  demo.mouse_released(MouseButton::left);
  ASSERT_EQ(view.movable().size(), start + 1);
  EXPECT_NEAR(view.physics().center_of_mass(view.movable().back()).x, 0, 0.05);
  // Grab the shape just dropped and hold it one unit higher: it stays there while held.
  demo.mouse_pressed(MouseButton::left, empty);
  demo.mouse_moved(demo.camera().to_screen({0, 10}));
  for (int step = 0; step < 30; ++step) demo.update({}, frame);
  const Vec2 held = view.physics().center_of_mass(view.movable().back());
  EXPECT_NEAR(held.y, 10, 0.05) << "a held body keeps still";
  demo.mouse_released(MouseButton::left);
  for (int step = 0; step < 30; ++step) demo.update({}, frame);
  EXPECT_LT(view.physics().center_of_mass(view.movable().back()).y, held.y - 1) << "released, it falls";
  // The drawing says what the view is and draws contact points with their normals.
  const DrawList list = demo.draw();
  int arrows = 0;
  for (const DrawItem& item : list.items) arrows += std::holds_alternative<Arrow>(item) ? 1 : 0;
  EXPECT_GT(arrows, 20) << "the pyramid's contacts have normals";
}

TEST(SceneView, ReportsThePairsTheIoLibraryReportsForEveryShippedScene) {
  const std::vector<std::filesystem::path> paths = shipped_scenes();
  ASSERT_GE(paths.size(), 5u);
  int pairs_seen = 0;
  for (const std::filesystem::path& path : paths) {
    SCOPED_TRACE(path.string());
    Result<io::Scene, io::LoadError> loaded = io::load_scene(path);
    ASSERT_TRUE(loaded) << loaded.error().message;
    io::Scene scene = std::move(loaded).value();
    Demo demo(ViewKind::scene, SceneView(scene, path.filename().string()));
    SceneView& view = *demo.scene();
    expect_same_pairs(view.pairs(), io::find_pairs(scene, false));
    pairs_seen += static_cast<int>(view.pairs().size());
    // Drag body 0 by its own centre, 25 pixels right and 15 up; then the report must match the moved scene.
    const ScreenPoint at = demo.camera().to_screen(scene.bodies[0].transform.position);
    const int grabbed = view.body_at(scene.bodies[0].transform.position);
    if (grabbed < 0) continue;  // a body whose origin lies outside it (a ring of pieces) is not grabbed there
    demo.mouse_pressed(MouseButton::left, at);
    demo.mouse_moved({at.x + 25, at.y - 15});
    demo.mouse_released(MouseButton::left);
    const Vec2 delta = demo.camera().to_world({at.x + 25, at.y - 15}) - demo.camera().to_world(at);
    Transform& moved = scene.bodies[static_cast<std::size_t>(grabbed)].transform;
    moved.position = moved.position + delta;
    EXPECT_EQ(view.scene().bodies[static_cast<std::size_t>(grabbed)].transform.position, moved.position);
    expect_same_pairs(view.pairs(), io::find_pairs(scene, false));
  }
  EXPECT_GT(pairs_seen, 0);
}

TEST(SceneView, CameraShowsEveryBody) {
  Result<io::Scene, io::LoadError> loaded = io::load_scene(std::filesystem::path(COLLIDE2D_SCENES_DIR) / "mixed.json");
  ASSERT_TRUE(loaded);
  SceneView view(std::move(loaded).value(), "mixed.json");
  const Camera camera = view.initial_camera(1200, 800);
  for (const io::Body& body : view.scene().bodies) {
    const Aabb box = compute_aabb(body.shape, body.transform);
    for (Vec2 corner : {box.lower, box.upper}) {
      const ScreenPoint at = camera.to_screen(corner);
      EXPECT_GE(at.x, 0);
      EXPECT_LE(at.x, 1200);
      EXPECT_GE(at.y, 0);
      EXPECT_LE(at.y, 800);
    }
  }
}

// ---------------------------------------------------------------- camera, command line, scripts

TEST(Camera, MapsBothWaysAndZoomKeepsThePointUnderTheCursor) {
  Camera camera{{Real(1.5), -2}, 80, 1200, 800};
  const Vec2 point{Real(3.25), Real(-0.5)};
  const ScreenPoint at = camera.to_screen(point);
  EXPECT_NEAR(at.x, 600 + 1.75 * 80, 1e-3);
  EXPECT_NEAR(at.y, 400 - 1.5 * 80, 1e-3);
  const Vec2 back = camera.to_world(at);
  EXPECT_NEAR(back.x, point.x, 1e-5);
  EXPECT_NEAR(back.y, point.y, 1e-5);
  camera.zoom_at(at, 1.5);
  EXPECT_NEAR(camera.pixels_per_unit, 120, 1e-9);
  const Vec2 still = camera.to_world(at);
  EXPECT_NEAR(still.x, point.x, 1e-4);
  EXPECT_NEAR(still.y, point.y, 1e-4);
  camera.pan_pixels(120, 0);  // drag right by one unit: the world follows the mouse
  EXPECT_NEAR(camera.to_screen(point).x, at.x + 120, 1e-3);
}

TEST(Demo, WasdAndRightDragPanWheelZooms) {
  Demo demo(ViewKind::boxes, std::nullopt);
  const Vec2 center = demo.camera().center;
  demo.update(std::vector<Key>{Key::d}, Real(0.5));  // D looks 250 pixels further right
  EXPECT_NEAR(demo.camera().center.x - center.x, 250 / demo.camera().pixels_per_unit, 1e-4);
  demo.mouse_pressed(MouseButton::right, {100, 100});
  demo.mouse_moved({100, 180});
  demo.mouse_released(MouseButton::right);
  EXPECT_NEAR(demo.camera().center.y - center.y, 80 / demo.camera().pixels_per_unit, 1e-4);
  const double zoom = demo.camera().pixels_per_unit;
  demo.wheel(2, {600, 400});
  EXPECT_NEAR(demo.camera().pixels_per_unit, zoom * 1.15 * 1.15, 1e-6);
  const Transform green = demo.boxes().green();
  demo.key_pressed(Key::view_2);
  EXPECT_EQ(demo.view(), ViewKind::minkowski);
  demo.key_pressed(Key::view_1);
  EXPECT_EQ(demo.boxes().green(), green) << "switching views keeps each view's state";
}

TEST(Options, ReadsEveryOption) {
  Result<Options, OptionsError> parsed = parse({"--view", "minkowski", "--scene", "a.json", "--frames", "40", "--screenshot", "out.png",
                                                "--keys", "right:30,i+o:5,wait:2,n:1", "--no-push-out"});
  ASSERT_TRUE(parsed) << parsed.error().message;
  const Options& options = parsed.value();
  EXPECT_EQ(options.view, ViewKind::minkowski);
  EXPECT_EQ(options.scene_path, "a.json");
  EXPECT_EQ(options.frames, 40);
  EXPECT_EQ(options.screenshot, "out.png");
  EXPECT_FALSE(options.push_out);
  EXPECT_EQ(options.keys.length(), 38);
  ASSERT_EQ(options.keys.holds().size(), 4u);
  EXPECT_EQ(options.keys.holds()[1].keys, (std::vector<Key>{Key::i, Key::o}));
  EXPECT_TRUE(options.keys.holds()[2].keys.empty());
}

TEST(Options, RefusesBadInputWithAMessage) {
  const std::vector<std::pair<std::vector<std::string_view>, std::string>> cases = {
      {{"--view", "sandbox"}, "unknown view"},
      {{"--view"}, "needs a value"},
      {{"--frames", "0"}, "whole number"},
      {{"--frames", "12x"}, "whole number"},
      {{"--frames", "-3"}, "whole number"},
      {{"--frames", "5", "--screenshot", "out.jpg"}, ".png"},
      {{"--screenshot", "out.png"}, "needs --frames"},
      {{"--keys", "right:3"}, "needs --frames"},
      {{"--frames", "5", "--keys", "right:6"}, "lasts 6 frames"},
      {{"--frames", "5", "--keys", "jump:2"}, "unknown key 'jump'"},
      {{"--frames", "5", "--keys", "right"}, "NAME:FRAMES"},
      {{"--frames", "5", "--keys", "right:0"}, "whole number"},
      {{"--frames", "5", "--keys", "right:2,,i:1"}, "NAME:FRAMES"},
      {{"--frames", "5", "--keys", "6:1"}, "unknown key '6'"},
      {{"--scene", ""}, "file name"},
      {{"--fast"}, "unknown argument"},
  };
  for (const auto& [arguments, expected] : cases) {
    const Result<Options, OptionsError> parsed = parse(arguments);
    ASSERT_FALSE(parsed) << expected;
    EXPECT_NE(parsed.error().message.find(expected), std::string::npos) << parsed.error().message;
  }
  EXPECT_TRUE(parse({"--help"}).value().help);
}

TEST(KeyScript, PressesOnTheFirstFrameOfAHoldAndHoldsForItsFrames) {
  const KeyScript script = parse_key_script("right:3,wait:2,p:1,i+o:2").value();
  EXPECT_EQ(script.length(), 8);
  EXPECT_EQ(script.at(0).pressed, std::vector<Key>{Key::right});
  EXPECT_EQ(script.at(2).held, std::vector<Key>{Key::right});
  EXPECT_TRUE(script.at(2).pressed.empty());
  EXPECT_TRUE(script.at(3).held.empty());
  EXPECT_EQ(script.at(5).pressed, std::vector<Key>{Key::p});
  EXPECT_EQ(script.at(6).pressed, (std::vector<Key>{Key::i, Key::o}));
  EXPECT_EQ(script.at(7).held, (std::vector<Key>{Key::i, Key::o}));
  EXPECT_TRUE(script.at(8).held.empty());
  for (Key key : {Key::left, Key::plus, Key::view_5, Key::t}) EXPECT_EQ(key_from_name(key_name(key)), key);
}

}  // namespace

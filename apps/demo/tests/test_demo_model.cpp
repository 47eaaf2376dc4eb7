// test_demo_model.cpp — the demo's window-free model: input to motion, push-out, trace stepping,
// the scene view's pairs, the camera, the command line and key scripts.
//
// Outline: view 1 (arrows and I/O move and turn the right box; push-out by penetration() leaves
// the pair touching, never overlapping; dragging); view 2 (step counts equal the library's trace
// lengths, N and B walk them, the difference holds the origin exactly when overlap() says so);
// view 5 (the pairs of every shipped scene equal io::find_pairs, before and after a drag); the
// camera; the command line and key scripts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

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

Result<Options, OptionsError> parse(std::vector<std::string_view> arguments) { return parse_options(arguments); }

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
      {{"--view", "playground"}, "unknown view"},
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
      {{"--frames", "5", "--keys", "4:1"}, "unknown key '4'"},
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

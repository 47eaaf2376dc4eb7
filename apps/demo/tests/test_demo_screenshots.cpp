// test_demo_screenshots.cpp — the real demo window under xvfb-run, checked by counting pixels.
//
// Outline: running the demo (through xvfb-run for screenshots, directly for bad input) and
// reading its PNG with SFML; pixel colours predicted from the model's palette (painted_over);
// view 1 with and without push-out; view 2's origin marker inside the drawn difference exactly
// when overlap() says so; view 3's character drawn where the model, replaying the same keys, puts
// it, with either method; view 4's pyramid asleep where the model puts it, with its contact
// normals; view 5 opening every shipped scene; exit code 2 on bad input.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <SFML/Graphics/Image.hpp>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <sstream>
#include <tuple>

#include "collide2d/overlap.hpp"
#include "model/options.hpp"
#include "model/views.hpp"

namespace {

using namespace collide2d;
using namespace collide2d::demo;

const std::filesystem::path screenshot_dir = COLLIDE2D_SCREENSHOT_DIR;

struct DemoRun {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

/// Runs the demo with `arguments` (already quoted for the shell), through `xvfb-run -a` when `with_display`.
DemoRun run_demo(const std::string& arguments, const std::string& log_name, bool with_display = true) {
  std::filesystem::create_directories(screenshot_dir);
  const std::filesystem::path log = screenshot_dir / (log_name + ".log");
  // In sanitizer builds the window process runs without leak detection: Mesa's driver, loaded
  // with dlopen and unloaded at exit, leaks a few hundred bytes that cannot even be symbolised.
  // The model, which holds the demo's own allocations, is leak-checked by test_demo_model.
  const std::string command = std::string("ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\" ") +
                              (with_display ? "xvfb-run -a -s '-screen 0 1280x1024x24' " : "env -u DISPLAY ") +
                              "'" COLLIDE2D_DEMO_PATH "' " + arguments + " > '" + log.string() + "' 2>&1";
  const int status = std::system(command.c_str());
  DemoRun run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream stream(log);
  std::stringstream text;
  text << stream.rdbuf();
  run.output = text.str();
  return run;
}

bool have_xvfb() { return std::system("command -v xvfb-run > /dev/null 2>&1") == 0; }

/// Runs the demo headless and loads its screenshot.
sf::Image screenshot(const std::string& name, const std::string& arguments) {
  const std::filesystem::path file = screenshot_dir / (name + ".png");
  std::filesystem::remove(file);
  const DemoRun run = run_demo(arguments + " --screenshot '" + file.string() + "'", name);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  sf::Image image;
  EXPECT_TRUE(image.loadFromFile(file.string())) << file << "\n" << run.output;
  return image;
}

bool near(sf::Color pixel, Colour expected, int tolerance = 3) {
  return std::abs(int(pixel.r) - int(expected.red)) <= tolerance && std::abs(int(pixel.g) - int(expected.green)) <= tolerance &&
         std::abs(int(pixel.b) - int(expected.blue)) <= tolerance;
}

int count_pixels(const sf::Image& image, Colour expected) {
  int count = 0;
  for (unsigned y = 0; y < image.getSize().y; ++y) {
    for (unsigned x = 0; x < image.getSize().x; ++x) count += near(image.getPixel(x, y), expected);
  }
  return count;
}

// The colours of view 1's fills as the screen shows them: each box alone over the background,
// and the green box over the red one (the green box is painted second).
const Colour red_alone = painted_over(palette::red_box, palette::background);
const Colour green_alone = painted_over(palette::green_box, palette::background);
const Colour green_over_red = painted_over(palette::green_box, red_alone);
const Colour overlap_alone = painted_over(palette::overlap, palette::background);
const Colour overlap_twice = painted_over(palette::overlap, overlap_alone);

class DemoScreenshots : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is missing (Debian: xvfb, xauth); scripts/install-deps installs it";
  }
};

TEST_F(DemoScreenshots, BoxesPushedOutDoNotOverlapAndShowThePenetrationArrow) {
  // 60 frames of the right arrow drive the green box 3 units right, into the red box.
  const sf::Image image = screenshot("boxes_push_out", "--view boxes --frames 60 --keys right:60");
  ASSERT_EQ(image.getSize(), sf::Vector2u(1200, 800));
  const int red = count_pixels(image, red_alone), green = count_pixels(image, green_alone);
  const int both = count_pixels(image, green_over_red);
  const int overlapping = count_pixels(image, overlap_alone) + count_pixels(image, overlap_twice);
  const int arrow = count_pixels(image, palette::normal_arrow);
  std::cout << "red " << red << ", green " << green << ", green over red " << both << ", overlap colour " << overlapping << ", arrow "
            << arrow << "\n";
  EXPECT_GT(red, 10000);
  EXPECT_GT(green, 5000);
  EXPECT_LT(both, 20) << "the boxes share pixels: push-out failed";
  EXPECT_EQ(overlapping, 0);
  EXPECT_GT(arrow, 15) << "the penetration arrow is missing";
}

TEST_F(DemoScreenshots, BoxesWithoutPushOutOverlapAndAreColouredAsOverlapping) {
  for (const auto& [name, arguments] : std::vector<std::pair<std::string, std::string>>{
           {"boxes_no_push_out", "--view boxes --no-push-out --frames 60 --keys right:60"},
           {"boxes_p_key", "--view boxes --frames 61 --keys p:1,right:60"}}) {
    SCOPED_TRACE(name);
    const sf::Image image = screenshot(name, arguments);
    const int single = count_pixels(image, overlap_alone), twice = count_pixels(image, overlap_twice);
    const int red = count_pixels(image, red_alone), green = count_pixels(image, green_alone);
    const int arrow = count_pixels(image, palette::normal_arrow);
    std::cout << name << ": overlap colour " << single << ", both boxes " << twice << ", red " << red << ", green " << green << ", arrow "
              << arrow << "\n";
    EXPECT_GT(single, 5000);
    EXPECT_GT(twice, 2000) << "the boxes should share pixels";
    EXPECT_EQ(red + green, 0) << "overlapping boxes are drawn in the overlap colour";
    EXPECT_GT(arrow, 50);
  }
}

/// Samples eight pixels on a circle of 9 pixels around the origin marker (off the axes) and
/// says how many show the difference's fill and how many the bare background or grid.
struct Ring {
  int difference = 0;
  int outside = 0;
  bool marker = false;
};

Ring ring_around_origin(const sf::Image& image) {
  const ScreenPoint origin = MinkowskiView().initial_camera(1200, 800).to_screen({0, 0});
  Ring ring;
  ring.marker = near(image.getPixel(unsigned(std::lround(origin.x)), unsigned(std::lround(origin.y))), palette::origin, 10);
  for (int k = 0; k < 8; ++k) {
    const double angle = (22.5 + 45 * k) * std::numbers::pi / 180;
    const sf::Color pixel = image.getPixel(unsigned(std::lround(origin.x + 9 * std::cos(angle))), unsigned(std::lround(origin.y + 9 * std::sin(angle))));
    ring.difference += near(pixel, palette::difference);
    ring.outside += near(pixel, palette::background) || near(pixel, palette::grid);
  }
  return ring;
}

TEST_F(DemoScreenshots, MinkowskiOriginIsInsideTheDrawnDifferenceExactlyWhenTheShapesOverlap) {
  int inside_cases = 0, outside_cases = 0;
  for (const auto& [name, frames] : std::vector<std::pair<std::string, int>>{{"minkowski_overlap", 0}, {"minkowski_apart", 40}}) {
    SCOPED_TRACE(name);
    // The same frames through the model, to ask the library whether the shapes overlap.
    MinkowskiView model;
    for (int i = 0; i < frames; ++i) model.update(std::vector<Key>{Key::right}, Real(1) / 60);
    const bool overlapping = std::visit(
        [&](const auto& a, const auto& b) { return overlap(a, model.transform_a(), b, model.transform_b()); }, model.convex_a(), model.convex_b());
    const std::string keys = frames > 0 ? " --keys right:" + std::to_string(frames) : "";
    const sf::Image image = screenshot(name, "--view minkowski --frames " + std::to_string(std::max(frames, 2)) + keys);
    const Ring ring = ring_around_origin(image);
    std::cout << name << ": overlap " << overlapping << ", ring: " << ring.difference << " difference, " << ring.outside << " outside\n";
    EXPECT_TRUE(ring.marker) << "the origin marker is missing";
    if (overlapping) {
      EXPECT_GE(ring.difference, 5);
      EXPECT_EQ(ring.outside, 0);
      ++inside_cases;
    } else {
      EXPECT_EQ(ring.difference, 0);
      EXPECT_GE(ring.outside, 5);
      ++outside_cases;
    }
  }
  EXPECT_EQ(inside_cases, 1);
  EXPECT_EQ(outside_cases, 1);
}

/// View 3 after a key script, run through the model frame by frame as the window program runs it.
struct SlopesReplay {
  Vec2 character;             // where the character ends
  std::vector<MoveHit> hits;  // the hits of the last frame's move, whose normals are drawn
  Camera camera;              // view 3's camera
};

SlopesReplay replay_slopes(const std::string& keys, int frames) {
  const KeyScript script = parse_key_script(keys).value();
  Demo demo(ViewKind::slopes, std::nullopt, 1200, 800);
  for (int frame = 0; frame < frames; ++frame) {
    const ScriptFrame now = script.at(frame);
    for (Key key : now.pressed) demo.key_pressed(key);
    demo.update(now.held, Real(1) / 60);
  }
  const SlopesView& view = demo.slopes();
  return {view.character().position, view.last_move() ? view.last_move()->hits : std::vector<MoveHit>{}, demo.camera()};
}

/// How many pixels of the 7 by 7 block around a world point show `colour`.
int block_matches(const sf::Image& image, const Camera& camera, Vec2 world, Colour colour) {
  const ScreenPoint at = camera.to_screen(world);
  int matches = 0;
  for (int dy = -3; dy <= 3; ++dy) {
    for (int dx = -3; dx <= 3; ++dx) {
      matches += near(image.getPixel(unsigned(std::lround(at.x) + dx), unsigned(std::lround(at.y) + dy)), colour);
    }
  }
  return matches;
}

// View 3's fills as the screen shows them: the character and the terrain, each over the background.
const Colour character_alone = painted_over(palette::mover, palette::background);
const Colour terrain_alone = painted_over(palette::apart, palette::background);

/// A point inside the character (a box 0.7 by 1.4) above its centre, so clear of its trail, which
/// ends at the centre coming from the side: of a few such points, the one farthest from the drawn
/// hit normals (segments 2 units long from each hit point).
Vec2 inside_character(const SlopesReplay& replay) {
  Vec2 best = replay.character;
  Real best_clearance = -1;
  for (Real dx : {Real(-0.17), Real(0), Real(0.17)}) {
    for (Real dy : {Real(0.3), Real(0.5)}) {
      const Vec2 point = replay.character + Vec2{dx, dy};
      Real clearance = 1e9f;
      for (const MoveHit& hit : replay.hits) {
        const Vec2 along = 2 * hit.normal;
        const Real t = std::clamp(dot(point - hit.point, along) / dot(along, along), Real(0), Real(1));
        clearance = std::min(clearance, length(point - (hit.point + t * along)));
      }
      if (clearance > best_clearance) {
        best = point;
        best_clearance = clearance;
      }
    }
  }
  EXPECT_GT(best_clearance, Real(0.2)) << "no point of the character is clear of the normals";
  return best;
}

TEST_F(DemoScreenshots, SlopesWalkShowsTheCharacterOnTheTerrainWithItsHitNormals) {
  // Up the 20-degree slope, a jump over the step, down 35 degrees into the valley, against the
  // 60-degree side: standing on the valley floor against a wall, two hits.
  const std::string keys = "right:100,right+up:2,right:128";
  const SlopesReplay model = replay_slopes(keys, 230);
  ASSERT_EQ(model.hits.size(), 2u);
  const sf::Image image = screenshot("slopes_walk", "--view slopes --frames 230 --keys " + keys);
  ASSERT_EQ(image.getSize(), sf::Vector2u(1200, 800));
  const int character = count_pixels(image, character_alone), terrain = count_pixels(image, terrain_alone);
  const int normals = count_pixels(image, palette::normal_arrow);
  const int inside = block_matches(image, model.camera, inside_character(model), character_alone);
  std::cout << "character " << character << ", terrain " << terrain << ", normals " << normals << ", at the model's place " << inside
            << " of 49\n";
  EXPECT_GT(character, 600) << "the character (0.7 by 1.4 units, 33 pixels a unit) is missing";
  EXPECT_GT(terrain, 50000) << "the terrain's fill is missing";
  EXPECT_GT(normals, 100) << "two hit normals, 2 units long, should be drawn";
  EXPECT_GE(inside, 35) << "the character is not where the model puts it";
}

TEST_F(DemoScreenshots, SlopesMKeySwitchesTheWindowToTheExitVectorMethod) {
  // 150 frames right: the mover climbs the step; the exit-vector method stops at its face.
  const SlopesReplay mover = replay_slopes("right:150", 150);
  const SlopesReplay exit_vector = replay_slopes("m:1,right:149", 150);
  const Real apart = length(mover.character - exit_vector.character);
  ASSERT_GT(apart, 1) << "the two methods should end far apart here";
  for (const auto& [name, keys, own, other] : std::vector<std::tuple<std::string, std::string, SlopesReplay, SlopesReplay>>{
           {"slopes_mover", "right:150", mover, exit_vector}, {"slopes_exit_vector", "m:1,right:149", exit_vector, mover}}) {
    SCOPED_TRACE(name);
    const sf::Image image = screenshot(name, "--view slopes --frames 150 --keys " + keys);
    const int here = block_matches(image, own.camera, inside_character(own), character_alone);
    const int there = block_matches(image, other.camera, inside_character(other), character_alone);
    std::cout << name << ": character pixels at its own method's place " << here << " of 49, at the other method's " << there << "\n";
    EXPECT_GE(here, 35);
    EXPECT_EQ(there, 0);
    EXPECT_GT(count_pixels(image, terrain_alone), 50000);
  }
}

TEST_F(DemoScreenshots, PlaygroundShowsThePyramidAsleepWhereTheModelPutsItWithContactNormals) {
  // The window runs view 4 for 150 frames; the model, stepped the same 150 times, says where the
  // pyramid's top box is and that it sleeps (drawn in the asleep colour).
  Demo demo(ViewKind::playground, std::nullopt, 1200, 800);
  for (int frame = 0; frame < 150; ++frame) demo.update({}, Real(1) / 60);
  const PlaygroundView& view = demo.playground();
  const BodyHandle top = view.movable()[20];
  ASSERT_FALSE(view.physics().awake(top));
  const Colour asleep = painted_over(palette::apart, palette::background);
  const sf::Image image = screenshot("playground", "--view playground --frames 150");
  ASSERT_EQ(image.getSize(), sf::Vector2u(1200, 800));
  const int at_top = block_matches(image, demo.camera(), view.physics().center_of_mass(top) + Vec2{Real(0.2), Real(0.2)}, asleep);
  const int normals = count_pixels(image, palette::normal_arrow), contacts = count_pixels(image, palette::contact);
  std::cout << "top box at the model's place " << at_top << " of 49, normal pixels " << normals << ", contact pixels " << contacts << "\n";
  EXPECT_GE(at_top, 35) << "the top box is not where the model puts it, or not drawn asleep";
  EXPECT_GT(normals, 300) << "the pyramid's contact normals are missing";
  EXPECT_GT(contacts, 300) << "the contact points are missing";
}

TEST_F(DemoScreenshots, EveryShippedSceneOpensAndDrawsItsBodies) {
  int scenes = 0;
  for (const auto& entry : std::filesystem::directory_iterator(COLLIDE2D_SCENES_DIR)) {
    const std::filesystem::path& path = entry.path();
    if (path.filename() == "scene.schema.json" || (path.extension() != ".json" && path.extension() != ".xml")) continue;
    SCOPED_TRACE(path.string());
    const sf::Image image = screenshot("scene_" + path.stem().string(), "--view scene --scene '" + path.string() + "' --frames 2");
    int body_pixels = 0;
    for (Colour fill : {palette::apart, palette::overlap, palette::touching}) body_pixels += count_pixels(image, painted_over(fill, palette::background));
    EXPECT_GT(body_pixels, 500) << "no body drawn";
    ++scenes;
  }
  EXPECT_GE(scenes, 5);
}

TEST(DemoCommandLine, BadInputGetsAMessageAndExitCode2) {
  const std::filesystem::path broken = screenshot_dir / "broken.json";
  std::filesystem::create_directories(screenshot_dir);
  std::ofstream(broken) << "{\"bodies\": [ {\"shape\": ";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--view sandbox", "unknown view 'sandbox'"},
      {"--frames ten", "whole number"},
      {"--frames 5 --keys jump:3", "unknown key 'jump'"},
      {"--frames 5 --screenshot out.bmp", ".png"},
      {"--scene '" + broken.string() + "'", "broken.json:"},
      {"--scene /nonexistent/scene.json", "scene.json"},
      {"--frames 2", "no display"},
  };
  for (const auto& [arguments, expected] : cases) {
    const DemoRun run = run_demo(arguments, "bad_input", false);
    EXPECT_EQ(run.exit_code, 2) << arguments << "\n" << run.output;
    EXPECT_NE(run.output.find("error: "), std::string::npos) << run.output;
    EXPECT_NE(run.output.find(expected), std::string::npos) << run.output;
  }
  const DemoRun help = run_demo("--help", "help", false);
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.output.find("--screenshot"), std::string::npos);
}

}  // namespace

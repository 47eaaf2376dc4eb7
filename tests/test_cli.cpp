// test_cli.cpp — the collide2d command and the scene readers, run as a subprocess.
//
// Every check compares numbers parsed from the command's JSON (or the numbers inside the
// steersuite sentences), never output text byte for byte. Scenes with bad input are written by
// the tests into a private temporary directory that is removed at the end.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <pugixml.hpp>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "collide2d/collide2d.hpp"
#include "collide2d/io/scene.hpp"
#include "collide2d/io/simulate.hpp"
#include "point2.hpp"

extern char** environ;

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

const std::string cli_path = COLLIDE2D_CLI_PATH;
const fs::path scenes_dir = COLLIDE2D_SCENES_DIR;

// ---------------------------------------------------------------------------------------------
// Temporary directory and subprocesses

fs::path& temp_root() {
  static fs::path root;
  return root;
}

class TempDirEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    std::random_device seed;
    const fs::path base = fs::temp_directory_path();
    for (int attempt = 0; attempt < 100; ++attempt) {
      const fs::path candidate = base / ("collide2d_test_cli_" + std::to_string(::getpid()) + "_" + std::to_string(seed()));
      std::error_code error;
      if (fs::create_directory(candidate, error)) {
        temp_root() = candidate;
        return;
      }
    }
    FAIL() << "cannot create a temporary directory under " << base;
  }
  void TearDown() override {
    std::error_code error;
    if (!temp_root().empty()) fs::remove_all(temp_root(), error);
  }
};

const auto* const temp_environment = ::testing::AddGlobalTestEnvironment(new TempDirEnvironment);

/// A fresh file path in the temporary directory (the file is not created).
fs::path temp_path(const std::string& name) { return temp_root() / name; }

/// Writes `contents` to a file of that name in the temporary directory and returns its path.
fs::path write_temp(const std::string& name, const std::string& contents) {
  const fs::path path = temp_path(name);
  std::ofstream stream(path, std::ios::binary | std::ios::trunc);
  stream << contents;
  stream.close();
  EXPECT_TRUE(stream) << "cannot write " << path;
  return path;
}

std::string read_file(const fs::path& path) {
  std::ifstream stream(path, std::ios::binary);
  std::ostringstream contents;
  contents << stream.rdbuf();
  return contents.str();
}

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

/// Runs `program` with `arguments`, stdout and stderr captured separately through files.
RunResult run_program(const std::string& program, const std::vector<std::string>& arguments) {
  static int counter = 0;
  ++counter;
  const fs::path out_path = temp_path("run" + std::to_string(counter) + ".stdout");
  const fs::path err_path = temp_path("run" + std::to_string(counter) + ".stderr");
  std::vector<std::string> strings{program};
  strings.insert(strings.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (std::string& s : strings) argv.push_back(s.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t child = 0;
  const int spawned = posix_spawn(&child, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  RunResult result;
  if (spawned != 0) {
    ADD_FAILURE() << "cannot run " << program << ": " << std::strerror(spawned);
    return result;
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) {
      ADD_FAILURE() << "waitpid failed";
      return result;
    }
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  result.out = read_file(out_path);
  result.err = read_file(err_path);
  fs::remove(out_path);
  fs::remove(err_path);
  return result;
}

RunResult run_cli(const std::vector<std::string>& arguments) { return run_program(cli_path, arguments); }

/// Checks that the command refuses `arguments`: exit code 2, nothing on stdout, "error: " and
/// `message` on stderr, and, when `picture` is given, no picture (nor its ".partial") written.
void expect_refused(const std::vector<std::string>& arguments, const std::string& message, const fs::path& picture = {}) {
  std::string joined;
  for (const std::string& argument : arguments) joined += argument + " ";
  SCOPED_TRACE(joined);
  const RunResult result = run_cli(arguments);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err.rfind("error: ", 0), 0u) << result.err;
  EXPECT_NE(result.err.find(message), std::string::npos) << result.err;
  if (!picture.empty()) {
    EXPECT_FALSE(fs::exists(picture));
    EXPECT_FALSE(fs::exists(picture.string() + ".partial"));
  }
}

std::string scene(const std::string& name) { return (scenes_dir / name).string(); }

/// Runs the command, expects success and parses its stdout as JSON.
Json run_json(const std::vector<std::string>& arguments) {
  const RunResult result = run_cli(arguments);
  EXPECT_EQ(result.exit_code, 0) << "stderr: " << result.err;
  EXPECT_EQ(result.err, "");
  Json document = Json::parse(result.out, nullptr, false);
  EXPECT_FALSE(document.is_discarded()) << "stdout is not JSON: " << result.out.substr(0, 400);
  return document;
}

// ---------------------------------------------------------------------------------------------
// Small geometry on parsed numbers

using P = test_points::Point2<double>;

P point_of(const Json& value) {
  EXPECT_TRUE(value.is_array() && value.size() == 2 && value[0].is_number() && value[1].is_number()) << value.dump();
  if (!value.is_array() || value.size() != 2) return {};
  return {value[0].get<double>(), value[1].get<double>()};
}

#define EXPECT_POINT_NEAR(actual, ex, ey, tolerance)       \
  do {                                                    \
    const P expect_point_value = (actual);                \
    EXPECT_NEAR(expect_point_value.x, (ex), (tolerance)); \
    EXPECT_NEAR(expect_point_value.y, (ey), (tolerance)); \
  } while (false)

/// Strips `prefix` from the front of `text`; false when it is not there.
bool consume(std::string_view& text, std::string_view prefix) {
  if (text.substr(0, prefix.size()) != prefix) return false;
  text.remove_prefix(prefix.size());
  return true;
}

/// Reads a number (up to the next ',', ')' or space) from the front of `text`.
bool read_number(std::string_view& text, double& value) {
  const std::string token(text.substr(0, text.find_first_of(",) ")));
  if (token.empty()) return false;
  char* end = nullptr;
  value = std::strtod(token.c_str(), &end);
  if (end != token.c_str() + token.size()) return false;
  text.remove_prefix(token.size());
  return true;
}

/// Reads a non-negative integer from the front of `text`.
bool read_int(std::string_view& text, int& value) {
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0 || digits > 9) return false;
  value = std::stoi(std::string(text.substr(0, digits)));
  text.remove_prefix(digits);
  return true;
}

/// Tolerances for numbers that went through float arithmetic (the release build's Real).
constexpr double tight = 2e-5;
constexpr double loose = 1e-4;

const Json* find_pair(const Json& pairs, int a, int b) {
  for (const Json& pair : pairs) {
    if (pair.at("a").get<int>() == a && pair.at("b").get<int>() == b) return &pair;
  }
  return nullptr;
}

/// The shape of a `pairs --format json` document: body count, ordering, status fields, unit
/// normals and contact separations consistent with the depth. Depth and contacts come from one
/// manifold computation, so an overlapping pair's deepest contact has separation exactly -depth
/// (both print the same Real) and no contact is deeper; a touching pair's points are within the
/// touching band of 0.
void check_pairs_document(const Json& document, int bodies, bool all) {
  ASSERT_TRUE(document.is_object());
  ASSERT_EQ(document.at("bodies").get<int>(), bodies);
  const Json& pairs = document.at("pairs");
  ASSERT_TRUE(pairs.is_array());
  if (all) {
    EXPECT_EQ(static_cast<int>(pairs.size()), bodies * (bodies - 1) / 2);
  }
  std::pair<int, int> previous{-1, -1};
  for (const Json& pair : pairs) {
    const int a = pair.at("a").get<int>(), b = pair.at("b").get<int>();
    EXPECT_LE(0, a);
    EXPECT_LT(a, b);
    EXPECT_LT(b, bodies);
    EXPECT_LT(previous, std::make_pair(a, b)) << "pairs are ordered by (a, b) without repeats";
    previous = {a, b};
    const std::string status = pair.at("status").get<std::string>();
    ASSERT_TRUE(status == "overlap" || status == "touching" || status == "separate") << status;
    if (status == "separate") {
      EXPECT_TRUE(all) << "separate pairs are listed only with --all";
      EXPECT_FALSE(pair.contains("depth"));
      EXPECT_FALSE(pair.contains("normal"));
      EXPECT_FALSE(pair.contains("contacts"));
      continue;
    }
    const double depth = pair.at("depth").get<double>();
    if (status == "overlap") {
      EXPECT_GT(depth, 0);
    } else {
      EXPECT_EQ(depth, 0);
    }
    const P normal = point_of(pair.at("normal"));
    EXPECT_NEAR(norm(normal), 1, tight) << pair.dump();
    ASSERT_TRUE(pair.at("contacts").is_array());
    EXPECT_LE(pair.at("contacts").size(), 2u);
    if (status == "overlap") {
      EXPECT_GE(pair.at("contacts").size(), 1u) << pair.dump();
    }
    double deepest = 0;
    for (const Json& contact : pair.at("contacts")) {
      point_of(contact.at("point"));
      const double separation = contact.at("separation").get<double>();
      EXPECT_LE(separation, loose) << pair.dump();
      EXPECT_GE(separation, status == "overlap" ? -depth : -loose) << pair.dump();  // touching: depth 0, points within the band
      deepest = std::max(deepest, -separation);
    }
    if (status == "overlap") {
      EXPECT_EQ(deepest, depth) << pair.dump();
    }
  }
}

// ---------------------------------------------------------------------------------------------
// pairs on the shipped scenes

TEST(CliPairs, EveryShippedSceneGivesAConsistentDocument) {
  const std::map<std::string, int> shipped = {
      {"rotated_boxes.json", 6}, {"slope.json", 4}, {"mixed.json", 6}, {"steersuite_obstacles.xml", 4}, {"concave.json", 2}, {"terrain.json", 6}};
  for (const auto& [name, bodies] : shipped) {
    SCOPED_TRACE(name);
    const Json listed = run_json({"pairs", scene(name), "--format", "json"});
    check_pairs_document(listed, bodies, false);
    const Json every = run_json({"pairs", scene(name), "--all", "--format", "json"});
    check_pairs_document(every, bodies, true);
    // Without --all: exactly the pairs that are not separate, with the same numbers.
    std::size_t not_separate = 0;
    for (const Json& pair : every.at("pairs")) {
      const Json* short_listed = find_pair(listed.at("pairs"), pair.at("a").get<int>(), pair.at("b").get<int>());
      if (pair.at("status") == "separate") {
        EXPECT_EQ(short_listed, nullptr) << pair.dump();
        continue;
      }
      ++not_separate;
      ASSERT_NE(short_listed, nullptr) << pair.dump();
      EXPECT_EQ(short_listed->at("status"), pair.at("status"));
      EXPECT_NEAR(short_listed->at("depth").get<double>(), pair.at("depth").get<double>(), 1e-9);
    }
    EXPECT_EQ(listed.at("pairs").size(), not_separate);
  }
}

TEST(CliPairs, RotatedBoxesFloorAndCrate) {
  // Floor: centre (0, -1), half extents (8, 0.5), so its top is y = -0.5. Crate: centre (-4, 0),
  // half extents (1, 1), so its bottom is y = -1: overlap 0.5 along (0, 1), contacts at the
  // crate's bottom corners x = -5 and x = -3, midway between the surfaces (y = -0.75).
  const Json document = run_json({"pairs", scene("rotated_boxes.json"), "--format", "json"});
  const Json* pair = find_pair(document.at("pairs"), 0, 1);
  ASSERT_NE(pair, nullptr);
  EXPECT_EQ(pair->at("status"), "overlap");
  EXPECT_NEAR(pair->at("depth").get<double>(), 0.5, tight);
  EXPECT_POINT_NEAR(point_of(pair->at("normal")), 0, 1, tight);
  const Json& contacts = pair->at("contacts");
  ASSERT_EQ(contacts.size(), 2u);
  std::vector<P> points{point_of(contacts[0].at("point")), point_of(contacts[1].at("point"))};
  std::sort(points.begin(), points.end(), [](P l, P r) { return l.x < r.x; });
  EXPECT_POINT_NEAR(points[0], -5, -0.75, tight);
  EXPECT_POINT_NEAR(points[1], -3, -0.75, tight);
  for (const Json& contact : contacts) EXPECT_NEAR(contact.at("separation").get<double>(), -0.5, tight);

  // Tilted crate: centre (-1.2, 0.6) turned 30 degrees; its lowest corner is at
  // 0.6 - (cos 30 + sin 30) = -0.766025, so it sinks 0.266025 into the floor along (0, 1).
  const Json* tilted = find_pair(document.at("pairs"), 0, 2);
  ASSERT_NE(tilted, nullptr);
  EXPECT_EQ(tilted->at("status"), "overlap");
  const double lowest = 0.6 - (std::cos(M_PI / 6) + std::sin(M_PI / 6));
  EXPECT_NEAR(tilted->at("depth").get<double>(), -0.5 - lowest, tight);
  EXPECT_POINT_NEAR(point_of(tilted->at("normal")), 0, 1, tight);
  // The lone box (0, 4) is apart from everything: no pair names body 5.
  for (const Json& listed : document.at("pairs")) {
    EXPECT_NE(listed.at("a").get<int>(), 5);
    EXPECT_NE(listed.at("b").get<int>(), 5);
  }
}

TEST(CliPairs, SlopeBoxSunkAndBallTouching) {
  // The slope's long edge runs from (-6, -1) to (6, 3): direction (3, 1)/sqrt(10), outward
  // normal n = (-1, 3)/sqrt(10). The box (2, 1.75), half extents (0.6, 0.4), is turned by
  // atan(1/3) so its local y axis is n; its centre lies 0.25/sqrt(10) above the edge, so it
  // sinks 0.4 - 0.25/sqrt(10) along n. The ball, radius 0.5, is centred 0.5 along n from the edge
  // point (-1, 2/3): touching.
  const double s10 = std::sqrt(10.0);
  const P n{-1 / s10, 3 / s10}, t{3 / s10, 1 / s10};
  const Json document = run_json({"pairs", scene("slope.json"), "--all", "--format", "json"});
  const Json* box = find_pair(document.at("pairs"), 0, 1);
  ASSERT_NE(box, nullptr);
  EXPECT_EQ(box->at("status"), "overlap");
  const double depth = 0.4 - 0.25 / s10;
  EXPECT_NEAR(box->at("depth").get<double>(), depth, tight);
  EXPECT_POINT_NEAR(point_of(box->at("normal")), n.x, n.y, tight);
  // Contacts: the box's two bottom corners, each moved half the depth back along n.
  ASSERT_EQ(box->at("contacts").size(), 2u);
  const P bottom = P{2, 1.75} - 0.4 * n;
  std::vector<P> expected{bottom - 0.6 * t + 0.5 * depth * n, bottom + 0.6 * t + 0.5 * depth * n};
  std::vector<P> actual{point_of(box->at("contacts")[0].at("point")), point_of(box->at("contacts")[1].at("point"))};
  std::sort(actual.begin(), actual.end(), [](P l, P r) { return l.x < r.x; });
  for (int i = 0; i < 2; ++i) {
    EXPECT_POINT_NEAR(actual[static_cast<std::size_t>(i)], expected[static_cast<std::size_t>(i)].x,
                      expected[static_cast<std::size_t>(i)].y, loose);
    EXPECT_NEAR(box->at("contacts")[static_cast<std::size_t>(i)].at("separation").get<double>(), -depth, loose);
  }

  const Json* ball = find_pair(document.at("pairs"), 0, 2);
  ASSERT_NE(ball, nullptr);
  EXPECT_EQ(ball->at("status"), "touching");
  EXPECT_EQ(ball->at("depth").get<double>(), 0);
  EXPECT_POINT_NEAR(point_of(ball->at("normal")), n.x, n.y, tight);
  ASSERT_EQ(ball->at("contacts").size(), 1u);
  const P foot{-1, 2.0 / 3};
  EXPECT_POINT_NEAR(point_of(run_json({"check", scene("slope.json"), "--format", "json"}).at("bodies_detail")[2].at("position")),
                    (foot + 0.5 * n).x, (foot + 0.5 * n).y, 1e-7);
  EXPECT_POINT_NEAR(point_of(ball->at("contacts")[0].at("point")), foot.x, foot.y, loose);
  EXPECT_NEAR(ball->at("contacts")[0].at("separation").get<double>(), 0, loose);

  // The ball above (-3, 3) touches nothing.
  for (int other = 0; other < 3; ++other) {
    const Json* pair = find_pair(document.at("pairs"), other, 3);
    ASSERT_NE(pair, nullptr);
    EXPECT_EQ(pair->at("status"), "separate");
  }
}

TEST(CliPairs, SteerSuiteObstacles) {
  // Obstacle 0: the rectangle x in [-4, -1], z in [-1, 1]. Obstacle 1: the diamond |x| + |z| <= 2,
  // whose left vertex (-2, 0) is 1 inside the rectangle's right side: overlap 1 along (1, 0)
  // (the diamond's own axes need sqrt 2). Obstacles 1 and 2 share the vertex (2, 0) only.
  const Json document = run_json({"pairs", scene("steersuite_obstacles.xml"), "--all", "--format", "json"});
  check_pairs_document(document, 4, true);
  const Json* first = find_pair(document.at("pairs"), 0, 1);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->at("status"), "overlap");
  EXPECT_NEAR(first->at("depth").get<double>(), 1, tight);
  EXPECT_POINT_NEAR(point_of(first->at("normal")), 1, 0, tight);
  double deepest = 0;
  for (const Json& contact : first->at("contacts")) {
    const P point = point_of(contact.at("point"));
    deepest = std::min(deepest, contact.at("separation").get<double>());
    // Every contact lies within the overlap strip x in [-2, -1], |z| <= 1.
    EXPECT_GE(point.x, -2 - tight);
    EXPECT_LE(point.x, -1 + tight);
    EXPECT_LE(std::abs(point.y), 1 + tight);
  }
  EXPECT_NEAR(deepest, -1, tight) << "the diamond's vertex (-2, 0) is 1 deep";

  const Json* vertex = find_pair(document.at("pairs"), 1, 2);
  ASSERT_NE(vertex, nullptr);
  EXPECT_EQ(vertex->at("status"), "touching");
  EXPECT_EQ(vertex->at("depth").get<double>(), 0);
  // The normal must separate them: the diamond lies on its negative side of the shared vertex,
  // the triangle (2, 0), (5, 0), (3.5, 3) on its positive side.
  const P normal = point_of(vertex->at("normal"));
  for (P corner : {P{-2, 0}, P{0, -2}, P{2, 0}, P{0, 2}}) EXPECT_LE(dot(normal, corner - P{2, 0}), tight);
  for (P corner : {P{2, 0}, P{5, 0}, P{3.5, 3}}) EXPECT_GE(dot(normal, corner - P{2, 0}), -tight);
  for (const Json& contact : vertex->at("contacts")) EXPECT_POINT_NEAR(point_of(contact.at("point")), 2, 0, tight);

  for (auto [a, b] : {std::pair{0, 2}, std::pair{0, 3}, std::pair{1, 3}, std::pair{2, 3}}) {
    const Json* pair = find_pair(document.at("pairs"), a, b);
    ASSERT_NE(pair, nullptr);
    EXPECT_EQ(pair->at("status"), "separate") << a << " " << b;
  }
}

TEST(CliPairs, ConcaveSceneWithHullUsesTheHull) {
  // The L outline's hull is (0,0) (4,0) (4,1) (1,4) (0,4); its long edge is x + y = 5. The box
  // [1.5, 2.5]^2 lies inside, its corner (2.5, 2.5) on that edge: the way out is along
  // (1, 1)/sqrt(2) by (5 - 3)/sqrt(2) = sqrt(2).
  const Json document = run_json({"pairs", scene("concave.json"), "--hull", "--format", "json"});
  check_pairs_document(document, 2, false);
  const Json* pair = find_pair(document.at("pairs"), 0, 1);
  ASSERT_NE(pair, nullptr);
  EXPECT_EQ(pair->at("status"), "overlap");
  EXPECT_NEAR(pair->at("depth").get<double>(), std::sqrt(2.0), tight);
  EXPECT_POINT_NEAR(point_of(pair->at("normal")), 1 / std::sqrt(2.0), 1 / std::sqrt(2.0), tight);
}

/// The pairs of a document by (a, b).
std::map<std::pair<int, int>, Json> pairs_by_index(const Json& document) {
  std::map<std::pair<int, int>, Json> result;
  for (const Json& pair : document.at("pairs")) result[{pair.at("a").get<int>(), pair.at("b").get<int>()}] = pair;
  return result;
}

TEST(CliPairs, MovingBByDepthTimesNormalSeparates) {
  // For every overlapping pair of the JSON scenes: shift body b by depth * normal in a copy of
  // the scene; the pair must then touch or be apart.
  int moved = 0;
  for (const std::string name : {"rotated_boxes.json", "slope.json", "mixed.json"}) {
    SCOPED_TRACE(name);
    const Json original = Json::parse(read_file(scene(name)));
    const Json document = run_json({"pairs", scene(name), "--format", "json"});
    for (const Json& pair : document.at("pairs")) {
      if (pair.at("status") != "overlap") continue;
      const int a = pair.at("a").get<int>(), b = pair.at("b").get<int>();
      SCOPED_TRACE(testing::Message() << "pair " << a << " " << b);
      const double depth = pair.at("depth").get<double>();
      const P normal = point_of(pair.at("normal"));
      Json changed = original;
      Json& body = changed.at("bodies").at(static_cast<std::size_t>(b));
      const P position = body.contains("position") ? point_of(body.at("position")) : P{};
      const P shifted = position + depth * normal;
      body["position"] = {shifted.x, shifted.y};
      const fs::path path = write_temp("moved_" + std::to_string(moved) + ".json", changed.dump(1));
      const Json after = run_json({"pairs", path.string(), "--all", "--format", "json"});
      const auto pairs = pairs_by_index(after);
      ASSERT_TRUE(pairs.contains({a, b}));
      const std::string status = pairs.at({a, b}).at("status").get<std::string>();
      EXPECT_TRUE(status == "touching" || status == "separate") << pairs.at({a, b}).dump();
      // Moving only halfway leaves them overlapping by about half the depth.
      const P halfway = position + 0.5 * depth * normal;
      body["position"] = {halfway.x, halfway.y};
      const fs::path half_path = write_temp("halfway_" + std::to_string(moved) + ".json", changed.dump(1));
      const auto half_pairs = pairs_by_index(run_json({"pairs", half_path.string(), "--all", "--format", "json"}));
      EXPECT_EQ(half_pairs.at({a, b}).at("status"), "overlap");
      EXPECT_NEAR(half_pairs.at({a, b}).at("depth").get<double>(), 0.5 * depth, loose);
      ++moved;
    }
  }
  EXPECT_GE(moved, 8);

  // The SteerSuite pair 0-1 as a JSON scene: the diamond shifted by 1 along (1, 0) touches.
  const fs::path path = write_temp("steersuite_moved.json", R"({"bodies": [
    {"shape": {"type": "polygon", "vertices": [[-4, -1], [-1, -1], [-1, 1], [-4, 1]]}},
    {"position": [1, 0], "shape": {"type": "polygon", "vertices": [[-2, 0], [0, -2], [2, 0], [0, 2]]}}]})");
  const auto pairs = pairs_by_index(run_json({"pairs", path.string(), "--all", "--format", "json"}));
  EXPECT_EQ(pairs.at({0, 1}).at("status"), "touching");
}

/// A convex body of a generated scene in world coordinates, computed in double from the numbers
/// written to the file: a polygon's counter-clockwise vertices, or a circle's centre and radius.
struct WorldConvex {
  std::vector<P> vertices;  // empty for a circle
  P center;
  double radius = 0;
};

/// How far a point lies from a convex body's boundary, by brute force over the polygon's edges
/// or from the circle's centre.
double distance_to_boundary(const WorldConvex& body, P point) {
  if (body.vertices.empty()) return std::abs(norm(point - body.center) - body.radius);
  double nearest = 1e300;
  for (std::size_t i = 0; i < body.vertices.size(); ++i) {
    const P start = body.vertices[i], along = body.vertices[(i + 1) % body.vertices.size()] - start;
    const double t = std::clamp(dot(point - start, along) / dot(along, along), 0.0, 1.0);
    nearest = std::min(nearest, norm(point - (start + t * along)));
  }
  return nearest;
}

TEST(CliPairs, ReportedNormalDepthAndPointsAgreeOnRandomConvexPairs) {
  // 64 pairs of random boxes, polygons and circles, each pair on its own cell of a grid 8 apart.
  // Oracle, in double from the file's numbers: a contact point p with separation s stands midway
  // between the surfaces, so p - s/2 normal lies on a's boundary and p + s/2 normal on b's
  // (brute force over edges, or the circle's radius); the deepest contact's separation is minus
  // the reported depth. All within the round-off band of the coordinates.
  std::mt19937 random(77);
  auto uniform = [&](double low, double high) { return std::uniform_real_distribution<double>(low, high)(random); };
  Json bodies = Json::array();
  std::vector<WorldConvex> world;
  auto add_body = [&](P position, double angle, int kind) {
    Json body{{"position", {position.x, position.y}}, {"angle", angle}};
    WorldConvex shape;
    std::vector<P> local;
    if (kind == 0) {
      shape.center = position;
      shape.radius = uniform(0.4, 1.5);
      body["shape"] = {{"type", "circle"}, {"radius", shape.radius}};
    } else if (kind == 1) {
      const double hx = uniform(0.3, 1.5), hy = uniform(0.3, 1.5);
      local = {{-hx, -hy}, {hx, -hy}, {hx, hy}, {-hx, hy}};
      body["shape"] = {{"type", "box"}, {"half_extents", {hx, hy}}};
    } else {
      const int n = 3 + static_cast<int>(random() % 6);
      const double r = uniform(0.5, 1.5);
      Json vertices = Json::array();
      for (int k = 0; k < n; ++k) {
        const double step = 2 * M_PI / n, phi = k * step + uniform(-0.3, 0.3) * step;
        local.push_back({r * std::cos(phi), r * std::sin(phi)});
        vertices.push_back({local.back().x, local.back().y});
      }
      body["shape"] = {{"type", "polygon"}, {"vertices", vertices}};
    }
    for (P v : local) shape.vertices.push_back(position + P{std::cos(angle) * v.x - std::sin(angle) * v.y, std::sin(angle) * v.x + std::cos(angle) * v.y});
    bodies.push_back(body);
    world.push_back(shape);
  };
  for (int pair = 0; pair < 64; ++pair) {
    const P cell{8.0 * (pair % 8), 8.0 * (pair / 8)};
    const double heading = uniform(0, 2 * M_PI);
    add_body(cell, uniform(-M_PI, M_PI), pair % 3);
    add_body(cell + uniform(0.3, 1.6) * P{std::cos(heading), std::sin(heading)}, uniform(-M_PI, M_PI), (pair / 3) % 3);
  }
  const fs::path path = write_temp("random_convex_pairs.json", Json{{"bodies", bodies}}.dump(1));
  const Json document = run_json({"pairs", path.string(), "--format", "json"});
  check_pairs_document(document, 128, false);

  int checked = 0;
  double worst = 0;
  for (const Json& pair : document.at("pairs")) {
    const int a = pair.at("a").get<int>(), b = pair.at("b").get<int>();
    ASSERT_EQ(b, a + 1) << "only the two bodies of one cell can touch";
    if (pair.at("status") != "overlap") continue;
    SCOPED_TRACE(pair.dump());
    const P normal = point_of(pair.at("normal"));
    const double depth = pair.at("depth").get<double>();
    const P cell{8.0 * ((a / 2) % 8), 8.0 * ((a / 2) / 8)};
    // Coordinates reach |x| + |y| of the cell plus about 3; a contact is a dozen roundings of them.
    const double band = static_cast<double>(collide2d::round_off(static_cast<collide2d::Real>(std::abs(cell.x) + std::abs(cell.y) + 3)));
    double deepest = 1e300;
    for (const Json& contact : pair.at("contacts")) {
      const P point = point_of(contact.at("point"));
      const double separation = contact.at("separation").get<double>();
      const double off_a = distance_to_boundary(world[static_cast<std::size_t>(a)], point - 0.5 * separation * normal);
      const double off_b = distance_to_boundary(world[static_cast<std::size_t>(b)], point + 0.5 * separation * normal);
      EXPECT_LE(off_a, band) << "on a's surface";
      EXPECT_LE(off_b, band) << "on b's surface";
      worst = std::max({worst, off_a / band, off_b / band});
      deepest = std::min(deepest, separation);
    }
    EXPECT_NEAR(deepest, -depth, band);
    ++checked;
  }
  std::printf("[ pairs    ] %d overlapping random pairs; worst disagreement %.3g of the round-off band\n", checked, worst);
  EXPECT_GE(checked, 30);
}

TEST(CliPairs, ReportMatchesClosedFormsForBoxesAndCircles) {
  // Circles of radius 1 and 0.5, centres 1.2 apart along (0.6, 0.8): depth 0.3, normal (0.6, 0.8),
  // one contact midway between the surfaces, at 1 - 0.15 from the first centre.
  // A circle of radius 0.5 at (20.3, 0.9) on the box [19, 21] x [-1, 1]: depth 0.6, normal +y, the
  // contact at (20.3, 1 - 0.3). A box of half (0.5, 0.5) at (40.2, 0.8) on the box [39, 41] x [-1, 1]:
  // depth 0.7, normal +y, contacts at x = 39.7 and 40.7, y = 1 - 0.35.
  const fs::path path = write_temp("closed_forms.json", R"({"bodies": [
    {"shape": {"type": "circle", "radius": 1}},
    {"position": [0.72, 0.96], "shape": {"type": "circle", "radius": 0.5}},
    {"position": [20, 0], "shape": {"type": "box", "half_extents": [1, 1]}},
    {"position": [20.3, 0.9], "shape": {"type": "circle", "radius": 0.5}},
    {"position": [40, 0], "shape": {"type": "box", "half_extents": [1, 1]}},
    {"position": [40.2, 0.8], "shape": {"type": "box", "half_extents": [0.5, 0.5]}}]})");
  const auto pairs = pairs_by_index(run_json({"pairs", path.string(), "--format", "json"}));
  ASSERT_EQ(pairs.size(), 3u);
  struct Expected {
    std::pair<int, int> key;
    double depth;
    P normal;
    std::vector<P> points;
  };
  for (const Expected& expected : {Expected{{0, 1}, 0.3, {0.6, 0.8}, {{0.85 * 0.6, 0.85 * 0.8}}},
                                   Expected{{2, 3}, 0.6, {0, 1}, {{20.3, 0.7}}},
                                   Expected{{4, 5}, 0.7, {0, 1}, {{39.7, 0.65}, {40.7, 0.65}}}}) {
    ASSERT_TRUE(pairs.contains(expected.key));
    const Json& pair = pairs.at(expected.key);
    SCOPED_TRACE(pair.dump());
    EXPECT_EQ(pair.at("status"), "overlap");
    EXPECT_NEAR(pair.at("depth").get<double>(), expected.depth, tight);
    EXPECT_POINT_NEAR(point_of(pair.at("normal")), expected.normal.x, expected.normal.y, tight);
    ASSERT_EQ(pair.at("contacts").size(), expected.points.size());
    std::vector<P> points;
    for (const Json& contact : pair.at("contacts")) {
      points.push_back(point_of(contact.at("point")));
      EXPECT_NEAR(contact.at("separation").get<double>(), -expected.depth, loose);
    }
    std::sort(points.begin(), points.end(), [](P l, P r) { return l.x < r.x; });
    for (std::size_t i = 0; i < points.size(); ++i) EXPECT_POINT_NEAR(points[i], expected.points[i].x, expected.points[i].y, loose);
  }
}

// ---------------------------------------------------------------------------------------------
// --format steersuite

TEST(CliSteerSuite, EveryPairInSteerSuiteSentences) {
  const RunResult result = run_cli({"pairs", scene("steersuite_obstacles.xml"), "--format", "steersuite"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "");
  const auto json_pairs = pairs_by_index(run_json({"pairs", scene("steersuite_obstacles.xml"), "--all", "--format", "json"}));
  std::istringstream lines(result.out);
  std::string line;
  std::vector<std::pair<int, int>> seen;
  int collisions = 0;
  while (std::getline(lines, line)) {
    std::string_view rest = line, other = line;
    int i = 0, j = 0;
    double depth = 0;
    P vector;
    if (consume(rest, " Collision detected between polygon No.") && read_int(rest, i) && consume(rest, " and No.") && read_int(rest, j) &&
        consume(rest, " with a penetration depth of ") && read_number(rest, depth) && consume(rest, " and penetration vector of (") &&
        read_number(rest, vector.x) && consume(rest, ",0,") && read_number(rest, vector.y) && consume(rest, ")") && rest.empty()) {
      seen.emplace_back(i, j);
      ++collisions;
      const Json& pair = json_pairs.at({i, j});
      EXPECT_EQ(pair.at("status"), "overlap") << line;
      EXPECT_NEAR(depth, pair.at("depth").get<double>(), 1e-5 * std::max(1.0, depth));
      const P normal = point_of(pair.at("normal"));
      EXPECT_NEAR(vector.x, normal.x, 1e-5);
      EXPECT_NEAR(vector.y, normal.y, 1e-5);
      if (i == 0 && j == 1) {
        EXPECT_NEAR(depth, 1, 1e-5);
        EXPECT_NEAR(vector.x, 1, 1e-5);
        EXPECT_NEAR(vector.y, 0, 1e-5);
      }
    } else if (consume(other, " NO collision detected between polygon No.") && read_int(other, i) && consume(other, " and No.") &&
               read_int(other, j) && other.empty()) {
      seen.emplace_back(i, j);
      EXPECT_NE(json_pairs.at({i, j}).at("status"), "overlap") << line;  // touching counts as no collision
    } else {
      ADD_FAILURE() << "unexpected line: \"" << line << "\"";
    }
  }
  std::vector<std::pair<int, int>> expected;
  for (int i = 0; i < 4; ++i) {
    for (int j = i + 1; j < 4; ++j) expected.emplace_back(i, j);
  }
  EXPECT_EQ(seen, expected) << "every pair i < j, in order";
  EXPECT_EQ(collisions, 1);
}

TEST(CliSteerSuite, FormatIsOnlyForPairs) {
  const RunResult result = run_cli({"distance", scene("steersuite_obstacles.xml"), "--format", "steersuite"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err.rfind("error: ", 0), 0u) << result.err;
}

// ---------------------------------------------------------------------------------------------
// distance

void check_distance_document(const Json& document, const Json& pairs_all, int bodies) {
  const auto statuses = pairs_by_index(pairs_all);
  ASSERT_EQ(static_cast<int>(document.at("pairs").size()), bodies * (bodies - 1) / 2);
  for (const Json& pair : document.at("pairs")) {
    const int a = pair.at("a").get<int>(), b = pair.at("b").get<int>();
    SCOPED_TRACE(pair.dump());
    ASSERT_LT(a, b);
    const double distance = pair.at("distance").get<double>();
    const P normal = point_of(pair.at("normal"));
    const P point_a = point_of(pair.at("point_a")), point_b = point_of(pair.at("point_b"));
    const std::string status = statuses.at({a, b}).at("status").get<std::string>();
    if (status != "separate") {
      EXPECT_EQ(distance, 0);
      continue;
    }
    EXPECT_GT(distance, 0);
    EXPECT_NEAR(norm(normal), 1, tight);
    const P gap = point_b - point_a;
    EXPECT_NEAR(gap.x, distance * normal.x, loose * std::max(1.0, distance));
    EXPECT_NEAR(gap.y, distance * normal.y, loose * std::max(1.0, distance));
  }
}

TEST(CliDistance, ShippedScenes) {
  const std::map<std::string, int> shipped = {
      {"rotated_boxes.json", 6}, {"slope.json", 4}, {"mixed.json", 6}, {"steersuite_obstacles.xml", 4}, {"concave.json", 2}, {"terrain.json", 6}};
  for (const auto& [name, bodies] : shipped) {
    SCOPED_TRACE(name);
    check_distance_document(run_json({"distance", scene(name), "--format", "json"}),
                            run_json({"pairs", scene(name), "--all", "--format", "json"}), bodies);
  }
}

TEST(CliDistance, HandValues) {
  const auto steer = pairs_by_index(run_json({"distance", scene("steersuite_obstacles.xml"), "--format", "json"}));
  // Rectangle's right side x = -1 to the triangle's vertex (2, 0): 3 along (1, 0).
  const Json& apart = steer.at({0, 2});
  EXPECT_NEAR(apart.at("distance").get<double>(), 3, tight);
  EXPECT_POINT_NEAR(point_of(apart.at("normal")), 1, 0, tight);
  EXPECT_NEAR(point_of(apart.at("point_a")).x, -1, tight);
  EXPECT_POINT_NEAR(point_of(apart.at("point_b")), 2, 0, tight);
  // Triangle apex (3.5, 3) to the square's corner (6, 5): sqrt(2.5^2 + 2^2).
  const Json& corner = steer.at({2, 3});
  EXPECT_NEAR(corner.at("distance").get<double>(), std::sqrt(10.25), tight);
  EXPECT_POINT_NEAR(point_of(corner.at("normal")), 2.5 / std::sqrt(10.25), 2 / std::sqrt(10.25), tight);
  EXPECT_POINT_NEAR(point_of(corner.at("point_a")), 3.5, 3, tight);
  EXPECT_POINT_NEAR(point_of(corner.at("point_b")), 6, 5, tight);
  // Overlapping and touching pairs are at distance 0.
  EXPECT_EQ(steer.at({0, 1}).at("distance").get<double>(), 0);
  EXPECT_EQ(steer.at({1, 2}).at("distance").get<double>(), 0);

  const auto slope = pairs_by_index(run_json({"distance", scene("slope.json"), "--format", "json"}));
  // The ball above, centre (-3, 3) radius 0.5, is 9/sqrt(10) from the slope's edge line.
  const double s10 = std::sqrt(10.0);
  EXPECT_NEAR(slope.at({0, 3}).at("distance").get<double>(), 9 / s10 - 0.5, tight);
  EXPECT_POINT_NEAR(point_of(slope.at({0, 3}).at("normal")), -1 / s10, 3 / s10, tight);
  // Two balls: centre distance minus both radii.
  const P c2 = P{-1, 2.0 / 3} + 0.5 * P{-1 / s10, 3 / s10}, c3{-3, 3};
  EXPECT_NEAR(slope.at({2, 3}).at("distance").get<double>(), norm(c3 - c2) - 1, tight);
  const P direction = (1 / norm(c3 - c2)) * (c3 - c2);
  EXPECT_POINT_NEAR(point_of(slope.at({2, 3}).at("normal")), direction.x, direction.y, tight);
  EXPECT_EQ(slope.at({0, 1}).at("distance").get<double>(), 0);
}

TEST(CliDistance, CirclesAtTheCoordinateLimitAreApartByTheirGap) {
  // The issue's circles (radius 1e30, centres 3e30 apart: reported overlapping by 2e30 in float,
  // and from radius 1e19 a distance of null) brought to the limit: radius L/4, centres at -L and
  // L/2, a gap of L; the values past the limit are refused (CliBadInput).
  const double limit = double(collide2d::coordinate_limit);
  char contents[400];
  std::snprintf(contents, sizeof contents,
                "{\"bodies\": [{\"position\": [%.9g, 0], \"shape\": {\"type\": \"circle\", \"radius\": %.9g}},\n"
                "            {\"position\": [%.9g, 0], \"shape\": {\"type\": \"circle\", \"radius\": %.9g}}]}\n",
                -limit, limit / 4, limit / 2, limit / 4);
  const fs::path path = write_temp("circles_at_the_limit.json", contents);
  EXPECT_EQ(run_json({"pairs", path.string(), "--format", "json"}).at("pairs").size(), 0u);
  const Json gap = run_json({"distance", path.string(), "--format", "json"}).at("pairs").at(0);
  ASSERT_TRUE(gap.at("distance").is_number()) << gap.dump();
  EXPECT_NEAR(gap.at("distance").get<double>() / limit, 1, tight);
  EXPECT_POINT_NEAR(point_of(gap.at("normal")), 1, 0, tight);
  EXPECT_NEAR(point_of(gap.at("point_a")).x / limit, -0.75, tight);
  EXPECT_NEAR(point_of(gap.at("point_b")).x / limit, 0.25, tight);
}

TEST(CliPairs, SquareWithVerticesNearOneHundredThousandIsKept) {
  // A unit square given by vertex coordinates near (1e5, -1e5) (welding tolerance there about
  // 0.76 units in float) was refused with "a compound needs at least one child"; it must work as
  // the same square placed with "position" does: a circle 0.5 above the top edge, of radius 1.5,
  // overlaps both by 1, within the touching band of coordinates near 1e5 (0.38 in float).
  const fs::path path = write_temp("square_far.json",
                                   "{\"bodies\": [\n"
                                   "  {\"shape\": {\"type\": \"polygon\", \"vertices\": "
                                   "[[100000, -100001], [100001, -100001], [100001, -100000], [100000, -100000]]}},\n"
                                   "  {\"position\": [100000.5, -100000.5], \"shape\": {\"type\": \"box\", \"half_extents\": [0.5, 0.5]}},\n"
                                   "  {\"position\": [100000.5, -99999.5], \"shape\": {\"type\": \"circle\", \"radius\": 1.5}}\n"
                                   "]}\n");
  const Json check = run_json({"check", path.string(), "--format", "json"});
  EXPECT_EQ(check.at("valid"), true);
  EXPECT_EQ(check.at("kinds").at("polygon").get<int>(), 2);
  const auto pairs = pairs_by_index(run_json({"pairs", path.string(), "--format", "json"}));
  ASSERT_EQ(pairs.count({0, 2}), 1u);
  ASSERT_EQ(pairs.count({1, 2}), 1u);
  const double band = 16 * std::numeric_limits<collide2d::Real>::epsilon() * 2e5;
  EXPECT_NEAR(pairs.at({0, 2}).at("depth").get<double>(), 1, band);
  EXPECT_NEAR(pairs.at({1, 2}).at("depth").get<double>(), 1, loose);
  EXPECT_POINT_NEAR(point_of(pairs.at({0, 2}).at("normal")), 0, 1, tight);
}

// ---------------------------------------------------------------------------------------------
// check

TEST(CliCheck, JsonSummary) {
  const Json document = run_json({"check", scene("rotated_boxes.json"), "--format", "json"});
  EXPECT_EQ(document.at("valid"), true);
  EXPECT_EQ(document.at("bodies").get<int>(), 6);
  EXPECT_EQ(document.at("kinds").at("polygon").get<int>(), 6);
  EXPECT_EQ(document.at("kinds").size(), 1u);
  // Bounds: the floor spans x in [-8, 8] with bottom -1.5; the top is the lone box (0, 4) turned
  // 0.4 rad: 4 + 0.6 sin 0.4 + 0.4 cos 0.4.
  EXPECT_POINT_NEAR(point_of(document.at("bounds").at("lower")), -8, -1.5, tight);
  EXPECT_POINT_NEAR(point_of(document.at("bounds").at("upper")), 8, 4 + 0.6 * std::sin(0.4) + 0.4 * std::cos(0.4), tight);
  const Json& details = document.at("bodies_detail");
  ASSERT_EQ(details.size(), 6u);
  EXPECT_EQ(details[1].at("name"), "crate");
  EXPECT_POINT_NEAR(point_of(details[1].at("position")), -4, 0, tight);
  EXPECT_NEAR(details[2].at("angle").get<double>(), M_PI / 6, tight);
  EXPECT_NEAR(details[5].at("angle").get<double>(), 0.4, tight);
  EXPECT_EQ(details[0].at("vertices").get<int>(), 4);

  const Json mixed = run_json({"check", scene("mixed.json"), "--format", "json"});
  EXPECT_EQ(mixed.at("bodies").get<int>(), 6);
  EXPECT_EQ(mixed.at("kinds").at("circle").get<int>(), 2);
  EXPECT_EQ(mixed.at("kinds").at("capsule").get<int>(), 1);
  EXPECT_EQ(mixed.at("kinds").at("segment").get<int>(), 1);
  EXPECT_EQ(mixed.at("kinds").at("polygon").get<int>(), 2);

  const Json steer = run_json({"check", scene("steersuite_obstacles.xml"), "--format", "json"});
  EXPECT_EQ(steer.at("bodies").get<int>(), 4);
  EXPECT_EQ(steer.at("kinds").at("polygon").get<int>(), 4);
  EXPECT_POINT_NEAR(point_of(steer.at("bounds").at("lower")), -4, -2, tight);
  EXPECT_POINT_NEAR(point_of(steer.at("bounds").at("upper")), 8, 7, tight);
  EXPECT_EQ(steer.at("bodies_detail")[2].at("vertices").get<int>(), 3);
}

TEST(CliCheck, TextSummary) {
  const RunResult result = run_cli({"check", scene("mixed.json")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "");
  // Read the numbers from the first line: "valid scene: N bodies, C kinds, ...".
  std::istringstream lines(result.out);
  std::string first;
  std::getline(lines, first);
  std::string_view rest = first;
  int bodies = 0;
  ASSERT_TRUE(consume(rest, "valid scene: ") && read_int(rest, bodies) && consume(rest, " bodies")) << first;
  EXPECT_EQ(bodies, 6);
  std::map<std::string, int> kinds;
  while (!rest.empty()) {
    int count = 0;
    ASSERT_TRUE(consume(rest, ", ") && read_int(rest, count) && consume(rest, " ")) << first;
    std::string kind(rest.substr(0, rest.find(',')));
    rest.remove_prefix(kind.size());
    if (count != 1 && !kind.empty() && kind.back() == 's') kind.pop_back();
    kinds[kind] = count;
  }
  EXPECT_EQ(kinds, (std::map<std::string, int>{{"circle", 2}, {"capsule", 1}, {"segment", 1}, {"polygon", 2}}));
  // One line per body: "  INDEX  KIND ...".
  int body_lines = 0;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    int index = -1;
    std::string kind;
    if (line.rfind("  ", 0) == 0 && fields >> index >> kind && index == body_lines && kinds.contains(kind)) ++body_lines;
  }
  EXPECT_EQ(body_lines, 6);
}

TEST(CliText, PairsTableListsTheSamePairs) {
  const RunResult result = run_cli({"pairs", scene("rotated_boxes.json")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto json_pairs = pairs_by_index(run_json({"pairs", scene("rotated_boxes.json"), "--format", "json"}));
  std::istringstream lines(result.out);
  std::set<std::pair<int, int>> rows;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);  // "a b status depth normal contacts"
    std::pair<int, int> key;
    std::string status;
    double depth = 0;
    if (!(fields >> key.first >> key.second >> status >> depth)) continue;  // the summary and the header
    rows.insert(key);
    ASSERT_TRUE(json_pairs.contains(key)) << line;
    EXPECT_EQ(json_pairs.at(key).at("status"), status);
    EXPECT_NEAR(depth, json_pairs.at(key).at("depth").get<double>(), 1e-5);
  }
  EXPECT_EQ(rows.size(), json_pairs.size());
}

// ---------------------------------------------------------------------------------------------
// SVG pictures

/// Path of rsvg-convert on PATH, or empty.
std::string find_rsvg_convert() {
  const char* path = std::getenv("PATH");
  std::istringstream directories(path ? path : "");
  for (std::string directory; std::getline(directories, directory, ':');) {
    const fs::path candidate = fs::path(directory.empty() ? "." : directory) / "rsvg-convert";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return {};
}

/// The file is a well-formed SVG document.
void expect_well_formed_svg(const fs::path& path) {
  pugi::xml_document document;
  const pugi::xml_parse_result parsed = document.load_file(path.c_str());
  ASSERT_TRUE(parsed) << path << ": " << parsed.description() << " at byte " << parsed.offset;
  const pugi::xml_node root = document.document_element();
  EXPECT_STREQ(root.name(), "svg");
  EXPECT_STREQ(root.attribute("xmlns").value(), "http://www.w3.org/2000/svg");
  EXPECT_TRUE(root.attribute("viewBox") || (root.attribute("width") && root.attribute("height")));
  EXPECT_GT(std::distance(root.begin(), root.end()), 3);
}

/// rsvg-convert renders the file to a non-empty PNG.
void expect_renders(const fs::path& svg) {
  const std::string rsvg = find_rsvg_convert();
  if (rsvg.empty()) GTEST_SKIP() << "rsvg-convert is not installed (Debian package librsvg2-bin)";
  const fs::path png = fs::path(svg).replace_extension(".png");
  const RunResult result = run_program(rsvg, {"--format", "png", "-o", png.string(), svg.string()});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "") << "rsvg-convert warnings";
  ASSERT_TRUE(fs::exists(png));
  const std::string bytes = read_file(png);
  EXPECT_GT(bytes.size(), 100u);
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
}

TEST(CliSvg, PairsPictureIsWellFormedAndRenders) {
  for (const std::string name : {"rotated_boxes.json", "mixed.json", "steersuite_obstacles.xml"}) {
    SCOPED_TRACE(name);
    const fs::path svg = temp_path("pairs_" + fs::path(name).stem().string() + ".svg");
    const RunResult result = run_cli({"pairs", scene(name), "--svg", svg.string(), "--format", "json"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.err, "");
    EXPECT_FALSE(Json::parse(result.out, nullptr, false).is_discarded()) << "stdout still carries the JSON";
    ASSERT_TRUE(fs::exists(svg));
    EXPECT_FALSE(fs::exists(svg.string() + ".partial"));
    expect_well_formed_svg(svg);
    expect_renders(svg);
  }
}

TEST(CliSvg, FailedWriteExitsTwoAndLeavesNoFile) {
  const fs::path missing_directory = temp_path("no_such_directory");
  const fs::path target = missing_directory / "out.svg";
  const RunResult result = run_cli({"pairs", scene("rotated_boxes.json"), "--svg", target.string(), "--format", "json"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err.rfind("error: " + target.string() + ":0:0: ", 0), 0u) << result.err;
  EXPECT_FALSE(fs::exists(missing_directory));

  // A target that cannot be replaced (an existing directory): the temporary file must not stay.
  const fs::path holder = temp_path("svg_holder");
  fs::create_directory(holder);
  const fs::path blocked = holder / "picture.svg";
  fs::create_directory(blocked);
  const RunResult second = run_cli({"pairs", scene("rotated_boxes.json"), "--svg", blocked.string()});
  EXPECT_EQ(second.exit_code, 2);
  EXPECT_EQ(second.out, "");
  EXPECT_EQ(second.err.rfind("error: " + blocked.string() + ":0:0: ", 0), 0u) << second.err;
  std::vector<std::string> left;
  for (const auto& entry : fs::directory_iterator(holder)) left.push_back(entry.path().filename().string());
  EXPECT_EQ(left, std::vector<std::string>{"picture.svg"}) << "no partial file next to the target";
  EXPECT_TRUE(fs::is_directory(blocked));
}

// ---------------------------------------------------------------------------------------------
// minkowski

TEST(CliMinkowski, ContainsOriginIffTheBodiesOverlap) {
  for (const std::string name : {"rotated_boxes.json", "steersuite_obstacles.xml", "slope.json"}) {
    SCOPED_TRACE(name);
    const Json all = run_json({"pairs", scene(name), "--all", "--format", "json"});
    const auto distances = pairs_by_index(run_json({"distance", scene(name), "--format", "json"}));
    const Json check = run_json({"check", scene(name), "--format", "json"});
    for (const Json& pair : all.at("pairs")) {
      const int a = pair.at("a").get<int>(), b = pair.at("b").get<int>();
      const std::string status = pair.at("status").get<std::string>();
      SCOPED_TRACE(testing::Message() << "pair " << a << " " << b << " " << status);
      const fs::path svg = temp_path("minkowski_" + fs::path(name).stem().string() + "_" + std::to_string(a) + "_" + std::to_string(b) + ".svg");
      const Json document = run_json({"minkowski", scene(name), std::to_string(a), std::to_string(b), "--svg", svg.string(), "--format", "json"});
      ASSERT_TRUE(fs::exists(svg));
      EXPECT_EQ(document.at("a").get<int>(), a);
      EXPECT_EQ(document.at("b").get<int>(), b);
      EXPECT_GE(document.at("hull").size(), 1u);
      EXPECT_GE(document.at("gjk_steps").get<int>(), 1);
      const bool contains = document.at("contains_origin").get<bool>();
      const double signed_distance = document.at("signed_distance").get<double>();
      const P closest = point_of(document.at("closest_point"));
      if (status == "overlap") {
        EXPECT_TRUE(contains);
        EXPECT_NEAR(-signed_distance, pair.at("depth").get<double>(), loose);
        EXPECT_NEAR(norm(closest), pair.at("depth").get<double>(), loose);
        // EPA runs when the cores overlap; rounded shapes may overlap by their radii alone.
        if (document.at("radius").get<double>() == 0) {
          EXPECT_GE(document.at("epa_steps").get<int>(), 1);
        }
      } else if (status == "separate") {
        EXPECT_FALSE(contains);
        EXPECT_NEAR(signed_distance, distances.at({a, b}).at("distance").get<double>(), loose);
        EXPECT_NEAR(norm(closest), signed_distance, loose);
        EXPECT_EQ(document.at("epa_steps").get<int>(), 0);
      } else {
        EXPECT_NEAR(signed_distance, 0, loose);
      }
      // In body a's frame; when a is not turned, the frame's normal is the world normal.
      const double angle_a = check.at("bodies_detail")[static_cast<std::size_t>(a)].at("angle").get<double>();
      if (angle_a == 0 && status != "touching") {
        const P expected = status == "overlap" ? point_of(pair.at("normal")) : point_of(distances.at({a, b}).at("normal"));
        EXPECT_POINT_NEAR(point_of(document.at("normal")), expected.x, expected.y, loose);
      }
    }
  }
}

TEST(CliMinkowski, TextAndPictureRender) {
  const fs::path svg = temp_path("minkowski_text.svg");
  const RunResult result = run_cli({"minkowski", scene("rotated_boxes.json"), "0", "1", "--svg", svg.string()});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "");
  const std::string_view phrase = "contains the origin: overlap, depth ";
  const std::size_t at = result.out.find(phrase);
  ASSERT_NE(at, std::string::npos) << result.out;
  std::string_view rest = std::string_view(result.out).substr(at + phrase.size());
  double depth = 0;
  ASSERT_TRUE(read_number(rest, depth) && consume(rest, ",")) << result.out;
  EXPECT_NEAR(depth, 0.5, 1e-5);
  expect_well_formed_svg(svg);
  expect_renders(svg);
}

TEST(CliMinkowski, ExitAlongTheMotionLiesOnTheDifference) {
  // The floor [-5,5] x [-1,0]; a box of half 0.5 moved by (0.1,-0.002) to (0.3,0.499), 0.001 into
  // it. Half the motion came after the contact: fraction 0.5, translation (-0.05,0.001), normal +y,
  // slide (0.05,0). The cast may leave a gap of its tolerance, 8 relative tolerances of the two
  // reaches (5.03 and 0.71), along the normal.
  const fs::path path = write_temp("sunk_box.json", R"({"bodies": [
    {"position": [0, -0.5], "shape": {"type": "box", "half_extents": [5, 0.5]}},
    {"position": [0.3, 0.499], "shape": {"type": "box", "half_extents": [0.5, 0.5]}}]})");
  const fs::path svg = temp_path("minkowski_exit.svg");
  const Json document = run_json({"minkowski", path.string(), "0", "1", "--svg", svg.string(), "--motion", "0.1,-0.002", "--format", "json"});
  const double band = 8 * (64 * static_cast<double>(collide2d::real_epsilon)) * (std::hypot(5, 0.5) + std::hypot(0.5, 0.5)) + 1e-9;
  const Json& exit = document.at("exit");
  EXPECT_NEAR(exit.at("fraction").get<double>(), 0.5, band / 0.002);
  EXPECT_NEAR(point_of(exit.at("translation_b")).y, 0.001, band);
  EXPECT_NEAR(point_of(exit.at("translation_b")).x, -0.05, band * 50);
  EXPECT_POINT_NEAR(point_of(exit.at("normal")), 0, 1, tight);
  EXPECT_NEAR(point_of(exit.at("slide")).x, 0.05, band * 50);
  EXPECT_NEAR(point_of(exit.at("slide")).y, 0, tight);
  // The exit point fraction * motion (A's frame is not turned here) is on the brute-force hull's boundary.
  const P exit_point = point_of(exit.at("point_in_a_frame"));
  double nearest = 1e300;
  const Json& hull = document.at("hull");
  for (std::size_t i = 0; i < hull.size(); ++i) {
    const P start = point_of(hull[i]), along = point_of(hull[(i + 1) % hull.size()]) - start;
    const double t = std::clamp(dot(exit_point - start, along) / dot(along, along), 0.0, 1.0);
    nearest = std::min(nearest, norm(exit_point - (start + t * along)));
  }
  EXPECT_LE(nearest, band);
  EXPECT_NE(read_file(svg).find("exit along B"), std::string::npos);
  const RunResult text = run_cli({"minkowski", path.string(), "0", "1", "--svg", svg.string(), "--motion", "0.1,-0.002"});
  EXPECT_NE(text.out.find("exit back along the motion (world): fraction "), std::string::npos) << text.out;
  // Moved sideways, or up: the box already overlapped the floor before the move; refused with the reason.
  for (const std::string motion : {"0.1,0", "0,0.0005"}) {
    const Json refused = run_json({"minkowski", path.string(), "0", "1", "--svg", svg.string(), "--motion", motion, "--format", "json"});
    EXPECT_NE(refused.at("exit").at("refused").get<std::string>().find("overlapped before the motion"), std::string::npos) << refused.dump();
  }
  const RunResult bad = run_cli({"minkowski", path.string(), "0", "1", "--svg", svg.string(), "--motion", "0.1"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--motion expects two numbers DX,DY"), std::string::npos) << bad.err;
}

TEST(CliMinkowski, SvgIsRequired) {
  const RunResult result = run_cli({"minkowski", scene("rotated_boxes.json"), "0", "1"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err.rfind("error: ", 0), 0u) << result.err;
}

// ---------------------------------------------------------------------------------------------
// Bad input: each a small file; exit code 2, nothing on stdout, the error's place and a keyword

struct BadInput {
  std::string kind;      // what is wrong
  std::string file;      // file name in the temporary directory (its extension picks the reader)
  std::string contents;  // the file
  int line;              // hand-counted 1-based line and column of the problem
  int column;
  std::string keyword;   // a piece of the message
};

/// A number just past coordinate_limit in this build (1e17 in float, 1e150 in double), as text.
std::string beyond_the_limit() { return sizeof(collide2d::Real) == sizeof(float) ? "1.01e17" : "1.01e150"; }

const std::vector<BadInput>& bad_inputs() {
  static const std::vector<BadInput> inputs = {
      {"invalid JSON syntax", "syntax.json",
       "{\n"
       "  \"bodies\": [1, 2,,]\n"
       "}\n",
       2, 19, "invalid JSON"},
      {"unknown top-level key", "top_key.json",
       "{\n"
       "  \"bodies\": [],\n"
       "  \"gravity\": [0, -9.8]\n"
       "}\n",
       3, 3, "unknown key \"gravity\""},
      {"unknown body key", "body_key.json",
       "{\"bodies\": [\n"
       "  {\"shape\": {\"type\": \"circle\", \"radius\": 1},\n"
       "   \"mass\": 2}\n"
       "]}\n",
       3, 4, "unknown key \"mass\""},
      {"unknown shape key", "shape_key.json",
       "{\"bodies\": [\n"
       "  {\"shape\": {\"type\": \"circle\",\n"
       "             \"radius\": 1, \"colour\": \"red\"}}\n"
       "]}\n",
       3, 27, "unknown key \"colour\""},
      {"missing bodies", "no_bodies.json", "\n  {}\n", 2, 3, "\"bodies\""},
      {"bodies not an array", "bodies_object.json",
       "{\n"
       "  \"bodies\": {\"a\": 1}\n"
       "}\n",
       2, 13, "must be an array"},
      {"missing shape", "no_shape.json",
       "{\"bodies\": [\n"
       "  {\"shape\": {\"type\": \"circle\", \"radius\": 1}},\n"
       "  {\"position\": [1, 2]}\n"
       "]}\n",
       3, 3, "\"shape\""},
      {"missing type", "no_type.json",
       "{\"bodies\": [\n"
       "  {\"shape\": {\"radius\": 1}}\n"
       "]}\n",
       2, 13, "\"type\""},
      {"unknown shape type", "triangle.json",
       "{\"bodies\": [\n"
       "  {\"shape\": {\"type\": \"triangle\", \"radius\": 1}}\n"
       "]}\n",
       2, 22, "unknown shape type"},
      {"string where a number belongs", "string_radius.json",
       "{\"bodies\": [\n"
       "  {\"shape\": {\"type\": \"circle\", \"radius\": \"big\"}}\n"
       "]}\n",
       2, 42, "must be a number"},
      {"number overflowing double (1e999)", "overflow.json",
       "{\"bodies\": [\n"
       "  {\"position\": [0, 1e999], \"shape\": {\"type\": \"circle\", \"radius\": 1}}\n"
       "]}\n",
       2, 20, "1e999"},
      {"number overflowing float (1e39 as angle)", "overflow_float.json",
       "{\"bodies\": [\n"
       "  {\"angle\": 1e39, \"shape\": {\"type\": \"circle\", \"radius\": 1}}\n"
       "]}\n",
       2, 13, "finite"},
      {"negative radius", "negative_radius.json",
       "{\"bodies\": [\n"
       "  {\"shape\": {\"type\": \"circle\", \"radius\": -0.5}}\n"
       "]}\n",
       2, 42, "negative"},
      {"zero half extent", "zero_box.json",
       "{\"bodies\": [\n"
       "  {\"shape\": {\"type\": \"box\", \"half_extents\": [1, 0]}}\n"
       "]}\n",
       2, 45, "positive"},
      {"negative half extent", "negative_box.json",
       "{\"bodies\": [\n"
       "  {\"shape\": {\"type\": \"box\", \"half_extents\": [-1, 2]}}\n"
       "]}\n",
       2, 45, "positive"},
      {"polygon with 2 points", "two_points.json",
       "{\"bodies\": [\n"
       "  {\"shape\": {\"type\": \"polygon\",\n"
       "             \"vertices\": [[0, 0], [1, 0]]}}\n"
       "]}\n",
       3, 26, "at least 3"},
      {"zero-area polygon", "collinear.json",
       "{\"bodies\": [\n"
       "  {\"shape\": {\"type\": \"polygon\",\n"
       "             \"vertices\": [[0, 0], [1, 1], [2, 2]]}}\n"
       "]}\n",
       3, 26, "no area"},
      {"self-intersecting polygon", "bowtie.json",
       "{\"bodies\": [\n"
       "  {\"shape\": {\"type\": \"polygon\",\n"
       "             \"vertices\": [[0, 0], [3, 3], [3, 0], [0, 2]]}}\n"
       "]}\n",
       3, 27, "edge 0 (point 0 to point 1) crosses edge 2 (point 2 to point 3)"},
      {"self-intersecting polygon of zero signed area", "symmetric_bowtie.json",
       "{\"bodies\": [\n"
       "  {\"shape\": {\"type\": \"polygon\",\n"
       "             \"vertices\": [[0, 0], [2, 2], [2, 0], [0, 2]]}}\n"
       "]}\n",
       3, 27, "edge 0 (point 0 to point 1) crosses edge 2 (point 2 to point 3)"},
      {"outline enclosing a hole", "hole.json",
       "{\"bodies\": [\n"
       "  {\"shape\": {\"type\": \"polygon\",\n"
       "             \"vertices\": [[0, 0], [4, 0], [4, 4], [0, 4], [0, 0], [1, 2], [2, 2], [2, 1]]}}\n"
       "]}\n",
       3, 83, "hole"},
      {"rounded concave polygon", "rounded_concave.json",
       "{\"bodies\": [\n"
       "  {\"shape\": {\"type\": \"polygon\", \"radius\": 0.1,\n"
       "             \"vertices\": [[0, 0], [4, 0], [4, 1], [1, 1], [1, 4], [0, 4]]}}\n"
       "]}\n",
       3, 51, "rounding a concave outline"},
      {"angle and angle_deg both", "two_angles.json",
       "{\"bodies\": [\n"
       "  {\"angle\": 0.5,\n"
       "   \"angle_deg\": 30,\n"
       "   \"shape\": {\"type\": \"circle\", \"radius\": 1}}\n"
       "]}\n",
       3, 4, "not both"},
      {"duplicate key", "duplicate.json",
       "{\"bodies\": [\n"
       "  {\"shape\": {\"type\": \"circle\", \"radius\": 1,\n"
       "             \"radius\": 2}}\n"
       "]}\n",
       3, 14, "duplicate key \"radius\""},
      {"point array of 3 numbers", "three_numbers.json",
       "{\"bodies\": [\n"
       "  {\"position\": [1, 2, 3], \"shape\": {\"type\": \"circle\", \"radius\": 1}}\n"
       "]}\n",
       2, 16, "two numbers"},
      // Nesting: refused at the first level past scene_nesting_limit (64), whatever the depth (a
      // million levels crashed nlohmann's recursive parser); at the limit the file is read.
      {"arrays nested a million levels deep", "deep.json",
       "{\"bodies\":\n" + std::string(1'000'000, '[') + std::string(1'000'000, ']') + "}\n", 2, 64, "nested deeper than 64 levels"},
      {"objects nested past the limit", "deep_objects.json",
       "{\"bodies\": [],\n\"x\": " + [] {
         std::string nested;
         for (int level = 0; level < 100; ++level) nested += "{\"a\": ";
         return nested + "1" + std::string(100, '}');
       }() + "}\n",
       2, 6 + 6 * 63, "nested deeper than 64 levels"},
      {"arrays nested to the limit reach the validator", "deep_at_limit.json",
       "{\"bodies\":\n" + std::string(63, '[') + std::string(63, ']') + "}\n", 2, 2, "a body must be an object"},
      {"a bracket inside a string does not nest", "bracket_in_string.json",
       "{\"bodies\": [{\"name\": \"" + std::string(100, '[') + "\\\"\", \"mass\": 1}]}\n", 1, 128, "unknown key \"mass\""},
      {"elements nested a million levels deep", "deep.xml",
       "<SteerBenchTestCase>\n" + [] {
         std::string nested;
         for (int level = 0; level < 1'000'000; ++level) nested += "<a>";
         for (int level = 0; level < 1'000'000; ++level) nested += "</a>";
         return nested;
       }() + "</SteerBenchTestCase>\n",
       2, 3 * 63 + 2, "nested deeper than 64 levels"},
      // Magnitudes: past coordinate_limit (1e17 in float, 1e150 in double), refused with the limit.
      {"circle radius beyond the coordinate limit", "huge_radius.json",
       "{\"bodies\": [\n"
       "  {\"shape\": {\"type\": \"circle\", \"radius\": " + beyond_the_limit() + "}}\n"
       "]}\n",
       2, 42, "beyond the coordinate limit"},
      {"position beyond the coordinate limit", "huge_position.json",
       "{\"bodies\": [\n"
       "  {\"position\": [1, -" + beyond_the_limit() + "], \"shape\": {\"type\": \"circle\", \"radius\": 1}}\n"
       "]}\n",
       2, 20, "beyond the coordinate limit"},
      {"polygon vertex beyond the coordinate limit", "huge_vertex.json",
       "{\"bodies\": [\n"
       "  {\"shape\": {\"type\": \"polygon\", \"vertices\": [[0, 0], [" + beyond_the_limit() + ", 0], [0, 1]]}}\n"
       "]}\n",
       2, 55, "beyond the coordinate limit"},
      {"SteerSuite coordinate beyond the coordinate limit", "huge_x.xml",
       "<SteerBenchTestCase>\n"
       "  <polygonObstacle>\n"
       "    <vertex><x>" + beyond_the_limit() + "</x><y>0</y><z>0</z></vertex>\n"
       "  </polygonObstacle>\n"
       "</SteerBenchTestCase>\n",
       3, 14, "beyond the coordinate limit"},
      {"concave outline of more points than decompose_point_limit", "comb.json",
       "{\"bodies\": [\n"
       "  {\"shape\": {\"type\": \"polygon\", \"vertices\": " + [] {
         std::string points = "[[0, -1], [50000, -1]";  // a comb of 25,000 teeth: 100,000 points
         for (int tooth = 24'999; tooth >= 0; --tooth) {
           points += ", [" + std::to_string(2 * tooth + 1) + ", 10], [" + std::to_string(2 * tooth) + ", 10]";
           if (tooth > 0) points += ", [" + std::to_string(2 * tooth) + ", 0], [" + std::to_string(2 * tooth - 1) + ", 0]";
         }
         return points + "]";
       }() + "}}\n]}\n",
       2, 45, "100000 points"},
      {"unknown body type", "body_type.json",
       "{\"bodies\": [\n"
       "  {\"type\": \"floating\", \"shape\": {\"type\": \"circle\", \"radius\": 1}}\n"
       "]}\n",
       2, 12, "unknown body type \"floating\""},
      {"body type that is not a string", "body_type_number.json",
       "{\"bodies\": [\n"
       "  {\"type\": 2, \"shape\": {\"type\": \"circle\", \"radius\": 1}}\n"
       "]}\n",
       2, 12, "must be a string"},
      {"negative density", "negative_density.json",
       "{\"bodies\": [\n"
       "  {\"density\": -2, \"shape\": {\"type\": \"circle\", \"radius\": 1}}\n"
       "]}\n",
       2, 15, "density must not be negative"},
      {"negative restitution", "negative_restitution.json",
       "{\"bodies\": [\n"
       "  {\"shape\": {\"type\": \"circle\", \"radius\": 1},\n"
       "   \"restitution\": -0.5}\n"
       "]}\n",
       3, 19, "restitution must not be negative"},
      {"friction that is not a number", "friction_string.json",
       "{\"bodies\": [\n"
       "  {\"friction\": \"high\", \"shape\": {\"type\": \"circle\", \"radius\": 1}}\n"
       "]}\n",
       2, 16, "must be a number"},
      {"friction overflowing double", "friction_overflow.json",
       "{\"bodies\": [\n"
       "  {\"friction\": 1e400, \"shape\": {\"type\": \"circle\", \"radius\": 1}}\n"
       "]}\n",
       2, 16, "1e400"},
      {"invalid XML", "syntax.xml",
       "<SteerBenchTestCase>\n"
       "  <polygonObstacle id=3>\n"
       "  </polygonObstacle>\n"
       "</SteerBenchTestCase>\n",
       2, 23, "invalid XML"},
      {"wrong XML root element", "root.xml",
       "<?xml version=\"1.0\"?>\n"
       "<!-- not a test case -->\n"
       "<TestCase>\n"
       "</TestCase>\n",
       3, 2, "SteerBenchTestCase"},
      {"SteerSuite vertex with non-numeric <x>", "bad_x.xml",
       "<SteerBenchTestCase>\n"
       "  <polygonObstacle>\n"
       "    <vertex><x>1</x><y>0</y><z>0</z></vertex>\n"
       "    <vertex><x>abc</x><y>0</y><z>0</z></vertex>\n"
       "    <vertex><x>0</x><y>0</y><z>1</z></vertex>\n"
       "  </polygonObstacle>\n"
       "</SteerBenchTestCase>\n",
       4, 14, "not a number"},
      {"SteerSuite vertex without <z>", "no_z.xml",
       "<SteerBenchTestCase>\n"
       "  <polygonObstacle>\n"
       "    <vertex><x>1</x><y>0</y><z>0</z></vertex>\n"
       "    <vertex><x>2</x><y>0</y></vertex>\n"
       "    <vertex><x>0</x><y>0</y><z>1</z></vertex>\n"
       "  </polygonObstacle>\n"
       "</SteerBenchTestCase>\n",
       4, 6, "<z>"},
      {"SteerSuite coordinate that overflows", "huge_z.xml",
       "<SteerBenchTestCase>\n"
       "  <polygonObstacle>\n"
       "    <vertex><x>1</x><y>0</y><z>1e999</z></vertex>\n"
       "  </polygonObstacle>\n"
       "</SteerBenchTestCase>\n",
       3, 30, "finite"},
      {"SteerSuite obstacle with 2 vertices", "two_vertices.xml",
       "<SteerBenchTestCase>\n"
       "  <header><version>1.0</version></header>\n"
       "  <polygonObstacle>\n"
       "    <vertex><x>1</x><y>0</y><z>0</z></vertex>\n"
       "    <vertex><x>2</x><y>0</y><z>0</z></vertex>\n"
       "  </polygonObstacle>\n"
       "</SteerBenchTestCase>\n",
       3, 4, "at least 3"},
      {"SteerSuite crossing outline", "crossing.xml",
       "<SteerBenchTestCase>\n"
       "  <polygonObstacle>\n"
       "    <vertex><x>0</x><y>0</y><z>0</z></vertex>\n"
       "    <vertex><x>3</x><y>0</y><z>3</z></vertex>\n"
       "    <vertex><x>3</x><y>0</y><z>0</z></vertex>\n"
       "    <vertex><x>0</x><y>0</y><z>2</z></vertex>\n"
       "  </polygonObstacle>\n"
       "</SteerBenchTestCase>\n",
       2, 4, "edge 0 (point 0 to point 1) crosses edge 2 (point 2 to point 3)"},
  };
  return inputs;
}

/// Asserts the failure shape: exit 2, empty stdout, "error: FILE:LINE:COL: ..." containing `keyword`.
void expect_error(const RunResult& result, const std::string& file, int line, int column, const std::string& keyword) {
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, "");
  const std::string prefix = "error: " + file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": ";
  EXPECT_EQ(result.err.rfind(prefix, 0), 0u) << "expected the prefix " << prefix << "\nstderr: " << result.err;
  EXPECT_NE(result.err.find(keyword), std::string::npos) << "expected \"" << keyword << "\" in " << result.err;
  EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << "one line: " << result.err;
}

TEST(CliBadInput, EveryKindIsReportedWithItsPlace) {
  std::set<std::string> kinds;
  for (const BadInput& input : bad_inputs()) {
    SCOPED_TRACE(input.kind);
    // 1e39 is finite in double: that case is for the float build only.
    if (input.file == "overflow_float.json" && sizeof(collide2d::Real) != sizeof(float)) continue;
    kinds.insert(input.kind);
    const fs::path path = write_temp(input.file, input.contents);
    for (const std::string command : {"pairs", "check", "distance"}) {
      SCOPED_TRACE(command);
      expect_error(run_cli({command, path.string(), "--format", "json"}), path.string(), input.line, input.column, input.keyword);
    }
    // The library reports the same place.
    const auto loaded = collide2d::io::load_scene(path);
    ASSERT_FALSE(loaded);
    EXPECT_EQ(loaded.error().line, input.line);
    EXPECT_EQ(loaded.error().column, input.column);
    EXPECT_EQ(loaded.error().file, path.string());
  }
  EXPECT_GE(kinds.size(), 20u);
}

TEST(CliConcave, OutlineIsCutIntoPiecesOrReplacedByItsHull) {
  // The L covers [0, 4] x [0, 1] and [0, 1] x [0, 4]; the small circle at (0.5, 0.5) lies in its
  // corner square, so the way out is through the bottom or the left side: 0.5 + 0.25.
  const fs::path path = write_temp("concave_l.json",
                                    "{\"bodies\": [\n"
                                    "  {\"shape\": {\"type\": \"polygon\",\n"
                                    "             \"vertices\": [[0, 0], [4, 0], [4, 1], [1, 1], [1, 4], [0, 4]]}},\n"
                                    "  {\"position\": [0.5, 0.5], \"shape\": {\"type\": \"circle\", \"radius\": 0.25}},\n"
                                    "  {\"position\": [2.5, 2.5], \"shape\": {\"type\": \"circle\", \"radius\": 0.5}}\n"
                                    "]}\n");
  for (const bool hull : {false, true}) {
    SCOPED_TRACE(hull ? "--hull" : "pieces");
    std::vector<std::string> arguments = {"pairs", path.string(), "--format", "json"};
    if (hull) arguments.push_back("--hull");
    const Json document = run_json(arguments);
    check_pairs_document(document, 3, false);
    const auto pairs = pairs_by_index(document);
    ASSERT_TRUE(pairs.contains({0, 1}));
    EXPECT_EQ(pairs.at({0, 1}).at("status"), "overlap");
    EXPECT_NEAR(pairs.at({0, 1}).at("depth").get<double>(), 0.75, tight);
    // The circle at (2.5, 2.5) sits in the notch of the L: its centre is on the hull's long edge
    // x + y = 5, but it is 1 above the L's lower arm (top y = 1; circle bottom y = 2).
    EXPECT_EQ(pairs.contains({0, 2}), hull);
  }
  const auto distances = pairs_by_index(run_json({"distance", path.string(), "--format", "json"}));
  EXPECT_NEAR(distances.at({0, 2}).at("distance").get<double>(), 1.0, tight);

  // check lists the pieces (body frame), which tile the L.
  const Json checked = run_json({"check", path.string(), "--format", "json"});
  const Json& detail = checked.at("bodies_detail")[0];
  EXPECT_EQ(detail.at("kind"), "concave polygon");
  ASSERT_EQ(detail.at("pieces").size(), 2u);  // one reflex vertex: two pieces
  double area = 0;
  for (const Json& piece : detail.at("pieces")) {
    for (std::size_t i = 0; i < piece.size(); ++i) {
      const auto p = point_of(piece[i]), q = point_of(piece[(i + 1) % piece.size()]);
      area += 0.5 * (static_cast<double>(p.x) * q.y - static_cast<double>(q.x) * p.y);
    }
  }
  EXPECT_NEAR(area, 7.0, tight);
  const RunResult text = run_cli({"check", path.string()});
  EXPECT_NE(text.out.find("2 convex pieces"), std::string::npos) << text.out;
  EXPECT_EQ(run_json({"check", path.string(), "--hull", "--format", "json"}).at("bodies_detail")[0].at("vertices").get<int>(), 5);

  // The picture draws the seam between the pieces faintly (dashed, translucent).
  const fs::path svg = temp_path("concave.svg");
  ASSERT_EQ(run_cli({"pairs", path.string(), "--svg", svg.string()}).exit_code, 0);
  std::ifstream picture(svg);
  const std::string contents((std::istreambuf_iterator<char>(picture)), std::istreambuf_iterator<char>());
  EXPECT_NE(contents.find("stroke-dasharray=\"3 3\" stroke-opacity"), std::string::npos);

  // The Minkowski difference needs convex bodies.
  const RunResult minkowski = run_cli({"minkowski", path.string(), "0", "1", "--svg", temp_path("never.svg").string()});
  EXPECT_EQ(minkowski.exit_code, 2);
  EXPECT_NE(minkowski.err.find("minkowski needs convex bodies"), std::string::npos) << minkowski.err;
}

TEST(CliMinkowski, ConcaveBodyIsReportedAtItsLineAndColumn) {
  // Body 1 opens on line 3, column 3 of the JSON file; the SteerSuite obstacle 1 on line 8, its
  // element name at column 5 (positions in XML files point at the element's name, after the '<').
  const fs::path json = write_temp("concave_second.json",
                                   "{\"bodies\": [\n"
                                   "  {\"shape\": {\"type\": \"circle\", \"radius\": 1}},\n"
                                   "  {\"shape\": {\"type\": \"polygon\",\n"
                                   "             \"vertices\": [[0, 0], [4, 0], [4, 1], [1, 1], [1, 4], [0, 4]]}}\n"
                                   "]}\n");
  const fs::path svg = temp_path("never_concave.svg");
  expect_error(run_cli({"minkowski", json.string(), "0", "1", "--svg", svg.string()}), json.string(), 3, 3,
               "body 1 is a concave polygon (2 convex pieces); minkowski needs convex bodies");
  const fs::path xml = write_temp("concave_second.xml",
                                  "<SteerBenchTestCase>\n"
                                  "  <polygonObstacle>\n"
                                  "    <vertex><x>0</x><y>0</y><z>0</z></vertex>\n"
                                  "    <vertex><x>1</x><y>0</y><z>0</z></vertex>\n"
                                  "    <vertex><x>0</x><y>0</y><z>1</z></vertex>\n"
                                  "  </polygonObstacle>\n"
                                  "  <!-- an L -->\n"
                                  "   <polygonObstacle>\n"
                                  "    <vertex><x>0</x><y>0</y><z>0</z></vertex><vertex><x>4</x><y>0</y><z>0</z></vertex>\n"
                                  "    <vertex><x>4</x><y>0</y><z>1</z></vertex><vertex><x>1</x><y>0</y><z>1</z></vertex>\n"
                                  "    <vertex><x>1</x><y>0</y><z>4</z></vertex><vertex><x>0</x><y>0</y><z>4</z></vertex>\n"
                                  "  </polygonObstacle>\n"
                                  "</SteerBenchTestCase>\n");
  expect_error(run_cli({"minkowski", xml.string(), "1", "0", "--svg", svg.string()}), xml.string(), 8, 5, "body 1 is a concave polygon");
  EXPECT_FALSE(fs::exists(svg));
  // The loader keeps every body's position, for both formats.
  const auto scene_json = collide2d::io::load_scene(json);
  ASSERT_TRUE(scene_json.has_value());
  EXPECT_EQ(scene_json.value().bodies[0].line, 2);
  EXPECT_EQ(scene_json.value().bodies[0].column, 3);
  const auto scene_xml = collide2d::io::load_scene(xml);
  ASSERT_TRUE(scene_xml.has_value());
  EXPECT_EQ(scene_xml.value().bodies[0].line, 2);
  EXPECT_EQ(scene_xml.value().bodies[0].column, 4);
}

TEST(CliText, CountsAgreeInNumberWithTheirNouns) {
  // One body; two overlapping circles (one pair); two circles and a box all overlapping (three pairs).
  const fs::path one = write_temp("one_body.json", "{\"bodies\": [{\"shape\": {\"type\": \"circle\", \"radius\": 1}}]}\n");
  const fs::path two = write_temp("two_bodies.json",
                                  "{\"bodies\": [{\"shape\": {\"type\": \"circle\", \"radius\": 1}},\n"
                                  "  {\"position\": [1, 0], \"velocity\": [-1, 0], \"shape\": {\"type\": \"circle\", \"radius\": 1}}]}\n");
  const fs::path three = write_temp("three_bodies.json",
                                    "{\"bodies\": [{\"shape\": {\"type\": \"circle\", \"radius\": 1}},\n"
                                    "  {\"position\": [1, 0], \"shape\": {\"type\": \"circle\", \"radius\": 1}},\n"
                                    "  {\"position\": [0, 1], \"shape\": {\"type\": \"box\", \"half_extents\": [1, 1]}}]}\n");
  auto output = [](const std::vector<std::string>& arguments) {
    const RunResult result = run_cli(arguments);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return result.out;
  };
  auto expect_line = [](const std::string& out, const std::string& line) {
    EXPECT_NE(out.find(line + "\n"), std::string::npos) << "expected \"" << line << "\" in\n" << out;
  };
  expect_line(output({"pairs", one.string()}), "1 body, 0 pairs listed");
  expect_line(output({"pairs", two.string()}), "2 bodies, 1 pair listed");
  expect_line(output({"pairs", three.string()}), "3 bodies, 3 pairs listed");
  expect_line(output({"check", one.string()}), "valid scene: 1 body, 1 circle");
  expect_line(output({"check", three.string()}), "valid scene: 3 bodies, 2 circles, 1 polygon");
  EXPECT_NE(output({"check", three.string()}).find("polygon (4 vertices)"), std::string::npos);
  expect_line(output({"cast", one.string(), "--time", "1"}), "0 pairs come into contact within time 1");
  expect_line(output({"cast", two.string(), "--time", "1"}), "1 pair comes into contact within time 1");
  // Two circles: one core point each, so one vertex difference and a one-vertex hull.
  const fs::path svg = temp_path("counts.svg");
  const std::string minkowski = output({"minkowski", two.string(), "0", "1", "--svg", svg.string()});
  EXPECT_NE(minkowski.find("1 hull vertex from 1 vertex difference,"), std::string::npos) << minkowski;
  expect_error(run_cli({"minkowski", one.string(), "0", "1", "--svg", svg.string()}), one.string(), 0, 0, "(the scene has 1 body)");
  // The pictures' titles count the same way.
  ASSERT_EQ(run_cli({"pairs", one.string(), "--svg", svg.string()}).exit_code, 0);
  EXPECT_NE(read_file(svg).find("collide2d pairs: 1 body<"), std::string::npos);
  ASSERT_EQ(run_cli({"raycast", two.string(), "--ray", "-5,0,10,0", "--svg", svg.string()}).exit_code, 0);
  EXPECT_NE(read_file(svg).find("collide2d raycast: 1 hit<"), std::string::npos);
  ASSERT_EQ(run_cli({"cast", two.string(), "--time", "1", "--svg", svg.string()}).exit_code, 0);
  EXPECT_NE(read_file(svg).find("collide2d cast: 1 contact<"), std::string::npos);
}

TEST(CliBadInput, FileLevelProblems) {
  // Unknown extension and a missing file: the whole file is at fault, line and column 0.
  const fs::path text = write_temp("scene.txt", "{\"bodies\": []}\n");
  expect_error(run_cli({"pairs", text.string()}), text.string(), 0, 0, "unknown scene format");
  const fs::path missing = temp_path("does_not_exist.json");
  expect_error(run_cli({"check", missing.string()}), missing.string(), 0, 0, "cannot open");
  // The minkowski bodies must exist in the scene.
  const fs::path svg = temp_path("never_written.svg");
  expect_error(run_cli({"minkowski", scene("rotated_boxes.json"), "0", "6", "--svg", svg.string()}), scene("rotated_boxes.json"), 0, 0,
               "body 6 does not exist");
  expect_error(run_cli({"minkowski", scene("rotated_boxes.json"), "-1", "2", "--svg", svg.string()}), scene("rotated_boxes.json"), 0, 0,
               "body -1 does not exist");
  expect_error(run_cli({"minkowski", scene("rotated_boxes.json"), "2", "2", "--svg", svg.string()}), scene("rotated_boxes.json"), 0, 0,
               "differ");
  EXPECT_FALSE(fs::exists(svg));
}

TEST(CliBadInput, BadCommandLines) {
  const std::vector<std::vector<std::string>> commands = {
      {"pairs", scene("slope.json"), "--bogus"},
      {"pairs", scene("slope.json"), "--format", "yaml"},
      {"pairs"},
      {},
      {"explode", scene("slope.json")},
      {"minkowski", scene("slope.json"), "zero", "1", "--svg", temp_path("x.svg").string()},
  };
  for (const auto& arguments : commands) expect_refused(arguments, "", temp_path("x.svg"));
}

// ---------------------------------------------------------------------------------------------
// raycast and cast

TEST(CliRaycast, FirstHitAndAllHitsInOrder) {
  const Json first = run_json({"raycast", scene("moving.json"), "--ray", "-8,1.5,16,0", "--format", "json"});
  ASSERT_TRUE(first.value("hit", false));
  EXPECT_EQ(first["body"], 1);
  EXPECT_NEAR(first["fraction"].get<double>(), 3.5 / 16, 1e-5);  // ball of radius 0.5 at x = -4
  EXPECT_NEAR(point_of(first["point"]).x, -4.5, 1e-4);
  EXPECT_NEAR(point_of(first["point"]).y, 1.5, 1e-4);
  EXPECT_NEAR(point_of(first["normal"]).x, -1, 1e-5);
  EXPECT_FALSE(first["inside"].get<bool>());
  const Json all = run_json({"raycast", scene("moving.json"), "--ray", "-8,1.5,16,0", "--all", "--format", "json"});
  ASSERT_EQ(all["hits"].size(), 2u);
  EXPECT_EQ(all["hits"][0]["body"], 1);
  EXPECT_EQ(all["hits"][1]["body"], 0);
  EXPECT_NEAR(all["hits"][1]["fraction"].get<double>(), 13.75 / 16, 1e-5);  // wall face at x = 5.75
  EXPECT_NEAR(point_of(all["hits"][1]["normal"]).x, -1, 1e-5);
}

TEST(CliRaycast, MissInsideAndBadRays) {
  const Json miss = run_json({"raycast", scene("moving.json"), "--ray", "-8,7,16,0", "--format", "json"});
  EXPECT_FALSE(miss["hit"].get<bool>());
  const Json inside = run_json({"raycast", scene("moving.json"), "--ray", "0,-3.5,1,0", "--format", "json"});
  ASSERT_TRUE(inside["hit"].get<bool>());
  EXPECT_EQ(inside["body"], 4);
  EXPECT_EQ(inside["fraction"].get<double>(), 0.0);
  EXPECT_TRUE(inside["inside"].get<bool>());
  for (const std::string ray : {"1,2", "1,2,3,x", "1,2,3,4,5", "1,2,3,", "nan,0,1,0", "1e999,0,1,0"}) {
    SCOPED_TRACE(ray);
    const RunResult result = run_cli({"raycast", scene("moving.json"), "--ray", ray});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_EQ(result.out, "");
    EXPECT_NE(result.err.find("--ray"), std::string::npos) << result.err;
  }
}

TEST(CliCast, ClosedFormTimesTouchingAtStartAndMisses) {
  const fs::path file = write_temp("cast_circles.json", R"({"bodies": [
    {"position": [0, 0], "velocity": [1, 0], "shape": {"type": "circle", "radius": 1}},
    {"position": [10, 0], "velocity": [-1, 0], "shape": {"type": "circle", "radius": 1}},
    {"position": [0, 20], "shape": {"type": "box", "half_extents": [1, 1]}},
    {"position": [2, 20], "shape": {"type": "box", "half_extents": [1, 1]}},
    {"position": [0, -20], "velocity": [0, -1], "shape": {"type": "circle", "radius": 1}}
  ]})");
  const Json document = run_json({"cast", file.string(), "--time", "10", "--format", "json"});
  EXPECT_EQ(document["time"].get<double>(), 10.0);
  const Json& hits = document["hits"];
  ASSERT_EQ(hits.size(), 2u) << hits.dump();
  EXPECT_EQ(hits[0]["a"], 0);
  EXPECT_EQ(hits[0]["b"], 1);
  EXPECT_NEAR(hits[0]["toi"].get<double>(), 4.0, 1e-3);  // gap 8 closed at speed 2
  EXPECT_NEAR(point_of(hits[0]["point"]).x, 5.0, 1e-3);
  EXPECT_NEAR(point_of(hits[0]["normal"]).x, 1.0, 1e-5);
  EXPECT_EQ(hits[1]["a"], 2);
  EXPECT_EQ(hits[1]["b"], 3);
  EXPECT_EQ(hits[1]["toi"].get<double>(), 0.0);  // touching from the start
}

TEST(CliCast, MovingSceneContactsAreTouchingAtTheirTimes) {
  const Json document = run_json({"cast", scene("moving.json"), "--time", "2", "--format", "json"});
  const collide2d::io::Scene moving = collide2d::io::load_scene(scene("moving.json")).value();
  ASSERT_FALSE(document["hits"].empty());
  bool plank_hits_wall = false;
  for (const Json& hit : document["hits"]) {
    const int a = hit["a"], b = hit["b"];
    const double toi = hit["toi"];
    ASSERT_LT(a, b);
    ASSERT_GE(toi, 0.0);
    ASSERT_LE(toi, 2.0);
    plank_hits_wall = plank_hits_wall || (a == 0 && b == 2);
    const collide2d::io::Body& first = moving.bodies[static_cast<std::size_t>(a)];
    const collide2d::io::Body& second = moving.bodies[static_cast<std::size_t>(b)];
    const auto at = [&](const collide2d::io::Body& body) {
      return collide2d::Sweep::from_motion(body.transform, body.velocity, body.angular_velocity, 2)
          .at(static_cast<collide2d::Real>(toi / 2));
    };
    const collide2d::DistanceResult gap = collide2d::distance(first.shape, at(first), second.shape, at(second));
    EXPECT_LT(gap.distance, 1e-3) << a << "-" << b << " at " << toi;
  }
  EXPECT_TRUE(plank_hits_wall) << "the spinning plank must not tunnel through the wall";
}

TEST(CliCast, PicturesRender) {
  const fs::path cast_svg = temp_path("cast.svg"), ray_svg = temp_path("ray.svg");
  ASSERT_EQ(run_cli({"cast", scene("moving.json"), "--time", "2", "--svg", cast_svg.string()}).exit_code, 0);
  ASSERT_EQ(run_cli({"raycast", scene("moving.json"), "--ray", "-8,1.5,16,0", "--all", "--svg", ray_svg.string()}).exit_code, 0);
  for (const fs::path& svg : {cast_svg, ray_svg}) {
    expect_well_formed_svg(svg);
    expect_renders(svg);
  }
  const RunResult negative = run_cli({"cast", scene("moving.json"), "--time", "-1"});
  EXPECT_EQ(negative.exit_code, 2);
  EXPECT_EQ(negative.out, "");
}

// ---------------------------------------------------------------------------------------------
// move

TEST(CliMove, ClosedFormsOnAFloorAgainstAWallAndOnASlope) {
  // A box 2 wide on a floor whose top is y = 0, a wall whose face is x = 5, a 30-degree slope
  // far to the right (its top face through (20, 0)) and a ball to move.
  const double skin = 0.01, band = 1e-3;
  const fs::path file = write_temp("move.json", R"({"bodies": [
    {"name": "floor", "position": [0, -1], "shape": {"type": "box", "half_extents": [12, 1]}},
    {"name": "wall", "position": [6, 5], "shape": {"type": "box", "half_extents": [1, 5]}},
    {"name": "slope", "position": [20.5, -0.8660254037844386], "angle": 0.5235987755982988,
     "shape": {"type": "box", "half_extents": [6, 1]}},
    {"name": "ball", "position": [0, 3], "shape": {"type": "circle", "radius": 0.5}},
    {"name": "ball above the slope", "position": [20, 5], "shape": {"type": "circle", "radius": 0.5}}
  ]})");
  // Dropped onto the floor: rests the skin above it, every field checked.
  const Json drop = run_json({"move", file.string(), "--body", "3", "--motion", "0,-10", "--format", "json"});
  EXPECT_EQ(drop["body"], 3);
  EXPECT_NEAR(point_of(drop["position"]).x, 0, band);
  EXPECT_NEAR(point_of(drop["position"]).y, 0.5 + skin, band);
  EXPECT_NEAR(point_of(drop["remaining"]).x, 0, band);
  EXPECT_NEAR(point_of(drop["remaining"]).y, -10 + (3 - 0.5 - skin), band);  // motion minus the displacement
  EXPECT_TRUE(drop["on_floor"].get<bool>());
  EXPECT_FALSE(drop["on_wall"].get<bool>());
  EXPECT_FALSE(drop["on_ceiling"].get<bool>());
  EXPECT_NEAR(point_of(drop["floor_normal"]).y, 1, 1e-5);
  EXPECT_EQ(drop["status"], "converged");
  ASSERT_EQ(drop["hits"].size(), 1u);
  EXPECT_EQ(drop["hits"][0]["body"], 0);
  EXPECT_NEAR(point_of(drop["hits"][0]["point"]).y, skin / 2, band);  // between the surfaces, below the ball's centre
  EXPECT_NEAR(point_of(drop["hits"][0]["point"]).x, 0, band);
  EXPECT_NEAR(point_of(drop["hits"][0]["normal"]).y, 1, 1e-5);  // from the floor toward the mover
  ASSERT_GE(drop["path"].size(), 2u);
  EXPECT_EQ(point_of(drop["path"][0]).y, 3.0);
  EXPECT_EQ(point_of(drop["path"].back()).y, point_of(drop["position"]).y);

  // Into the wall at 30 degrees up: the tangential part kept, the skin short of the face.
  const Json wall = run_json({"move", file.string(), "--body", "3", "--motion", "8,4.618802153517006", "--format", "json"});
  EXPECT_NEAR(point_of(wall["position"]).x, 5 - 0.5 - skin, band);
  EXPECT_NEAR(point_of(wall["position"]).y, 3 + 4.618802153517006, band);
  EXPECT_TRUE(wall["on_wall"].get<bool>());
  EXPECT_FALSE(wall["on_floor"].get<bool>());
  EXPECT_TRUE(wall["floor_normal"].is_null());
  ASSERT_EQ(wall["hits"].size(), 1u);
  EXPECT_EQ(wall["hits"][0]["body"], 1);
  EXPECT_NEAR(point_of(wall["hits"][0]["normal"]).x, -1, 1e-5);

  // Straight down onto the 30-degree slope: with the default 45-degree floor angle it stays
  // where it lands, on the vertical through its start; with --max-floor-angle 20 the slope is a
  // wall and the mover slides down it.
  const Json stays = run_json({"move", file.string(), "--body", "4", "--motion", "0,-10", "--format", "json"});
  const P landed = point_of(stays["position"]);
  const double along = 0.5 + skin;  // centre height above the slope's face, along its normal
  const P slope_normal{-0.5, std::sqrt(3.0) / 2};
  EXPECT_NEAR(landed.x, 20, band);
  EXPECT_NEAR(landed.y, along / slope_normal.y, band);
  EXPECT_TRUE(stays["on_floor"].get<bool>());
  EXPECT_NEAR(point_of(stays["floor_normal"]).x, slope_normal.x, 1e-4);
  EXPECT_NEAR(point_of(stays["floor_normal"]).y, slope_normal.y, 1e-4);
  ASSERT_EQ(stays["hits"].size(), 1u);
  EXPECT_EQ(stays["hits"][0]["body"], 2);
  const Json slides = run_json({"move", file.string(), "--body", "4", "--motion", "0,-10", "--max-floor-angle", "20", "--format", "json"});
  const P slid = point_of(slides["position"]);
  EXPECT_LT(slid.x, landed.x - 1);  // slid down the slope, still the skin above it
  EXPECT_NEAR((slid.x - 20) * slope_normal.x + slid.y * slope_normal.y, along, band);
  EXPECT_FALSE(slides["on_floor"].get<bool>());
  EXPECT_TRUE(slides["on_wall"].get<bool>());

  // --skin and --iterations reach the mover: a larger skin keeps it higher; one round stops at the cap.
  const Json skinned = run_json({"move", file.string(), "--body", "3", "--motion", "0,-10", "--skin", "0.25", "--format", "json"});
  EXPECT_NEAR(point_of(skinned["position"]).y, 0.75, band);
  const Json capped = run_json({"move", file.string(), "--body", "3", "--motion", "8,-10", "--iterations", "1", "--format", "json"});
  EXPECT_EQ(capped["status"], "iteration_cap");
  EXPECT_EQ(capped["iterations"], 1);

  // Text and picture.
  const fs::path svg = temp_path("move.svg");
  const RunResult text = run_cli({"move", file.string(), "--body", "3", "--motion", "8,-10", "--svg", svg.string()});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("on a floor"), std::string::npos) << text.out;
  expect_well_formed_svg(svg);
  expect_renders(svg);
}

TEST(CliMove, BadInputIsReportedAndWritesNothing) {
  const fs::path svg = temp_path("move_bad.svg");
  struct Case {
    std::vector<std::string> arguments;
    std::string message_start;  // after "error: "
  };
  const std::string slope = scene("slope.json");
  char beyond_limit[32];  // ten times coordinate_limit: finite in this build, and refused
  std::snprintf(beyond_limit, sizeof beyond_limit, "%g", 10 * double(collide2d::coordinate_limit));
  const std::vector<Case> cases = {
      {{"move", slope, "--body", "9", "--motion", "1,0"}, slope + ":0:0: body 9 does not exist"},
      {{"move", slope, "--body", "-1", "--motion", "1,0"}, slope + ":0:0: body -1 does not exist"},
      {{"move", slope, "--body", "3", "--motion", "1"}, "--motion expects two numbers"},
      {{"move", slope, "--body", "3", "--motion", "x,1"}, "--motion expects two finite numbers"},
      {{"move", slope, "--body", "3", "--motion", "nan,0"}, "--motion expects two finite numbers"},
      {{"move", slope, "--body", "3", "--motion", std::string(beyond_limit) + ",0"}, "--motion DX,DY"},
      {{"move", slope, "--body", "3", "--motion", "1,0", "--skin", "-1"}, "--skin"},
      {{"move", slope, "--body", "3", "--motion", "1,0", "--skin", beyond_limit}, "--skin"},
      {{"move", slope, "--body", "3", "--motion", "1,0", "--iterations", "0"}, "--iterations"},
      {{"move", slope, "--body", "3", "--motion", "1,0", "--max-floor-angle", "200"}, "--max-floor-angle"},
      {{"move", slope, "--motion", "1,0"}, "--body is required"},
      {{"move", slope, "--body", "3"}, "--motion is required"},
  };
  for (const Case& bad : cases) {
    std::vector<std::string> arguments = bad.arguments;
    arguments.insert(arguments.end(), {"--svg", svg.string()});
    expect_refused(arguments, bad.message_start, svg);
  }
  // A bad scene is reported at its line and column.
  const fs::path broken = write_temp("move_broken.json", "{\"bodies\": [\n  {\"shape\": {\"type\": \"circle\", \"radius\": -1}}\n]}");
  const RunResult result = run_cli({"move", broken.string(), "--body", "0", "--motion", "1,0"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.err.rfind("error: " + broken.string() + ":2:", 0), 0u) << result.err;
}

// ---------------------------------------------------------------------------------------------
// rigid-body keys of scenes

TEST(CliSceneReader, BodyTypeAndMaterialAreReadWithTheirDefaults) {
  const fs::path file = write_temp("materials.json", R"({"bodies": [
    {"shape": {"type": "circle", "radius": 1}},
    {"type": "dynamic", "density": 2.5, "friction": 0.25, "restitution": 0.75, "shape": {"type": "circle", "radius": 1}},
    {"type": "kinematic", "velocity": [1, 2], "shape": {"type": "box", "half_extents": [1, 1]}},
    {"type": "static", "friction": 0, "shape": {"type": "segment", "a": [0, 0], "b": [1, 0]}}
  ]})");
  const auto loaded = collide2d::io::load_scene(file);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  const std::vector<collide2d::io::Body>& bodies = loaded.value().bodies;
  ASSERT_EQ(bodies.size(), 4u);
  const collide2d::RigidBodyDefinition defaults;
  EXPECT_EQ(bodies[0].type, collide2d::BodyType::static_body) << "a body without a type is static";
  EXPECT_EQ(bodies[0].density, defaults.density);
  EXPECT_EQ(bodies[0].friction, defaults.friction);
  EXPECT_EQ(bodies[0].restitution, defaults.restitution);
  EXPECT_EQ(bodies[1].type, collide2d::BodyType::dynamic_body);
  EXPECT_EQ(bodies[1].density, collide2d::Real(2.5));
  EXPECT_EQ(bodies[1].friction, collide2d::Real(0.25));
  EXPECT_EQ(bodies[1].restitution, collide2d::Real(0.75));
  EXPECT_EQ(bodies[2].type, collide2d::BodyType::kinematic_body);
  EXPECT_EQ(bodies[3].type, collide2d::BodyType::static_body);
  EXPECT_EQ(bodies[3].friction, collide2d::Real(0));
}

// ---------------------------------------------------------------------------------------------
// simulate

/// Runs `simulate` on a scene with the given extra arguments and parses the JSON it prints.
Json run_simulate(const fs::path& file, const std::vector<std::string>& arguments) {
  std::vector<std::string> command = {"simulate", file.string(), "--format", "json"};
  command.insert(command.end(), arguments.begin(), arguments.end());
  return run_json(command);
}

/// A PhysicsWorld built from a scene by the test itself, and its bodies in scene order.
struct DirectRun {
  collide2d::PhysicsWorld world;
  std::vector<collide2d::BodyHandle> handles;
};

/// The same scene stepped through PhysicsWorld directly: each body added from the scene's
/// fields, `steps` steps of `time_step` under `gravity` with the default StepOptions.
std::unique_ptr<DirectRun> run_directly(const fs::path& file, int steps, collide2d::Real time_step, collide2d::Vec2 gravity) {
  const auto loaded = collide2d::io::load_scene(file);
  EXPECT_TRUE(loaded.has_value());
  auto run = std::make_unique<DirectRun>(DirectRun{collide2d::PhysicsWorld({.gravity = gravity}), {}});
  for (const collide2d::io::Body& body : loaded.value().bodies) {
    collide2d::RigidBodyDefinition definition;
    definition.shape = body.shape;
    definition.transform = body.transform;
    definition.type = body.type;
    definition.density = body.density;
    definition.friction = body.friction;
    definition.restitution = body.restitution;
    definition.velocity = body.velocity;  // the scenes run here do not turn at the start: the origin moves as the centre
    definition.angular_velocity = body.angular_velocity;
    const auto added = run->world.add(definition);
    EXPECT_TRUE(added.has_value());
    run->handles.push_back(added.value());
  }
  for (int step = 0; step < steps; ++step) run->world.step(time_step);
  return run;
}

/// Every body of a `simulate` document equals the directly stepped world's, to the last bit of a Real.
void expect_same_state(const Json& document, const DirectRun& direct) {
  using collide2d::Real;
  ASSERT_EQ(document["bodies"].size(), direct.handles.size());
  for (std::size_t i = 0; i < direct.handles.size(); ++i) {
    SCOPED_TRACE("body " + std::to_string(i));
    const Json& body = document["bodies"][i];
    const collide2d::BodyHandle handle = direct.handles[i];
    EXPECT_EQ(body["body"], i);
    EXPECT_EQ(static_cast<Real>(body["position"][0].get<double>()), direct.world.transform(handle).position.x);
    EXPECT_EQ(static_cast<Real>(body["position"][1].get<double>()), direct.world.transform(handle).position.y);
    EXPECT_EQ(static_cast<Real>(body["angle"].get<double>()), direct.world.angle(handle));
    EXPECT_EQ(static_cast<Real>(body["velocity"][0].get<double>()), direct.world.velocity(handle).x);
    EXPECT_EQ(static_cast<Real>(body["velocity"][1].get<double>()), direct.world.velocity(handle).y);
    EXPECT_EQ(static_cast<Real>(body["angular_velocity"].get<double>()), direct.world.angular_velocity(handle));
    EXPECT_EQ(body["awake"].get<bool>(), direct.world.awake(handle));
  }
}

TEST(CliSimulate, PrintedStateMatchesThePhysicsWorldSteppedDirectly) {
  using collide2d::Real;
  const fs::path drop = scene("drop.json");
  const Json defaults = run_simulate(drop, {"--steps", "90"});
  EXPECT_EQ(static_cast<Real>(defaults["time"].get<double>()), Real(90) * (Real(1) / 60));
  EXPECT_EQ(defaults["steps"], 90);
  expect_same_state(defaults, *run_directly(drop, 90, Real(1) / 60, {0, -10}));
  EXPECT_EQ(defaults["bodies"][0]["name"], "ground");
  EXPECT_EQ(defaults["bodies"][0]["type"], "static");
  EXPECT_EQ(defaults["bodies"][2]["type"], "dynamic");
  // Options reach the world: another time step and a sideways gravity.
  const Json options = run_simulate(drop, {"--steps", "40", "--dt", "0.02", "--gravity", "2,-5"});
  EXPECT_EQ(static_cast<Real>(options["time"].get<double>()), Real(40) * Real(0.02));
  expect_same_state(options, *run_directly(drop, 40, Real(0.02), {2, -5}));
  // 0 steps leaves every body where the scene put it.
  const Json still = run_simulate(drop, {"--steps", "0"});
  EXPECT_EQ(still["time"].get<double>(), 0);
  expect_same_state(still, *run_directly(drop, 0, Real(1) / 60, {0, -10}));
}

TEST(CliSimulate, DroppedBallComesToRestOnTheGround) {
  // Ground top at y = 0; a ball of radius 0.5 dropped from h = 6 lands after about 1.05 time
  // units and, without restitution, stays: its centre ends within the slop of 0.5 above the top.
  const double radius = 0.5, height = 6;
  const fs::path file = write_temp("ball.json", R"({"bodies": [
    {"name": "ground", "position": [0, -1], "shape": {"type": "box", "half_extents": [10, 1]}},
    {"name": "ball", "type": "dynamic", "position": [1, 6], "shape": {"type": "circle", "radius": 0.5}}
  ]})");
  // Before it lands (t = 0.5): free fall, y = h - g t^2 / 2 up to the integrator's first-order error.
  const Json falling = run_simulate(file, {"--steps", "30"});
  EXPECT_NEAR(point_of(falling["bodies"][1]["position"]).y, height - 0.5 * 10 * 0.25, 0.05);
  EXPECT_NEAR(point_of(falling["bodies"][1]["velocity"]).y, -10 * 0.5, 1e-3);
  const Json landed = run_simulate(file, {"--steps", "240"});
  const Json& ball = landed["bodies"][1];
  EXPECT_NEAR(point_of(ball["position"]).y, radius, 0.01);
  EXPECT_NEAR(point_of(ball["position"]).x, 1, 1e-4);
  EXPECT_LT(norm(point_of(ball["velocity"])), 0.05);
  EXPECT_FALSE(ball["awake"].get<bool>()) << "at rest for 3 time units, it sleeps";
  // The ground never moves.
  EXPECT_EQ(point_of(landed["bodies"][0]["position"]).y, -1);
  EXPECT_FALSE(landed["bodies"][0]["awake"].get<bool>());
}

TEST(CliSimulate, KinematicBodyMovesByItsVelocityTimesTheTime) {
  const fs::path file = write_temp("kinematic.json", R"({"bodies": [
    {"name": "platform", "type": "kinematic", "position": [1, 2], "velocity": [2, -0.5], "angular_velocity": 0.25,
     "shape": {"type": "box", "half_extents": [1, 0.2]}}
  ]})");
  const Json document = run_simulate(file, {"--steps", "120"});  // 2 time units; gravity does not act on it
  const Json& platform = document["bodies"][0];
  EXPECT_NEAR(point_of(platform["position"]).x, 1 + 2 * 2, 1e-4);
  EXPECT_NEAR(point_of(platform["position"]).y, 2 - 0.5 * 2, 1e-4);
  EXPECT_NEAR(platform["angle"].get<double>(), 0.25 * 2, 1e-5);
  EXPECT_NEAR(point_of(platform["velocity"]).x, 2, 1e-6);
  EXPECT_NEAR(point_of(platform["velocity"]).y, -0.5, 1e-6);
  EXPECT_NEAR(platform["angular_velocity"].get<double>(), 0.25, 1e-6);
  EXPECT_TRUE(platform["awake"].get<bool>());
}

TEST(CliSimulate, SceneVelocityIsTheOriginsAndTheBodyTurnsAboutItsCentreOfMass) {
  // A disc centred 1 to the right of its body's origin, the origin at rest and turning at 2 per
  // time unit: its centre of mass starts at (1, 0) moving at 2 x (0, 1), and without gravity
  // keeps that velocity while the body turns about it.
  const fs::path file = write_temp("offset_disc.json", R"({"bodies": [
    {"type": "dynamic", "angular_velocity": 2, "shape": {"type": "circle", "center": [1, 0], "radius": 0.5}}
  ]})");
  const Json start = run_simulate(file, {"--steps", "0", "--gravity", "0,0"});
  EXPECT_POINT_NEAR(point_of(start["bodies"][0]["velocity"]), 0, 2, 1e-6);
  const Json later = run_simulate(file, {"--steps", "30", "--gravity", "0,0"});  // t = 0.5
  const Json& disc = later["bodies"][0];
  EXPECT_POINT_NEAR(point_of(disc["velocity"]), 0, 2, 1e-5);
  EXPECT_NEAR(disc["angle"].get<double>(), 1, 1e-5);
  EXPECT_POINT_NEAR(point_of(disc["position"]), 1 - std::cos(1.0), 1 - std::sin(1.0), 1e-4);  // centre (1, 1) minus the turned offset
}

TEST(CliSimulate, BadInputIsRefusedAndWritesNothing) {
  const fs::path svg = temp_path("simulate_bad.svg");
  const std::string drop = scene("drop.json");
  const fs::path segment = write_temp("dynamic_segment.json",
                                      "{\"bodies\": [\n  {\"shape\": {\"type\": \"circle\", \"radius\": 1}},\n"
                                      "  {\"type\": \"dynamic\", \"shape\": {\"type\": \"segment\", \"a\": [0, 0], \"b\": [1, 0]}}\n]}\n");
  const fs::path point = write_temp("dynamic_point.json",
                                    "{\"bodies\": [\n   {\"type\": \"dynamic\", \"shape\": {\"type\": \"circle\", \"radius\": 0}}\n]}\n");
  const fs::path weightless = write_temp("dynamic_weightless.json",
                                         "{\"bodies\": [\n  {\"type\": \"dynamic\", \"density\": 0, \"shape\": {\"type\": \"circle\", \"radius\": 1}}\n]}\n");
  const fs::path bad_type = write_temp("simulate_bad_type.json",
                                       "{\"bodies\": [\n  {\"type\": \"floating\", \"shape\": {\"type\": \"circle\", \"radius\": 1}}\n]}\n");
  struct Case {
    std::vector<std::string> arguments;
    std::string message;  // a piece of the message after "error: "
  };
  const std::vector<Case> cases = {
      {{"simulate", temp_path("missing.json").string(), "--steps", "1"}, "cannot open the file"},
      {{"simulate", drop}, "--steps is required"},
      {{"simulate", drop, "--steps", "-1"}, "--steps must be from 0 to 100000"},
      {{"simulate", drop, "--steps", "100001"}, "--steps must be from 0 to 100000"},
      {{"simulate", drop, "--steps", "ten"}, "--steps"},
      {{"simulate", drop, "--steps", "1", "--dt", "0"}, "--dt must be a positive finite number"},
      {{"simulate", drop, "--steps", "1", "--dt", "-0.01"}, "--dt must be a positive finite number"},
      {{"simulate", drop, "--steps", "1", "--dt", "inf"}, "--dt must be a positive finite number"},
      {{"simulate", drop, "--steps", "1", "--dt", "nan"}, "--dt"},
      {{"simulate", drop, "--steps", "1", "--gravity", "10"}, "--gravity expects two numbers"},
      {{"simulate", drop, "--steps", "1", "--gravity", "0,down"}, "--gravity expects two finite numbers"},
      {{"simulate", drop, "--steps", "1", "--bogus"}, "bogus"},
      {{"simulate", drop, "--steps", "1", "--format", "yaml"}, "--format"},
      {{"simulate", segment.string(), "--steps", "1"}, segment.string() + ":3:3: body 1: density: a dynamic body needs a shape with area"},
      {{"simulate", point.string(), "--steps", "1"}, point.string() + ":2:4: body 0: density"},
      {{"simulate", weightless.string(), "--steps", "1"}, weightless.string() + ":2:3: body 0: density"},
      {{"simulate", bad_type.string(), "--steps", "1"}, bad_type.string() + ":2:12: unknown body type"},
  };
  std::vector<Case> all_cases = cases;
  if (sizeof(collide2d::Real) == sizeof(float)) {  // a time step that is 0 as a float (positive in double)
    all_cases.push_back({{"simulate", drop, "--steps", "1", "--dt", "1e-300"}, "--dt must be a positive finite number"});
  }
  for (const Case& bad : all_cases) {
    std::vector<std::string> arguments = bad.arguments;
    arguments.insert(arguments.end(), {"--svg", svg.string()});
    expect_refused(arguments, bad.message, svg);
  }
}

TEST(CliSimulate, TwoRunsGiveTheSameBytes) {
  for (const std::string name : {"drop.json", "pyramid.json"}) {
    for (const std::string format : {"json", "text"}) {
      SCOPED_TRACE(name + " " + format);
      const fs::path first_svg = temp_path("simulate_first.svg"), second_svg = temp_path("simulate_second.svg");
      const RunResult first = run_cli({"simulate", scene(name), "--steps", "150", "--format", format, "--svg", first_svg.string()});
      const RunResult second = run_cli({"simulate", scene(name), "--steps", "150", "--format", format, "--svg", second_svg.string()});
      ASSERT_EQ(first.exit_code, 0) << first.err;
      EXPECT_EQ(first.out, second.out);
      EXPECT_EQ(read_file(first_svg), read_file(second_svg));
    }
  }
}

TEST(CliSimulate, TextTableHasARowPerBody) {
  const RunResult result = run_cli({"simulate", scene("drop.json"), "--steps", "60"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  std::vector<std::string> lines;
  std::istringstream stream(result.out);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  const auto loaded = collide2d::io::load_scene(scene("drop.json"));
  ASSERT_TRUE(loaded.has_value());
  ASSERT_EQ(lines.size(), loaded.value().bodies.size() + 2);
  EXPECT_EQ(lines[0], "time 1 after 60 steps");
  const std::size_t position_column = lines[1].find("position");
  ASSERT_NE(position_column, std::string::npos);
  for (std::size_t i = 0; i < loaded.value().bodies.size(); ++i) {
    const std::string& row = lines[i + 2];
    SCOPED_TRACE(row);
    EXPECT_EQ(std::stoi(row.substr(0, 5)), static_cast<int>(i));
    EXPECT_EQ(row.substr(position_column, 1), "(") << "columns line up under the header";
    EXPECT_EQ(row.substr(row.size() - loaded.value().bodies[i].name.size()), loaded.value().bodies[i].name);
  }
}

TEST(CliSimulate, PictureHasATrailPerMovingBody) {
  for (const auto& [name, steps] : {std::pair{"drop.json", 180}, {"pyramid.json", 3000}}) {
    SCOPED_TRACE(name);
    const fs::path svg = temp_path(std::string("simulate_") + name + ".svg");
    const RunResult result = run_cli({"simulate", scene(name), "--steps", std::to_string(steps), "--svg", svg.string()});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    expect_well_formed_svg(svg);
    const auto loaded = collide2d::io::load_scene(scene(name));
    ASSERT_TRUE(loaded.has_value());
    const auto moving = std::count_if(loaded.value().bodies.begin(), loaded.value().bodies.end(), [](const collide2d::io::Body& body) {
      return body.type != collide2d::BodyType::static_body;
    });
    pugi::xml_document document;
    ASSERT_TRUE(document.load_file(svg.c_str()));
    int trails = 0;
    for (const pugi::xml_node polyline : document.document_element().children("polyline")) {
      ++trails;
      std::istringstream points(polyline.attribute("points").value());
      int count = 0;
      for (std::string point; points >> point;) ++count;
      EXPECT_GE(count, 2);
      EXPECT_LE(count, collide2d::io::trail_point_limit) << "long runs sample the trail";
    }
    EXPECT_EQ(trails, moving);
    expect_renders(svg);
  }
}

TEST(CliDeterminism, EveryCommandGivesTheSameBytesOnEveryRun) {
  // Each command on each shipped scene, run twice as separate processes: the same stdout and the
  // same picture, byte for byte.
  int compared = 0;
  for (const auto& entry : fs::directory_iterator(scenes_dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".json" && entry.path().extension() != ".xml") continue;
    if (name == "scene.schema.json") continue;
    const std::vector<std::vector<std::string>> commands = {
        {"pairs", entry.path().string(), "--all", "--format", "json"},
        {"distance", entry.path().string(), "--format", "json"},
        {"cast", entry.path().string(), "--time", "2", "--format", "json"},
        {"raycast", entry.path().string(), "--ray", "-10,0.5,20,0.3", "--all", "--format", "json"},
        {"move", entry.path().string(), "--body", "1", "--motion", "3,-4", "--format", "json"},
        {"simulate", entry.path().string(), "--steps", "30", "--format", "json"},
    };
    for (const std::vector<std::string>& command : commands) {
      SCOPED_TRACE(name + " " + command.front());
      const fs::path first_svg = temp_path("first.svg"), second_svg = temp_path("second.svg");
      std::vector<std::string> first_arguments = command, second_arguments = command;
      if (command.front() != "distance") {
        first_arguments.insert(first_arguments.end(), {"--svg", first_svg.string()});
        second_arguments.insert(second_arguments.end(), {"--svg", second_svg.string()});
      }
      const RunResult first = run_cli(first_arguments), second = run_cli(second_arguments);
      ASSERT_EQ(first.exit_code, 0) << first.err;
      EXPECT_EQ(first.out, second.out);
      if (command.front() != "distance") {
        EXPECT_EQ(read_file(first_svg), read_file(second_svg));
      }
      ++compared;
    }
  }
  EXPECT_GE(compared, 30);
}

// ---------------------------------------------------------------------------------------------
// Scale: 5,000 bodies

struct GeneratedBody {
  double x, y, bound;  // centre and bounding radius around it
};

TEST(CliScale, FiveThousandBodiesMatchBruteForce) {
  constexpr int count = 5000;
  constexpr double side = 160;  // about 0.4 of the square covered: several neighbours each
  std::mt19937 random(20240503);
  std::uniform_real_distribution<double> unit(0, 1);
  auto uniform = [&](double low, double high) { return low + (high - low) * unit(random); };
  Json bodies = Json::array();
  std::vector<GeneratedBody> generated;
  std::map<std::string, int> kinds;
  for (int i = 0; i < count; ++i) {
    const double x = uniform(0, side), y = uniform(0, side), angle = uniform(-M_PI, M_PI);
    Json body{{"position", {x, y}}, {"angle", angle}};
    double bound = 0;
    switch (i % 3) {
      case 0: {
        const double hx = uniform(0.3, 1.5), hy = uniform(0.3, 1.5);
        body["shape"] = {{"type", "box"}, {"half_extents", {hx, hy}}};
        bound = std::hypot(hx, hy);
        ++kinds["box"];
        break;
      }
      case 1: {
        const double r = uniform(0.3, 1.2);
        body["shape"] = {{"type", "circle"}, {"radius", r}};
        bound = r;
        ++kinds["circle"];
        break;
      }
      default: {
        const int n = 3 + static_cast<int>(random() % 6);
        const double r = uniform(0.5, 1.5);
        Json vertices = Json::array();
        for (int k = 0; k < n; ++k) {
          const double step = 2 * M_PI / n, phi = k * step + uniform(-0.3, 0.3) * step;
          vertices.push_back({r * std::cos(phi), r * std::sin(phi)});
        }
        body["shape"] = {{"type", "polygon"}, {"vertices", vertices}};
        bound = r;
        ++kinds["polygon"];
        break;
      }
    }
    bodies.push_back(body);
    generated.push_back({x, y, bound});
  }
  const fs::path path = write_temp("five_thousand.json", Json{{"bodies", bodies}}.dump());

  const auto start = std::chrono::steady_clock::now();
  const RunResult result = run_cli({"pairs", path.string(), "--format", "json"});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "");
  const Json document = Json::parse(result.out);
  check_pairs_document(document, count, false);
  std::printf("[ timing   ] collide2d pairs --format json on %d bodies (%d boxes, %d circles, %d polygons): %.3f s, %zu pairs\n", count,
              kinds["box"], kinds["circle"], kinds["polygon"], seconds, document.at("pairs").size());

  // Brute force over every pair of the same scene loaded through the library; pairs whose
  // bounding circles are clearly apart cannot touch.
  const auto loaded = collide2d::io::load_scene(path);
  ASSERT_TRUE(loaded) << loaded.error().message;
  const auto& scene_bodies = loaded.value().bodies;
  ASSERT_EQ(static_cast<int>(scene_bodies.size()), count);
  const auto listed = pairs_by_index(document);
  std::set<std::pair<int, int>> clear_overlaps;
  int borderline = 0, checked_apart = 0;
  for (int a = 0; a < count; ++a) {
    for (int b = a + 1; b < count; ++b) {
      const GeneratedBody& ga = generated[static_cast<std::size_t>(a)];
      const GeneratedBody& gb = generated[static_cast<std::size_t>(b)];
      if (std::hypot(ga.x - gb.x, ga.y - gb.y) > ga.bound + gb.bound + 1e-3) continue;
      const auto& first = scene_bodies[static_cast<std::size_t>(a)];
      const auto& second = scene_bodies[static_cast<std::size_t>(b)];
      const double tolerance = 1e-4 * (ga.bound + gb.bound);
      const auto contact = collide2d::penetration(first.shape, first.transform, second.shape, second.transform);
      const bool touches = collide2d::overlap(first.shape, first.transform, second.shape, second.transform);
      if (contact && static_cast<double>(contact->depth) > tolerance) {
        clear_overlaps.insert({a, b});
        EXPECT_TRUE(touches) << a << " " << b;
        auto found = listed.find({a, b});
        if (found == listed.end()) {
          ADD_FAILURE() << "pair " << a << " " << b << " overlaps by " << contact->depth << " but is not listed";
          continue;
        }
        EXPECT_EQ(found->second.at("status"), "overlap");
        // The reported depth is the manifold's: on the minimum-overlap axis, or on a face of A
        // within the reference-face hysteresis of it (16 relative tolerances of the reaches and
        // offset, docs/conventions.md), never shallower.
        const double reported = found->second.at("depth").get<double>();
        const double hysteresis = 16 * 64 * collide2d::real_epsilon * (ga.bound + gb.bound + std::hypot(ga.x - gb.x, ga.y - gb.y));
        EXPECT_GE(reported, static_cast<double>(contact->depth) - tolerance);
        EXPECT_LE(reported, static_cast<double>(contact->depth) + tolerance + hysteresis);
        continue;
      }
      const auto gap = collide2d::distance(first.shape, first.transform, second.shape, second.transform);
      if (!contact && static_cast<double>(gap.distance) > tolerance) {
        ++checked_apart;
        EXPECT_FALSE(touches) << a << " " << b;
        EXPECT_FALSE(listed.contains({a, b})) << "pair " << a << " " << b << " is " << gap.distance << " apart but listed";
        continue;
      }
      ++borderline;
    }
  }
  // Every listed pair is a clear overlap or borderline, never a pair the brute force found apart.
  int listed_borderline = 0;
  for (const auto& [key, pair] : listed) {
    if (clear_overlaps.contains(key)) continue;
    ++listed_borderline;
    const GeneratedBody& ga = generated[static_cast<std::size_t>(key.first)];
    const GeneratedBody& gb = generated[static_cast<std::size_t>(key.second)];
    EXPECT_LE(std::hypot(ga.x - gb.x, ga.y - gb.y), ga.bound + gb.bound + 1e-3) << key.first << " " << key.second;
    EXPECT_LE(pair.at("depth").get<double>(), 1e-4 * (ga.bound + gb.bound)) << key.first << " " << key.second;
  }
  std::printf("[ scale    ] %zu clear overlaps, %d near pairs clearly apart, %d borderline, %d listed borderline\n", clear_overlaps.size(),
              checked_apart, borderline, listed_borderline);
  EXPECT_GT(clear_overlaps.size(), 2000u) << "the scene should be moderately dense";
}

}  // namespace

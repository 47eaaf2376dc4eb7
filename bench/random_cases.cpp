// random_cases.cpp — the seeded shapes and moving boxes the benchmarks share, and the independent
// pair count the broad phases are checked against.
#include "random_cases.hpp"

#include <numbers>

namespace collide2d_bench {

Polygon random_polygon(RandomSource& random, int vertex_count, Real rounding_radius) {
  for (;;) {
    const double semi_axis_x = random.uniform(0.5, 1), semi_axis_y = random.uniform(0.5, 1);
    const double turn = random.uniform(-std::numbers::pi, std::numbers::pi);
    const double slot = 2 * std::numbers::pi / vertex_count;
    std::vector<Vec2> points;
    for (int i = 0; i < vertex_count; ++i) {
      const double angle = (i + random.uniform(-0.35, 0.35)) * slot;
      const double x = semi_axis_x * std::cos(angle), y = semi_axis_y * std::sin(angle);
      points.push_back({static_cast<Real>(x * std::cos(turn) - y * std::sin(turn)),
                        static_cast<Real>(x * std::sin(turn) + y * std::cos(turn))});
    }
    auto polygon = collide2d::make_polygon(points, rounding_radius);
    // An outline that lost a vertex (too nearly collinear to keep) is drawn again.
    if (polygon.has_value() && polygon.value().count() == vertex_count) return std::move(polygon).value();
  }
}

Circle random_circle(RandomSource& random) { return {{0, 0}, random.uniform_real(0.4, 1)}; }

MovingBoxes::MovingBoxes(int count, std::uint32_t seed) {
  RandomSource random(seed);
  side_ = static_cast<Real>(std::sqrt(count / density));
  centers_.reserve(static_cast<std::size_t>(count));
  velocities_.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    centers_.push_back({random.uniform_real(half_extent, side_ - half_extent), random.uniform_real(half_extent, side_ - half_extent)});
    const Real speed = random.uniform_real(0, 0.05);
    velocities_.push_back(speed * random.unit_vector());
  }
}

void MovingBoxes::advance() {
  const Real low = half_extent, high = side_ - half_extent;
  for (std::size_t i = 0; i < centers_.size(); ++i) {
    Vec2& center = centers_[i];
    Vec2& velocity = velocities_[i];
    center += velocity;
    if (center.x < low || center.x > high) {
      center.x = center.x < low ? 2 * low - center.x : 2 * high - center.x;
      velocity.x = -velocity.x;
    }
    if (center.y < low || center.y > high) {
      center.y = center.y < low ? 2 * low - center.y : 2 * high - center.y;
      velocity.y = -velocity.y;
    }
  }
}

std::size_t count_overlapping_pairs(const MovingBoxes& boxes) {
  // Cells of the box size: boxes that overlap have centres at most one cell apart.
  const int columns = static_cast<int>(std::ceil(boxes.side())) + 1;
  auto cell_of = [&](int i) {
    const Vec2 center = boxes.center(i);
    return std::pair{std::clamp(static_cast<int>(center.x), 0, columns - 1), std::clamp(static_cast<int>(center.y), 0, columns - 1)};
  };
  const std::size_t cell_total = static_cast<std::size_t>(columns) * static_cast<std::size_t>(columns);
  std::vector<int> cell_start(cell_total + 1, 0);
  for (int i = 0; i < boxes.size(); ++i) {
    const auto [column, row] = cell_of(i);
    ++cell_start[static_cast<std::size_t>(row) * columns + column + 1];
  }
  for (std::size_t cell = 0; cell < cell_total; ++cell) cell_start[cell + 1] += cell_start[cell];
  std::vector<int> members(static_cast<std::size_t>(boxes.size()));
  std::vector<int> fill(cell_start.begin(), cell_start.end() - 1);
  for (int i = 0; i < boxes.size(); ++i) {
    const auto [column, row] = cell_of(i);
    members[static_cast<std::size_t>(fill[static_cast<std::size_t>(row) * columns + column]++)] = i;
  }
  std::size_t pairs = 0;
  for (int i = 0; i < boxes.size(); ++i) {
    const auto [column, row] = cell_of(i);
    const collide2d::Aabb box = boxes.box(i);
    for (int neighbour_row = std::max(row - 1, 0); neighbour_row <= std::min(row + 1, columns - 1); ++neighbour_row) {
      for (int neighbour_column = std::max(column - 1, 0); neighbour_column <= std::min(column + 1, columns - 1); ++neighbour_column) {
        const std::size_t cell = static_cast<std::size_t>(neighbour_row) * columns + neighbour_column;
        for (int k = cell_start[cell]; k < cell_start[cell + 1]; ++k) {
          const int j = members[static_cast<std::size_t>(k)];
          if (j > i && boxes_overlap(box, boxes.box(j))) ++pairs;
        }
      }
    }
  }
  return pairs;
}

}  // namespace collide2d_bench

// collide2d/response.hpp — what to do once a collision is found: push shapes apart, push one
// shape out of everything it overlaps in a world, and move a character through a world with
// casts, sliding along what it meets (move_and_slide).
//
// Every position and vector here is in the world frame; normals point from the obstacle toward
// the shape that is being moved. The exit along a motion (the slope-sliding method that backs a
// shape out along the way it came and slides the blocked rest along the surface) is
// minkowski_exit() in algorithms.hpp.
#pragma once

#include <optional>
#include <vector>

#include "collide2d/algorithms.hpp"
#include "collide2d/penetration.hpp"
#include "collide2d/world.hpp"

namespace collide2d {

/// The translations that separate two shapes.
struct Separation {
  Vec2 translation_a;  ///< world translation to apply to A
  Vec2 translation_b;  ///< world translation to apply to B
};

/// Splits the separation of an overlapping pair between the two shapes by inverse mass (0 for a
/// static shape): A moves by -depth x normal x its share and B by +depth x normal x its share, so
/// they end touching. `extra` (length units, >= 0) is added to the depth, to leave a gap. Both
/// inverse masses 0 (two static shapes): no translation.
[[nodiscard]] Separation separate(const Penetration& contact, Real inverse_mass_a, Real inverse_mass_b, Real extra = 0);

/// Options for push_out().
struct PushOutOptions {
  Real skin = 0;            ///< gap to leave from every surface, length units (>= 0)
  int max_iterations = 8;   ///< rounds of contact planes; hitting the cap is reported
  QueryFilter filter{};     ///< which bodies push
};

/// How push_out() ended.
enum class PushOutStatus {
  resolved,       ///< overlaps nothing beyond its touching band (and keeps the skin where it could)
  iteration_cap,  ///< still overlapping after max_iterations rounds: `transform` is the pose reached with the least overlap
  squeezed,       ///< opposed surfaces leave no translation that frees it (or only one longer than the shape and the bodies it meets are wide): `transform` is the pose reached with the least overlap
};

/// The result of push_out().
struct PushOutResult {
  Transform transform;   ///< the shape's world placement after the push
  Vec2 translation;      ///< the world translation applied, in total
  int iterations = 0;    ///< rounds of contact planes used
  PushOutStatus status = PushOutStatus::resolved;  ///< whether it ended free
};

/// Pushes `shape` placed by `transform` out of every body of the world it overlaps by the
/// shortest translation that clears all their contact planes at once (a concave terrain's pieces
/// included), repeated until nothing overlaps or the cap: each round takes the contact points
/// within the skin as planes n.t >= skin - separation and solves for the shortest t.
[[nodiscard]] PushOutResult push_out(const World& world, const Shape& shape, const Transform& transform, const PushOutOptions& options = {});

/// Options for move_and_slide().
struct MoveOptions {
  Vec2 up{0, 1};                              ///< world unit vector pointing up: decides floor, wall and ceiling
  Real max_floor_angle = Real(0.785398163);   ///< radians: a surface whose normal is within this of `up` is a floor (45 degrees)
  int max_iterations = 8;                     ///< cast-and-slide rounds; hitting the cap is reported
  Real skin = Real(0.01);                     ///< gap kept from every surface, length units (>= 0): the mover stops this short
  /// At the end, a mover that started on a floor, is not moving up, and is within this distance
  /// (length units) above a floor is put back on it (at the skin), so it follows a slope down.
  Real snap_distance = 0;
  /// Highest step (length units) climbed when a wall blocks a mover standing on a floor: it tries
  /// the move again lifted by this, and keeps it where it lands on a floor further along.
  Real step_height = 0;
  QueryFilter filter{};                       ///< which bodies block (set `ignore` to the mover's own body)
};

/// A body the mover met.
struct MoveHit {
  BodyHandle body;  ///< the body
  Vec2 point;       ///< world contact point
  Vec2 normal;      ///< world unit normal from the body toward the mover
};

/// The result of move_and_slide().
struct MoveResult {
  Transform transform;              ///< the mover's final world placement (rotation unchanged)
  Vec2 remaining;                   ///< the part of the motion the surfaces blocked: motion minus the displacement the move made
  Vec2 pushed_out;                  ///< world translation that first freed a mover starting in overlap (push_out, keeping the skin); zero otherwise
  bool on_floor = false;            ///< a floor touches it at the end (within twice the skin)
  bool on_wall = false;             ///< it met a wall during the move or one touches it at the end
  bool on_ceiling = false;          ///< it met a ceiling during the move or one touches it at the end
  std::optional<Vec2> floor_normal; ///< the floor's normal most along `up`, when on a floor
  std::vector<MoveHit> hits;        ///< every body met, in order
  std::vector<Vec2> path;           ///< world positions: the start, after each round that moved, before a snap down, and the final one
  int iterations = 0;               ///< cast-and-slide rounds used
  IterationStatus status = IterationStatus::converged;  ///< iteration_cap when motion was left at the cap
};

/// Moves `shape` from `transform` by `motion` through the world, a character mover: cast the
/// motion (stopping `skin` short of what it meets), then slide the rest along every surface
/// touching it (the shortest change of the motion that moves into none), and repeat. A floor
/// carries the mover's weight: the part of the motion going down into a floor is dropped rather
/// than turned into sliding, so a mover does not creep down a slope gentler than
/// max_floor_angle, while a steeper slope is a wall it slides down and cannot walk up. It never
/// tunnels (every step is a cast) and never ends overlapping anything beyond its touching band.
/// A mover that starts overlapping something is first pushed out (push_out(), reported in
/// `pushed_out` and as the path's second point), then moved.
[[nodiscard]] MoveResult move_and_slide(const World& world, const Shape& shape, const Transform& transform, Vec2 motion,
                                        const MoveOptions& options = {});

}  // namespace collide2d

// broad_phase.cpp — the broad-phase factory.
#include "collide2d/broad_phase.hpp"

#include "broad_phase_internal.hpp"

namespace collide2d {

std::unique_ptr<BroadPhase> make_broad_phase(BroadPhaseKind kind, const BroadPhaseOptions& options) {
  switch (kind) {
    case BroadPhaseKind::dynamic_tree: return detail::make_dynamic_tree(options);
    case BroadPhaseKind::sweep_and_prune: return detail::make_sweep_and_prune(options);
    case BroadPhaseKind::uniform_grid: return detail::make_uniform_grid(options);
    case BroadPhaseKind::brute_force: return detail::make_brute_force(options);
  }
  return detail::make_brute_force(options);
}

}  // namespace collide2d

// options.hpp — the demo's command line and its scripted key sequences, without a window.
//
// Outline: KeyHold and KeyScript (a --keys script such as "right:30,i+o:10,wait:5": which keys
// are held and which go down on each frame); Options and parse_options (every option checked,
// with a message for the user and exit code 2 on any mistake); usage().
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "collide2d/result.hpp"
#include "views.hpp"

namespace collide2d::demo {

/// One entry of a key script: these keys held together for `frames` frames (none held for "wait").
struct KeyHold {
  std::vector<Key> keys;  ///< the keys held; empty for a pause
  int frames = 0;         ///< how many frames they are held, >= 1
};

/// The keys of one frame of a script.
struct ScriptFrame {
  std::vector<Key> pressed;  ///< keys that go down at the start of this frame (the first frame of their hold)
  std::vector<Key> held;     ///< keys held during this frame
};

/// A scripted key sequence: the holds one after the other, from frame 0.
class KeyScript {
 public:
  /// The empty script: no key on any frame.
  KeyScript() = default;
  /// The holds, played in order.
  explicit KeyScript(std::vector<KeyHold> holds) : holds_(std::move(holds)) {}
  /// Frames the script lasts: the sum of its holds' frames.
  int length() const;
  /// The keys of frame `frame` (0-based); none past the end.
  ScriptFrame at(int frame) const;
  /// The holds.
  const std::vector<KeyHold>& holds() const { return holds_; }

 private:
  std::vector<KeyHold> holds_;
};

/// Why a command line or a key script was refused.
struct OptionsError {
  std::string message;  ///< one sentence for the user, naming the option and the bad value
};

/// Parses a --keys script: comma-separated NAME:FRAMES entries, NAME one key name (key_from_name),
/// several joined by '+', or "wait" for none; FRAMES a whole number from 1 to 1,000,000.
Result<KeyScript, OptionsError> parse_key_script(std::string_view text);

/// What the command line asked for.
struct Options {
  ViewKind view = ViewKind::boxes;  ///< --view: the view to start in
  std::string scene_path;           ///< --scene: the scene file for view 5; empty when none
  int frames = 0;                   ///< --frames: run this many frames and stop; 0 runs until the window closes
  std::string screenshot;           ///< --screenshot: PNG file to save the last frame to; empty when none
  KeyScript keys;                   ///< --keys: the scripted keys
  bool push_out = true;             ///< false with --no-push-out: view 1 starts with push-out off
  bool help = false;                ///< --help: print usage() and stop
};

/// Parses the arguments after the program name. Refuses unknown options, missing or bad values,
/// --screenshot without --frames or not ending in .png, --keys without --frames, and a script
/// longer than --frames.
Result<Options, OptionsError> parse_options(std::span<const std::string_view> arguments);

/// The usage text --help prints.
std::string usage();

}  // namespace collide2d::demo

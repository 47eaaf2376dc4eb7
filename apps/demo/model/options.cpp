// options.cpp — parsing the demo's command line and key scripts.
//
// Outline: whole numbers with from_chars (no sign, no trailing text, within a range); KeyScript
// playback; parse_key_script; parse_options (option by option, then the checks that involve
// several options); usage.
#include "options.hpp"

#include <charconv>

namespace collide2d::demo {
namespace {

/// A whole number in [lowest, highest] from the whole of `text`, or empty.
std::optional<int> whole_number(std::string_view text, int lowest, int highest) {
  int value = 0;
  const auto [end, problem] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || problem != std::errc{} || end != text.data() + text.size() || value < lowest || value > highest) {
    return std::nullopt;
  }
  return value;
}

constexpr int most_frames = 1'000'000;

}  // namespace

int KeyScript::length() const {
  int total = 0;
  for (const KeyHold& hold : holds_) total += hold.frames;
  return total;
}

ScriptFrame KeyScript::at(int frame) const {
  int start = 0;
  for (const KeyHold& hold : holds_) {
    if (frame >= start && frame < start + hold.frames) {
      ScriptFrame keys{{}, hold.keys};
      if (frame == start) keys.pressed = hold.keys;
      return keys;
    }
    start += hold.frames;
  }
  return {};
}

Result<KeyScript, OptionsError> parse_key_script(std::string_view text) {
  std::vector<KeyHold> holds;
  std::size_t position = 0;
  while (true) {
    const std::size_t comma = text.find(',', position);
    const std::string_view entry = text.substr(position, comma == std::string_view::npos ? std::string_view::npos : comma - position);
    const std::size_t colon = entry.find(':');
    if (colon == std::string_view::npos) {
      return OptionsError{"--keys: '" + std::string(entry) + "' is not NAME:FRAMES (for example right:30)"};
    }
    const std::string_view names = entry.substr(0, colon);
    const std::optional<int> frames = whole_number(entry.substr(colon + 1), 1, most_frames);
    if (!frames) {
      return OptionsError{"--keys: '" + std::string(entry) + "': the number of frames must be a whole number from 1 to 1000000"};
    }
    KeyHold hold{{}, *frames};
    if (names != "wait") {
      std::size_t name_start = 0;
      while (true) {
        const std::size_t plus = names.find('+', name_start);
        const std::string_view name = names.substr(name_start, plus == std::string_view::npos ? std::string_view::npos : plus - name_start);
        const std::optional<Key> key = key_from_name(name);
        if (!key) {
          return OptionsError{"--keys: unknown key '" + std::string(name) +
                              "' (known: left right up down a d s w i o p n b g e t z c m r space h plus minus 1 2 3 5, or wait)"};
        }
        hold.keys.push_back(*key);
        if (plus == std::string_view::npos) break;
        name_start = plus + 1;
      }
    }
    holds.push_back(std::move(hold));
    if (comma == std::string_view::npos) break;
    position = comma + 1;
  }
  return KeyScript(std::move(holds));
}

Result<Options, OptionsError> parse_options(std::span<const std::string_view> arguments) {
  Options options;
  bool has_keys = false;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string_view argument = arguments[i];
    auto value = [&]() -> std::optional<std::string_view> {
      if (i + 1 >= arguments.size()) return std::nullopt;
      return arguments[++i];
    };
    if (argument == "--help" || argument == "-h") {
      options.help = true;
    } else if (argument == "--no-push-out") {
      options.push_out = false;
    } else if (argument == "--view" || argument == "--scene" || argument == "--frames" || argument == "--screenshot" ||
               argument == "--keys") {
      const std::optional<std::string_view> text = value();
      if (!text) return OptionsError{std::string(argument) + " needs a value"};
      if (argument == "--view") {
        const std::optional<ViewKind> view = view_from_name(*text);
        if (!view) return OptionsError{"--view: unknown view '" + std::string(*text) + "' (known: boxes, minkowski, slopes, playground, scene)"};
        options.view = *view;
      } else if (argument == "--scene") {
        if (text->empty()) return OptionsError{"--scene needs a file name"};
        options.scene_path = *text;
      } else if (argument == "--frames") {
        const std::optional<int> frames = whole_number(*text, 1, most_frames);
        if (!frames) return OptionsError{"--frames: '" + std::string(*text) + "' is not a whole number from 1 to 1000000"};
        options.frames = *frames;
      } else if (argument == "--screenshot") {
        if (text->size() < 5 || text->substr(text->size() - 4) != ".png") {
          return OptionsError{"--screenshot: '" + std::string(*text) + "' must be a file name ending in .png"};
        }
        options.screenshot = *text;
      } else {
        Result<KeyScript, OptionsError> script = parse_key_script(*text);
        if (!script) return script.error();
        options.keys = std::move(script).value();
        has_keys = true;
      }
    } else {
      return OptionsError{"unknown argument '" + std::string(argument) + "' (run with --help for the options)"};
    }
  }
  if (options.help) return options;
  if (!options.screenshot.empty() && options.frames == 0) return OptionsError{"--screenshot needs --frames N (which frame to save)"};
  if (has_keys && options.frames == 0) return OptionsError{"--keys needs --frames N (a script runs for a fixed number of frames)"};
  if (options.keys.length() > options.frames && options.frames > 0) {
    return OptionsError{"--keys lasts " + std::to_string(options.keys.length()) + " frames but --frames is " +
                        std::to_string(options.frames)};
  }
  return options;
}

std::string usage() {
  return "usage: collide2d-demo [--view boxes|minkowski|slopes|playground|scene] [--scene FILE] [--no-push-out]\n"
         "                      [--frames N [--screenshot FILE.png] [--keys NAME:FRAMES,...]]\n"
         "\n"
         "  --view NAME        start in view 1 (boxes), 2 (minkowski), 3 (slopes), 4 (playground) or 5 (scene)\n"
         "  --scene FILE       a scene for view 5: collide2d JSON or a SteerSuite XML test case\n"
         "  --no-push-out      start view 1 with push-out off\n"
         "  --frames N         run N frames (1/60 s each) and exit\n"
         "  --screenshot FILE  save the last frame as a PNG (needs --frames)\n"
         "  --keys SCRIPT      keys held in turn, e.g. right:30,i+o:10,wait:5,n:1 (needs --frames)\n"
         "\n"
         "keys: 1 2 3 5 views; arrows move; I and O turn; P push-out; N/B step; G/E/T GJK/EPA/SAT;\n"
         "      Z/C shapes of A/B; view 3: arrows walk, up or space jumps, M method, R restart;\n"
         "      WASD pan; wheel or +/- zoom; H help; Escape quits\n";
}

}  // namespace collide2d::demo

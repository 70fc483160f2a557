"""The --bot players of the strength ladder (bench_strength.py): a Python policy loaded
from its file, handed its player's view (`cuttle.policies.fair`) unless it may see all,
timed, and fingerprinted, so that --reuse keeps its pairings only while what it ran is
unchanged: its own file and every module of the user's own that the bots loaded.

A module of the user's own is one whose file lies outside the Python installation (the
standard library, site-packages) and outside cuttle: a helper beside the bot, a package
on PYTHONPATH or installed editable.  Installed packages (numpy, torch) are not
fingerprinted: a bot changed by one of them is for --replay to name.
"""

import hashlib
import os
import site
import sys
import sysconfig
import time

import cuttle
from cuttle.policies import fair, with_rng
from cuttle.policy_files import load_policy


class TimedPlayer:
    """A Python player that adds up the CPU seconds and calls of its decisions."""

    def __init__(self, player, name=None):
        self.player, self.seconds, self.calls = player, 0.0, 0
        self.__name__ = name or player.__name__

    def __call__(self, game, rng):
        t = time.process_time()
        try:
            return self.player(game, rng)
        finally:
            self.seconds += time.process_time() - t
            self.calls += 1


class LadderBot:
    """A --bot as cuttle.simulate plays it: `policy` handed a determinization of its
    player's view (`fair`: the hidden cards dealt anew), or the live game with
    `sees_all`; `seconds` and `calls` add up the policy's own decisions (the
    determinization not counted); `source`, what --reuse compares."""

    def __init__(self, policy, name, sees_all, source):
        self.timer = TimedPlayer(with_rng(policy, f"--bot {name}"), name)
        self.play = self.timer if sees_all else fair(self.timer)
        self.sees_all, self.source, self.__name__ = sees_all, source, name

    def __call__(self, game, rng):
        return self.play(game, rng)

    @property
    def seconds(self):
        return self.timer.seconds

    @property
    def calls(self):
        return self.timer.calls


def load_bots(specs, taken, reserved=()):
    """{NAME: LadderBot} of NAME=FILE.py:FUNCTION specs, each (option, spec, sees_all)
    (`taken`: the names on the ladder already; `reserved`: prefixes a name may not
    take); ValueError saying what is wrong with one.  The function is a Python policy
    of either form cuttle.simulate takes: policy(game) or policy(game, rng) (called as
    simulate calls it: `cuttle.policies.with_rng`).  Each bot's source names its
    file, function, the file's SHA-256, whether it sees all, and the SHA-256 of every
    module of the user's own that loading the bots loaded (`user_modules`)."""
    before = frozenset(sys.modules)
    bots = {}
    for option, spec, sees_all in specs:
        name, eq, where = spec.partition("=")
        path, colon, func = where.rpartition(":")
        name = name.strip()
        if not (eq and colon and name and path and func):
            raise ValueError(f"{option} takes NAME=FILE.py:FUNCTION, not {spec!r}")
        if any(c in name for c in ",:= ") or name.lower() in taken or name in bots or \
                name.lower().startswith(tuple(reserved)):
            raise ValueError(f"{option} {spec}: the name {name!r} must be new to the "
                             f"ladder, not start like a search's ({', '.join(reserved)}) "
                             f"and hold no comma, colon, '=' or space")
        try:
            policy = load_policy(where)
        except ValueError as e:
            raise ValueError(f"{option} {name}={e}") from None
        keep_folder(path)
        source = {"file": path, "function": func, "sha256": file_hash(path),
                  "sees_all": sees_all}
        bots[name] = LadderBot(policy, name, sees_all, source)
    loaded = user_modules(before)
    for bot in bots.values():
        bot.before, bot.source["modules"] = before, loaded
    return bots


def ran_modules(bots):
    """The bots' sources as the --json keeps them: the modules loaded with the bots,
    and any module of the user's own first imported while they played (hashed now)."""
    for bot in bots:
        late = user_modules(bot.before)
        bot.source["modules"] = {**late, **bot.source["modules"]}
    return {bot.__name__: bot.source for bot in bots}


def file_hash(path):
    """The SHA-256 of a file's bytes, None for a file that cannot be read: what --reuse
    compares to tell an edited bot."""
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def keep_folder(path):
    """Put a bot file's folder first on sys.path for the rest of the run (the loader
    puts it there only while the file loads): a module the bot imports while it plays
    is found too, as under `python FILE.py`."""
    folder = os.path.dirname(os.path.abspath(path))
    if folder not in sys.path:
        sys.path.insert(0, folder)


def installed_folders():
    """The folders whose modules are not the user's own: the Python installation's (its
    prefixes, the standard library, site-packages) and cuttle's."""
    paths = sysconfig.get_paths()
    folders = [paths.get(k) for k in ("stdlib", "platstdlib", "purelib", "platlib")]
    folders += [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
                os.path.dirname(cuttle.__file__)]
    folders += getattr(site, "getsitepackages", list)() + [site.getusersitepackages()]
    return tuple(os.path.join(os.path.realpath(f), "") for f in folders if f)


def user_modules(before):
    """{path: SHA-256} of the modules of the user's own (outside `installed_folders`)
    imported since `before` (the names in sys.modules then)."""
    out = {}
    installed = installed_folders()
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if name in before or not isinstance(path, str) or not os.path.isfile(path):
            continue
        path = os.path.realpath(path)
        if not path.startswith(installed):
            out[path] = file_hash(path)
    return dict(sorted(out.items()))


def changed(bot, old):
    """Why `bot` is not what the run that wrote `old` (its source in that --json)
    played, in words ("is not the file that run loaded"), or None if it is: its file,
    whether it saw all, a module of the user's own (each module that run fingerprinted
    hashed again, and those loaded now)."""
    if old.get("sha256") != bot.source["sha256"]:
        return "is not the file that run loaded"
    if old.get("sees_all", True) != bot.sees_all:    # (runs before `fair` saw all)
        return ("was handed the live game in that run, its player's view now"
                if not bot.sees_all else "was handed its player's view in that run")
    then = old.get("modules")
    if not (isinstance(then, dict) and all(isinstance(p, str) for p in then)):
        return "has no fingerprint of the modules it loaded in that run"
    now = {**{p: file_hash(p) for p in then}, **bot.source["modules"]}
    diff = sorted(p for p in now if now[p] != then.get(p))
    if diff:
        return (f"ran a module of yours that is not the one that run loaded "
                f"({', '.join(diff)})")
    return None


def edited_bots(bots, old_bots, reused):
    """The --bot names whose pairings in `reused` were played by another bot than the
    one loaded now (`changed`), each said on stderr: they are played again, as
    --replay's are."""
    edited = set()
    for name, bot in bots.items():
        if not any(name in k for k in reused):
            continue
        why = changed(bot, old_bots.get(name, {}))
        if why:
            edited.add(name)
            print(f"--reuse: bot {name!r} ({bot.source['file']}) {why}; its pairings "
                  f"are played again", file=sys.stderr)
    return edited

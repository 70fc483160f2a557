"""Hostile output paths (issue 21, items 5 and 13): devices, FIFOs, symbolic links and
planted temporary files.  Every writer of the library goes through cuttle.files, which
writes a regular file whole or not at all under an unguessable temporary name, writes
through to a device or a FIFO, and follows a link to write its target.

The real /dev/null is never written here except read-only checks: a device is a twin
made with mknod under tmp_path (as root), or else /dev/null and /dev/full themselves,
checked to still be character devices afterwards."""

import ast
import errno
import json
import os
import pathlib
import stat
import subprocess
import sys
import threading

import pytest

import cuttle
from cuttle import files
from cuttle.cli import main
from cuttle.record import make_record, write_record
from cuttle.files import write_csv

ROOT = pathlib.Path(__file__).resolve().parents[2]


def device(tmp_path, name, minor):
    """A character device like /dev/null (minor 3) or /dev/full (7): a twin of ours
    under tmp_path when mknod is allowed, else the system's own."""
    twin = tmp_path / name
    try:
        os.mknod(twin, stat.S_IFCHR | 0o666, os.makedev(1, minor))
        with open(twin, "wb"):
            pass
        return twin
    except OSError:
        if twin.exists():
            twin.unlink()
        return pathlib.Path("/dev") / name


def assert_still_device(path, minor):
    st = os.lstat(path)
    assert stat.S_ISCHR(st.st_mode) and st.st_rdev == os.makedev(1, minor), path


class FifoReader:
    """A FIFO under tmp_path and a thread reading everything written to it."""

    def __init__(self, tmp_path, name="pipe"):
        self.path = tmp_path / name
        os.mkfifo(self.path)
        self.data = b""
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        with open(self.path, "rb") as f:
            self.data = f.read()

    def finish(self):
        """What was written (unblocks the reader if nothing ever opened the FIFO)."""
        self.thread.join(30)
        if self.thread.is_alive():
            with open(self.path, "wb"):
                pass
            self.thread.join(30)
        assert stat.S_ISFIFO(os.lstat(self.path).st_mode)
        return self.data


WRITERS = {
    "write_text": lambda p: files.write_text(p, "hello\n"),
    "write_binary_file": lambda p: files.write_binary_file(p, lambda f: f.write(b"hello\n")),
    "write_text_file": lambda p: files.write_text_file(p, lambda f: f.write("hello\n")),
    "csv": lambda p: write_csv(p, ["a"], [["hello"]]),
    "record": lambda p: write_record(make_record(cuttle.Game(seed=1), players=["a", "b"]), p),
    "page": lambda p: cuttle.report.save_page(p, "<html>hello</html>\n"),
}


def leftovers(folder, keep):
    return sorted(p.name for p in pathlib.Path(folder).iterdir() if p.name not in keep)


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_a_symlink_is_kept_and_its_target_written(tmp_path, writer):
    target = tmp_path / "target.json"
    target.write_text("old")
    link = tmp_path / "out.json"
    link.symlink_to("target.json")
    WRITERS[writer](str(link))
    assert link.is_symlink() and os.readlink(link) == "target.json"
    assert target.read_text() != "old" and link.read_text() == target.read_text()
    assert leftovers(tmp_path, {"target.json", "out.json"}) == []
    # a dangling link: its target is created, the link kept
    link2 = tmp_path / "new.json"
    link2.symlink_to(tmp_path / "sub" / "made.json")
    (tmp_path / "sub").mkdir()
    WRITERS[writer](str(link2))
    assert link2.is_symlink() and (tmp_path / "sub" / "made.json").read_text()


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_a_planted_temporary_name_cannot_redirect_the_write(tmp_path, writer):
    """CWE-377: the old temporary name was `<path>.tmp-<pid>`, opened through any link
    someone had put there."""
    victim = tmp_path / "victim"
    victim.write_text("precious")
    out = tmp_path / "out.json"
    planted = pathlib.Path(f"{out}.tmp-{os.getpid()}")
    planted.symlink_to(victim)
    WRITERS[writer](str(out))
    assert victim.read_text() == "precious" and planted.is_symlink()
    assert out.read_text() and not out.is_symlink()
    assert leftovers(tmp_path, {"victim", "out.json", planted.name}) == []


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_a_character_device_is_written_through(tmp_path, writer):
    null = device(tmp_path, "null", 3)
    WRITERS[writer](str(null))
    assert_still_device(null, 3)
    assert leftovers(tmp_path, {"null"}) == []


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_a_full_device_says_no_space_naming_the_file(tmp_path, writer):
    full = device(tmp_path, "full", 7)
    with pytest.raises(OSError) as e:
        WRITERS[writer](str(full))
    assert e.value.errno == errno.ENOSPC and e.value.filename == str(full)
    assert "No space left" in str(e.value)
    assert_still_device(full, 7)


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_a_fifo_is_written_through(tmp_path, writer):
    fifo = FifoReader(tmp_path)
    WRITERS[writer](str(fifo.path))
    data = fifo.finish()
    assert (b"hello" in data) if writer != "record" else data.startswith(b"{")
    assert leftovers(tmp_path, {"pipe"}) == []


def test_a_link_to_a_device_writes_the_device(tmp_path):
    null = device(tmp_path, "null", 3)
    link = tmp_path / "out.json"
    link.symlink_to(null)
    files.write_text(link, "x")
    assert link.is_symlink() and os.readlink(link) == str(null)
    assert_still_device(null, 3)


def test_a_failed_write_keeps_the_old_file_and_leaves_nothing(tmp_path):
    out = tmp_path / "out.json"
    out.write_text("old")

    def boom(f):
        f.write("half")
        raise OSError(errno.ENOSPC, "No space left on device")
    with pytest.raises(OSError) as e:
        files.write_text_file(out, boom)
    assert e.value.filename == str(out) and e.value.errno == errno.ENOSPC
    assert out.read_text() == "old" and leftovers(tmp_path, {"out.json"}) == []
    with pytest.raises(KeyboardInterrupt):
        files.write_text_file(out, lambda f: (f.write("half"), (_ for _ in ()).throw(
            KeyboardInterrupt())))
    assert out.read_text() == "old" and leftovers(tmp_path, {"out.json"}) == []


def test_permissions_are_kept_and_new_files_follow_the_umask(tmp_path):
    out = tmp_path / "out.json"
    out.write_text("old")
    out.chmod(0o640)
    files.write_text(out, "new")
    assert stat.S_IMODE(out.stat().st_mode) == 0o640 and out.read_text() == "new"
    old = os.umask(0o027)
    try:
        files.write_text(tmp_path / "fresh.json", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "fresh.json").stat().st_mode) == 0o640


@pytest.mark.parametrize("path, message", [
    ("{d}", "is a folder"), ("{d}/no/x.json", "no folder"), ("{d}/loop", "cannot write"),
])
def test_unwritable_outputs_are_refused_up_front(tmp_path, path, message):
    (tmp_path / "loop").symlink_to("loop")
    with pytest.raises(ValueError, match=message):
        files.check_output(path.format(d=tmp_path))
    files.check_output(str(device(tmp_path, "null", 3)))
    files.check_output("/dev/stdout")


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def record_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("rec") / "game.json"
    g = cuttle.Game(seed=4)
    for _ in range(6):
        g.play(g.legal_moves[0])
    write_record(make_record(g, players=["random", "greedy"], status="quit"), path)
    return path


COMMANDS = {
    "simulate --json": ["simulate", "-n", "20", "--seed", "1", "--json", "{out}"],
    "simulate --csv": ["simulate", "-n", "20", "--seed", "1", "--csv", "{out}"],
    "simulate --games-csv": ["simulate", "-n", "20", "--seed", "1", "--games-csv", "{out}"],
    "simulate --html": ["simulate", "-n", "20", "--seed", "1", "--html", "{out}"],
    "compare --json": ["compare", "classic", "quick", "-n", "20", "--seed", "1",
                       "--json", "{out}"],
    "replay --html": ["replay", "{record}", "--html", "{out}"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("kind", ["link", "device", "fifo", "full"])
def test_command_outputs(capsys, tmp_path, record_file, command, kind):
    fifo = None
    if kind == "link":
        (tmp_path / "target").write_text("old")
        out = tmp_path / "out"
        out.symlink_to("target")
    elif kind == "fifo":
        fifo = FifoReader(tmp_path)
        out = fifo.path
    else:
        out = device(tmp_path, kind if kind == "full" else "null", 7 if kind == "full" else 3)
    argv = [a.format(out=out, record=record_file) for a in COMMANDS[command]]
    code, _, err = run(capsys, *argv)
    if kind == "full":
        assert code == 1 and "No space left" in err and str(out) in err, err
        assert_still_device(out, 7)
        return
    assert code == 0, err
    if kind == "link":
        assert out.is_symlink() and (tmp_path / "target").read_text() != "old"
    elif kind == "fifo":
        assert len(fifo.finish()) > 10
    else:
        assert_still_device(out, 3)
    assert leftovers(tmp_path, {"out", "target", "pipe", "null"}) == []


def test_play_record_through_a_link(monkeypatch, capsys, tmp_path):
    import io
    (tmp_path / "target.json").write_text("old")
    link = tmp_path / "game.json"
    link.symlink_to("target.json")
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    code = main(["play", "--seed", "1", "--record", str(link)])
    capsys.readouterr()
    assert code == 0 and link.is_symlink()
    assert json.loads((tmp_path / "target.json").read_text())["format"] == "cuttle-game-record"


def test_json_to_dev_stdout_reaches_the_pipe():
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run([sys.executable, "-m", "cuttle", "simulate", "-n", "20", "--seed", "1",
                        "--json", "/dev/stdout"], capture_output=True, text=True, env=env,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    table, _, js = p.stdout.partition("\n{\n")
    assert "20 games" in table and json.loads("{\n" + js)["n_games"] == 20


def _writes_in(tree):
    """Calls in a module that open a file for writing, or save a figure to a path."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else \
            node.func.attr if isinstance(node.func, ast.Attribute) else ""
        mode = [a.value for a in node.args[1:2] if isinstance(a, ast.Constant)] + \
            [k.value.value for k in node.keywords
             if k.arg == "mode" and isinstance(k.value, ast.Constant)]
        if name == "open" and any(isinstance(m, str) and set(m) & set("wax+") for m in mode):
            yield node.lineno
        if name == "savefig" and node.args and not (isinstance(node.args[0], ast.Name)
                                                    and node.args[0].id in ("f", "buf")):
            yield node.lineno


def test_every_writer_goes_through_cuttle_files():
    """Only files.py opens output files (and the atlas store, which appends to a
    regular file it checks); a figure is saved to the file object files.py gives."""
    found = []
    for path in sorted((ROOT / "cuttle").rglob("*.py")):
        rel = path.relative_to(ROOT / "cuttle").as_posix()
        if rel in ("files.py", "variants/store.py"):
            continue
        found += [f"{rel}:{line}" for line in _writes_in(ast.parse(path.read_text()))]
    assert found == []


def test_a_full_disk_names_the_results_file_and_keeps_it_whole(tmp_path):
    """A file-size limit stands in for a full disk: the atlas stops with status 1 (an
    I/O failure, not a usage error), naming the results file, which keeps only whole
    lines."""
    results = tmp_path / "r.jsonl"
    script = (
        "import resource, signal, sys\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (3000, 3000))\n"
        "from cuttle.cli import main\n"
        f"sys.exit(main(['atlas', '--quick', '--pairings', 'random', '--bases', 'classic',"
        f" '--no-progress', '--results', {str(results)!r}]))\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       env=env, timeout=600)
    assert p.returncode == 1 and str(results) in p.stderr and "Traceback" not in p.stderr, \
        p.stderr
    assert "File too large" in p.stderr
    text = results.read_text()
    assert text.endswith("\n") and all(json.loads(x) for x in text.splitlines())

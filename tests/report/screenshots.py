"""Make the README's pictures (docs/img/table.png, replay.png, report.png) in headless
Chromium:  python tests/report/screenshots.py  (about half a minute)."""

import io
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import cuttle  # noqa: E402
from cuttle import report  # noqa: E402
from cuttle.policies import Bot  # noqa: E402
from cuttle.svg import table  # noqa: E402
from report import chromium  # noqa: E402
from report.conftest import busy  # noqa: E402

OUT = HERE.parent.parent / "docs" / "img"


def bot_game(rules, seed):
    """A whole game between the search bot (P0) and the greedy bot (P1)."""
    g = cuttle.Game(rules, seed=seed)
    bots = (Bot("ismcts:300", seed), Bot("greedy", seed))
    while not g.is_over:
        g.play(bots[g.to_move].choose(g))
    return g


def window(d, width, height):
    """Make the page's viewport width x height."""
    d.set_window_size(width, height)
    dw, dh = d.execute_script("return [window.innerWidth, window.innerHeight]")
    d.set_window_size(2 * width - dw, 2 * height - dh)


def save_small(png_bytes, path):
    """Save a screenshot as a palette PNG (flat colours: small, and looks the same)."""
    from PIL import Image
    img = Image.open(io.BytesIO(png_bytes)).convert("RGB")
    img.quantize(colors=96, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE) \
        .save(path, optimize=True)
    print(f"{path}: {img.size[0]}x{img.size[1]}, {os.path.getsize(path) / 1024:.0f} kB")


def shoot(d, html, path, width, height, element=None):
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "page.html"
        page.write_text(html, encoding="utf-8")
        d.get(page.as_uri())
        window(d, width, height)
        d.execute_script("return document.readyState")
        if element:
            return save_small(d.find_element("css selector", element).screenshot_as_png, path)
        return save_small(d.get_screenshot_as_png(), path)


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    d = chromium.start()
    try:
        shoot(d, "<!DOCTYPE html><body style='margin:0;background:#fff'>"
                 f"{table(busy(), viewer=0)}</body>", OUT / "table.png", 600, 700, "svg")

        g, step = bot_game("classic", 23), 20        # a step with much on the table
        html = report.game_page(g, names=("ismcts:300", "greedy"))
        with tempfile.TemporaryDirectory() as tmp:
            page = Path(tmp) / "replay.html"
            page.write_text(html, encoding="utf-8")
            d.get(page.as_uri())
            window(d, 960, 740)
            while not d.execute_script("return document.body.dataset.ready"):
                pass
            d.find_element("css selector", f'.moves li[data-step="{step}"]').click()
            d.find_element("css selector", 'button[data-viewer="0"]').click()
            save_small(d.get_screenshot_as_png(), OUT / "replay.png")

        cmp = cuttle.compare(["classic", "cuttle.cards", cuttle.Rules(four="random")],
                             20000, players=("greedy", "greedy"), seed=1)
        shoot(d, report.comparison_page(cmp), OUT / "report.png", 960, 720)
    finally:
        d.quit()


if __name__ == "__main__":
    main()

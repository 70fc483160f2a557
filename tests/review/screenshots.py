"""Make docs/img/review.png, the review page of docs/review.md's example game, in
headless Chromium:  python tests/review/screenshots.py  (about half a minute).

The review is the one docs/review.md prints: `cuttle review docs/review/game.json
--seed 1 --omniscient` (the expert engine); the picture shows P0's worst move."""

import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import cuttle  # noqa: E402
from report import chromium  # noqa: E402
from report.screenshots import save_small, window  # noqa: E402

DOCS = HERE.parent.parent / "docs"


def main():
    r = cuttle.review(DOCS / "review" / "game.json", "expert", seed=1, omniscient=True)
    worst = max((d for d in r.decisions if d.judged and d.player == 0), key=lambda d: d.loss)
    d = chromium.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            page = Path(tmp) / "review.html"
            page.write_text(r.page(), encoding="utf-8")
            d.get(page.as_uri())
            window(d, 960, 1010)
            while not d.execute_script("return document.body.dataset.ready"):
                time.sleep(0.05)
            d.execute_script("document.querySelector('.review-graph circle.pt[data-step=\""
                             f"{worst.ply + 1}\"]').dispatchEvent(new MouseEvent('click'))")
            save_small(d.get_screenshot_as_png(), DOCS / "img" / "review.png")
    finally:
        d.quit()


if __name__ == "__main__":
    main()

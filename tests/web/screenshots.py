"""Make the README's picture of the web app (docs/img/web.png) in headless Chromium:
python tests/web/screenshots.py  (a few seconds).  A game of classic rules against the
expert after a few moves, a card picked (its choices shown), and a hint."""

import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import cuttle.web  # noqa: E402
from report import chromium  # noqa: E402
from report.screenshots import OUT, save_small, window  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from web.conftest import Server  # noqa: E402
from web.test_browser import Wait, click_at, make_move, start, wait_ready  # noqa: E402


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    with Server(cuttle.web.app()) as server:
        d = chromium.start(1100, 900)
        try:
            for seed in range(26, 60):     # a game still on after a few turns
                st = start(d, server, "classic", "expert", 0, seed)
                rng = random.Random(seed)
                while st["ply"] < 10 and st["status"] == "playing":
                    legal = st["legal"]
                    low = sorted((m for m in legal if m["verb"] == "points"),
                                 key=lambda m: "A23456789T".find(m["cards"][0][0]))
                    make_move(d, low[0] if low and rng.random() < 0.5 else legal[0], rng)
                    st = wait_ready(d)
                if st["status"] == "playing":
                    break
            window(d, 1040, 800)
            d.find_element(By.ID, "hint").click()
            Wait(d, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hint-body tr.best"))
            card = next(m["cards"][0] for m in st["legal"]
                        if m["cards"] and sum(c["cards"][:1] == m["cards"][:1]
                                              for c in st["legal"]) > 1)
            click_at(d, d.find_element(By.CSS_SELECTOR, f'#board g.card[data-card="{card}"]'))
            save_small(d.get_screenshot_as_png(), OUT / "web.png")
        finally:
            d.quit()


if __name__ == "__main__":
    main()

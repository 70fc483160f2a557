"""Headless Chromium for the page tests and the README's screenshots (Debian's
`chromium` and `chromium-driver`, driven by selenium; nothing is downloaded)."""

import os
import shutil
import tempfile

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--hide-scrollbars", "--force-device-scale-factor=1")


def find():
    """(chromium, chromedriver) paths, or a string saying what is missing."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not browser or not driver:
        return ("headless Chromium not found (needs Debian's chromium and chromium-driver: "
                "apt-get install chromium chromium-driver; .ci/run installs them as root)")
    return browser, driver


def start(width=1000, height=900):
    """A selenium driver of a fresh headless Chromium (its own profile folder); call
    `.quit()` when done.  RuntimeError if Chromium cannot be found."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    found = find()
    if isinstance(found, str):
        raise RuntimeError(found)
    browser, driver = found
    opts = webdriver.ChromeOptions()
    opts.binary_location = browser
    for flag in FLAGS:
        opts.add_argument(flag)
    opts.add_argument(f"--window-size={width},{height}")
    profile = tempfile.mkdtemp(prefix="cuttle-chromium-")
    opts.add_argument(f"--user-data-dir={profile}")
    d = webdriver.Chrome(service=Service(driver), options=opts)
    quit_ = d.quit

    def quit_and_clean():
        try:
            quit_()
        finally:
            shutil.rmtree(profile, ignore_errors=True)
    d.quit = quit_and_clean
    return d


def screenshot(driver, path, width=None, height=None):
    """Save a screenshot of the page (resized window when width/height are given)."""
    if width or height:
        size = driver.get_window_size()
        driver.set_window_size(width or size["width"], height or size["height"])
    driver.save_screenshot(os.fspath(path))

"""The Playwright side of the web benchmark: the same pages, the same Chromium executable.

    python3 playwright_benchmark.py cold|warm|parts <count> <pages folder>

warm: one page's snapshot is a new page, set_content, screenshot (PNG bytes), as the Swift side
does a new browser context, the HTML, the screenshot and its decoding. parts: the same, timing
only set_content + screenshot (the page is made before and closed after).
"""
import os
import pathlib
import statistics
import sys
import time

from playwright.sync_api import sync_playwright

# The executable the Swift side uses too.
EXECUTABLE = os.environ.get("SNAPSHOT_TESTING_CHROMIUM", "/usr/bin/chromium")


def main():
    mode = sys.argv[1]
    count = int(sys.argv[2])
    pages = [p.read_text() for p in sorted(pathlib.Path(sys.argv[3]).glob("*.html"))]
    started = time.perf_counter()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=EXECUTABLE)

        def snapshot(html):
            page = browser.new_page(viewport={"width": 800, "height": 600})
            page.set_content(html)
            data = page.screenshot(type="png")
            page.close()
            return data

        if mode == "parts":
            # Only set_content + screenshot are timed; the page is made (and closed) outside.
            times = []
            for index in range(count):
                page = browser.new_page(viewport={"width": 800, "height": 600})
                start = time.perf_counter()
                page.set_content(pages[index % len(pages)])
                page.screenshot(type="png")
                times.append((time.perf_counter() - start) * 1000)
                page.close()
            print(f"set_content + screenshot only: median {statistics.median(times):.1f} ms")
        elif mode == "cold":
            snapshot(pages[0])
            print(f"cold {(time.perf_counter() - started) * 1000:.1f} ms")
        else:
            snapshot(pages[0])
            times = []
            for index in range(count):
                start = time.perf_counter()
                snapshot(pages[index % len(pages)])
                times.append((time.perf_counter() - start) * 1000)
            print(
                f"warm median {statistics.median(times):.1f} ms, min {min(times):.1f} ms, "
                f"max {max(times):.1f} ms over {count} snapshots"
            )
        browser.close()


main()

"""test/xshot.py: a GUI program under Xvfb, and a screenshot of it
(KernelShark's, with the bands of its CPU plots found in it).

Xvfb gives a private X display (no window manager); xdotool waits for a
window to be mapped and for the program to stop changing it; xwd dumps
the screen, which is read here (XWD: a big-endian header, then the
pixels) into RGB rows, saved as PNG (for people) and PPM (for
tesseract). Nothing beyond Python's standard library reads the pixels.
"""
import os
import select
import shutil
import struct
import subprocess
import tempfile
import time
import zlib


class Display:
    """A private Xvfb display, stopped by close() (or with 'with')."""

    def __init__(self, width=1280, height=900):
        self.proc = None
        self.runtime = tempfile.mkdtemp(prefix="xshot-")  # Qt wants its own, mode 0700
        # Xvfb picks a free display itself and says which (-displayfd): a
        # number another X server holds (even one in another /tmp, through
        # its abstract socket) is never taken for ours. -noreset: no server
        # reset when the last client leaves (the readiness probe below), in
        # which a client connecting (the program) is refused.
        rfd, wfd = os.pipe()
        try:
            self.proc = subprocess.Popen(
                ["Xvfb", "-displayfd", str(wfd), "-screen", "0", f"{width}x{height}x24",
                 "-nolisten", "tcp", "-noreset"], pass_fds=(wfd,), stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, start_new_session=True)
            os.close(wfd)
            wfd = None
            num = b""
            while not num.endswith(b"\n"):
                ready, _, _ = select.select([rfd], [], [], 30)
                chunk = os.read(rfd, 16) if ready else b""
                if not chunk:
                    break
                num += chunk
        finally:
            os.close(rfd)
            if wfd is not None:
                os.close(wfd)
        self.name = ":" + num.decode().strip()
        if not num.strip() or not self._ready(10):
            self.close()
            raise RuntimeError("Xvfb did not start")

    def _ready(self, timeout):
        end = time.monotonic() + timeout
        while time.monotonic() < end and self.proc.poll() is None:
            if subprocess.run(["xdotool", "getdisplaygeometry"], env=self.env(),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
                return True
            time.sleep(0.1)
        return False

    def env(self):
        return dict(os.environ, DISPLAY=self.name, XDG_RUNTIME_DIR=self.runtime)

    def close(self):
        shutil.rmtree(self.runtime, ignore_errors=True)
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def window(self, name, timeout):
        """The id of a visible window whose name contains name, once it
        is mapped: None when none came in time."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            r = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", name],
                               env=self.env(), capture_output=True, text=True)
            if r.returncode == 0 and r.stdout.split():
                return r.stdout.split()[0]
            time.sleep(0.2)
        return None

    def grab(self):
        """The whole screen: (width, height, RGB bytes)."""
        raw = subprocess.run(["xwd", "-root", "-silent"], env=self.env(), capture_output=True,
                             check=True).stdout
        return read_xwd(raw)

    def settled(self, timeout, quiet=1.0, ready=None):
        """The screen once it stopped changing for 'quiet' seconds (the
        program drew everything) and, if given, ready(screen) says it shows
        what is awaited (a program that pauses between drawing steps on a
        loaded machine looks settled too early); else as it is at timeout."""
        end = time.monotonic() + timeout
        last, since, checked = self.grab(), time.monotonic(), None
        while time.monotonic() < end:
            time.sleep(0.25)
            now = self.grab()
            if now != last:
                last, since = now, time.monotonic()
            elif time.monotonic() - since >= quiet and checked is not last:
                checked = last  # ready() is asked once per settled screen
                if ready is None or ready(last):
                    break
        return last


def kernelshark(dat, ready, timeout=60):
    """KernelShark showing dat on a private 1280x900 display: (the
    screen once its window is up, drawn and ready(screen) holds, or None;
    what it printed). Its settings are a private file saying not to warn
    about running as root (the warning is a dialog over the window)."""
    img, log = None, ""
    with tempfile.TemporaryDirectory(prefix="bt-kshark-") as cache, Display(1280, 900) as d:
        os.makedirs(os.path.join(cache, "kernelshark"))
        with open(os.path.join(cache, "kernelshark", "setting.ini"), "w") as f:
            f.write("[General]\nnoRootWarn=true\n")
        proc = subprocess.Popen(["kernelshark", "-geometry", "1280x900+0+0", "-i", dat],
                                env=dict(d.env(), XDG_CACHE_HOME=cache),
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            if d.window("Kernel Shark", timeout):  # then its plots and list drawn
                img = d.settled(timeout, ready=ready)
        finally:
            proc.terminate()
            try:
                log = proc.communicate(timeout=10)[0].decode(errors="replace")
            except subprocess.TimeoutExpired:
                proc.kill()
                log = proc.communicate()[0].decode(errors="replace")
    return img, log


def bands(img, top=None):
    """Horizontal lines of one saturated colour at least 60% of the
    screen wide, below y=top (a twelfth of the screen: under menu and
    buttons): [[y0, y1, x0, x1, colour]], KernelShark's CPU plots' task
    lines, top to bottom."""
    width, height, rgb = img
    top = height // 12 if top is None else top
    rows = []
    for y in range(top, height):
        row, x, best = rgb[3 * y * width:3 * (y + 1) * width], 0, (0, 0, None)
        while x < width:
            px, start = row[3 * x:3 * x + 3], x
            if max(px) - min(px) <= 80:  # grey, white, black
                x += 1
                continue
            while x < width and row[3 * x:3 * x + 3] == px:
                x += 1
            if x - start > best[1] - best[0]:
                best = (start, x, px)
        if best[1] - best[0] >= 0.6 * width:
            rows.append((y, best[0], best[1], best[2]))
    bands = []
    for y, x0, x1, col in rows:
        if bands and bands[-1][1] == y - 1 and bands[-1][4] == col:
            bands[-1][1] = y
        else:
            bands.append([y, y, x0, x1, col])
    return bands



def read_xwd(raw):
    """An XWD dump (ZPixmap, 24 or 32 bits a pixel, as Xvfb's 24-bit
    screen gives) as (width, height, RGB bytes)."""
    h = struct.unpack(">25I", raw[:100])
    size, fmt, width, height = h[0], h[2], h[4], h[5]
    order, bpp, stride, ncolors = h[7], h[11], h[12], h[19]
    masks = h[14:17]
    if fmt != 2 or bpp not in (24, 32):
        raise ValueError(f"XWD format {fmt}, {bpp} bits a pixel: not read")
    data, n = raw[size + 12 * ncolors:], bpp // 8
    rows = bytearray()
    for y in range(height):
        rows += data[y * stride:y * stride + n * width]
    rgb = bytearray(3 * width * height)
    for i, m in enumerate(masks):  # the byte each channel is in
        shift = {0xff: 0, 0xff00: 8, 0xff0000: 16}[m]
        byte = shift // 8 if order == 0 else n - 1 - shift // 8
        rgb[i::3] = rows[byte::n]
    return width, height, bytes(rgb)


def crop(img, x0, y0, x1, y1):
    width, _, rgb = img
    out = bytearray()
    for y in range(y0, y1):
        out += rgb[3 * (y * width + x0):3 * (y * width + x1)]
    return x1 - x0, y1 - y0, bytes(out)


def scale(img, k):
    """Each pixel as k x k pixels: small text reads better to OCR."""
    width, height, rgb = img
    out = bytearray()
    for y in range(height):
        row = bytearray()
        for x in range(width):
            row += rgb[3 * (y * width + x):3 * (y * width + x) + 3] * k
        out += bytes(row) * k
    return width * k, height * k, bytes(out)


def write_png(path, img):
    width, height, rgb = img
    raw = b"".join(b"\0" + rgb[3 * width * y:3 * width * (y + 1)] for y in range(height))

    def chunk(kind, body):
        return (struct.pack(">I", len(body)) + kind + body +
                struct.pack(">I", zlib.crc32(kind + body) & 0xffffffff))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" +
                chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) +
                chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))


def write_ppm(path, img):
    width, height, rgb = img
    with open(path, "wb") as f:
        f.write(b"P6\n%d %d\n255\n" % (width, height) + rgb)

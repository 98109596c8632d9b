// The seat page's side of the phone board: the dashboard's own firmware runs here, on MicroPython's WebAssembly
// port (firmware/webport.py fills what that port lacks, firmware/board_web.py is the board). This file is the
// board's hardware: the canvas (the OLED at a whole-number scale), five buttons, the turn light, tone and buzz,
// the browser storage of /data, and the seat's link socket. No rule of either game is here.
//
// The link: GET /<token>/link, a WebSocket whose text messages carry raw protocol bytes (docs/protocol.md, §13 "The
// link over a WebSocket"): what the firmware writes to stdout goes out as it would on a Pico's USB serial line,
// what the tablet sends is fed to its stdin. Message boundaries mean nothing.

const BUTTONS = ["UP", "DOWN", "OK", "CARD", "BACK"]; // firmware/board.py's order: bit i of Board.buttons()
const W = 128, H = 64, PAGES = 8;
const LIT = [150, 220, 255], DARK = [0, 0, 0];
const HEAP = 256 * 1024; // the first heap, as the unix port's tests give the firmware (a Pico has some 190 KB
// free); the port grows it from the page's memory when it runs out (gc.mem_free() there counts what it could add)
const RETRY_MS = 1000; // a link socket is dialled at most this often: a live link that drops (a page Chrome froze
// comes back with its socket closed) is dialled again at once, a dial that fails (no tablet, Wi-Fi away) this often
const TAKEN = 4001; // close code: another phone or tab took the seat (or holds it, to a page dialling by itself)
const GONE = 4002; // close code: the tablet serves this seat on no phone now (a Pico or its own screen has it)
const LEFT = 4003; // close code: the table left this game (Back, Leave); it serves the seat again when continued
const SILENT_MS = 3500; // the tablet speaks at least every second (docs/protocol.md §7): this long silent, the link
// is dead even if the socket looks open (Wi-Fi gone, the tablet's end dropped while this phone slept): link again

const token = location.pathname.split("/")[1];
const storeKey = "f1dash:" + token; // /data of this seat's dashboard, one item written whole
const devKey = "f1dash:" + token + ":dev"; // this seat's dashboard id on this phone
const takenKey = "f1dash:" + token + ":taken"; // this tab was told another holds the seat (kept over a reload)
// This page's own id: the tablet tells it from another tab of this phone (the same dashboard id) that took the seat
const pageId = Array.from(crypto.getRandomValues(new Uint8Array(8)), (x) => x.toString(16).padStart(2, "0")).join("");

// What the page knows, for its status line and for tests (tests/web read it through WebDriver).
const dash = (window.dash = {
  frame: 0, scale: 0, dpr: 0, lit: LIT, dark: DARK, booted: false, firstFrameMs: null, firstPaintMs: null,
  linked: false, taken: false, gone: false, left: false, stopped: false, links: 0, error: null, awake: "unknown",
  stored: 0, taps: [], log: "", sound: "none",
});
// A page its player opened asks for the seat (and takes it from whoever holds it) until the tablet answers it; every
// later dial, made by the page itself (awake again, back in range), links only if this page still holds the seat.
// A tab told that another took the seat asks nothing when reloaded by its browser: only the button asks again.
let asking = !sessionGet(takenKey);

let mp = null, FS = null, webport = null, board = null, wakeLink = null, runReady = null, ws = null, retry = null;
let lastHeard = 0;
let lastDial = -RETRY_MS;
let lastStored = null, storageError = null;
const inbox = []; // bytes from the tablet not yet read by the firmware
let inHead = 0;
const outbox = []; // bytes the firmware wrote, sent at the end of its step
let flushQueued = false;
const encoder = new TextEncoder(), decoder = new TextDecoder(), logDecoder = new TextDecoder();
const fb = new Uint8Array(W * PAGES); // the pages as the firmware sent them
let pressedAt = null;
let canvas, ctx, small, img, audio = null, osc = null, wakeLock = null;

// ---- status line: what is true now ---------------------------------------------------------------------------
function status() {
  let text;
  if (dash.error) text = "The dashboard stopped: " + dash.error;
  else if (dash.taken) text = "Another phone or tab took this seat: this one is stopped.";
  else if (!dash.booted) text = "Starting the dashboard…";
  else if (dash.linked) text = "Linked to the tablet.";
  else if (dash.left) text = "The table left this game; this phone links again when the game is continued.";
  else if (dash.gone) text = "This seat is not on a phone now (the tablet gave it a Pico or its own screen): this " +
    "page links again if the seat comes back to it.";
  else text = "Not linked to the tablet: the dashboard plays on its own and keeps your car on this phone.";
  if (storageError) text += " This browser does not keep the car: " + storageError;
  if (dash.booted && !dash.taken && dash.awake === "no") text += " Keep the screen on yourself: " + dash.awakeWhy;
  const line = document.getElementById("status");
  if (text === dash.status || !line) return; // called on every press (keepAwake): the page changes only for news;
  // no line yet (an error before the page is parsed): said by boot's first status()
  line.textContent = text;
  dash.status = text;
}

// ---- storage: /data, whole, in one localStorage item ---------------------------------------------------------
function sessionGet(key) {
  try {
    return sessionStorage.getItem(key);
  } catch (e) {
    return null; // no session storage (some private modes): a reload of a stopped tab asks again
  }
}

function sessionSet(key, value) {
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
  } catch (e) {
    // as above
  }
}

function b64(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
  return btoa(s);
}

function unb64(text) {
  const s = atob(text), out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

function restore() {
  FS.mkdirTree("/data");
  let saved = null;
  try {
    saved = localStorage.getItem(storeKey);
  } catch (e) {
    storageError = String(e);
  }
  if (!saved) return;
  for (const [name, data] of Object.entries(JSON.parse(saved))) FS.writeFile("/data/" + name, unb64(data));
  lastStored = saved;
}

// Called after every save (the board's emit of "W n") and before any byte goes out on the link: one setItem, so
// the browser holds either the old /data or the new one, whole. Synchronous: stored when this returns.
function persist() {
  if (!FS || dash.taken) return;
  const files = {};
  for (const name of FS.readdir("/data")) {
    const path = "/data/" + name;
    if (name !== "." && name !== ".." && FS.isFile(FS.stat(path).mode)) files[name] = b64(FS.readFile(path));
  }
  const text = JSON.stringify(files);
  if (text === lastStored) return;
  try {
    localStorage.setItem(storeKey, text);
    lastStored = text;
    dash.stored++;
    storageError = null;
  } catch (e) {
    storageError = String(e); // full or forbidden (some private modes): said on the status line
    status();
  }
}

function deviceId() {
  let id = null;
  try {
    id = localStorage.getItem(devKey);
    if (!id) {
      id = Array.from(crypto.getRandomValues(new Uint8Array(8)), (x) => x.toString(16).padStart(2, "0")).join("");
      localStorage.setItem(devKey, id);
    }
  } catch (e) {
    id = id || "0000000000000000";
  }
  return id;
}

// ---- the OLED ------------------------------------------------------------------------------------------------
function setupCanvas() {
  canvas = document.getElementById("oled");
  const dpr = window.devicePixelRatio || 1;
  // CSS px across for the OLED itself: the page's width less what sits beside it in its row (the light, the gap,
  // the canvas's border) and the page's padding, measured, so that the row never runs off a narrow phone's screen
  const main = document.querySelector("main"), box = getComputedStyle(main);
  const inner = main.clientWidth - parseFloat(box.paddingLeft) - parseFloat(box.paddingRight);
  const beside = document.getElementById("top").offsetWidth - canvas.clientWidth;
  const room = Math.min(inner - beside, 640);
  const scale = Math.max(1, Math.floor((room * dpr) / W)); // device pixels per OLED pixel: whole
  // The same scale at the same pixel ratio (the resize observer's first call, at boot; a height change): the canvas
  // as it is, not made again (a slow phone's boot paid for a second canvas and a second whole paint)
  if (ctx && scale === dash.scale && dpr === dash.dpr) return;
  dash.dpr = dpr;
  canvas.width = W * scale;
  canvas.height = H * scale;
  canvas.style.width = (W * scale) / dpr + "px";
  canvas.style.height = (H * scale) / dpr + "px";
  ctx = canvas.getContext("2d", { alpha: false });
  const one = document.createElement("canvas"); // the OLED at one pixel per pixel, off the page
  one.width = W;
  one.height = H;
  small = one.getContext("2d", { alpha: false });
  img = small.createImageData(W, H);
  dash.scale = scale;
  paint(0, PAGES - 1);
}

// Rows of pages p0..p1 from fb: drawn at one pixel per OLED pixel, then scaled up by the canvas itself with smoothing
// off (nearest neighbour: each OLED pixel a whole block of one colour). Drawing the blocks in script cost scale² as
// much (64 device pixels per OLED pixel on a phone at scale 8). Every pixel opaque: an alpha of 0 would show
// whatever is behind the canvas.
function paint(p0, p1) {
  const d = img.data, y0 = p0 * 8, y1 = (p1 + 1) * 8;
  for (let y = y0; y < y1; y++) {
    const page = y >> 3, bit = 1 << (y & 7);
    for (let x = 0, k = y * W * 4; x < W; x++, k += 4) {
      const c = fb[page * W + x] & bit ? LIT : DARK;
      d[k] = c[0]; d[k + 1] = c[1]; d[k + 2] = c[2]; d[k + 3] = 255;
    }
  }
  small.putImageData(img, 0, 0, 0, y0, W, y1 - y0);
  const s = dash.scale;
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(small.canvas, 0, y0, W, y1 - y0, 0, y0 * s, W * s, (y1 - y0) * s);
}

function nibble(hex, k) {
  const c = hex.charCodeAt(k);
  return c <= 57 ? c - 48 : c - 87; // '0'-'9', 'a'-'f' (bytearray.hex() writes lower case)
}

// ---- what the firmware calls: the JS module `dashpage` -------------------------------------------------------
const dashpage = {
  device_id: deviceId,
  random_byte: () => crypto.getRandomValues(new Uint8Array(1))[0],
  link_waiting: () => inbox.length - inHead,
  on_link: (wake) => { wakeLink = wake; },
  on_loop: (run) => { runReady = run; },
  attach: (b) => { board = b; },
  // A frame: the whole buffer as hex, bit p of mask set for each page that changed (only those are redrawn)
  frame: (mask, hex) => {
    let from = PAGES, to = -1;
    for (let p = 0; p < PAGES; p++) {
      if (!(mask & (1 << p))) continue;
      for (let x = p * W, k = 2 * x; x < (p + 1) * W; x++, k += 2) fb[x] = (nibble(hex, k) << 4) | nibble(hex, k + 1);
      from = Math.min(from, p);
      to = p;
    }
    if (to >= from) paint(from, to);
    dash.frame++;
    const now = performance.now();
    if (dash.firstFrameMs === null) {
      dash.firstFrameMs = now; // since the page was asked for (performance's time origin)
      // and when the browser next renders, the frame on the screen (the firmware's step that drew it may run on)
      requestAnimationFrame(() => { dash.firstPaintMs = performance.now(); });
      dash.booted = true;
      for (const name of BUTTONS) document.getElementById(name).disabled = dash.stopped;
      status();
    }
    if (pressedAt !== null) {
      dash.taps.push(now - pressedAt);
      pressedAt = null;
    }
  },
  led: (on) => document.getElementById("led").classList.toggle("on", !!on),
  tone: (hz) => {
    if (osc) { osc.stop(); osc = null; }
    if (!hz) {
      // silent between beeps: a running AudioContext keeps the browser's audio thread busy all game (a phone's
      // battery; 1-4 s of CPU a game in Chromium's audio service)
      if (audio && audio.state === "running") audio.suspend();
      return;
    }
    if (audio && audio.state !== "closed") {
      if (audio.state === "suspended") audio.resume(); // unlocked by a press before: no press needed now
      osc = audio.createOscillator();
      const gain = audio.createGain();
      gain.gain.value = 0.05;
      osc.type = "square";
      osc.frequency.value = hz;
      osc.connect(gain).connect(audio.destination);
      osc.start();
    }
  },
  persist: persist,
};

// ---- stdin and stdout: the link's bytes ----------------------------------------------------------------------
function readByte() {
  // firmware/webport.py's poll says there is a byte before the firmware reads one
  if (inHead >= inbox.length) return null;
  const c = inbox[inHead++];
  if (inHead === inbox.length) { inbox.length = 0; inHead = 0; }
  return c;
}

function writeBytes(bytes) {
  for (const c of bytes) outbox.push(c);
  if (!flushQueued) {
    flushQueued = true;
    queueMicrotask(flushOut); // once the firmware's step is over: one message for what it wrote
  }
}

function flushOut() {
  flushQueued = false;
  const bytes = Uint8Array.from(outbox);
  outbox.length = 0;
  dash.log = (dash.log + logDecoder.decode(bytes, { stream: true })).slice(-4000);
  if (ws && ws.readyState === WebSocket.OPEN) {
    persist(); // an ack never leaves before the journal line it follows is stored
    ws.send(decoder.decode(bytes, { stream: true }));
  } // else: nobody on the line, as a Pico with no tablet
}

function connect() {
  retry = null;
  if (dash.taken || (ws && ws.readyState <= WebSocket.OPEN)) return;
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/" + token + "/link?dev=" +
    deviceId() + "&page=" + pageId + "&ask=" + (asking ? 1 : 0);
  lastDial = performance.now();
  const sock = (ws = new WebSocket(url));
  sock.onopen = () => { lastHeard = performance.now(); };
  sock.onmessage = (e) => {
    if (typeof e.data !== "string") return; // the contract is text
    lastHeard = performance.now();
    if (!dash.linked) {
      dash.linked = true; // the tablet heard on this socket (it speaks first): an open socket alone may lead nowhere
      dash.links++;
      dash.gone = false;
      asking = false; // the seat is this page's now
      if (dash.left) {
        dash.left = false; // the game is continued: the dashboard runs again
        run();
      }
      status();
    }
    for (const c of encoder.encode(e.data)) inbox.push(c);
    if (wakeLink) wakeLink();
  };
  sock.onclose = (e) => {
    if (ws !== sock) return;
    ws = null;
    dash.linked = false;
    if (e.code === GONE) dash.gone = true; // said until the tablet is heard again (the refused retries change nothing)
    if (e.code === LEFT) {
      dash.left = true; // as GONE, until the tablet is heard again; meanwhile nothing to play
      stop();
    }
    if (e.code === TAKEN) {
      dash.taken = true;
      sessionSet(takenKey, "1");
      stopHere();
    } else if (!retry) {
      retry = setTimeout(connect, Math.max(0, lastDial + RETRY_MS - performance.now()));
    }
    status();
  };
}

function watchLink() {
  if (ws && ws.readyState === WebSocket.OPEN && performance.now() - lastHeard > SILENT_MS) {
    // As pulling the cable, at once: on a network that swallows everything (out of range) the socket's close never
    // completes and its onclose may come a minute later, the status line saying "linked" all that while
    const dead = ws;
    ws = null;
    dash.linked = false;
    dead.close();
    status();
    if (!retry) retry = setTimeout(connect, RETRY_MS);
  }
}

// The firmware stopped (nothing runs, nothing is drawn, no press is taken) while the page has no game to play: another
// page holds its seat, or the table left the game. run() starts it again where it was.
function stop() {
  for (const name of BUTTONS) document.getElementById(name).disabled = true;
  document.querySelector("main").classList.add("stopped");
  if (!dash.stopped && webport && board) webport.pause();
  dash.stopped = true;
}

function run() {
  if (!dash.stopped) return;
  if (webport && board) webport.resume();
  dash.stopped = false;
  document.querySelector("main").classList.remove("stopped");
  for (const name of BUTTONS) document.getElementById(name).disabled = !dash.booted;
}

function stopHere() {
  // Another page runs this seat now: this one neither runs, stores nor takes presses (its loop would write over the
  // other's storage on this phone otherwise). Its player may take the seat back: the page loaded again, asking.
  stop();
  const again = document.getElementById("again");
  again.style.display = "block";
  again.onclick = () => {
    sessionSet(takenKey, null);
    location.reload();
  };
}

// ---- the buttons, the buzz, the screen kept awake ------------------------------------------------------------
async function keepAwake() {
  if (!("wakeLock" in navigator)) {
    dash.awake = "no";
    dash.awakeWhy = window.isSecureContext ? "this browser cannot keep it on." :
      "browsers keep a screen on only for https pages.";
    return status();
  }
  if (wakeLock || document.visibilityState !== "visible") return;
  try {
    wakeLock = await navigator.wakeLock.request("screen");
    dash.awake = "yes";
    wakeLock.addEventListener("release", () => { wakeLock = null; });
  } catch (e) {
    dash.awake = "no"; // refused (battery saver, no user gesture yet): asked again on the next press
    dash.awakeWhy = "this browser refused (" + e.name + ").";
  }
  status();
}

// `at`: when the finger touched (the event's own time stamp: any wait before this handler ran counts in dash.taps)
function press(i, down, at) {
  const el = document.getElementById(BUTTONS[i]);
  if (el.disabled || el.classList.contains("down") === down) return;
  el.classList.toggle("down", down);
  if (down) {
    pressedAt = at === undefined ? performance.now() : at;
    if (!audio && window.AudioContext) audio = new AudioContext(); // sound needs a press first (made once)
  }
  if (board) {
    board.edge(i, down);
    if (runReady) runReady(); // the press handled and drawn now, in this event, not on the loop's next timer
  }
  if (down) { // after the frame: the buzz, the sound and the wake lock wait a millisecond, the screen does not
    if (navigator.vibrate) navigator.vibrate(12); // the buzz of each press, where the phone has a vibrator
    if (audio && !audioUnlocked) unlockAudio();
    keepAwake();
  }
}

// Sound may start only in a press: the first one resumes the context (made in it), which unlocks it for later beeps;
// it is suspended again at once unless a beep is playing (see tone).
let audioUnlocked = false;
function unlockAudio() {
  audioUnlocked = true;
  audio.onstatechange = () => { dash.sound = audio.state; };
  dash.sound = audio.state;
  audio.resume().then(() => { if (!osc && audio.state === "running") audio.suspend(); }, () => {});
}

function setupButtons() {
  BUTTONS.forEach((name, i) => {
    const el = document.getElementById(name);
    el.disabled = true; // until the firmware runs
    el.addEventListener("pointerdown", (e) => {
      e.preventDefault();
      try {
        el.setPointerCapture(e.pointerId); // the release comes here even if the finger slides off
      } catch (err) {
        // no such pointer (an event made by a script): nothing to capture
      }
      press(i, true, e.timeStamp);
    });
    for (const type of ["pointerup", "pointercancel", "lostpointercapture"]) el.addEventListener(type, () => press(i, false));
  });
  document.addEventListener("contextmenu", (e) => e.preventDefault());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") {
      keepAwake();
      if (!dash.taken && !ws) connect(); // back from the lock screen: link again at once
    } else {
      persist();
    }
  });
  window.addEventListener("pagehide", persist);
  // The largest whole scale that fits, measured again whenever the page's width changes: the phone turned, and the
  // page's first layout itself (WebKit runs this script on a reload before the page has its widths: measured then
  // only, the OLED stayed at scale 1)
  if (window.ResizeObserver) new ResizeObserver(() => setupCanvas()).observe(document.querySelector("main"));
  else window.addEventListener("resize", setupCanvas);
  document.addEventListener("resume", () => { watchLink(); if (!dash.taken && !ws) connect(); }); // a frozen page back
  window.addEventListener("online", () => { if (!dash.taken && !ws) connect(); });
}

// ---- start -------------------------------------------------------------------------------------------------------
function fail(e) {
  dash.error = e && e.message ? e.message.split("\n").slice(-2).join(" ") : String(e);
  status();
}

// The runtime and the firmware's files, loaded without the page (boot starts this before the page is parsed): the
// runtime's module and the bundle fetched at once (the page's preload links began both), MicroPython instantiated, the
// firmware's files written, /data restored from the browser's storage.
async function load(urls) {
  const [runtime, bundle] = await Promise.all([
    import(urls.runtime).then((m) => { performance.mark("seat:module"); return m; }),
    fetch(urls.firmware).then((r) => r.json()).then((b) => { performance.mark("seat:bundle"); return b; }),
  ]);
  performance.mark("seat:files"); // where a first frame's time goes (bench/seat_page_bench.py reads the marks)
  mp = await runtime.loadMicroPython({
    url: urls.wasm, heapsize: HEAP, linebuffer: false, stdin: readByte, stdout: writeBytes,
    stderr: (b) => console.warn(new TextDecoder().decode(b)),
  });
  performance.mark("seat:runtime");
  FS = mp.FS;
  const made = new Set(); // each folder made once: the runtime's mkdirTree throws (an Error, its stack taken) for
  // every folder on the way that is there already, some 100 of them at boot when called for each file
  for (const [path, data] of Object.entries(bundle.files)) {
    const folder = "/lib/" + path.slice(0, path.lastIndexOf("/"));
    if (!made.has(folder)) {
      FS.mkdirTree(folder);
      made.add(folder);
    }
    FS.writeFile("/lib/" + path, unb64(data)); // .mpy as on a Pico (or .py where the tablet has no mpy-cross)
  }
  restore();
  performance.mark("seat:firmware");
}

// Once the page's elements are all there (boot may run before the parser reached them)
function parsed() {
  if (document.readyState !== "loading") return Promise.resolve();
  return new Promise((resolve) => document.addEventListener("DOMContentLoaded", resolve, { once: true }));
}

export async function boot(urls) {
  // Before the first frame, an error means the dashboard did not start; after it, the firmware restarts by itself
  // (main.start_async) and a page script's slip is not the dashboard stopping.
  window.addEventListener("error", (e) => { if (!dash.booted) fail(e.error || e.message); });
  window.addEventListener("unhandledrejection", (e) => { if (!dash.booted) fail(e.reason); });
  performance.mark("seat:boot");
  const loaded = load(urls);
  loaded.catch(() => {}); // a failure is said below, once the page is there to say it
  await parsed();
  setupButtons();
  setupCanvas();
  status();
  try {
    await loaded;
    mp.registerJsModule("dashpage", dashpage);
    // For tests and the curious: the framebuffer the firmware drew, as hex (what the canvas must show).
    dash.fb = () => mp.pyimport("binascii").hexlify(board.buf).decode();
    dash.python = (code) => mp.runPython(code); // what a test runs inside (a fault to restart from)
    // Modules are looked for only where they are (the runtime's frozen ones, then /lib): each miss of the default
    // first entry (the current folder) is a failed stat, an exception thrown in the runtime's file system, some
    // 40 of them before the first frame. Through the runtime's objects, not Python source: every module is .mpy,
    // and source would be the only thing that needs MicroPython's compiler before the first frame (its WebAssembly
    // compiled at its first call, on a slow phone's one thread)
    const path = mp.pyimport("sys").path;
    path.clear();
    path.append(".frozen");
    path.append("/lib");
    webport = mp.pyimport("firmware.webport");
    webport.start();
    // The dashboard's start run now, to its first frame, in this task: on the loop's timer the browser would first
    // lay out and paint the page again (a slow phone's 100 ms and more)
    if (runReady) runReady();
    keepAwake();
    connect();
    setInterval(watchLink, 500);
  } catch (e) {
    fail(e);
  }
}

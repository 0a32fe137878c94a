// The phone's scanner: the rear camera read by zxing-cpp's WebAssembly build (vendored zxing-wasm, served by the
// board: nothing is fetched from elsewhere), each DataMatrix code posted to /api/scan as the USB scanner's would be.
// A code is entered once while it stays in view; it must leave the view (GONE_FRAMES frames without it) to count
// again. Each code's timings are kept in window.scanTimings (ms, the page's clock): the frame it was found in, the
// decode, and the board's answer.
"use strict";
(() => {
  const WASM = "/static/vendor/zxing-wasm/zxing_reader.wasm";
  const GONE_FRAMES = 4;  // decoded frames in a row without a code before it has left the view
  const WIDTH = 640;  // frames are decoded at most this wide: enough for a 10x10 DataMatrix held near
  const $ = (id) => document.getElementById(id);
  const present = new Map();  // code -> decoded frames since it was last seen
  const canvas = document.createElement("canvas");
  const context = canvas.getContext("2d", { willReadFrequently: true });
  let video = null;
  let track = null;
  let audio = null;
  let running = false;
  window.scanTimings = [];
  window.decodeTimes = [];

  ZXingWASM.prepareZXingModule({
    overrides: { locateFile: (path, prefix) => (path.endsWith(".wasm") ? WASM : prefix + path) },
    fireImmediately: true,
  });

  function show(card, words, error) {
    const box = $("result");
    box.classList.remove("ok", "refused", "flash");
    void box.offsetWidth;  // restart the flash
    box.classList.add(error ? "refused" : "ok", "flash");
    $("result-card").replaceChildren(card ? Crib.cardFace({ code: card, suit: card.slice(-1) }, { class: "card big" })
      : document.createTextNode(""));
    $("result-words").textContent = words;
  }

  function beep(good) {
    try {
      audio = audio || new AudioContext();
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = good ? 1320 : 220;
      gain.gain.value = 0.15;
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + (good ? 0.08 : 0.3));
    } catch (problem) { /* no sound on this phone: the flash and the words still say it */ }
    if (navigator.vibrate) navigator.vibrate(good ? 40 : [80, 60, 80]);
  }

  function named(entered) {
    if (!entered) return "";
    if (entered.length <= 3 && Crib.SUITS[entered.slice(-1)]) return entered.slice(0, -1) + Crib.SUITS[entered.slice(-1)];
    return entered.toUpperCase();
  }

  async function enter(code, timing) {
    try {
      const answer = await Crib.post("/api/scan", { text: code });
      timing.answered = performance.now();
      const card = answer.entered && Crib.SUITS[answer.entered.slice(-1)] ? answer.entered : null;
      const words = answer.error || answer.queued ? answer.message  // queued: the board is slow to answer
        : [fmt(_("{entered} entered"), { entered: named(answer.entered) || code }), answer.message].filter(Boolean).join(": ");
      timing.error = Boolean(answer.error);
      show(answer.error ? null : card, words, answer.error);
      beep(!answer.error);
    } catch (problem) {
      timing.answered = performance.now();
      timing.error = true;
      show(null, problem.message, true);
      beep(false);
      if (Crib.needsToken(problem)) $("locked").hidden = false;
    }
    window.scanTimings.push(timing);
  }

  async function decode(frameAt) {
    const scale = Math.min(1, WIDTH / video.videoWidth);
    canvas.width = Math.round(video.videoWidth * scale);
    canvas.height = Math.round(video.videoHeight * scale);
    context.drawImage(video, 0, 0, canvas.width, canvas.height);
    const pixels = context.getImageData(0, 0, canvas.width, canvas.height);
    const started = performance.now();
    const found = await ZXingWASM.readBarcodes(pixels, { formats: ["DataMatrix"], tryHarder: true, maxNumberOfSymbols: 4 });
    const decoded = performance.now();
    window.decodeTimes.push(decoded - started);
    const codes = new Set(found.filter((symbol) => symbol.isValid).map((symbol) => symbol.text));
    for (const [code, missed] of present) {
      if (codes.has(code)) continue;
      if (missed + 1 >= GONE_FRAMES) present.delete(code); else present.set(code, missed + 1);
    }
    for (const code of codes) {
      if (!present.has(code)) enter(code, { code, frame: frameAt, decoded });
      present.set(code, 0);
    }
  }

  function next() {
    if (!running) return;
    if (video.requestVideoFrameCallback) {
      video.requestVideoFrameCallback((now, frame) => step(frame.captureTime || now));
    } else {
      requestAnimationFrame((now) => step(now));
    }
  }

  async function step(frameAt) {
    try {
      if (video.videoWidth) await decode(frameAt);
    } catch (problem) {
      $("result-words").textContent = fmt(_("the decoder failed: {problem}"), { problem: problem.message || problem });
    }
    next();
  }

  async function start() {
    if (running) return;
    try {
      window.cameraAsked = performance.now();
      const stream = await navigator.mediaDevices.getUserMedia({
        audio: false, video: { facingMode: { ideal: "environment" }, width: { ideal: 1280 }, height: { ideal: 720 } },
      });
      video = $("video");
      video.srcObject = stream;
      await video.play();
      track = stream.getVideoTracks()[0];
      const can = track.getCapabilities ? track.getCapabilities() : {};
      $("torch").hidden = !can.torch;
      running = true;
      $("idle").hidden = true;
      $("start").textContent = _("Stop the camera");
      try { audio = audio || new AudioContext(); } catch (problem) { audio = null; }  // sound: allowed after a tap
      next();
    } catch (problem) {
      show(null, fmt(_("the camera could not start: {problem}"), { problem: problem.message || problem.name }), true);
    }
  }

  function stop() {
    running = false;
    if (track) track.stop();
    track = null;
    present.clear();
    $("torch").hidden = true;
    $("torch").setAttribute("aria-pressed", "false");
    $("idle").hidden = false;
    $("start").textContent = _("Start the camera");
  }

  async function torch() {
    const on = $("torch").getAttribute("aria-pressed") !== "true";
    try {
      await track.applyConstraints({ advanced: [{ torch: on }] });
      $("torch").setAttribute("aria-pressed", String(on));
    } catch (problem) {
      $("torch").hidden = true;
    }
  }

  async function secure() {
    const response = await fetch("/api/https");
    const found = await response.json();
    if (found.fingerprint) {
      $("fingerprint").textContent = fmt(_("This page's certificate (SHA-256): {fingerprint}"), { fingerprint: found.fingerprint });
    }
    if (!window.isSecureContext) {
      $("insecure").hidden = false;
      $("start").disabled = true;
      const link = $("secure-link");
      if (found.https) {
        const address = new URL(found.https);
        address.hostname = location.hostname;
        address.pathname = "/scan";
        link.href = address.href;
        link.textContent = address.href;
      } else {
        link.removeAttribute("href");
        link.textContent = _("turn it on with [web] https in the board's configuration");
      }
    }
  }

  $("start").addEventListener("click", () => (running ? stop() : start()));
  $("torch").addEventListener("click", torch);
  $("token-send").addEventListener("click", async () => {
    Crib.setToken($("token").value);
    try {
      await Crib.post("/api/token", {});
      $("locked").hidden = true;
      $("token-problem").textContent = "";
    } catch (problem) {
      $("token-problem").textContent = problem.message;
    }
  });
  document.addEventListener("visibilitychange", () => { if (document.hidden && running) stop(); });
  secure();
  fetch("/api/state").then(async (response) => {
    if (response.headers.get("X-Controls") !== "token") return;
    try { await Crib.post("/api/token", {}); } catch (problem) { $("locked").hidden = false; }
  });
  Crib.connect((snapshot) => { $("prompt").textContent = snapshot.prompt; }, (up) => {
    $("link").textContent = up ? _("live") : _("reconnecting…");
    $("link").classList.toggle("down", !up);
  });
})();

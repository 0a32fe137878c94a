// The phone's scanner: the rear camera read by zxing-cpp's WebAssembly build (vendored zxing-wasm, served by the
// board: nothing is fetched from elsewhere), each DataMatrix code posted to /api/scan as the USB scanner's would be.
// A code is entered once while it stays in view; it must leave the view (GONE_FRAMES frames without it) to count
// again. Each code's timings are kept in window.scanTimings (ms, the page's clock): the frame it was found in, the
// decode, and the board's answer.
// In the "plain cards" mode a frame goes to the board every CARD_FRAME_MS (after the board answered the last; the
// page's `?frame_ms=` sets another: the tests' phone sends as soon as the board has answered), which
// reads it with its card recognizer and enters a card held in view once; a card it is not sure of is asked about
// (OK, or choose the card): the question is the board's (its snapshot's `asking`), so it goes from every page when
// answered anywhere. Go, Undo, No cut and New game stand in for the command cards a plain deck lacks; under them the
// board's prompt, the scores and the deal's scores as said. "Teach the board your deck" photographs each of the 52
// cards, and the board learns them; a photo in which the board finds no card is taken again, and one whose card reads
// as another card is asked about: take it again, or keep it (a deck whose index the board misreads is taught so).
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
  let mode = "codes";  // "codes": DataMatrix read here; "cards": plain cards read by the board; "teach": the deck's photos
  const CARD_FRAME_MS = Math.max(0, Number(new URLSearchParams(location.search).get("frame_ms"))) || 250;
  const TEACH_WIDTH = 1280;  // a taught card's photo: sharper than a frame
  const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  const phone = Math.random().toString(36).slice(2, 12);
  let lastFrame = -Infinity;
  let asked = null;  // the card the board asks about
  let askedAt = { story: 0, held: 0, inputs: 0 };  // the story, the held cards and the inputs when it asked
  let answering = false;  // this phone has answered the question: the board's snapshot closes it
  let latest = null;  // the board's last snapshot
  let chosen = { rank: null, suit: null };
  let teaching = { codes: [], taken: new Set(), at: 0, doubt: null };  // doubt: the photo asked about, {code, looks}
  window.scanTimings = [];
  window.cardFrames = 0;
  window.cardTimes = [];  // each frame's round trip to the board and its reading (ms)
  window.decodeTimes = [];

  ZXingWASM.prepareZXingModule({
    overrides: { locateFile: (path, prefix) => (path.endsWith(".wasm") ? WASM : prefix + path) },
    fireImmediately: true,
  });

  const bigCard = (code) => "card big" + ("HD".includes(code.slice(-1)) ? " red" : "");  // hearts, diamonds in red

  function show(card, words, error, asking = false) {
    const box = $("result");
    box.classList.remove("ok", "refused", "doubtful", "flash");
    void box.offsetWidth;  // restart the flash
    box.classList.add(error ? "refused" : asking ? "doubtful" : "ok", "flash");
    $("result-card").replaceChildren(card ? Crib.cardFace({ code: card, suit: card.slice(-1) }, { class: bigCard(card) })
      : document.createTextNode(""));
    $("result-words").textContent = words;
    if (latest) boardLines(latest);
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

  function grab(width) {
    const scale = Math.min(1, width / video.videoWidth);
    canvas.width = Math.round(video.videoWidth * scale);
    canvas.height = Math.round(video.videoHeight * scale);
    context.drawImage(video, 0, 0, canvas.width, canvas.height);
  }

  function jpeg() { return new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.85)); }

  async function sendPicture(path, blob, extra = {}) {
    const headers = { "Content-Type": "image/jpeg", ...extra };
    if (Crib.token()) headers["X-Crib-Token"] = Crib.token();
    const response = await fetch(path, { method: "POST", headers, body: blob });
    let answer = {};
    try { answer = await response.json(); } catch (problem) { answer = {}; }
    if (!response.ok) {
      const problem = new Error(answer.error || fmt(_("the board answered {status}"), { status: response.status }));
      problem.status = response.status;  // what to do is read from the status, not the words
      throw problem;
    }
    return answer;
  }

  const payload = (code) => "C" + (code.startsWith("10") ? "T" : code.slice(0, -1)) + code.slice(-1);

  // --- plain cards: frames to the board, which enters a card held in view once ------------------------------------
  async function sendFrame(frameAt) {
    if (frameAt - lastFrame < CARD_FRAME_MS || !$("locked").hidden) return;  // no frames until the token is given
    lastFrame = frameAt;
    grab(WIDTH);
    const blob = await jpeg();
    const sent = performance.now();
    let answer;
    try {
      answer = await sendPicture("/api/cards/frame", blob, { "X-Crib-Phone": phone, "X-Crib-Frame-Time": String(Math.round(frameAt)) });
    } catch (problem) {
      show(null, problem.message, true);
      if (problem.status === 401) $("locked").hidden = false;
      return;
    } finally {
      window.cardFrames += 1;
    }
    window.cardTimes.push(performance.now() - sent);
    const code = answer.card;  // the card that came into view: entered, asked about or refused
    if (!code) return;
    const timing = { code, frame: frameAt, sent, answered: performance.now(), error: Boolean(answer.error),
      asking: Boolean(answer.asking) };
    window.scanTimings.push(timing);
    if (answer.asking) {  // the question itself comes with the board's snapshot (follow), to every page alike
      beep(true);
      return;
    }
    const words = answer.error ? answer.message
      : [fmt(_("{entered} entered"), { entered: named(answer.entered) }), answer.message].filter(Boolean).join(": ");
    show(answer.error ? null : answer.entered, words, answer.error);
    beep(!answer.error);
  }

  // The board's open question (`snapshot.asking`, a card, or null) as every view shows it: the panel is up while
  // the board asks, whoever answers (this phone, another, the board's keypad). When it closes, the story says
  // what became of the card: entered (played, the starter, cut, or held for the crib or a hand), or not.
  function follow(snapshot) {
    const code = snapshot.asking ? snapshot.asking.code : null;
    latest = snapshot;
    if (code && mode === "cards" && code !== asked) {
      askedAt = { story: snapshot.story.count, held: snapshot.held.length, inputs: snapshot.state.inputs };
      ask(code);
    } else if (!code && asked) {
      const card = asked;
      const mine = answering;  // this phone answered: its own answer says what became of it
      hideAsking();
      if (mine) return;
      const told = snapshot.story.facts.filter((f) => f.n > askedAt.story && f.card).map((f) => f.card.code);
      const held = snapshot.held.slice(askedAt.held).map((c) => c.code);
      const entered = [...told, ...held].pop();
      if (entered) show(entered, fmt(_("{entered} entered"), { entered: named(entered) }));
      else if (snapshot.state.inputs > askedAt.inputs) show(null, _("The card is entered"));  // the crib's last
      else show(card, fmt(_("{card}: not entered"), { card: named(card) }), true);
    }
  }

  // What the board waits for, and its message line (the OLED's, in this page's language) when it says more than
  // the prompt and the phone's own answer; while the phone asks about a card its question says it all, but for a
  // refusal (the next card shown elsewhere before the answer: "7♣ not entered: first answer about 10♥ ...").
  function boardLines(snapshot) {
    $("prompt").textContent = asked ? "" : snapshot.prompt;
    const said = snapshot.message;
    const more = said && (!asked || snapshot.error) && said !== snapshot.prompt
      && !$("result-words").textContent.includes(said);
    $("board-said").textContent = more ? said : "";
    $("board-said").classList.toggle("error", Boolean(more && snapshot.error));
    const state = snapshot.state;
    const over = state.phase === "game over" || state.phase === "match over";
    $("key-go").hidden = state.phase !== "play";
    $("key-new").hidden = !over;
    $("key-no-cut").hidden = state.phase !== "cut";  // OK while cutting for deal: the first player deals
    $("scan-sides").replaceChildren(...state.sides.map((side, i) => Crib.scoreLine(snapshot, side, i)));
    $("scan-scores").replaceChildren(...scoresSaid(snapshot).map((words) => Crib.el("li", {}, words)));
  }

  // The scores of this deal so far (the play's, then the show's; the last deal's until this one scores), the newest
  // first, as the board says them, with the running total: "Ann's crib: Ann pegs 4: 112".
  function scoresSaid(snapshot) {
    const facts = snapshot.story.facts;
    const deals = facts.flatMap((f, i) => (f.type === "deal" ? [i] : []));
    const since = (i) => facts.slice(i + 1).filter((f) => f.type === "scored");
    const now = since(deals.length ? deals[deals.length - 1] : -1);
    const scored = now.length ? now : since(deals.length > 1 ? deals[deals.length - 2] : -1);
    return scored.reverse().slice(0, 4).map((f) => {
      const side = snapshot.state.sides[f.side];
      return Crib.scoreWords(f, f.total, side ? side.name : "");
    });
  }

  function ask(code) {
    asked = code;
    answering = false;
    $("asking-ok").disabled = false;
    show(code, fmt(_("Is it {card}? Tap OK, or choose the card"), { card: named(code) }), false, true);
    chosen = { rank: code.slice(0, -1), suit: code.slice(-1) };
    $("asking-ok").textContent = fmt(_("OK: {card}"), { card: named(code) });
    $("asking").hidden = false;
    drawChoice();
  }

  function hideAsking() {
    asked = null;
    answering = false;
    $("asking").hidden = true;
    $("choose").hidden = true;
    $("asking-choose").setAttribute("aria-expanded", "false");
  }

  function drawChoice() {
    const pick = (key, value) => () => { chosen[key] = value; drawChoice(); };
    $("choose-ranks").replaceChildren(...RANKS.map((rank) => Crib.el("button", {
      "aria-pressed": String(chosen.rank === rank), onclick: pick("rank", rank) }, rank)));
    $("choose-suits").replaceChildren(...Object.entries(Crib.SUITS).map(([suit, symbol]) => Crib.el("button", {
      class: suit === "H" || suit === "D" ? "red" : "", "aria-pressed": String(chosen.suit === suit),
      "aria-label": symbol, onclick: pick("suit", suit) }, symbol)));
    const card = chosen.rank && chosen.suit ? chosen.rank + chosen.suit : null;
    $("choose-enter").disabled = !card;
    $("choose-enter").textContent = card ? fmt(_("Enter {card}"), { card: named(card) }) : _("Enter the card");
  }

  async function answerAsked(code) {  // the panel closes when the board's snapshot says the question is answered
    answering = true;
    $("asking-ok").disabled = true;
    $("choose-enter").disabled = true;
    const timing = { code, frame: performance.now(), decoded: performance.now(), confirmed: true };
    await enter(payload(code), timing);
    if (timing.error && asked) {  // refused, or never reached the board: the person answers again
      $("asking-ok").disabled = false;
      drawChoice();
    }
  }

  // GO, UNDO, OK (no cut) and NEW GAME, which a plain deck has no card for: entered as the phone's scanned command
  // cards are (`code`: the card's payload), answered with the board's words, else `done`.
  async function command(code, done) {
    try {
      const answer = await Crib.post("/api/scan", { text: code });
      show(null, answer.message || done, answer.error);
      beep(!answer.error);
    } catch (problem) {
      show(null, problem.message, true);
      beep(false);
      if (Crib.needsToken(problem)) $("locked").hidden = false;
    }
  }

  // --- teaching the board a deck: one photo of each card ----------------------------------------------------------
  function drawTeaching(words) {
    const { codes, taken, doubt } = teaching;
    const code = codes[teaching.at];
    $("teach-progress").value = taken.size;
    $("teach-count").textContent = fmt(_("{done}/{all}"), { done: taken.size, all: codes.length });
    $("teach-card").replaceChildren(code ? Crib.cardFace({ code, suit: code.slice(-1) }, { class: bigCard(code) }) : "");
    $("teach-words").textContent = words || (doubt ? doubtWords(doubt)
      : code ? fmt(_("Hold up {card}, alone, face to the camera"), { card: named(code) })
        : _("Every card is photographed: the board can learn the deck"));
    $("teach-walk").hidden = Boolean(doubt);  // asked about a photo: take it again, or keep it
    $("teach-doubt").hidden = !doubt;
    $("teach-take").disabled = !code || !running;
    $("teach-again").disabled = !running;
    $("teach-retake").disabled = teaching.at === 0 && !taken.has(codes[0]);
    $("teach-learn").hidden = taken.size < codes.length || Boolean(doubt);
  }

  // A photo kept whose card the board reads as another card (or as none): the finder may have taken part of it.
  const doubtWords = ({ code, looks }) => (looks
    ? fmt(_("That looks like {other} to the board: take it again, or keep it"), { other: named(looks) })
    : fmt(_("The board cannot read {card} in that photo: take it again, or keep it"), { card: named(code) }));

  async function startTeaching() {
    try {
      const response = await fetch("/api/cards/deck");
      const found = await response.json();
      if (!response.ok) throw new Error(found.error);
      teaching = { codes: found.codes, taken: new Set(found.taken), at: 0, doubt: null };
      const first = found.codes.findIndex((code) => !teaching.taken.has(code));
      teaching.at = first < 0 ? found.codes.length : first;
    } catch (problem) {
      show(null, problem.message, true);
      return;
    }
    setMode("teach");
    if (!running) await start();
    drawTeaching();
  }

  async function takePhoto() {
    const code = teaching.codes[teaching.at];
    if (!code || !video || !video.videoWidth) return;
    grab(TEACH_WIDTH);
    let answer;
    try {
      answer = await sendPicture(`/api/cards/deck/${code}`, await jpeg());
    } catch (problem) {  // no card found: nothing kept, the same card asked for again
      drawTeaching(problem.message);
      beep(false);
      return;
    }
    teaching.taken.add(code);
    teaching.doubt = answer.confirmed ? null : { code, looks: answer.looks };
    beep(answer.confirmed);
    if (answer.confirmed) nextCard(); else drawTeaching();
  }

  function nextCard() {  // the next card not photographed after this one, else the first, else done
    teaching.doubt = null;
    const next = teaching.codes.findIndex((other, index) => index > teaching.at && !teaching.taken.has(other));
    const any = teaching.codes.findIndex((other) => !teaching.taken.has(other));
    teaching.at = next >= 0 ? next : any >= 0 ? any : teaching.codes.length;
    drawTeaching();
  }

  function retake() {
    teaching.at = Math.max(0, teaching.at - 1);
    drawTeaching();
  }

  async function learnDeck() {
    $("teach-learn").disabled = true;
    drawTeaching(_("The board is learning your deck…"));
    try {
      await Crib.post("/api/cards/learn", {});
      drawTeaching(_("The board knows your deck now: its cards are read by it from here on"));
      beep(true);
    } catch (problem) {
      drawTeaching(problem.message);
      beep(false);
    }
    $("teach-learn").disabled = false;
  }

  function setMode(next) {
    mode = next;
    document.body.dataset.mode = mode;
    const cards = mode !== "codes";
    $("mode-codes").setAttribute("aria-pressed", String(!cards));
    $("mode-cards").setAttribute("aria-pressed", String(cards));
    $("idle").hidden = running || cards;
    $("idle-cards").hidden = running || !cards;
    $("teach").hidden = mode !== "teach";
    $("teach-start-row").hidden = mode !== "cards";
    $("table-keys").hidden = mode !== "cards";  // plain cards have no GO or UNDO card to show
    present.clear();
    if (mode !== "cards") hideAsking();
    else if (latest) follow(latest);  // a question the board is asking now
  }

  async function decode(frameAt) {
    grab(WIDTH);
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
      if (video.videoWidth && mode === "codes") await decode(frameAt);
      else if (video.videoWidth && mode === "cards") await sendFrame(frameAt);
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
      $("idle-cards").hidden = true;
      if (mode === "teach") drawTeaching();
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
    $("start").textContent = _("Start the camera");
    setMode(mode);
    if (mode === "teach") drawTeaching();
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
  $("mode-codes").addEventListener("click", () => setMode("codes"));
  $("mode-cards").addEventListener("click", () => setMode("cards"));
  $("asking-ok").addEventListener("click", () => asked && answerAsked(asked));
  $("asking-choose").addEventListener("click", () => {
    const open = $("choose").hidden;
    $("choose").hidden = !open;
    $("asking-choose").setAttribute("aria-expanded", String(open));
    if (open) $("choose").scrollIntoView({ block: "end" });  // above the camera's button, all of it
  });
  $("choose-enter").addEventListener("click", () => chosen.rank && chosen.suit && answerAsked(chosen.rank + chosen.suit));
  $("key-go").addEventListener("click", () => command("XG", _("Go said")));
  $("key-undo").addEventListener("click", () => command("XU", ""));
  $("key-new").addEventListener("click", () => command("XN", _("A new game")));
  $("key-no-cut").addEventListener("click", () => command("XO", ""));
  $("teach-start").addEventListener("click", startTeaching);
  $("teach-take").addEventListener("click", takePhoto);
  $("teach-retake").addEventListener("click", retake);
  $("teach-again").addEventListener("click", takePhoto);
  $("teach-keep").addEventListener("click", nextCard);
  $("teach-learn").addEventListener("click", learnDeck);
  $("teach-close").addEventListener("click", () => setMode("cards"));
  if (new URLSearchParams(location.search).get("mode") === "cards") setMode("cards");
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
  Crib.connect((snapshot) => {
    follow(snapshot);
    boardLines(snapshot);
  }, (up) => {
    $("link").textContent = up ? _("live") : _("reconnecting…");
    $("link").classList.toggle("down", !up);
  });
})();

// The board page: the board, the deal, your hand in a game against the computer, and the controls.
"use strict";

(() => {
  const { el, cardFace, cardBack, post } = Crib;
  const $ = (id) => document.getElementById(id);
  const KEYS = [["1", "2", "3", "A"], ["4", "5", "6", "B"], ["7", "8", "9", "C"], ["*", "0", "#", "D"]];
  const KEY_TEXT = { "1": "1 A♣", "2": "2 ♦", "3": "3 ♥", "4": "4 ♠", "*": "* JQK", "0": "0 10", "#": "# PEG",
    A: _("GO"), B: _("UNDO"), C: _("OK"), D: _("MENU") };
  const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  let latest = null;
  let chosen = [];
  let controls = true;
  let sortOrder = localStorage.getItem("crib-sort") || "asc";
  let handFocus = null; // the card (its code) the keyboard was last on: kept when the hand is drawn again

  let pageSaid = null; // what the page itself told the person, and the board's message it was said over

  function say(text, error = false) {
    const box = $("message");
    box.textContent = text;
    box.classList.toggle("error", error);
  }

  // The page's own word to the person stays until the board says something new or the person acts again: an
  // update that changes nothing the person did (a computer player laying away) does not wipe it.
  function sayHere(text) {
    pageSaid = { text, over: latest ? latest.message : "" };
    say(text, true);
  }

  async function send(path, body) {
    pageSaid = null;
    try {
      await post(path, body);
    } catch (problem) {
      sayHere(problem.message);
      if (Crib.needsToken(problem)) showLocked(true);
    }
  }
  // An entry from the page; GO while your cards are still to be laid away says what to do instead.
  function entry(text) {
    const you = latest && latest.you;
    if (you && you.dealt.length && text === "go") {
      sayHere(fmt(ngettext("Lay away {n} card first: choose it in your hand", "Lay away {n} cards first: choose them in your hand",
        you.discard_size), { n: you.discard_size }));
      return;
    }
    send("/api/entry", { text });
  }

  function showLocked(locked) {
    controls = !locked;
    $("locked").hidden = !locked;
    $("controls").classList.toggle("disabled", locked);
  }

  function sorted(cards) {
    if (sortOrder === "none") return cards;
    const order = (card) => RANKS.indexOf(card.code.slice(0, -1)) * 4 + "CDHS".indexOf(card.suit);
    const out = [...cards].sort((a, b) => order(a) - order(b));
    return sortOrder === "desc" ? out.reverse() : out;
  }

  function render(snapshot) {
    latest = snapshot;
    const state = snapshot.state;
    const you = snapshot.you;
    const show = you && you.show;
    const record = show ? state.deals[show.deal - 1] : null;  // the deal on show (the state has moved on)
    document.body.dataset.inputs = String(state.inputs);
    document.body.classList.toggle("versus", Boolean(you));
    Crib.drawBoard($("board"), snapshot);
    $("sides").replaceChildren(...state.sides.map((side, i) => Crib.scoreLine(snapshot, side, i, record ? record.dealer : state.dealer)));
    $("prompt").textContent = snapshot.prompt;
    if (pageSaid && snapshot.message !== pageSaid.over) pageSaid = null;
    if (pageSaid) say(pageSaid.text, true);
    else say(snapshot.message, snapshot.error);
    $("oled").src = snapshot.oled;
    const screen = snapshot.screen;  // its words whole, where the picture shows a page at a time
    $("oled").alt = _("the board's screen") + ": " + [...(screen.body || []), screen.error || screen.prompt || ""]
      .map((line) => line.trim()).filter(Boolean).join("; ");
    document.querySelector(".camera").hidden = Boolean(you);  // no scanning in a game against the computer
    $("count").textContent = String(state.count);
    renderPlayed(snapshot);
    $("starter").replaceChildren(state.starter ? cardFace(state.starter) : "–");
    $("turn").textContent = !state.turn ? "–" : you && state.turn === you.person ? _("you") : state.turn;
    const backs = you ? Array.from({ length: you.crib_in }, cardBack) : [];  // laid away, face down
    $("crib").replaceChildren(...(state.crib ? state.crib.map((c) => cardFace(c)) :
      snapshot.held.length ? snapshot.held.map((c) => cardFace(c)) : backs.length ? backs : ["–"]));
    const [events, earlier] = Crib.recentEvents(state);
    $("said-title").textContent = earlier && events.length ? _("Scores as said, last deal") : _("Scores as said");
    $("said").replaceChildren(...events.slice().reverse().map(Crib.eventItem));
    renderOthers(snapshot);
    renderYou(snapshot);
    Show.render(snapshot);
    document.body.classList.toggle("showing", !$("show").hidden);  // the show takes the table's place
    placeFocus();
    Crib.announce($("announce"), snapshot);
  }

  // The cards played this deal, each with who played it; those of the count now in front, the earlier ones
  // greyed; and the computer's last card.
  function renderPlayed(snapshot) {
    const state = snapshot.state;
    const you = snapshot.you;
    const now = state.played.length - state.pile.length;
    const who = (player) => (you && player === you.person ? _("you") : player);
    $("played").replaceChildren(...(state.played.length ? state.played.map((p, i) => el("span", { class: "play" + (i < now ? " done" : "") },
      cardFace(p.card), el("span", { class: "who" }, who(p.player)))) : ["–"]));
    const last = Crib.lastCard(snapshot);
    $("last-card").replaceChildren(...(last ? [fmt(_("{player}'s last card:"), { player: last.player }) + " ", cardFace(last.card),
      last.count !== null ? " " + fmt(_("for {count}"), { count: last.count }) : ""] : []));
  }

  function renderOthers(snapshot) {
    const state = snapshot.state;
    const you = snapshot.you;
    const rows = [];
    if (you) {
      for (const name of you.computers) {
        const shown = state.hands_shown[name];
        const left = state.cards_left[name];
        const cards = shown ? shown.map((c) => cardFace(c)) : Array.from({ length: left ?? 0 }, cardBack);
        if (!cards.length) continue;  // no name alone: nothing in hand before the play, nor after the last card
        rows.push(el("div", { class: "row" }, el("span", { class: "label" }, name), el("span", { class: "cards" }, cards)));
      }
    } else {
      for (const [name, cards] of Object.entries(state.hands_shown)) {
        rows.push(el("div", { class: "row" }, el("span", { class: "label" }, name), el("span", { class: "cards" }, cards.map((c) => cardFace(c)))));
      }
    }
    $("others").replaceChildren(...rows);
  }

  function renderYou(snapshot) {
    const you = snapshot.you;
    $("you").hidden = !you;
    if (!you) return;
    const state = snapshot.state;
    $("you-name").textContent = fmt(_("{person} against {computers}"), { person: you.person, computers: you.computers.join(", ") });
    const discarding = you.dealt.length > 0;
    const claim = you.must_claim ? snapshot.claiming : null;
    const cards = discarding ? you.dealt : you.held;
    chosen = chosen.filter((code) => cards.some((c) => c.code === code));
    if (discarding) {
      const n = you.discard_size;
      $("you-hint").textContent = state.dealer === you.person
        ? (n === 1 ? _("Lay away one card to your crib: choose it") : _("Lay away two cards to your crib: choose them"))
        : fmt(n === 1 ? _("Lay away one card to {dealer}'s crib: choose it") : _("Lay away two cards to {dealer}'s crib: choose them"),
              { dealer: state.dealer });
    } else if (you.playable.length) {
      $("you-hint").textContent = _("Your turn: choose a card to play");
    } else if (you.can_go) {
      $("you-hint").textContent = _("No card fits under 31: say go");
    } else if (state.phase === "game over" && state.rules.match_target && state.match_winner === null) {
      $("you-hint").textContent = snapshot.prompt + ". " + _("Next game of the match deals the next game");
    } else if (state.phase === "game over" || state.phase === "match over") {
      $("you-hint").textContent = snapshot.prompt + ". " + _("Play again deals a new game with the same settings");
    } else if (you.must_claim) {
      $("you-hint").textContent = claim && claim.kind === "crib"
        ? _("Count your crib and claim it: the computer takes what you miss")
        : _("Count your hand and claim it: the computer takes what you miss");
    } else {
      $("you-hint").textContent = snapshot.prompt;
    }
    $("claim-box").hidden = !you.must_claim;
    if (claim) {  // the cards to count face up, as at the table: the hand (or the crib) and the starter
      const face = (card, starter) => cardFace(card, { class: `card big${card.suit === "H" || card.suit === "D" ? " red" : ""}${starter ? " starter" : ""}` });
      $("hand").replaceChildren(...sorted(claim.cards).map((card) => face(card, false)), face(claim.starter, true));
      $("go").hidden = true;
      $("go").disabled = true;  // else a Go just pressed would keep the keyboard off the count's box
      $("feedback").textContent = you.feedback;
      $("you-said").textContent = you.said;
      return;
    }
    $("hand").replaceChildren(...sorted(cards).map((card) => {
      const playable = you.playable.includes(card.code);
      const active = discarding || playable;
      return cardFace(card, {
        role: "button", tabindex: active ? "0" : "-1",
        class: `card big${card.suit === "H" || card.suit === "D" ? " red" : ""}${chosen.includes(card.code) ? " chosen" : ""}${active ? " active" : " idle"}`,
        "aria-disabled": active ? "false" : "true", "aria-pressed": discarding ? String(chosen.includes(card.code)) : false,
        "aria-label": Crib.cardName(card),
        onclick: () => clickCard(card, discarding, playable, you.discard_size),
        onkeydown: (event) => cardKey(event, card, discarding, playable, you.discard_size),
      });
    }));
    $("go").hidden = false;
    $("go").disabled = !you.can_go;
    $("feedback").textContent = you.feedback;
    $("you-said").textContent = you.said;
  }

  // The keyboard: Enter or Space plays (or lays away) the card in focus, the arrows move along the hand.
  function cardKey(event, card, discarding, playable, size) {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      clickCard(card, discarding, playable, size);
    } else if (["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(event.key)) {
      event.preventDefault();
      const cards = [...$("hand").querySelectorAll(".card.active")];
      const at = cards.indexOf(event.currentTarget);
      const step = event.key === "ArrowLeft" || event.key === "ArrowUp" ? -1 : 1;
      const next = event.key === "Home" ? 0 : event.key === "End" ? cards.length - 1 : (at + step + cards.length) % cards.length;
      if (cards[next]) cards[next].focus();
    }
  }

  // Focus is never lost to the page's body. While the show is up, Continue (or Play again) has it; after the
  // hand is drawn again the keyboard stays where it was: the same card, else the first one that can be played,
  // else GO when it is the only move, else the hand itself. Focus elsewhere on the page (the controls) stays,
  // unless what had it is gone.
  const shown = (id) => !$(id).hidden && $(id).offsetParent !== null;
  function placeFocus() {
    const at = document.activeElement;
    const lost = !at || at === document.body || !at.isConnected || at.disabled || at.offsetParent === null;
    const onTable = at && at.closest && at.closest("#you, #show");
    const next = ["show-continue", "play-again", "next-game"].find(shown);
    if (next) {
      if ((lost || onTable) && at !== $(next)) $(next).focus();
      return;
    }
    if ((!lost && !onTable) || $("you").hidden) return;
    const active = [...$("hand").querySelectorAll(".card.active")];
    const target = active.find((c) => c.dataset.card === handFocus) || active[0] || (!$("go").disabled ? $("go") :
      !$("claim-box").hidden ? $("claim") : $("hand"));
    if (document.activeElement !== target) target.focus();
  }

  function clickCard(card, discarding, playable, size) {
    if (!controls) return;
    if (discarding) {
      chosen = chosen.includes(card.code) ? chosen.filter((c) => c !== card.code) : [...chosen, card.code];
      if (chosen.length === size) {
        const cards = chosen;
        chosen = [];
        send("/api/discard", { cards });
      } else {
        render(latest);
      }
    } else if (playable) {
      entry(card.code);
    }
  }

  // A card from the picker: in a game against the computer's lay-away it is chosen from your hand, else entered.
  function pick(code) {
    const you = latest && latest.you;
    const card = you && you.dealt.find((c) => c.code === code);
    if (you && you.dealt.length) {
      if (card) clickCard(card, true, false, you.discard_size);
      else sayHere(fmt(_("{card} is not in your hand: lay away from the cards dealt to you"), { card: code }));
      return;
    }
    entry(code);
  }

  function buildControls() {
    document.addEventListener("focusin", (event) => {
      const card = event.target.closest && event.target.closest("#hand .card");
      // from Continue the keyboard goes back to the hand once the next deal is dealt
      if (card) handFocus = card.dataset.card;
    });
    for (const button of document.querySelectorAll("[data-entry]")) {
      button.addEventListener("click", () => entry(button.dataset.entry));
    }
    $("go").addEventListener("click", () => entry("go"));
    $("you-undo").addEventListener("click", () => entry("undo"));  // beside the hand: on a phone UNDO is far below
    $("claim-send").addEventListener("click", () => entry(`claim ${$("claim").value || 0}`));
    $("sort").value = sortOrder;
    $("sort").addEventListener("change", () => {
      sortOrder = $("sort").value;
      localStorage.setItem("crib-sort", sortOrder);
      if (latest) render(latest);
    });
    $("keypad").replaceChildren(...KEYS.flat().map((key) =>
      el("button", { "data-key": key, onclick: () => send("/api/key", { key }) }, KEY_TEXT[key] || key)));
    let rank = "";
    const ranks = el("div", { class: "ranks" }, RANKS.map((r) => el("button", {
      "data-rank": r, onclick: (event) => {
        rank = r;
        for (const b of ranks.children) b.classList.toggle("chosen", b === event.target);
      },
    }, r)));
    const suits = el("div", { class: "suits" }, Object.entries(Crib.SUITS).map(([s, symbol]) => el("button", {
      "data-suit": s, class: s === "H" || s === "D" ? "red" : "", onclick: () => { if (rank) pick(rank + s); },
    }, symbol)));
    $("picker").replaceChildren(ranks, suits);
    const person = $("computer-form").elements.person;
    if (person.value === "Guest") person.value = _("Guest");  // the name a guest plays under, in the page's language
    // Opened, the form offers the game on the table: its player's name and its length (which the board hosts).
    $("new-game").addEventListener("toggle", () => {
      const fields = $("computer-form").elements;
      if (!$("new-game").open || !latest) return;
      if (latest.you) fields.person.value = latest.you.person;
      const target = String(latest.state.rules.target);
      if ([...fields.target.options].some((option) => option.value === target)) fields.target.value = target;
    });
    // A game the board refuses is said beside the form, which stays open to change it.
    $("computer-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      const form = new FormData(event.target);
      const levels = ["level1", "level2", "level3"].map((k) => form.get(k)).filter(Boolean);
      const feedback = form.get("feedback");
      try {
        await post("/api/computer-game", {
          person: form.get("person"), levels, target: Number(form.get("target")), match: Number(form.get("match")),
          muggins: form.get("muggins") === "on", feedback: feedback === "" ? null : feedback === "on",
          seed: Math.floor(Math.random() * 1e9),
        });
      } catch (problem) {
        $("computer-problem").textContent = problem.message;
        $("computer-problem").scrollIntoView({ block: "nearest" });
        if (Crib.needsToken(problem)) showLocked(true);
        return;
      }
      $("computer-problem").textContent = "";
      $("new-game").open = false;
      $("hand").focus();  // the new game's cards come to the hand
    });
    $("token-send").addEventListener("click", async () => {
      Crib.setToken($("token").value);
      try {
        await post("/api/token", {});
        showLocked(false);
        $("token-problem").textContent = "";
      } catch (problem) {
        $("token-problem").textContent = problem.message;
      }
    });
  }

  async function checkControls() {
    const response = await fetch("/api/state");
    if (response.headers.get("X-Controls") === "token") {
      try { await post("/api/token", {}); showLocked(false); } catch (problem) { showLocked(true); }
    }
  }

  buildControls();
  checkControls();
  Crib.connect(render, (up) => {
    $("link").textContent = up ? _("live") : _("reconnecting…");
    $("link").classList.toggle("down", !up);
  });
})();
